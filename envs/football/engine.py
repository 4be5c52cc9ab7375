"""The Python side of a football batch: buffers allocated once, spaces, and views.

Single envs, vector envs and the PettingZoo adapter all sit on this: a C++ batch of
worlds that reads ``actions`` and writes every other buffer in place.
"""
from __future__ import annotations

import os

import numpy as np
from gymnasium import spaces

from trackfield import _engine
from trackfield.core.spaces import FieldSlicer, dict_space
from trackfield.football.config import FootballConfig
from trackfield.football.scenarios import Scenario

_fb = _engine.football

REWARD_COMPONENT_NAMES = ("scoring", "checkpoints")
EPISODE_STAT_NAMES = ("return", "length", "score_left", "score_right")
ACTION_NAMES = ("idle", "left", "top_left", "top", "top_right", "right", "bottom_right", "bottom",
                "bottom_left", "long_pass", "high_pass", "short_pass", "shot", "sprint",
                "release_direction", "release_sprint", "sliding", "dribble", "release_dribble")
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
    cfg.scoring_weight = 1.0
    cfg.checkpoint_weight = 1.0 if "checkpoints" in config.reward_components else 0.0
    return cfg


def default_threads() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


class FootballEngine:
    """A C++ football batch of ``num_envs`` worlds and the numpy buffers it writes."""

    def __init__(self, scenario: Scenario, config: FootballConfig, num_envs: int = 1,
                 num_threads: int = 1, autoreset: bool = False):
        self.scenario = scenario
        self.config = config
        self.num_envs = num_envs
        self.num_agents = config.num_agents
        cfg = engine_config(scenario, config)
        n, a = num_envs, self.num_agents
        sc = scenario.by_parity[0]
        left, right = config.number_of_left_players_agent_controls, config.number_of_right_players_agent_controls
        self.raw_fields = None
        if config.representation == "raw":
            own = 0 if left > 0 else 1
            if left > 0 and right > 0 and sc.num_players(0) != sc.num_players(1):
                raise ValueError("representation='raw' with agents on both teams needs equal team sizes "
                                 "(each agent sees its own team as 'left_team')")
            self.raw_fields = _fb.raw_fields(sc.num_players(own), sc.num_players(1 - own))
            self._slicer = FieldSlicer(self.raw_fields)
            frame_shape, dtype = (self._slicer.size,), np.float32
        elif config.representation == "simple115v2":
            frame_shape, dtype = (_fb.SIMPLE115_SIZE * cfg.stack,), np.float32
        else:
            h, w, c = _fb.SMM_SHAPE
            frame_shape, dtype = (h, w, c * cfg.stack), np.uint8
        self.agent_buffer_shape = frame_shape
        self.obs = np.zeros((n, a) + frame_shape, dtype=dtype)
        self.final_obs = np.zeros_like(self.obs)
        self.actions = np.zeros((n, a), dtype=np.int32)
        self.rewards = np.zeros((n, a), dtype=np.float32)
        self.reward_components = np.zeros((n, a, _fb.NUM_REWARD_COMPONENTS), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.episode_stats = np.zeros((n, _fb.NUM_EPISODE_STATS), dtype=np.float32)
        self.status = np.zeros((n, _fb.NUM_STATUS), dtype=np.int32)
        self.batch = _fb.Batch(cfg, n, num_threads, autoreset, self.obs, self.final_obs, self.actions,
                               self.rewards, self.reward_components, self.terminated, self.truncated,
                               self.episode_stats, self.status)
        self.observation_space = self._world_space()
        self.action_space = spaces.Discrete(19) if a == 1 else spaces.MultiDiscrete([19] * a)

    def _world_space(self):
        """The observation space of one world (all its agents)."""
        a = self.num_agents
        lead = () if a == 1 else (a,)
        if self.raw_fields is not None:
            return dict_space(self.raw_fields, lead)
        if self.config.representation == "simple115v2":
            return spaces.Box(-np.inf, np.inf, lead + self.agent_buffer_shape, np.float32)
        return spaces.Box(0, 255, lead + self.agent_buffer_shape, np.uint8)

    def world_obs(self, source: np.ndarray, i: int):
        """World i's observation in its public form (a copy)."""
        rows = source[i]
        if self.raw_fields is not None:
            return self._slicer.split(rows[0] if self.num_agents == 1 else rows,
                                      () if self.num_agents == 1 else (self.num_agents,))
        return rows[0].copy() if self.num_agents == 1 else rows.copy()

    def batch_obs(self, source: np.ndarray):
        """Every world's observation, batched (a copy)."""
        if self.raw_fields is not None:
            lead = (self.num_envs,) if self.num_agents == 1 else (self.num_envs, self.num_agents)
            rows = source[:, 0] if self.num_agents == 1 else source
            return self._slicer.split(rows, lead)
        return (source[:, 0] if self.num_agents == 1 else source).copy()

    def world_info(self, i: int) -> dict:
        st = self.status[i]
        components = self.reward_components[i]
        if self.num_agents == 1:
            components = {name: float(components[0, k]) for k, name in enumerate(REWARD_COMPONENT_NAMES)}
        else:
            components = {name: components[:, k].copy() for k, name in enumerate(REWARD_COMPONENT_NAMES)}
        return {
            "score": (int(st[0]), int(st[1])),
            "steps": int(st[2]),
            "game_mode": int(st[3]),
            "ball_owned_team": int(st[4]),
            "reward_components": components,
        }
