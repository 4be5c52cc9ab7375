"""DrivingConfig: every setting of a driving env, checked once (errors name the argument)."""
from __future__ import annotations

import dataclasses
import math
import os

from trackfield.core.config import check_bool, check_choice, check_int

MAX_AGENTS = 150
MAX_STATIC_OBSTACLES = 50
ACTIONS = ("discrete", "box")
OBSERVATIONS = ("flat", "sets")


@dataclasses.dataclass(frozen=True)
class DrivingConfig:
    """Settings of a driving env (see ``DrivingEnv``'s Arguments table).

    ``None`` means "the scenario's default" for ``slots``, ``agents`` and ``respawn``.
    """

    map: object = None              # None: a generated small town; a name (Town01, Town03), a path, or a RoadMap
    town_seed: int | None = None    # generated town seed (default 0) when map is None
    slots: int | None = None        # agent slots per world
    agents: int | None = None       # fixed agent count per world
    agents_min: int = 1             # else U{agents_min, agents_max}
    agents_max: int | None = None   # default: slots
    static_obstacles: int = 0
    dt: float = 0.3
    max_steps: int = 300
    respawn: bool | None = None
    goal_radius: float = 2.0
    goal_speed: float = 2.0
    waypoints: int = 3
    spawn_speed: float = 0.0
    jerk_noise: float = 0.0
    lights: bool = True
    erratic: bool = True
    action: str = "discrete"
    observation: str = "flat"
    feature_dropout: bool = False   # sets only: drop 50% of lane and 40% of boundary points per agent and step
    render_mode: str | None = None

    def __post_init__(self):
        if self.map is not None and not isinstance(self.map, (str, os.PathLike)) and not hasattr(self.map, "lanes"):
            raise TypeError(f"map must be a name, a path or a RoadMap, got {type(self.map).__name__}")
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
        check_int("max_steps", self.max_steps, 1)
        if self.respawn is not None:
            check_bool("respawn", self.respawn)
        _check_positive("goal_radius", self.goal_radius, 1000.0)
        _check_positive("goal_speed", self.goal_speed, 100.0)
        check_int("waypoints", self.waypoints, 0, 3)
        _check_range("spawn_speed", self.spawn_speed, 0.0, 40.0)
        _check_range("jerk_noise", self.jerk_noise, 0.0, 100.0)
        check_bool("lights", self.lights)
        check_bool("erratic", self.erratic)
        check_choice("action", self.action, ACTIONS)
        check_choice("observation", self.observation, OBSERVATIONS)
        check_bool("feature_dropout", self.feature_dropout)
        if self.feature_dropout and self.observation != "sets":
            raise ValueError(f"feature_dropout=True needs observation='sets' (it drops set elements), "
                             f"got observation={self.observation!r}")
        if self.render_mode is not None:
            raise ValueError(f"render_mode: driving has no renderer yet; pass None, got {self.render_mode!r}")

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
