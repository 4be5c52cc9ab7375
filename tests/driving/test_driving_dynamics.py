"""GIGAFLOW's bicycle dynamics through the step hook: the accelerations' sign rule a(t-1) a(t) < 0 -> 0,
and the speed's, against the sign of the last nonzero speed."""
import numpy as np
import pytest

from trackfield import _engine

D = _engine.driving
THROTTLE, CRUISE, EASE, BRAKE = 10, 7, 4, 1  # jerk +4, 0, -4, -15 m/s^3 along, none across
A_LONG, V = 4, 3


def drive(actions, v0=8.0):
    state = np.zeros((1, 10))
    state[0, V] = v0
    state[0, 7:] = 1.0
    vehicle = np.array([[4.5, 1.8, 1, 1, 1, 1]])
    rows = []
    for a in actions:
        state = D.step_bicycle(state, vehicle, np.array([a]))
        rows.append(state[0].copy())
    return np.array(rows)


def test_first_braking_step_after_cruising_brakes():
    # Accelerate, ease off to a = 0 (the reversal snaps to exactly 0), cruise, then brake:
    # the previous acceleration is 0, so a(t-1) a(t) = 0 and the braking step is not lost.
    rows = drive([THROTTLE, EASE, CRUISE, CRUISE, EASE])
    assert rows[0, A_LONG] == pytest.approx(1.2)
    assert rows[1, A_LONG] == 0.0 and rows[3, A_LONG] == 0.0
    assert rows[4, A_LONG] == pytest.approx(-1.2)
    assert rows[4, V] < rows[3, V]


def test_a_reversal_spends_one_step_at_zero():
    rows = drive([THROTTLE, THROTTLE, BRAKE, BRAKE])
    assert rows[1, A_LONG] == pytest.approx(2.4)
    assert rows[2, A_LONG] == 0.0            # 2.4 - 4.5 < 0 while a(t-1) > 0
    assert rows[3, A_LONG] == pytest.approx(-4.5)


def test_speed_changing_direction_spends_a_step_at_zero_even_from_rest():
    rows = drive([BRAKE, BRAKE, BRAKE], v0=1.0)
    crossing = np.flatnonzero(rows[:, V] <= 0.0)[0]
    assert rows[crossing, V] == 0.0          # a forward speed never jumps straight to reverse
    assert rows[crossing + 1, V] < 0.0       # and reverses on the next step
    rows = drive([BRAKE, BRAKE], v0=0.0)     # at rest after forward motion (the start's sign is +)
    assert rows[0, V] == 0.0 and rows[1, V] < 0.0
