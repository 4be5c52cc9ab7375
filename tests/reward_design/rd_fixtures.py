"""Shared rollouts for the reward-design tests (imported as a plain module, cached)."""
from __future__ import annotations

import functools
import socket

import numpy as np
import pytest

import trackfield
from trackfield.reward_design import TrajectoryRecorder

PROGRESS_FILE = '''import numpy as np


def progress(current, previous, course):
    return current.progress - previous.progress


weights = {"progress": 1.0}
'''


@functools.lru_cache(maxsize=None)
def ai_race(seed: int = 0, steps: int = 150):
    """race_1v7 with every car driven by the built-in AI (skills drawn in 0.85..1), recorded."""
    env = TrajectoryRecorder(trackfield.make("race_1v7", agents=0, race_state=True))
    env.reset(seed=seed)
    for _ in range(steps):
        _, _, term, trunc, _ = env.step(np.zeros((0, 2), np.float32))
        if term or trunc:
            break
    return env.trajectory()


@functools.lru_cache(maxsize=None)
def agent_race(seed: int = 0, steps: int = 80, scenario: str = "race_1v3"):
    """A race with agent car 0 driven by the full-skill AI action plus noise, recorded with its online rewards."""
    env = TrajectoryRecorder(trackfield.make(scenario, race_state=True))
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        action = np.clip(env.unwrapped.ai_action() + rng.normal(0, 0.2, 2), -1, 1).astype(np.float32)
        _, _, term, trunc, _ = env.step(action)
        if term or trunc:
            break
    return env.trajectory()


@pytest.fixture
def no_sockets(monkeypatch):
    """No network: any connection attempt raises (the model plumbing must not need one)."""
    def refuse(*args, **kwargs):
        raise OSError("network blocked in tests")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
