"""Recording, saving, re-scoring and bitwise replay of trajectories."""
import numpy as np
import pytest
from rd_fixtures import agent_race

import trackfield
from trackfield.reward_design import TrajectoryRecorder, load_trajectory, preset, replay, rescore
from trackfield.reward_design.state import course_of_env


def test_save_load_roundtrip_and_rescore(tmp_path):
    traj = agent_race(seed=1, steps=40, scenario="race_1v3")
    path = traj.save(tmp_path / "t.npz")
    back = load_trajectory(path)
    assert np.array_equal(back.raw, traj.raw) and back.initial_state == traj.initial_state
    t0, p0 = rescore(traj, preset("gt7_baseline"))
    t1, p1 = rescore(back, preset("gt7_baseline"))
    assert np.array_equal(t0, t1) and t0.shape == (40, 4) and p0.shape == (40, 4, 8)


def test_replay_is_bitwise():
    traj = agent_race(seed=2, steps=30, scenario="race_1v3")
    env, frames = replay(traj, render_width=96)
    assert len(frames) == 31 and frames[0].shape == (72, 96, 3)


def test_replay_detects_a_changed_action():
    traj = agent_race(seed=2, steps=30, scenario="race_1v3")
    import dataclasses

    actions = traj.actions.copy()
    actions[5, 0, 1] = -actions[5, 0, 1] if actions[5, 0, 1] else 0.5
    with pytest.raises(RuntimeError, match="diverged"):
        replay(dataclasses.replace(traj, actions=actions))


def test_other_course_or_version_refused(tmp_path):
    traj = agent_race(seed=1, steps=10, scenario="race_1v3")
    path = traj.save(tmp_path / "t.npz")
    other = course_of_env(trackfield.make("race_1v3", track="speedway", race_state=True))
    if other.name != traj.course.name:
        with pytest.raises(ValueError, match="recorded on course"):
            load_trajectory(path, course=other)
    import dataclasses

    dataclasses.replace(traj, version="trackfield 0.0.0").save(tmp_path / "old.npz")
    with pytest.raises(ValueError, match="old.npz"):
        load_trajectory(tmp_path / "old.npz")
    with pytest.raises(FileNotFoundError, match="none.npz"):
        load_trajectory(tmp_path / "none.npz")


def test_recorder_needs_race_state():
    with pytest.raises(ValueError, match="race_state"):
        TrajectoryRecorder(trackfield.make("race_1v3"))
