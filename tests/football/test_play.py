"""The keyboard player: key state -> GRF actions, and the window loop (headless)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from trackfield.football.play import ACTION, Controls


def test_controls_send_actions_only_when_something_changes():
    c = Controls()
    assert c.action((1, 0), False, False, []) == ACTION["right"]
    assert c.action((1, 0), False, False, []) == ACTION["idle"]  # sticky: nothing new
    assert c.action((1, -1), False, False, []) == ACTION["top_right"]
    assert c.action((1, -1), True, False, []) == ACTION["sprint"]
    assert c.action((1, -1), True, False, ["shot"]) == ACTION["shot"]  # a kick wins
    assert c.action((0, 0), True, False, []) == ACTION["release_direction"]
    assert c.action((0, 0), False, True, []) == ACTION["release_sprint"]
    assert c.action((0, 0), False, True, []) == ACTION["dribble"]
    assert c.action((-1, 1), False, False, []) == ACTION["release_dribble"]
    assert c.action((-1, 1), False, False, []) == ACTION["bottom_left"]


def test_play_runs_headless_and_stops_after_frames():
    pytest.importorskip("pygame")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", TRACKFIELD_PLAY_UNTHROTTLED="1")
    result = subprocess.run([sys.executable, "-m", "trackfield.football.play", "--scenario", "academy_empty_goal_close",
                             "--frames", "420", "--width", "320", "--seed", "1"],
                            capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "episode 1:" in result.stdout  # idle play: the 400-step limit ends the first episode


@pytest.mark.statistical
def test_play_against_a_saved_policy(tmp_path):
    pytest.importorskip("pygame")
    sb3 = pytest.importorskip("stable_baselines3")
    import trackfield

    model = sb3.PPO("MlpPolicy", trackfield.make("academy_3_vs_1_with_keeper"), n_steps=64, device="cpu")
    model.save(tmp_path / "policy.zip")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", TRACKFIELD_PLAY_UNTHROTTLED="1")
    result = subprocess.run([sys.executable, "-m", "trackfield.football.play", "--scenario", "academy_3_vs_1_with_keeper",
                             "--opponent", str(tmp_path / "policy.zip"), "--frames", "30", "--width", "320"],
                            capture_output=True, text=True, timeout=180, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    bad = subprocess.run([sys.executable, "-m", "trackfield.football.play", "--opponent", str(tmp_path / "none.zip"),
                          "--frames", "1"], capture_output=True, text=True, timeout=180, env=env)
    assert bad.returncode != 0 and "none.zip" in bad.stderr
