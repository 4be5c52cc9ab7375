"""An agent's dribbler turns as GRF's (issue 9, part 1: dynamics).

Facts from GRF 2.10.2 (tools/football_probes.py turn, TURN_WIDE=1 and TURN_PACE=sprint, run
or dribble; three seeds): a player who has run right with the ball for 2 s and is then sent
up keeps running right while sprinting (6.5-6.9 m/s right 0.4-0.8 s later, 5.7 m/s after
1.3 s: his run swings round at about 30 degrees a second), but at running pace turns the
right angle in about half a second. Sent back, he stops and is running the other way 0.6 s
after the press at either pace. Ours used to change velocity at 6.5 m/s^2 whichever way:
sprinting, sent up, 3.0 m/s right after 1 s; sent back, still going right after 1 s.
With dribble held (dribbling pace, 3.8 m/s) GRF's dribbler keeps his run for about 0.3 s
before a turn of 90 degrees or more (sent up: 3.8, 3.8, 3.7, 3.4, 2.2 m/s right over the
first five steps), and has turned by 0.7 s; half that turn (ahead-and-up) starts at once.
"""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from conftest import GRF_METRES

LEFT, UP, UP_RIGHT, RIGHT, SPRINT, DRIBBLE = 1, 3, 4, 5, 13, 17


def dribbler_velocities(scenario_file, turn_action, pace_action, steps_after):
    # The probe's line-up: the left centre-back on the ball just behind halfway, his keeper
    # the only team-mate, the right team's keeper alone at the far end.
    path = scenario_file(
        ball=(-0.28, 0.0),
        left=[(-1.0, 0.3, "GK"), (-0.3, 0.0, "CB")],
        right=[(-1.0, 0.0, "GK")],
        game_duration=200, deterministic=False, offsides=False,
        end_episode_on_possession_change=False,
    )
    env = trackfield.make(path, representation="raw")
    runs = []
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        velocities = []
        for step, action in enumerate([RIGHT, pace_action] + [RIGHT] * 20 + [turn_action] * steps_after):
            obs, _, terminated, truncated, _ = env.step(action)
            # (Reported on the ball from his first touch, a few steps in.)
            assert step < 10 or (obs["ball_owned_team"] == 0 and obs["ball_owned_player"] == 1), "he lost the ball"
            velocities.append(np.asarray(obs["left_team_direction"][1]) * 10 * GRF_METRES)
        runs.append(velocities[22:])
    return np.mean(runs, axis=0)  # per step from the one the turn is pressed on, m/s


def test_a_sprinting_dribbler_sent_up_keeps_running_on(scenario_file):
    v = dribbler_velocities(scenario_file, UP, SPRINT, 11)
    speed_right, speed_up = v[10, 0], -v[10, 1]
    assert speed_right > 5.0, f"1 s after the turn he runs {speed_right:.1f} m/s right (GRF 5.7-6.5)"
    assert 0.5 < speed_up < speed_right, f"and {speed_up:.1f} m/s up: his run swings round gradually"


def test_a_running_dribbler_turns_a_right_angle_in_about_half_a_second(scenario_file):
    v = dribbler_velocities(scenario_file, UP, RIGHT, 8)
    assert abs(v[6, 0]) < 1.5, f"0.6 s after the turn he still runs {v[6, 0]:.1f} m/s right (GRF 0.5-1.2)"
    assert -v[6, 1] > 2.5, f"and only {-v[6, 1]:.1f} m/s up"


@pytest.mark.parametrize("pace_action", [SPRINT, RIGHT], ids=["sprinting", "running"])
def test_a_dribbler_sent_back_is_running_the_other_way_within_0_8_s(scenario_file, pace_action):
    v = dribbler_velocities(scenario_file, LEFT, pace_action, 9)
    assert v[8, 0] < -0.5, f"0.8 s after the turn he runs {v[8, 0]:.1f} m/s along x (GRF -2.4 to -3.6)"


def test_a_dribbler_with_dribble_held_keeps_his_run_briefly_before_a_sharp_turn(scenario_file):
    v = dribbler_velocities(scenario_file, UP, DRIBBLE, 8)
    assert v[2, 0] > 3.0, f"0.2 s after the press he runs {v[2, 0]:.1f} m/s right (GRF 3.7): he turned at once"
    assert abs(v[7, 0]) < 0.5 and -v[7, 1] > 1.5, f"0.7 s after it he runs {v[7]} m/s (GRF 0.0, -2.5): he never turned"


def test_a_dribbler_with_dribble_held_starts_a_half_turn_at_once(scenario_file):
    v = dribbler_velocities(scenario_file, UP_RIGHT, DRIBBLE, 3)
    assert -v[1, 1] > 0.4, f"0.1 s after the press he runs {-v[1, 1]:.1f} m/s up (GRF 0.5)"
