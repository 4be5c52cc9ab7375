"""GRF's race for a loose ball, its keeper's hands at a dribbler's feet and an agent's shot
struck the way his run goes: each figure measured on real GRF with tools/football_probes.py."""
import numpy as np
import trackfield

from conftest import NO_END_FLAGS, ACADEMY_FLAGS

METRES = np.array([52.5, 34 / 0.42])  # obs units -> metres (x, y)
UP = 3


def test_the_selected_player_runs_onto_a_loose_ball_his_team_wins_whatever_is_held(scenario_file):
    # GRF (probe loose_ball): the ball loose 22 m away, "top" held all along: the player
    # runs onto it and owns it at step 40.
    path = scenario_file((0.4, 0.1), [(-1.0, 0.0, "GK"), (0.0, 0.0, "CM")], [(-1.0, 0.0, "GK")],
                         game_duration=100, deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    for step in range(60):
        obs, *_ = env.step(UP)
        if obs["ball_owned_team"] == 0:
            break
    assert obs["ball_owned_team"] == 0 and 30 <= step <= 50, step
    assert obs["ball_owned_player"] == 1  # the field player, not the keeper


def test_a_player_losing_the_race_mostly_goes_where_he_is_told(scenario_file):
    # An opponent stands 2 m from the loose ball, ours 40 m off: "top" moves him up.
    path = scenario_file((0.4, 0.1), [(-1.0, 0.0, "GK"), (-0.35, 0.0, "CM")],
                         [(-1.0, 0.0, "GK"), (-0.42, -0.1, "CB", True)],
                         game_duration=100, deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw")
    obs, _ = env.reset(seed=0)
    start = obs["left_team"][1].copy()
    for _ in range(10):
        obs, *_ = env.step(UP)
    moved = (obs["left_team"][1] - start) * METRES
    assert moved[1] < -3.0 and abs(moved[0]) < 0.5 * abs(moved[1]), moved


def _defender_closing(scenario_file, our_x):
    # A right AI centre-back 16 m from a loose ball; our idle player stands our_x away.
    path = scenario_file((0.3, 0.0), [(-1.0, 0.0, "GK"), (our_x, 0.0, "CM")],
                         [(-1.0, 0.0, "GK"), (-0.6, 0.0, "CB")],
                         game_duration=100, deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw")
    obs, _ = env.reset(seed=0)
    before = np.linalg.norm((obs["right_team"][1] - obs["ball"][:2]) * METRES)
    for _ in range(15):
        obs, *_ = env.step(0)
        if obs["ball_owned_team"] >= 0:
            break
    return before - np.linalg.norm((obs["right_team"][1] - obs["ball"][:2]) * METRES)


def test_only_the_team_that_wins_the_race_runs_at_a_loose_ball(scenario_file):
    # GRF's AI sends the match's designated possession player alone: a defender whose
    # opponent will get there first takes up a defending position instead of charging.
    charges = _defender_closing(scenario_file, our_x=-0.5)   # ours 42 m away: the CB wins
    holds = _defender_closing(scenario_file, our_x=0.15)     # ours 8 m away: the CB loses
    assert charges > 6.0 and holds < 2.0, (charges, holds)


def test_a_keeper_takes_the_ball_off_a_dribbler_running_at_him(scenario_file):
    # GRF (probe keeper_claim): a dribbler running straight at the keeper from 21 m is
    # stopped 20 times in 20, in 21 steps on average.
    path = scenario_file((0.62, 0.0), [(-1.0, 0.0, "GK"), (0.6, 0.0, "CF")], [(-1.0, 0.0, "GK")],
                         game_duration=100, deterministic=False, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    taken, lengths = 0, []
    for seed in range(20):
        env.reset(seed=seed)
        for step in range(100):
            obs, reward, terminated, truncated, _ = env.step(5)
            if terminated or truncated:
                break
        taken += obs["ball_owned_team"] == 1
        lengths.append(step + 1)
    assert taken >= 18 and 15 <= np.mean(lengths) <= 30, (taken, np.mean(lengths))


def _goals_from_14_m(scenario_file, direction):
    path = scenario_file((0.74, 0.0), [(-1.0, 0.0, "GK"), (0.72, 0.0, "CF")], [(-1.0, 0.0, "GK")],
                         game_duration=100, deterministic=False, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    goals = 0
    for seed in range(16):
        env.reset(seed=seed)
        for action in [direction] * 4 + [12] + [direction] * 40:
            obs, reward, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break
        goals += reward > 0
    return goals


def test_an_agents_shot_goes_the_way_of_his_run(scenario_file):
    # GRF (probe shots, 14 m out, 16 seeds, two runs): running at goal 9-15 score; across
    # the goal none (all wide); standing one (a weak shot the keeper holds or stops short).
    assert _goals_from_14_m(scenario_file, 5) >= 12
    assert _goals_from_14_m(scenario_file, UP) <= 5
    assert _goals_from_14_m(scenario_file, 0) <= 3


def test_a_long_shot_the_keeper_gathers_on_his_line_is_no_goal(scenario_file):
    # GRF (probe shots from 38 m, running at goal): the keeper holds all 16. trackfield's
    # keeper backs onto his line for a slow shot; the ball he catches stays in his hands
    # (it used to sit at his feet ahead of him, over the line: a goal).
    path = scenario_file((0.27, -0.1), [(-1.0, 0.0, "GK"), (0.25, -0.1, "CF")], [(-1.0, 0.0, "GK")],
                         game_duration=100, deterministic=False, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    held = 0
    for seed in range(16):
        env.reset(seed=seed)
        for action in [5] * 4 + [12] + [5] * 40:
            obs, reward, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break
        held += obs["ball_owned_team"] == 1 and reward == 0
    assert held >= 12


def test_the_keeper_collects_a_loose_ball_his_team_wins_in_his_half(scenario_file):
    # GRF (traced in academy_empty_goal_close): a ball that stops 20 m out, outside the box,
    # with the nearest attacker 40 m away, is fetched by the keeper; before, trackfield's
    # keeper waited on his line and the episode ran out of time.
    path = scenario_file((0.61, -0.04), [(-1.0, 0.0, "GK"), (-0.2, 0.0, "CM")], [(-1.0, 0.0, "GK")],
                         game_duration=100, deterministic=True, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    for step in range(60):
        obs, reward, terminated, truncated, _ = env.step(1)  # our player runs the other way
        if obs["ball_owned_team"] == 1 or terminated or truncated:
            break
    assert obs["ball_owned_team"] == 1 and step < 40, step
