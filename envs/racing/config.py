"""RacingConfig: everything a racing env adds on top of its scenario."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Optional

from trackfield import _engine
from trackfield.core.config import check_bool, check_choice, check_float, check_int

OBSERVATIONS = ("features", "track_points", "pixels")
OFF_COURSE_RULES = ("three_tyres", "any_tyre")
CARS = tuple(_engine.racing.car_names())
RENDER_MODES = (None, "rgb_array", "human")
COMPONENTS = tuple(_engine.racing.REWARD_COMPONENTS)

# Reward presets: weight per component (components are negative for penalties, so every
# weight is positive). GT Sophy's weights were never published; these are trackfield's
# own. progress sets the scale (one step of clean driving at ~200 km/h earns about +0.55);
# off_course_sq is the weight with which SAC first drove a clean lap
# (examples/train_sac_racing.py): 0.1 s fully off course at 200 km/h costs about 8. A wall
# hit costs about 2; a 20 km/h rear-end about 0.4 plus the unsporting penalty of 1. These
# are hand-set: `trackfield.racing.reward_sweep` scores weights by the order they give
# scripted behaviours on the three shipped circuits, and no set of its grid ranks them all
# rightly (it prints the orders each set breaks).
REWARD_PRESETS = {
    "time_trial": {"progress": 0.1, "off_course_sq": 2e-3, "wall": 5e-4, "tyre_slip": 0.5},
    "race": {"progress": 0.1, "off_course_sq": 2e-3, "wall": 5e-4, "tyre_slip": 0.5, "passing": 0.1,
             "any_collision": 0.5, "rear_end": 1e-3, "unsporting": 1.0},
}


@dataclass(frozen=True)
class RacingConfig:
    """Validated racing env settings (see :class:`trackfield.racing.env.RacingEnv`)."""

    track: object = None          # name, path or a loaded Track; None: the scenario's
    raceline: object = None       # path or (M, 2) array for the AI; None: the file's or a computed one
    crossings: str = "error"
    car: str = "gt3"
    observation: str = "features"
    reward: object = None         # preset name, {component: weight} or a reward .py file; None: the scenario's preset
    reward_mode: str = "replace"  # a reward file's total replaces the built-in reward, or is "add"ed to it
    race_state: bool = False      # info["race_state"]: every car's trackfield.reward_design.CarState
    off_course_rule: str = "three_tyres"
    allow_reverse: bool = False
    ai_aggression: float = 0.5    # built-in AI racecraft, 0 (cautious) .. 1 (hard)
    penalties: Optional[bool] = None  # slow-down penalties; None: the scenario's (on in race_field)
    action_delay_s: float = 0.0
    observation_delay_s: float = 0.0
    section_modifiers: dict = field(default_factory=dict)
    groups: int = 1
    agents: int = 1               # controlled cars per group (parallel env: any subset of the cars)
    start_slot: Optional[int] = None
    laps: Optional[int] = None
    max_time_s: Optional[float] = None
    max_off_course_s: Optional[float] = None  # end the episode once an agent is off course longer (training aid)
    section: Optional[str] = None
    physics_hz: int = 100
    control_hz: int = 10
    passing_window: tuple = (20.0, 40.0)
    pixel_size: tuple = (96, 96)
    render_mode: Optional[str] = None
    render_width: int = 480

    def __post_init__(self):
        check_choice("car", self.car, CARS)
        check_choice("observation", self.observation, OBSERVATIONS)
        check_choice("off_course_rule", self.off_course_rule, OFF_COURSE_RULES)
        check_choice("crossings", self.crossings, ("error", "bridge"))
        check_bool("allow_reverse", self.allow_reverse)
        check_bool("race_state", self.race_state)
        check_float("ai_aggression", self.ai_aggression, 0.0, 1.0)
        check_choice("reward_mode", self.reward_mode, ("replace", "add"))
        if self.penalties is not None:
            check_bool("penalties", self.penalties)
        for name in ("action_delay_s", "observation_delay_s"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise TypeError(f"{name} must be a number of seconds, got {value!r}")
            if value < 0:
                raise ValueError(f"{name} must be >= 0 seconds, got {value}")
        check_int("groups", self.groups, 1, 20)
        check_int("agents", self.agents, 0, 20)
        if self.start_slot is not None:
            check_int("start_slot", self.start_slot, 0, 19)
        if self.laps is not None:
            check_int("laps", self.laps, 1, 1000)
        if self.max_time_s is not None:
            check_float("max_time_s", self.max_time_s, 0.1, 1e6)
        if self.max_off_course_s is not None:
            check_float("max_off_course_s", self.max_off_course_s, 0.0, 1e6)
        check_int("physics_hz", self.physics_hz, 10, 1000)
        check_int("control_hz", self.control_hz, 1, 100)
        if self.physics_hz % self.control_hz:
            raise ValueError(f"physics_hz ({self.physics_hz}) must be a whole multiple of control_hz ({self.control_hz})")
        if not isinstance(self.section_modifiers, dict):
            raise TypeError(f"section_modifiers must be a dict {{section: {{component: scale}}}}, got {self.section_modifiers!r}")
        for section, scales in self.section_modifiers.items():
            if not isinstance(scales, dict):
                raise TypeError(f"section_modifiers[{section!r}] must be a dict {{component: scale}}, got {scales!r}")
            for component, scale in scales.items():
                if component not in COMPONENTS:
                    raise ValueError(f"section_modifiers[{section!r}]: unknown component {component!r}; "
                                     f"components: {', '.join(COMPONENTS)}")
                check_float(f"section_modifiers[{section!r}][{component!r}]", scale, -1e6, 1e6)
        window = self.passing_window
        if not isinstance(window, (tuple, list)) or len(window) != 2:
            raise TypeError(f"passing_window must be (metres behind, metres ahead), got {window!r}")
        check_float("passing_window behind", window[0], 0.0, 1e4)
        check_float("passing_window ahead", window[1], 0.0, 1e4)
        size = self.pixel_size
        if not isinstance(size, (tuple, list)) or len(size) != 2:
            raise TypeError(f"pixel_size must be (width, height), got {size!r}")
        check_int("pixel_size width", size[0], 8, 1024)
        check_int("pixel_size height", size[1], 8, 1024)
        check_choice("render_mode", self.render_mode, RENDER_MODES)
        check_int("render_width", self.render_width, 96, 4096)
        self.weights()  # validates `reward`
        if self.track is not None and not isinstance(self.track, (str, os.PathLike)) and not hasattr(self.track, "to_engine"):
            raise TypeError(f"track must be a name, a path or a loaded Track, got {self.track!r}")

    @property
    def reward_file(self):
        """The reward .py file named by ``reward``, or None."""
        reward = self.reward
        if isinstance(reward, os.PathLike) or (isinstance(reward, str) and reward.endswith(".py")):
            return os.fspath(reward)
        return None

    def weights(self, default_preset: str = "race") -> dict:
        """{component: weight} of the built-in reward: of ``reward`` (a preset name or a
        dict); with a reward file, none ("replace") or the scenario's preset ("add")."""
        if self.reward_file is not None:
            return dict(REWARD_PRESETS[default_preset]) if self.reward_mode == "add" else {}
        reward = default_preset if self.reward is None else self.reward
        if isinstance(reward, str):
            if reward not in REWARD_PRESETS:
                raise ValueError(f"reward must be one of {list(REWARD_PRESETS)} or a dict {{component: weight}}, "
                                 f"got {reward!r}")
            return dict(REWARD_PRESETS[reward])
        if not isinstance(reward, dict):
            raise TypeError(f"reward must be a preset name or a dict {{component: weight}}, got {reward!r}")
        for component, weight in reward.items():
            if component not in COMPONENTS:
                raise ValueError(f"reward: unknown component {component!r}; components: {', '.join(COMPONENTS)}")
            check_float(f"reward[{component!r}]", weight, -1e9, 1e9)
        return dict(reward)
