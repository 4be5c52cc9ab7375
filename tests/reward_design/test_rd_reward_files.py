"""Reward files in envs, presets, and re-scoring against the online reward."""
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test
from rd_fixtures import PROGRESS_FILE, agent_race

import trackfield
from trackfield.reward_design import (CarState, load_reward, preset, rescore, sample_course,
                                      sample_state_pairs)

SPEED_FILE = '''import numpy as np


def speed(current, previous, course):
    return current.speed_kmh / 100.0


def progress(current, previous, course):
    return current.progress - previous.progress


weights = {"speed": 0.5, "progress": 2.0}
'''


@pytest.fixture
def speed_file(tmp_path):
    path = tmp_path / "speed.py"
    path.write_text(SPEED_FILE)
    return str(path)


def test_gt_sophy_rescore_equals_the_online_cpp_reward():
    traj = agent_race(seed=0, steps=80, scenario="race_1v3")
    totals, parts = rescore(traj, preset("gt_sophy"))
    agent = traj.state(0).controlled
    np.testing.assert_allclose(totals[:, agent][:, 0], traj.rewards[:, 0], rtol=1e-4, atol=1e-4)
    assert parts.shape == (traj.steps, traj.cars, 9)


def test_gt_sophy_matches_cpp_components_with_contacts():
    # race_field starts a 20-car grid: contacts and passing happen early.
    env = trackfield.make("race_field", race_state=True, penalties=False, laps=1)
    _, info = env.reset(seed=4)
    program, prev = load_reward(preset("gt_sophy")), info["race_state"]
    from trackfield.reward_design.state import course_of_env

    course, seen_contact = course_of_env(env), False
    for _ in range(60):
        _, reward, _, _, info = env.step(env.unwrapped.ai_action())
        cur = info["race_state"]
        totals, parts = program(cur, prev, course)
        got = dict(zip(program.names, parts[0] / np.where(program.weights == 0, 1, program.weights)))
        for name, value in info["reward_components"].items():
            if name != "off_course_lin":
                assert got[name] == pytest.approx(value, rel=1e-3, abs=1e-3), name
        assert totals[0] == pytest.approx(reward, rel=1e-4, abs=1e-4)
        seen_contact |= bool(cur.car_contact.any())
        prev = cur
    assert seen_contact


def test_user_file_in_env_equals_rescore(speed_file):
    env = trackfield.make("race_1v3", reward=speed_file, race_state=True)
    from trackfield.reward_design import TrajectoryRecorder

    rec = TrajectoryRecorder(env)
    _, info = rec.reset(seed=2)
    assert set(info["reward_components"]) == {"speed", "progress"}
    rewards = []
    for _ in range(20):
        _, r, _, _, info = rec.step(env.unwrapped.ai_action())
        rewards.append(r)
        assert r == pytest.approx(sum(info["reward_components"].values()), rel=1e-5)
    totals, _ = rescore(rec.trajectory(), speed_file)
    np.testing.assert_allclose(totals[:, 0], rewards, rtol=1e-6)


def test_add_mode_adds_to_the_builtin(speed_file):
    plain = trackfield.make("race_time_trial")
    path = speed_file.replace("speed.py", "speed_only.py")
    with open(path, "w") as f:
        f.write(SPEED_FILE.replace('"progress": 2.0', '"speed_gain": 2.0').replace("def progress(", "def speed_gain("))
    added = trackfield.make("race_time_trial", reward=path, reward_mode="add")
    plain.reset(seed=1), added.reset(seed=1)
    for _ in range(5):
        a = np.array([0.6, 0.0], np.float32)
        _, r0, _, _, i0 = plain.step(a)
        _, r1, _, _, i1 = added.step(a)
    assert r1 == pytest.approx(r0 + i1["reward_components"]["speed"] + i1["reward_components"]["speed_gain"], rel=1e-5)
    assert "off_course_sq" in i1["reward_components"]


def test_vector_env_reward_file_scores_final_states(speed_file):
    env = trackfield.vector.make("race_1v3", num_envs=2, reward=speed_file, max_time_s=0.4)
    env.reset(seed=0)
    program = load_reward(speed_file)
    prev = None
    for _ in range(6):
        _, rewards, term, trunc, info = env.step(np.full((2, 2), 0.3, np.float32))
        done = term | trunc
        assert rewards.shape == (2,)
        np.testing.assert_allclose(rewards, info["reward_components"]["speed"] + info["reward_components"]["progress"],
                                   rtol=1e-5)
        if done.any():
            final = info["final_info"]["race_state"]
            np.testing.assert_allclose(rewards[done], 0.5 * final.speed_kmh[final.controlled][done] / 100 +
                                       2 * (final.progress - prev.progress)[final.controlled][done], rtol=1e-4)
            assert np.isfinite(info["episode"]["r"][done]).all()
        prev = info["race_state"]
    assert program.names == ("speed", "progress")


def test_batched_equals_per_car():
    program = load_reward(preset("gt7_baseline"))
    course = sample_course()
    for prev, cur in sample_state_pairs(course, 6, 8, seed=3)[2:]:
        totals, parts = program(cur, prev, course)
        if len(cur) == 1:
            continue
        for i in range(len(cur)):
            # One car alone, its pairwise rows pointing into a full state of its world.
            t1, p1 = program(_only(cur, i), _only(prev, i), course)
            assert t1[0] == pytest.approx(totals[i], rel=1e-9, abs=1e-12)


def _only(state, i):
    """Car i first, then the others: the same world reordered (a per-car call sees one row)."""
    order = np.r_[i, np.delete(np.arange(len(state)), i)]
    fields = {}
    for name in CarState.__dataclass_fields__:
        v = getattr(state, name)
        if name in ("contact", "distance"):
            v = v[order][:, order]
        elif name == "others":
            v = v[order][:, order]
            v = np.argsort(order)[v]
        else:
            v = v[order]
        fields[name] = v
    return CarState(**fields)


def test_missing_reward_file_is_named():
    with pytest.raises(FileNotFoundError, match="nope.py"):
        trackfield.make("race_1v3", reward="nope.py")


def test_add_mode_refuses_clashing_names(tmp_path):
    path = tmp_path / "p.py"
    path.write_text(PROGRESS_FILE)
    with pytest.raises(ValueError, match="progress"):
        trackfield.make("race_1v3", reward=str(path), reward_mode="add")


def test_checkers_pass_with_a_reward_file(speed_file):
    check_env(trackfield.make("race_1v3", reward=speed_file), skip_render_check=True)
    parallel_api_test(trackfield.parallel_env("race_1v3", agents=2, reward=speed_file), num_cycles=20)


def test_gt7_baseline_on_constructed_states():
    program = load_reward(preset("gt7_baseline"))
    prev, cur = sample_state_pairs(None, 2, 8, seed=0)[7]
    n = len(cur)
    tyre_prev = np.zeros((n, 4), np.float32)
    tyre_cur = tyre_prev.copy()
    tyre_cur[0, 1], tyre_cur[0, 3] = 0.1, 0.3
    prev = _with(prev, tyre_off_s=tyre_prev)
    cur = _with(cur, tyre_off_s=tyre_cur)
    k = program.names.index("off_course")
    comps = program.components(cur, prev, sample_course())
    assert comps[0, k] == pytest.approx(-0.3, abs=1e-6)
    history = np.zeros((n, 10), np.float32)
    history[0] = [0.5, 0.2, 0.6, 0.1, 0.1, 0.1, 0.3, 0.3, 0.3, 0.3]  # down, up, down, (flat), up... newest first
    history[1] = np.linspace(1, -1, 10)  # one direction: no change
    cur = _with(cur, steering_history=history)
    comps = program.components(cur, prev, sample_course())
    k = program.names.index("steering_reversals")
    assert comps[0, k] == -3 and comps[1, k] == 0


def _with(state, **changes):
    import dataclasses

    return dataclasses.replace(state, **changes)


def test_reward_file_after_set_state_matches_an_uninterrupted_run(speed_file):
    env = trackfield.make("race_1v3", reward=speed_file)
    env.reset(seed=7)
    for _ in range(3):
        env.step(np.array([0.4, 0.0], np.float32))
    snap = env.get_state()
    _, expected, _, _, _ = env.step(np.array([0.4, 0.1], np.float32))
    env.reset(seed=8)
    env.step(np.array([0.4, 0.0], np.float32))
    env.set_state(snap)
    _, got, _, _, _ = env.step(np.array([0.4, 0.1], np.float32))
    assert got == expected


def test_vector_set_state_of_one_world_rescores_from_the_restored_state(speed_file):
    envs = trackfield.vector.make("race_1v3", num_envs=2, num_threads=1, reward=speed_file)
    envs.reset(seed=3)
    throttle = np.tile(np.array([[0.6, 0.0]], np.float32), (2, 1))
    turn = np.tile(np.array([[0.5, 0.2]], np.float32), (2, 1))
    for _ in range(4):
        envs.step(throttle)
    snap = envs.get_state(0)
    _, expected, _, _, info = envs.step(turn)
    expected_parts = {k: np.array(v) for k, v in info["reward_components"].items()}
    for _ in range(5):  # world 0 moves on; its stored previous state goes stale
        envs.step(throttle)
    envs.set_state(0, snap)
    _, got, _, _, info = envs.step(turn)
    assert got[0] == expected[0]
    for name, value in info["reward_components"].items():
        assert value[0] == expected_parts[name][0], name
    # World 1 was not restored: its reward still compares with its own last state.
    assert info["reward_components"]["progress"][1] > 0


def test_parallel_set_state_rescores_from_the_restored_state(speed_file):
    env = trackfield.parallel_env("race_1v3", reward=speed_file)
    env.reset(seed=5)
    for _ in range(4):
        env.step({"car_0": np.array([0.6, 0.0], np.float32)})
    snap = env.get_state()
    _, expected, _, _, _ = env.step({"car_0": np.array([0.5, 0.2], np.float32)})
    for _ in range(5):
        env.step({"car_0": np.array([0.6, 0.0], np.float32)})
    env.set_state(snap)
    _, got, _, _, _ = env.step({"car_0": np.array([0.5, 0.2], np.float32)})
    assert got["car_0"] == expected["car_0"]
