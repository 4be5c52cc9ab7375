"""Reward wrappers to compose on any env, as GRF users do with GRF's wrappers.

The engine computes the same components itself (``rewards="scoring,checkpoints"``);
these wrappers add them to an env built with another reward setting, reading the
values the engine reports in ``info["reward_components"]``.
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
                             f"[{self.component!r}] (a trackfield football env)")
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
