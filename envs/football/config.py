"""FootballConfig: everything an env adds on top of its scenario file."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional

from trackfield.core.config import check_bool, check_choice, check_float, check_int

REPRESENTATIONS = ("raw", "simple115v2", "smm", "pixels", "pixels_gray")
ACTION_SETS = ("default", "v2", "full")  # GRF's action_set names
REWARD_COMPONENTS = ("scoring", "checkpoints")
RENDER_MODES = (None, "rgb_array", "human")

# builder.config() fields a user may override per env (None keeps the scenario's value).
SCENARIO_OVERRIDES = ("game_duration", "deterministic", "offsides", "end_episode_on_score",
                      "end_episode_on_out_of_play", "end_episode_on_possession_change",
                      "left_team_difficulty", "right_team_difficulty", "handballs", "handball_probability")


@dataclass(frozen=True)
class FootballConfig:
    """Validated football env settings (GRF's ``create_environment`` arguments).

    ``rewards`` is GRF's comma-separated list ("scoring" or "scoring,checkpoints").
    ``action_set`` is GRF's: "default" (19 actions), "v2" (adds builtin_ai) or "full" (33).
    ``teammate_ai=False`` leaves the team-mates of controlled players standing idle.
    The scenario overrides replace the value the scenario file set; ``handballs`` and
    ``handball_probability`` are trackfield's (GRF has no handball; off by default).
    """

    representation: str = "simple115v2"
    stacked: bool = False
    rewards: str = "scoring"
    number_of_left_players_agent_controls: int = 1
    number_of_right_players_agent_controls: int = 0
    render_mode: Optional[str] = None
    render_width: int = 480
    channel_dimensions: tuple = (96, 72)
    action_set: str = "default"
    teammate_ai: bool = True
    write_full_episode_dumps: bool = False
    logdir: str = ""
    game_duration: Optional[int] = None
    deterministic: Optional[bool] = None
    offsides: Optional[bool] = None
    end_episode_on_score: Optional[bool] = None
    end_episode_on_out_of_play: Optional[bool] = None
    end_episode_on_possession_change: Optional[bool] = None
    left_team_difficulty: Optional[float] = None
    right_team_difficulty: Optional[float] = None
    handballs: Optional[bool] = None
    handball_probability: Optional[float] = None

    def __post_init__(self):
        check_choice("representation", self.representation, REPRESENTATIONS)
        check_bool("stacked", self.stacked)
        if self.stacked and self.representation == "raw":
            raise ValueError("stacked=True needs representation 'simple115v2' or 'smm' (raw cannot be stacked)")
        if not isinstance(self.rewards, str):
            raise TypeError(f"rewards must be a comma-separated string, got {self.rewards!r}")
        for part in self.reward_components:
            check_choice("rewards component", part, REWARD_COMPONENTS)
        if "scoring" not in self.reward_components:
            raise ValueError(f"rewards must include 'scoring' (as GRF's do), got {self.rewards!r}")
        check_int("number_of_left_players_agent_controls", self.number_of_left_players_agent_controls, 0, 11)
        check_int("number_of_right_players_agent_controls", self.number_of_right_players_agent_controls, 0, 11)
        check_choice("render_mode", self.render_mode, RENDER_MODES)
        check_choice("action_set", self.action_set, ACTION_SETS)
        check_bool("teammate_ai", self.teammate_ai)
        check_int("render_width", self.render_width, 96, 4096)
        dims = self.channel_dimensions
        if not isinstance(dims, (tuple, list)) or len(dims) != 2:
            raise TypeError(f"channel_dimensions must be (width, height), got {dims!r}")
        check_int("channel_dimensions width", dims[0], 1, 4096)
        check_int("channel_dimensions height", dims[1], 1, 4096)
        object.__setattr__(self, "channel_dimensions", (int(dims[0]), int(dims[1])))
        check_bool("write_full_episode_dumps", self.write_full_episode_dumps)
        if not isinstance(self.logdir, (str, os.PathLike)):
            raise TypeError(f"logdir must be a folder path, got {self.logdir!r}")
        if self.game_duration is not None:
            check_int("game_duration", self.game_duration, 1, 1_000_000)
        for name in ("deterministic", "offsides", "end_episode_on_score", "end_episode_on_out_of_play",
                     "end_episode_on_possession_change", "handballs"):
            if getattr(self, name) is not None:
                check_bool(name, getattr(self, name))
        for name in ("left_team_difficulty", "right_team_difficulty", "handball_probability"):
            if getattr(self, name) is not None:
                check_float(name, getattr(self, name), 0.0, 1.0)

    @property
    def reward_components(self):
        return tuple(part.strip() for part in self.rewards.split(",") if part.strip())

    @property
    def num_agents(self) -> int:
        return self.number_of_left_players_agent_controls + self.number_of_right_players_agent_controls

    def overrides(self) -> dict:
        return {k: getattr(self, k) for k in SCENARIO_OVERRIDES if getattr(self, k) is not None}
