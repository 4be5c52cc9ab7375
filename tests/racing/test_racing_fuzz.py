"""Bad input to the racing bindings and envs: always a Python exception naming the
argument, never a crash or a silently clipped value (also run under ASan/UBSan by
``make asan``)."""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from trackfield import _engine
from trackfield.racing import load_track


@pytest.fixture(scope="module")
def technical():
    return load_track("technical").to_engine()


def test_corrupted_states_are_refused(technical):
    env = trackfield.make("race_1v3")
    env.reset(seed=0)
    for _ in range(5):
        env.step(np.array([1.0, 0.0], np.float32))
    good = env.unwrapped.get_state()
    rng = np.random.default_rng(0)
    accepted = refused = 0
    for trial in range(90):
        bad = bytearray(good)
        if trial % 3 == 0:
            bad = bad[: int(rng.integers(0, len(bad)))]  # truncated
        else:
            for k in rng.integers(32, len(bad), size=int(rng.integers(1, 40))):
                bad[k] = int(rng.integers(0, 256))
            if trial % 3 == 2:  # an edit, not damage: the checksum recomputed, so only the field checks stand
                bad = bytearray(_engine.common.reseal_snapshot(bytes(bad)))
        try:
            env.reset(options={"state": bytes(bad)})
        except ValueError:
            refused += 1
            continue
        # Accepted (the edited bytes were harmless): the world must still step and stay finite.
        accepted += 1
        obs, reward, *_ = env.step(np.array([0.5, 0.1], np.float32))
        assert np.isfinite(obs).all() and np.isfinite(reward)
    assert refused > 30 and accepted > 0, (refused, accepted)
    with pytest.raises(ValueError):
        trackfield.make("race_1v1").reset(options={"state": good})  # another scenario's state


@pytest.mark.parametrize("action", [
    [np.nan, 0.0], [0.0, np.inf], [1.0001, 0.0], [0.0, -2.0], [0.0], [0.0, 0.0, 0.0], "fast", None, [True, False],
])
def test_bad_actions_raise_and_never_clip(action):
    env = trackfield.make("race_1v1")
    env.reset(seed=0)
    with pytest.raises((ValueError, TypeError)):
        env.step(action)


@pytest.mark.parametrize("kwargs, match", [
    ({"car": "f1"}, "car"),
    ({"track": "/no/such/track.csv"}, "track"),
    ({"action_delay_s": -0.1}, "action_delay_s"),
    ({"observation_delay_s": float("nan")}, "observation_delay_s"),
    ({"off_course_rule": "two_tyres"}, "off_course_rule"),
    ({"section_modifiers": {"final_chicane": {"speed": 2}}}, "speed"),
    ({"section_modifiers": {"no_such_section": {"passing": 0}}}, "no_such_section"),
    ({"start_slot": 25}, "start_slot"),
    ({"groups": 0}, "groups"),
    ({"penalties": "yes"}, "penalties"),
])
def test_bad_config_names_the_argument(kwargs, match):
    scenario = "race_final_chicane_traffic" if "section_modifiers" in kwargs else "race_field"
    with pytest.raises((ValueError, TypeError, FileNotFoundError), match=match):
        trackfield.make(scenario, **kwargs)


def test_car_sim_survives_random_poses_and_controls(technical):
    rng = np.random.default_rng(1)
    for car in ("road", "gt3", "prototype"):
        sim = _engine.racing.CarSim(technical, car)
        for _ in range(40):
            sim.place(float(rng.uniform(-1e4, 1e4)), float(rng.uniform(-30, 30)), float(rng.uniform(0, 120)),
                      float(rng.uniform(-7, 7)))
            for _ in range(20):
                sim.step(float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1)), int(rng.integers(1, 20)),
                         allow_reverse=bool(rng.integers(0, 2)))
            state = sim.state
            assert all(np.isfinite(state[k]) for k in ("x", "y", "yaw", "vx", "vy", "yaw_rate", "s", "d"))
            assert 0 <= state["s"] < load_track("technical").length + 1e-3
    with pytest.raises(ValueError, match="speed"):
        sim.place(0.0, 0.0, float("nan"))


def test_racing_line_input_is_checked(technical):
    with pytest.raises(ValueError, match="raceline"):
        _engine.racing.build_racing_line(technical, "gt3", np.zeros((5, 2), np.float32))
    with pytest.raises(ValueError, match="not finite"):
        bad = np.asarray(load_track("technical").xy, np.float32).copy()
        bad[7, 1] = np.nan
        _engine.racing.build_racing_line(technical, "gt3", bad)
    far = np.asarray(load_track("technical").xy, np.float32) + 500.0  # a line somewhere else
    with pytest.raises(ValueError, match="beyond its walls"):
        _engine.racing.build_racing_line(technical, "gt3", far)
