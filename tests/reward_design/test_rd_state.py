"""The typed race state: env plumbing (race_state=True), field meanings, indexing, docs."""
import dataclasses

import numpy as np
import pytest

import trackfield
from trackfield.reward_design import CarState, api_doc, api_source, course_of_env


def test_race_state_in_info_matches_the_engine_info():
    env = trackfield.make("race_1v3", race_state=True)
    _, info = env.reset(seed=3)
    state = info["race_state"]
    assert isinstance(state, CarState) and len(state) == 4
    assert state.controlled.tolist() == [True, False, False, False]
    for _ in range(5):
        _, _, _, _, info = env.step(env.unwrapped.ai_action())
    s = info["race_state"]
    assert s.lap[0] == info["lap"]
    assert s.progress[0] == pytest.approx(info["progress_m"], abs=1e-3)
    assert s.speed_kmh[0] == pytest.approx(info["speed_kmh"], abs=1e-2)
    assert s.rank[0] == info["place"]
    assert s.tyre_off_s[0] == pytest.approx(info["tyre_off_s"], abs=1e-5)
    assert s.time_s[0] == pytest.approx(info["time_s"], abs=1e-4)
    assert np.all(s.steering_history[:, 0] == s.steering)
    assert s.steering[0] == pytest.approx(float(env.unwrapped.unwrapped_engine.actions[0, 0, 1]), abs=1e-6)
    # Positions agree with the engine's car table; distances are antisymmetric.
    cars = env.unwrapped.unwrapped_engine.batch.cars(0)
    np.testing.assert_allclose(s.position[:, :2], cars[:, :2], atol=1e-3)
    np.testing.assert_allclose(s.distance, -s.distance.T, atol=1e-3)
    assert (s.rank == np.argsort(np.argsort(-(s.start_offset + s.progress)))).all()


def test_steering_history_shifts_one_per_step():
    env = trackfield.make("race_time_trial", race_state=True)
    env.reset(seed=0)
    steers = [0.1, -0.2, 0.3, -0.4]
    for a in steers:
        _, _, _, _, info = env.step(np.array([0.5, a], np.float32))
    np.testing.assert_allclose(info["race_state"].steering_history[0, :4], steers[::-1], atol=1e-6)
    assert np.all(info["race_state"].steering_history[0, 4:] == 0)


def test_state_index_is_one_car_of_the_same_type():
    env = trackfield.make("race_1v3", race_state=True)
    _, info = env.reset(seed=1)
    one = info["race_state"][2]
    assert isinstance(one, CarState) and len(one) == 1
    assert one.position.shape == (1, 3) and one.contact.shape == (1, 4)
    assert one.progress[0] == info["race_state"].progress[2]
    with pytest.raises(IndexError):
        info["race_state"][4]


def test_vector_env_states_cover_every_car_of_every_world():
    env = trackfield.vector.make("race_1v3", num_envs=3, race_state=True, max_time_s=0.5)
    _, info = env.reset(seed=0)
    assert len(info["race_state"]) == 12
    for _ in range(5):  # crosses an autoreset
        _, _, term, trunc, info = env.step(np.zeros((3, 2), np.float32))
    s = info["race_state"]
    assert s.world.tolist() == [w for w in range(3) for _ in range(4)]
    assert (s.others[5] == np.arange(4, 8)).all()
    assert "race_state" in info["final_info"]


def test_parallel_env_carries_state():
    env = trackfield.parallel_env("race_1v3", agents=2, race_state=True)
    _, infos = env.reset(seed=0)
    assert infos["car_0"]["race_state"].controlled.tolist() == [True, True, False, False]
    _, _, _, _, infos = env.step({a: np.zeros(2, np.float32) for a in env.agents})
    assert len(infos["car_1"]["race_state"]) == 4


def test_api_source_and_doc_list_every_field():
    source, doc = api_source(), api_doc()
    for f in dataclasses.fields(CarState):
        assert f"    {f.name}:" in source
        assert f"| {f.name} |" in doc
    assert "class Course" in source and "max_episode_duration_s" in source


def test_course_of_env():
    env = trackfield.make("race_1v7", race_state=True)
    course = course_of_env(env)
    assert course.length > 100 and course.centre_line.shape[1] == 3
    assert course.left_edge.shape == course.centre_line.shape
    assert course.max_episode_duration_s == 150.0
