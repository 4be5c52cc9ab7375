"""Reward wrappers to compose on any env, as GRF users do with GRF's wrappers.

The engine computes the same components itself (``rewards="scoring,checkpoints"``;
racing's ``reward={component: weight}``); these wrappers add them to an env built with
another reward setting, reading the values the engine reports in
``info["reward_components"]``. Football: ``CheckpointReward``, ``ScoringReward``.
Racing (GT Sophy's components, see ``RacingEnv``): ``ProgressReward``,
``OffCourseReward`` (squared speed; ``linear=True`` for the linear form), ``WallReward``,
``TyreSlipReward``, ``PassingReward``, ``CollisionReward``, ``RearEndReward``,
``UnsportingReward``; each adds ``weight`` times its component.
"""
from __future__ import annotations

import gymnasium as gym
import numpy as np


class _ComponentReward(gym.Wrapper):
    component = ""

    def __init__(self, env: gym.Env, weight: float = 1.0):
        super().__init__(env)
        self.weight = float(weight)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        components = info.get("reward_components")
        if components is None or self.component not in components:
            raise ValueError(f"{type(self).__name__} needs an env reporting info['reward_components']"
                             f"[{self.component!r}] (a trackfield env of the right domain)")
        extra = components[self.component]
        reward = reward + self.weight * (extra if np.ndim(extra) == 0 else np.asarray(extra))
        return obs, reward, terminated, truncated, info


class CheckpointReward(_ComponentReward):
    """Adds GRF's checkpoint reward (+0.1 per zone towards goal, at most +1) to the env's reward.

    Wrap an env made with ``rewards="scoring"``; with ``rewards="scoring,checkpoints"``
    the engine already includes it and this wrapper would count it twice.
    """

    component = "checkpoints"

    def __init__(self, env: gym.Env, weight: float = 1.0):
        base = env.unwrapped
        cfg = getattr(base, "config", None)
        if cfg is not None and "checkpoints" in getattr(cfg, "reward_components", ()):
            raise ValueError("CheckpointReward: the env already includes checkpoints (rewards='scoring,checkpoints')")
        super().__init__(env, weight)


class ScoringReward(gym.Wrapper):
    """Replaces the env's reward by the scoring component alone (+1 scored, -1 conceded)."""

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        reward = info["reward_components"]["scoring"]
        return obs, reward, terminated, truncated, info


__all__ = ["CheckpointReward", "ScoringReward"]


def _racing_wrapper(name: str, component: str, doc: str):
    cls = type(name, (_ComponentReward,), {"component": component, "__doc__": doc})
    return cls


ProgressReward = _racing_wrapper("ProgressReward", "progress",
                                 "Adds weight x centre-line progress (m, 0 while off course) to the reward.")
WallReward = _racing_wrapper("WallReward", "wall", "Adds weight x -(wall time gained) x speed^2 (km/h) to the reward.")
TyreSlipReward = _racing_wrapper("TyreSlipReward", "tyre_slip",
                                 "Adds weight x -sum over tyres of min(|slip ratio|, 1) x |slip angle|.")
PassingReward = _racing_wrapper("PassingReward", "passing",
                                "Adds weight x the gap closed on cars within the passing window (m).")
CollisionReward = _racing_wrapper("CollisionReward", "any_collision", "Adds weight x -1 while touching any car.")
RearEndReward = _racing_wrapper("RearEndReward", "rear_end",
                                "Adds weight x -(closing speed on a car hit from behind)^2 (km/h).")
UnsportingReward = _racing_wrapper("UnsportingReward", "unsporting",
                                   "Adds weight x -1 for an unsporting contact (see RacingEnv's table).")


class OffCourseReward(_ComponentReward):
    """Adds weight x -(off-course time gained) x speed^2 (km/h), or x speed with ``linear=True``."""

    def __init__(self, env: gym.Env, weight: float = 1.0, linear: bool = False):
        super().__init__(env, weight)
        self.component = "off_course_lin" if linear else "off_course_sq"
