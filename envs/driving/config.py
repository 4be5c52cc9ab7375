"""DrivingConfig: every setting of a driving env, checked once (errors name the argument)."""
from __future__ import annotations

import dataclasses
import math
import os

from trackfield.core.config import check_bool, check_choice, check_int

MAX_AGENTS = 150
MAX_STATIC_OBSTACLES = 50
ACTIONS = ("discrete", "box")
OBSERVATIONS = ("flat", "sets", "pixels")
RENDER_MODES = (None, "rgb_array", "human")
RENDER_VIEWS = ("town", "ego")
CONDITIONING = ("random", "safe")
SPAWN_HEADINGS = ("lane", "random")
MAX_GOAL_DISTANCE_M = 10_000.0

# obs_noise = 1 means these standard deviations (an automotive GNSS + odometry grade
# error): the ego's observed position 0.5 m per axis, heading 0.02 rad (1.1 degrees), speed
# 0.2 m/s. Redrawn every step, independently per agent.
OBS_NOISE_SCALES = (0.5, 0.02, 0.2)

# The plain defaults of the keys a preset may set.
DEFAULTS = dict(dt=0.3, max_steps=300, obs_noise=0.0, dynamics_noise=0.0, spawn_clearance=1.0, obs_inflate=0.0,
                conditioning="random", lights=True, erratic=True)

# preset -> (fixed keys, default keys). eval_long: GIGAFLOW's long-run evaluation set-up.
#   dt 1/15 s; 50 agents in 50 slots; no observation or dynamics noise and no erratic
#   drivers (nothing perturbs the policy); spawn_clearance 10 m (respawns land among moving
#   traffic: a vehicle at 10 m/s has a second to react, so no incident is the spawn's doing);
#   lights on with CARLA's fixed default timings (green 10 s, yellow 3 s, red 2 s) and no light
#   removed, stuck or randomised, as in GIGAFLOW's long-form evaluation (engine.py reads
#   DrivingConfig.light_timings_randomised); other vehicles seen 10 cm larger per side; safe
#   conditioning (every agent's reward weights = trackfield._engine.driving.safe_conditioning():
#   each penalty at the top of its range, no lane-centre bias). Default 4500 steps (5 min).
PRESETS = {
    "eval_long": (
        dict(dt=1 / 15, slots=50, agents=50, obs_noise=0.0, dynamics_noise=0.0, spawn_clearance=10.0,
             lights=True, erratic=False, obs_inflate=0.1, conditioning="safe"),
        dict(max_steps=4500),
    ),
}


@dataclasses.dataclass(frozen=True)
class DrivingConfig:
    """Settings of a driving env (see ``DrivingEnv``'s Arguments table).

    ``None`` means "the scenario's default" for ``slots``, ``agents`` and ``respawn``, and
    "the preset's value, else the plain default" for the keys a preset sets (``DEFAULTS``):
    after construction those hold their resolved values. A preset's fixed keys may be
    passed only with the preset's own value (anything else raises ValueError naming the
    key); its default keys may be overridden.
    """

    map: object = None              # None: a generated small town; a CARLA town (Town01-07, Town10HD), a path, a RoadMap, or a list
    town_seed: int | None = None    # generated town seed (default 0) when map is None
    preset: str | None = None       # "eval_long": see PRESETS
    slots: int | None = None        # agent slots per world
    agents: int | None = None       # fixed agent count per world
    agents_min: int = 1             # else U{agents_min, agents_max}
    agents_max: int | None = None   # default: slots
    static_obstacles: int = 0
    dt: float | None = None         # s (default 0.3)
    max_steps: int | None = None    # default 300
    respawn: bool | None = None
    goal_radius: float = 2.0
    goal_speed: float = 2.0
    waypoints: int = 3
    goal_distance: object = None    # None: GIGAFLOW's route order (see DrivingEnv); (min_m, max_m): the goal this far along the lanes
    spawn_speed: float = 0.0
    spawn_clearance: float | None = None   # m (default 1.0)
    spawn_heading: str = "lane"     # "lane": agents face along their lane; "random": uniform in [-pi, pi)
    obs_noise: object = None        # level (float) or (position m, heading rad, speed m/s) stds; default 0
    dynamics_noise: float | None = None    # std of the jerk noise, m/s^3 (default 0)
    obs_inflate: float | None = None       # m per side (default 0)
    conditioning: str | None = None        # "random" (default) or "safe"
    augment: bool = False
    augment_variants: int = 128
    augment_seed: int = 0
    lights: bool | None = None      # default True
    erratic: bool | None = None     # default True
    action: str = "discrete"
    observation: str = "flat"
    feature_dropout: bool = False   # sets only: drop 50% of lane and 40% of boundary points per agent and step
    render_mode: str | None = None  # "rgb_array": a render_width square frame of render_view; "human": in a window
    render_width: int = 480
    render_view: str = "town"       # "town": the whole map, north up; "ego": 60 m around the ego, its heading up

    def __post_init__(self):
        self._apply_preset()
        if isinstance(self.map, list):
            object.__setattr__(self, "map", tuple(self.map))
        if isinstance(self.map, tuple):
            if not self.map:
                raise ValueError("map: an empty list of maps")
            for item in self.map:
                if item is None or not _is_map(item):
                    raise TypeError(f"map: each of several maps must be a name, a path or a RoadMap, "
                                    f"got {type(item).__name__}")
        elif self.map is not None and not _is_map(self.map):
            raise TypeError(f"map must be a name, a path, a RoadMap or a list of them, got {type(self.map).__name__}")
        if self.town_seed is not None:
            check_int("town_seed", self.town_seed, 0)
        if self.slots is not None:
            check_int("slots", self.slots, 1, MAX_AGENTS)
        if self.agents is not None:
            check_int("agents", self.agents, 1)
            if self.agents > (self.slots or MAX_AGENTS):
                raise ValueError(f"agents={self.agents} is more than slots={self.slots or MAX_AGENTS} "
                                 "(agent slots per world)")
        check_int("agents_min", self.agents_min, 1)
        if self.agents_max is not None:
            check_int("agents_max", self.agents_max, 1)
            if self.agents_max > (self.slots or MAX_AGENTS):
                raise ValueError(f"agents_max={self.agents_max} is more than slots={self.slots or MAX_AGENTS} "
                                 "(agent slots per world)")
            if self.agents_max < self.agents_min:
                raise ValueError(f"agents_max={self.agents_max} is less than agents_min={self.agents_min}")
        if self.agents_min > (self.slots or MAX_AGENTS):
            raise ValueError(f"agents_min={self.agents_min} is more than slots={self.slots or MAX_AGENTS}")
        check_int("static_obstacles", self.static_obstacles, 0, MAX_STATIC_OBSTACLES)
        _check_positive("dt", self.dt, 1.0)
        if self.preset == "eval_long" and self.agents is not None and (self.slots or MAX_AGENTS) < self.agents:
            raise ValueError(f"slots={self.slots} is less than the preset's agents={self.agents}")
        check_int("max_steps", self.max_steps, 1)
        if self.respawn is not None:
            check_bool("respawn", self.respawn)
        _check_positive("goal_radius", self.goal_radius, 1000.0)
        _check_positive("goal_speed", self.goal_speed, 100.0)
        check_int("waypoints", self.waypoints, 0, 3)
        self._check_goal_distance()
        _check_range("spawn_speed", self.spawn_speed, 0.0, 40.0)
        _check_range("spawn_clearance", self.spawn_clearance, 0.0, 100.0)
        check_choice("spawn_heading", self.spawn_heading, SPAWN_HEADINGS)
        self.obs_noise_stds()  # checks obs_noise
        _check_range("dynamics_noise", self.dynamics_noise, 0.0, 100.0)
        _check_range("obs_inflate", self.obs_inflate, 0.0, 5.0)
        check_choice("conditioning", self.conditioning, CONDITIONING)
        check_bool("augment", self.augment)
        check_int("augment_variants", self.augment_variants, 1, 4096)
        check_int("augment_seed", self.augment_seed, 0)
        check_bool("lights", self.lights)
        check_bool("erratic", self.erratic)
        check_choice("action", self.action, ACTIONS)
        check_choice("observation", self.observation, OBSERVATIONS)
        check_bool("feature_dropout", self.feature_dropout)
        if self.feature_dropout and self.observation != "sets":
            raise ValueError(f"feature_dropout=True needs observation='sets' (it drops set elements), "
                             f"got observation={self.observation!r}")
        check_choice("render_mode", self.render_mode, RENDER_MODES)
        check_int("render_width", self.render_width, 64, 4096)
        check_choice("render_view", self.render_view, RENDER_VIEWS)

    def _apply_preset(self):
        if self.preset is not None and self.preset not in PRESETS:
            raise ValueError(f"preset must be one of {list(PRESETS)} or None, got {self.preset!r}")
        fixed, defaults = PRESETS.get(self.preset, ({}, {}))
        for key, value in fixed.items():
            given = getattr(self, key)
            if given is not None and given != value:
                raise ValueError(f"{key}={given!r}: preset={self.preset!r} fixes {key} = {value!r}; "
                                 f"leave {key} out (or drop the preset)")
            object.__setattr__(self, key, value)
        for key, value in {**DEFAULTS, **defaults}.items():
            if getattr(self, key) is None:
                object.__setattr__(self, key, value)

    @property
    def light_timings_randomised(self) -> bool:
        """GIGAFLOW's training lights (timings drawn per junction phase each episode, lights
        removed or stuck at random), except under ``eval_long``: CARLA's fixed default timings
        (green 10 s, yellow 3 s, red 2 s), nothing removed (cpp_engine/driving/lights.h)."""
        return self.preset != "eval_long"

    def _check_goal_distance(self):
        value = self.goal_distance
        if value is None:
            return
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            raise ValueError(f"goal_distance must be None or (min_m, max_m), got {value!r}")
        low, high = value
        _check_range("goal_distance (min_m)", low, 0.0, MAX_GOAL_DISTANCE_M)
        _check_range("goal_distance (max_m)", high, 0.0, MAX_GOAL_DISTANCE_M)
        if high <= 0 or low > high:
            raise ValueError(f"goal_distance: need 0 <= min_m <= max_m and max_m > 0, got {value!r}")
        object.__setattr__(self, "goal_distance", (float(low), float(high)))

    def obs_noise_stds(self) -> tuple[float, float, float]:
        """(position m per axis, heading rad, speed m/s) standard deviations of ``obs_noise``."""
        noise = self.obs_noise
        if isinstance(noise, (tuple, list)):
            if len(noise) != 3:
                raise ValueError(f"obs_noise must be a level or 3 standard deviations (position m, heading rad, "
                                 f"speed m/s), got {noise!r}")
            for name, value in zip(("position", "heading", "speed"), noise):
                _check_range(f"obs_noise ({name})", value, 0.0, 100.0)
            return tuple(float(v) for v in noise)
        _check_range("obs_noise", noise, 0.0, 100.0)
        return tuple(float(noise) * scale for scale in OBS_NOISE_SCALES)

    def agent_range(self, slots: int) -> tuple[int, int]:
        """(min, max) agents per world for ``slots`` slots."""
        if self.agents is not None:
            return self.agents, self.agents
        high = self.agents_max if self.agents_max is not None else slots
        if high > slots:
            raise ValueError(f"agents_max={high} is more than slots={slots} (agent slots per world)")
        if self.agents_min > high:
            raise ValueError(f"agents_min={self.agents_min} is more than agents_max={high}")
        return self.agents_min, high


def _is_map(value) -> bool:
    return isinstance(value, (str, os.PathLike)) or hasattr(value, "lanes")


def _check_range(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value}")


def _check_positive(name, value, high):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value) or not 0 < value <= high:
        raise ValueError(f"{name} must be > 0 and <= {high}, got {value}")
