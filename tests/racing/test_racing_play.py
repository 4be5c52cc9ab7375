"""The keyboard driver: held keys -> ramped pedals and steering, and the window loop (headless)."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from trackfield.racing.play import Controls


def test_held_keys_ramp_and_released_steering_returns_to_centre():
    c = Controls()
    throttle = [c.action(True, False, False, False)[0] for _ in range(4)]
    assert throttle[0] == pytest.approx(1 / 3) and throttle[-1] == 1.0  # full in 0.3 s
    assert c.action(False, False, False, False)[0] == 0.0  # lifting is instant
    steer = [c.action(False, False, True, False)[1] for _ in range(6)]
    assert steer[0] == pytest.approx(0.2) and steer[-1] == 1.0  # full lock in 0.5 s
    back = [c.action(False, False, False, False)[1] for _ in range(3)]
    assert back[0] == pytest.approx(0.5) and back[1] == 0.0
    assert c.action(False, True, False, True)[0] < 0 and c.action(False, True, False, True)[1] < 0
    assert np.all(np.abs(c.action(True, True, True, True)) <= 1)


def test_play_runs_headless_and_reports_the_race():
    pytest.importorskip("pygame")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", TRACKFIELD_PLAY_UNTHROTTLED="1")
    result = subprocess.run([sys.executable, "-m", "trackfield.racing.play", "--scenario", "race_slipstream",
                             "--frames", "210", "--width", "320", "--seed", "1"],
                            capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "race 1: place" in result.stdout  # no input: the 20 s limit ends the first race
