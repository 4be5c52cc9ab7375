"""The built-in AI's racecraft: constructed two-car situations and a short field race.

Measured on the AI before it drove the path it is actually on (target speed from the
offset path, braking-aware following, room for a car alongside, rate-limited moves): a
2-lap race_field on technical had 263 contact events, 20 of 20 cars off course and 19
spins; `env.ai_action()` sat stuck after a spin without allow_reverse.
"""
import numpy as np
import pytest

import trackfield
from trackfield.racing.racecraft import run_race

# technical: a 380 m straight (s 1560-1940) into a 15 m hairpin at s 2000.
STRAIGHT_S = 1850.0


def _place(env, car, s, d=0.0, speed=0.0, heading=0.0):
    env.unwrapped._engine.batch.place_car(0, car, s, d, speed, heading)


def test_car_behind_does_not_ram_a_car_braking_hard_ahead():
    env = trackfield.make("race_1v1", track="technical", race_state=True)
    env.reset(seed=0)
    _place(env, 0, STRAIGHT_S, 0.0, 55.0)          # the agent's car: full braking from 200 km/h
    _place(env, 1, STRAIGHT_S - 15.0, 0.0, 55.0)   # the AI 15 m behind at the same speed
    touched = 0
    for _ in range(40):
        _, _, _, _, info = env.step(np.array([-1.0, 0.0], np.float32))
        touched += int(info["race_state"].car_contact[1])
    assert touched == 0


def test_car_alongside_into_a_corner_is_given_room():
    env = trackfield.make("race_1v1", track="technical", agents=0, race_state=True)
    env.reset(seed=0)
    _place(env, 0, STRAIGHT_S + 40.0, 3.0, 45.0)   # side by side, 3.5 m apart, into the hairpin
    _place(env, 1, STRAIGHT_S + 41.0, -0.5, 45.0)
    touched = off = 0
    for _ in range(80):
        _, _, _, _, info = env.step(np.zeros((0, 2), np.float32))
        st = info["race_state"]
        touched += int(st.car_contact.any())
        off += int(st.off_course_three_tyres.any())
    assert touched == 0
    assert off == 0
    cars = env.unwrapped._engine.batch.cars(0)
    assert np.all(cars[:, 3] > 10.0)  # both still racing


@pytest.mark.parametrize("heading,d", [(np.pi, 0.0), (np.pi / 2, -4.0), (-2.0, 4.0)])
def test_ai_action_recovers_from_a_spin_without_allow_reverse(heading, d):
    env = trackfield.make("race_time_trial", track="technical", race_state=True)
    assert env.unwrapped.config.allow_reverse is False
    env.reset(seed=0)
    _place(env, 0, 1700.0, d, 0.0, heading)  # stopped, facing backwards or crossways
    for _ in range(200):
        _, _, _, _, info = env.step(env.unwrapped.ai_action())
    st = info["race_state"]
    assert abs(st.heading[0]) < 0.5
    assert st.speed_kmh[0] > 50.0


def test_only_the_ai_suggestion_may_reverse_without_allow_reverse():
    env = trackfield.make("race_time_trial", track="technical")
    env.reset(seed=0)
    _place(env, 0, 1700.0, 0.0, 0.0, 0.0)
    for _ in range(20):
        _, _, _, _, info = env.step(np.array([-1.0, 0.0], np.float32))
    assert info["speed_kmh"] >= 0.0  # brake held at a standstill: no reverse for the agent's own actions


def test_ai_aggression_is_validated():
    with pytest.raises(ValueError, match="ai_aggression"):
        trackfield.make("race_1v1", ai_aggression=1.5)
    env = trackfield.make("race_1v1", ai_aggression=0.0)
    env.reset(seed=0)


@pytest.mark.statistical
def test_a_field_races_cleanly():
    r = run_race("race_field", "technical", laps=2, seed=0)
    assert r.all_finished
    assert r.contact_events <= 10
    assert r.cars_off_course <= 2
    assert r.cars_spun <= 1
    assert r.order_changes >= 10
    assert r.clean_share >= 0.5


def test_two_cars_side_by_side_closer_than_a_lane_sort_it_out_without_contact():
    # At 40 places round the gt circuit, two AI cars 2.4 m apart (less than a lane), one's
    # nose 2.5 m ahead, at 144 km/h. Before the car behind dropped back out of the overlap
    # and the point steered for kept the lane, 11 of the 40 touched; now 4.
    env = trackfield.make("race_1v1", track="gt", agents=0, race_state=True)
    touched = 0
    for s in range(0, 4000, 100):
        env.reset(seed=0)
        _place(env, 0, s + 2.5, -1.2, 40.0)
        _place(env, 1, float(s), 1.2, 40.0)
        hit = False
        for _ in range(40):
            _, _, _, _, info = env.step(np.zeros((0, 2), np.float32))
            hit |= bool(info["race_state"].car_contact.any())
        touched += int(hit)
    assert touched <= 6
