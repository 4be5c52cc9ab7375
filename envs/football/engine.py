"""Football's engine config and names; the buffers and views are core's BatchEngine."""
from __future__ import annotations

from trackfield import _engine
import dataclasses
import os

from trackfield.core.dumps import EpisodeRecorder
from trackfield.core.engine import BatchEngine
from trackfield.football.config import FootballConfig
from trackfield.football.scenarios import Scenario

_fb = _engine.football

REWARD_COMPONENT_NAMES = ("scoring", "checkpoints")
ACTION_NAMES = ("idle", "left", "top_left", "top", "top_right", "right", "bottom_right", "bottom",
                "bottom_left", "long_pass", "high_pass", "short_pass", "shot", "sprint",
                "release_direction", "release_sprint", "sliding", "dribble", "release_dribble")
# GRF's action sets (gfootball/env/football_action_set.py): v2 appends builtin_ai, full
# appends the rest in GRF's order. Indices of the shared prefix never change.
ACTION_SET_NAMES = {
    "default": ACTION_NAMES,
    "v2": ACTION_NAMES + ("builtin_ai",),
    "full": ACTION_NAMES + ("builtin_ai", "keeper_rush", "pressure", "team_pressure", "switch",
                            "release_long_pass", "release_high_pass", "release_short_pass", "release_shot",
                            "release_keeper_rush", "release_sliding", "release_pressure",
                            "release_team_pressure", "release_switch"),
}
# The raw observation's sticky_actions entries, in GRF's order for each set.
STICKY_ACTION_NAMES = {
    "default": ACTION_NAMES[1:9] + ("sprint", "dribble"),
    "v2": ACTION_NAMES[1:9] + ("sprint", "dribble"),
    "full": ACTION_NAMES[1:9] + ("sprint", "dribble", "keeper_rush", "pressure", "team_pressure"),
}
GAME_MODE_NAMES = ("normal", "kickoff", "goal_kick", "free_kick", "corner", "throw_in", "penalty")


def engine_config(scenario: Scenario, config: FootballConfig):
    """The C++ EnvConfig: scenario (with the user's overrides) plus control and rewards."""
    cfg = _fb.EnvConfig()
    left = config.number_of_left_players_agent_controls
    right = config.number_of_right_players_agent_controls
    for parity, built in enumerate(scenario.by_parity):
        for name, value in config.overrides().items():
            setattr(built, name, value)
        for team, n_agents, side in ((0, left, "left"), (1, right, "right")):
            if n_agents > built.num_players(team):
                raise ValueError(f"number_of_{side}_players_agent_controls={n_agents} but scenario "
                                 f"{scenario.name!r} has {built.num_players(team)} {side} players")
        cfg.set_scenario(parity, built)
    cfg.left_agents = left
    cfg.right_agents = right
    cfg.representation = _fb.REPRESENTATIONS[config.representation]
    cfg.stack = 4 if config.stacked else 1
    cfg.channel_width, cfg.channel_height = config.channel_dimensions
    cfg.scoring_weight = 1.0
    cfg.checkpoint_weight = 1.0 if "checkpoints" in config.reward_components else 0.0
    cfg.action_set = _fb.ACTION_SETS[config.action_set]
    cfg.teammate_ai = config.teammate_ai
    return cfg


def agent_names(config: FootballConfig) -> list:
    """``left_0 .. left_{L-1}, right_0 .. right_{R-1}``: the agents in slot order."""
    left = config.number_of_left_players_agent_controls
    right = config.number_of_right_players_agent_controls
    return [f"left_{i}" for i in range(left)] + [f"right_{i}" for i in range(right)]


def make_engine(scenario: Scenario, config: FootballConfig, num_envs: int = 1, num_threads: int = 1,
                autoreset: bool = False) -> BatchEngine:
    """A C++ football batch of ``num_envs`` worlds and its buffers."""
    cfg = engine_config(scenario, config)
    obs_fields = None
    if config.representation == "raw":
        left, right = config.number_of_left_players_agent_controls, config.number_of_right_players_agent_controls
        sc = scenario.by_parity[0]
        if left > 0 and right > 0 and sc.num_players(0) != sc.num_players(1):
            raise ValueError("representation='raw' with agents on both teams needs equal team sizes "
                             "(each agent sees its own team as 'left_team')")
        own = 0 if left > 0 else 1
        obs_fields = _fb.raw_fields(sc.num_players(own), sc.num_players(1 - own), cfg.action_set)
    engine = BatchEngine(_fb, cfg, num_envs=num_envs, num_threads=num_threads, autoreset=autoreset,
                         obs_fields=obs_fields)
    names = agent_names(config)
    engine.agent_name = lambda k: f"agent {names[k]!r} (action_set={config.action_set!r})"
    return engine


def football_recorder(scenario: Scenario, config: FootballConfig, engine: BatchEngine) -> EpisodeRecorder:
    """Episode dumps (``write_full_episode_dumps=True``) into ``config.logdir``."""
    from trackfield.football.scenarios import resolve_scenario_path

    settings = {k: v for k, v in dataclasses.asdict(config).items()
                if k not in ("render_mode", "write_full_episode_dumps", "logdir")}
    shipped = os.path.dirname(resolve_scenario_path("academy_empty_goal_close"))
    source = None
    if os.path.dirname(os.path.abspath(scenario.path)) != os.path.abspath(shipped):
        with open(scenario.path) as f:
            source = f.read()
    name = scenario.name if source is None else os.path.basename(scenario.path)
    return EpisodeRecorder(os.fspath(config.logdir), "football", name, source, settings,
                           [item[0] for item in engine.world_info_fields.items])
