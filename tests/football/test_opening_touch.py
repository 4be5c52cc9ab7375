"""Who is on the ball first after reset, and when GRF would first report him.

GRF's players start at rest; whoever is nearest the ball walks to it, and GRF reports him
on it only after his first touch, the later the farther he started (traced, 150 episodes
of the random player per academy scenario: a mean first report at step 2.4 from 0.6 m,
3.1 from 0.8 m, 3.9 from 1.0 m, 5.3 from 2.0 m). A kick pressed before that touch is the
touch itself, so he is never reported: a third of run_to_score's episodes start so, an
eighth of counterattack's.
"""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from conftest import ACADEMY_FLAGS, FAR_LAZY_KEEPER, GRF_METRES


def _line_up(scenario_file, player_x):
    # The ball on the centre spot, one left player behind it `player_x` (obs units) away.
    return scenario_file((0.0, 0.0), [(-1.0, 0.0, "GK", True), (-player_x, 0.0, "CM")], FAR_LAZY_KEEPER,
                         game_duration=60, deterministic=False, **ACADEMY_FLAGS)


def _start_distance(env):
    obs, _ = env.reset(seed=0)
    return float(np.linalg.norm((obs["left_team"][1] - obs["ball"][:2]) * GRF_METRES))


def _first_report_steps(env, seeds, first_actions=()):
    """Per seed: the step at which the left is first reported on the ball (None if the ball
    was struck away first)."""
    out = []
    for seed in seeds:
        env.reset(seed=seed)
        reported = None
        for t in range(1, 12):
            action = first_actions[t - 1] if t - 1 < len(first_actions) else 0
            obs, *_ = env.step(action)
            if obs["ball_owned_team"] == 0:
                reported = t
                break
            if np.linalg.norm(np.array(obs["ball_direction"][:2]) * GRF_METRES) * 10 > 9.0:
                break  # struck: his first touch was the kick
        out.append(reported)
    return out


@pytest.mark.parametrize("player_x, distance, low, high", [(0.011, 0.6, 2.1, 2.9), (0.037, 2.0, 4.6, 6.0)])
def test_the_first_report_comes_later_the_farther_the_player_starts(scenario_file, player_x, distance, low, high):
    env = trackfield.make(_line_up(scenario_file, player_x), representation="raw")
    assert _start_distance(env) == pytest.approx(distance, abs=0.15)
    steps = _first_report_steps(env, range(40))
    assert None not in steps
    assert low <= np.mean(steps) <= high, steps
    assert len(set(steps)) >= 2  # GRF's spread over three or four steps


@pytest.mark.parametrize("player_x, low, high", [(0.011, 0.1, 0.6), (0.02, 0.85, 1.0)])
def test_a_kick_pressed_before_the_first_touch_is_that_touch(scenario_file, player_x, low, high):
    # A short pass pressed on the second step (GRF ignores a press on the first): from
    # 0.6 m he has mostly touched the ball by then and is reported before the pass leaves;
    # from 1.1 m the pass is his first touch and he is never reported.
    env = trackfield.make(_line_up(scenario_file, player_x), representation="raw")
    steps = _first_report_steps(env, range(40), first_actions=(0, 11))
    struck_first = sum(s is None for s in steps) / len(steps)
    assert low <= struck_first <= high, steps
