"""RecordedLaunches: restart training where the car got into trouble.

GT Sophy's trainers started part of their episodes from states recorded just before the
car left the track, hit a wall or spun, so that the rare, hard moments come round more
often. This wrapper does the same for one racing env:

>>> import trackfield
>>> from trackfield.racing import RecordedLaunches
>>> env = RecordedLaunches(trackfield.make("race_time_trial"), share=0.5)
>>> obs, info = env.reset(seed=0)
>>> info["launch"]
'scenario'

Every ``every_steps`` control steps it snapshots the env (``get_state()``) into a short
ring; when the agent's car goes off course, touches a wall or spins (|heading error| above
``spin_rad``), the oldest snapshot in the ring (``lookback_steps`` before, at most) joins
the store of launches (the newest ``capacity`` are kept). A reset then restores a stored
launch with probability ``share`` (``info["launch"] == "recorded"``), else starts the
scenario as usual (``"scenario"``). Restoring is bitwise: the env's state equals the
recorded bytes. ``launches`` is the store, a list of bytes one can save and pass back.
"""
from __future__ import annotations

import collections

import gymnasium
import numpy as np


class RecordedLaunches(gymnasium.Wrapper):
    def __init__(self, env, share: float = 0.3, capacity: int = 1000, every_steps: int = 5,
                 lookback_steps: int = 10, spin_rad: float = 1.2, launches=()):
        super().__init__(env)
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"share must be in [0, 1], got {share}")
        for name, value in (("capacity", capacity), ("every_steps", every_steps), ("lookback_steps", lookback_steps)):
            if not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be an int >= 1, got {value!r}")
        if lookback_steps < every_steps:
            raise ValueError(f"lookback_steps ({lookback_steps}) must be >= every_steps ({every_steps})")
        if not hasattr(env.unwrapped, "get_state") or "heading_error" not in env.unwrapped._engine.agent_info_fields.names:
            raise TypeError("RecordedLaunches wraps a single-agent racing env (trackfield.make('race_...'))")
        self.share = float(share)
        self.every_steps = int(every_steps)
        self.spin_rad = float(spin_rad)
        self.launches = collections.deque((bytes(b) for b in launches), maxlen=int(capacity))
        self._ring = collections.deque(maxlen=max(1, lookback_steps // every_steps))
        self._rng = np.random.default_rng()
        self._steps = 0
        self._trouble = False
        self._last_wall = 0.0

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        recorded = options is None and self.launches and self._rng.random() < self.share
        if recorded:
            state = self.launches[int(self._rng.integers(len(self.launches)))]
            obs, info = self.env.reset(options={"state": state})
        else:
            obs, info = self.env.reset(seed=seed, options=options)
        self._ring.clear()
        self._steps = 0
        self._last_wall = float(info["wall_s"])
        self._trouble = self._in_trouble(info)
        self._ring.append(self.env.unwrapped.get_state())
        info["launch"] = "recorded" if recorded else "scenario"
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._steps += 1
        trouble = self._in_trouble(info)
        if trouble and not self._trouble and self._ring:
            self.launches.append(self._ring[0])  # the oldest: before the trouble began
        self._trouble = trouble
        if not (terminated or truncated) and self._steps % self.every_steps == 0:
            self._ring.append(self.env.unwrapped.get_state())
        return obs, reward, terminated, truncated, info

    def _in_trouble(self, info) -> bool:
        """Off course under the rule, touching a wall since the last step, or spun."""
        wall = float(info["wall_s"])
        hit_wall, self._last_wall = wall > self._last_wall, wall
        return bool(info["off_course"]) or hit_wall or abs(float(info["heading_error"])) > self.spin_rad
