"""Player movement: sticky directions, sprint and fatigue, lazy players, collisions, shielding."""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from conftest import DIRECTIONS, SPRINT_FLAG, DRIBBLE_FLAG, GAME_MODE, FAR_LAZY_KEEPER, NO_END_FLAGS, take_opening_ball


# ---------------------------------------------------------------------------- sticky actions


@pytest.fixture
def lone_runner(scenario_file):
    """One left player far from anyone else; the episode only times out. The ball is at the
    feet of the opponents' lazy keeper in his goal: a loose ball would draw the runner to it
    whatever he pressed (GRF's magnet)."""
    path = scenario_file((0.985, 0.3), [(-0.5, 0.0, "CM")], [(-1.0, -0.3, "GK", True)],
                         game_duration=400, deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw")
    obs, _ = env.reset(seed=0)
    assert obs["active"] == 0 and not obs["sticky_actions"].any()
    return env


@pytest.mark.parametrize("action", sorted(DIRECTIONS))
def test_direction_is_sticky_until_release_direction(lone_runner, action):
    env = lone_runner
    obs, *_ = env.step(action)
    expected = np.zeros(10, dtype=np.int32)
    expected[DIRECTIONS[action]] = 1
    assert np.array_equal(obs["sticky_actions"], expected)
    start = obs["left_team"][0].copy()
    for _ in range(5):  # idle keeps the direction (and the player running)
        obs, *_ = env.step(0)
        assert np.array_equal(obs["sticky_actions"], expected)
    moved = obs["left_team"][0] - start
    assert np.linalg.norm(moved) > 0.012  # 0.6 s from a standstill at 6.5 m/s^2: about 1.2 m
    # the movement goes the way of the action (GRF: "top" is negative y)
    dx = {1: -1, 2: -1, 3: 0, 4: 1, 5: 1, 6: 1, 7: 0, 8: -1}[action]
    dy = {1: 0, 2: -1, 3: -1, 4: -1, 5: 0, 6: 1, 7: 1, 8: 1}[action]
    assert np.sign(np.round(moved[0], 4)) == dx and np.sign(np.round(moved[1], 4)) == dy
    obs, *_ = env.step(14)
    assert not obs["sticky_actions"].any()
    for _ in range(10):
        obs, *_ = env.step(0)
    assert np.allclose(obs["left_team_direction"][0], 0.0)  # stopped


def test_new_direction_replaces_old_one(lone_runner):
    obs, *_ = lone_runner.step(5)
    obs, *_ = lone_runner.step(3)
    assert obs["sticky_actions"].tolist() == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]


def test_sprint_and_dribble_flags(lone_runner):
    env = lone_runner
    obs, *_ = env.step(13)
    assert obs["sticky_actions"][SPRINT_FLAG] == 1
    obs, *_ = env.step(5)
    assert obs["sticky_actions"][SPRINT_FLAG] == 1 and obs["sticky_actions"][DIRECTIONS[5]] == 1
    obs, *_ = env.step(0)
    assert obs["sticky_actions"][SPRINT_FLAG] == 1
    obs, *_ = env.step(15)
    assert obs["sticky_actions"][SPRINT_FLAG] == 0 and obs["sticky_actions"][DIRECTIONS[5]] == 1
    obs, *_ = env.step(17)
    assert obs["sticky_actions"][DRIBBLE_FLAG] == 1
    obs, *_ = env.step(0)
    assert obs["sticky_actions"][DRIBBLE_FLAG] == 1
    obs, *_ = env.step(18)
    assert obs["sticky_actions"][DRIBBLE_FLAG] == 0
    obs, *_ = env.step(14)
    assert not obs["sticky_actions"].any()


def test_sprint_is_faster_than_running(lone_runner):
    env = lone_runner
    for _ in range(15):
        obs, *_ = env.step(5)
    run_speed = obs["left_team_direction"][0][0]
    env.reset(seed=0)
    env.step(13)
    for _ in range(15):
        obs, *_ = env.step(5)
    sprint_speed = obs["left_team_direction"][0][0]
    assert sprint_speed > 1.2 * run_speed > 0


METRES_PER_OBS = np.array([52.5 * 54.4 / 55, 34 * 83.6 / 36])  # the engine's metres per observation unit


def test_tired_factor_builds_with_every_metre_run_in_play_and_never_recovers(lone_runner):
    # GRF's fatigue (player.cpp): each metre run in play takes 0.00003 x (2 - physical_stamina)
    # of a player's freshness, over its match-duration factor 0.027 x 0.2 + 0.05; slot 0's
    # stamina is 0.55. Sprinting and jogging tire alike per metre; standing does not undo it.
    env = lone_runner
    per_metre = 0.00003 * (2 - 0.55) / (0.027 * 0.2 + 0.05)
    obs, *_ = env.step(0)
    assert obs["left_team_tired_factor"][0] == 0.0
    metres, tired, where = 0.0, [0.0], obs["left_team"][0].copy()
    for action in [13] + [5] * 29 + [15] + [5] * 29:  # sprint 3 s, then jog 3 s
        obs, *_ = env.step(action)
        metres += float(np.linalg.norm((obs["left_team"][0] - where) * METRES_PER_OBS))
        where = obs["left_team"][0].copy()
        tired.append(float(obs["left_team_tired_factor"][0]))
    assert metres > 30  # 3 s at a sprint and 3 s at a jog
    assert all(b > a for a, b in zip(tired[2:], tired[3:]))
    assert tired[-1] == pytest.approx(per_metre * metres, rel=0.05)
    sprint_rate, jog_rate = tired[25] - tired[20], tired[-1] - tired[-6]
    assert 1.3 < sprint_rate / jog_rate < 2.0  # 8 against 5 m/s
    env.step(14)
    for _ in range(30):
        obs, *_ = env.step(0)
    assert float(obs["left_team_tired_factor"][0]) >= tired[-1]


def test_a_long_sprint_slows_a_field_player_and_rest_restores_him(lone_runner):
    # The sprint meter (not GRF's: its top speed never falls; docs/football_fidelity.md).
    env = lone_runner

    def speed(obs):
        return float(np.linalg.norm(obs["left_team_direction"][0] * METRES_PER_OBS * 10))

    env.step(13)
    speeds = [speed(env.step(5)[0]) for _ in range(80)]
    assert speeds[-1] < 0.85 * speeds[15]
    env.step(15)
    env.step(14)
    for _ in range(200):  # the meter falls 0.004 a step
        env.step(0)
    env.step(13)
    again = [speed(env.step(1)[0]) for _ in range(16)]
    assert again[-1] > 0.95 * speeds[15]


def _sprint_pace(scenario_file, slot):
    """Top speed (m/s) of the left team's player in `slot`, sprinting right for 20 steps."""
    left = [(-1.0, 0.42, "GK", True)] + [(-0.9 + 0.05 * k, -0.4, "CB", True) for k in range(1, slot)]
    left.append((-0.5, 0.0, "CM"))
    path = scenario_file((0.985, 0.3), left, [(-1.0, -0.3, "GK", True)],
                         game_duration=400, deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw")
    obs, _ = env.reset(seed=0)
    assert obs["active"] == slot
    env.step(13)
    for _ in range(20):
        obs, *_ = env.step(5)
    return obs["left_team_direction"][slot][0] * 10 * 54.4 / (55 / 52.5)


@pytest.mark.parametrize("fast,slow", [(8, 1), (1, 2)])
def test_players_differ_in_pace_as_grfs_profiles(scenario_file, fast, slow):
    # GRF's eleven player profiles, taken by a team's players in order and the same for both
    # teams: top speed 0.9 + 0.1 x physical_velocity (0.632 in slot 8, 0.536 in slot 1,
    # 0.464 in slot 2).
    velocity = {1: 0.536, 2: 0.464, 8: 0.632}
    ratio = _sprint_pace(scenario_file, fast) / _sprint_pace(scenario_file, slow)
    assert ratio == pytest.approx((0.9 + 0.1 * velocity[fast]) / (0.9 + 0.1 * velocity[slow]), abs=1e-3)


# ------------------------------------------------------------------------------------ lazy


def test_lazy_players_never_move():
    env = trackfield.make("academy_single_goal_versus_lazy", representation="raw")
    actions = np.random.default_rng(0).integers(0, 19, 3000)
    k = checked = 0
    for episode in range(6):
        obs, _ = env.reset(seed=episode)
        start = obs["right_team"][1:].copy()
        while True:
            obs, _, terminated, truncated, info = env.step(int(actions[k % len(actions)]))
            k += 1
            if info["game_mode"] != GAME_MODE["normal"]:
                break  # set pieces may place players; academy flags end the episode here anyway
            assert np.array_equal(obs["right_team"][1:], start)
            assert not obs["right_team_direction"][1:].any()
            checked += 1
            if terminated or truncated:
                break
    assert checked > 100


def _carrier_next_to_defender(scenario_file, lazy):
    # Our carrier's ball (0.6 m ahead of him) is 1.24 m from the defender: within tackling range.
    return scenario_file((0.01, 0.0), [(0.0, 0.0, "CF")],
                         [(1.0, 0.0, "GK", True), (-0.035, 0.0, "CB", lazy)],
                         game_duration=60, deterministic=False, right_team_difficulty=1.0, **NO_END_FLAGS)


def test_lazy_defender_never_wins_the_ball(scenario_file):
    env = trackfield.make(_carrier_next_to_defender(scenario_file, True), representation="raw")
    for seed in range(8):
        env.reset(seed=seed)
        obs = take_opening_ball(env)  # GRF reports him on the ball after his first touch
        defender = obs["right_team"][1].copy()
        for _ in range(40):
            obs, *_ = env.step(0)
            assert obs["ball_owned_team"] == 0
            assert np.array_equal(obs["right_team"][1], defender)


def test_active_defender_does_win_the_ball(scenario_file):
    # The same situation with an ordinary defender: the lazy test above can fail.
    env = trackfield.make(_carrier_next_to_defender(scenario_file, False), representation="raw")
    won = 0
    for seed in range(8):
        env.reset(seed=seed)
        for _ in range(41):
            obs, *_ = env.step(0)
            if obs["ball_owned_team"] == 1:
                won += 1
                break
    assert won >= 1


# ------------------------------------------------------------------------------- collisions


def test_players_do_not_pass_through_each_other(scenario_file):
    # Two agents' players run head-on along the same line (a right agent's "right" runs
    # towards the left goal); their centres never come closer than two body radii (0.8 m).
    # The ball is at the feet of a lazy keeper far away, so neither is drawn to it.
    path = scenario_file((0.985, 0.0), [(-1.0, 0.0, "GK", True), (0.1, 0.0, "CM")],
                         [(-1.0, 0.0, "GK", True), (-0.2, 0.0, "CB")],
                         game_duration=60, deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw", number_of_right_players_agent_controls=1)
    obs, _ = env.reset(seed=0)
    closest = np.inf
    for _ in range(40):
        obs, *_ = env.step([5, 5])  # both run "right" in their own frame: head-on
        # the left agent's view: its CM against the right team's CB
        gap = (obs["left_team"][0][1] - obs["right_team"][0][1]) * [52.5, 34 / 0.42]
        closest = min(closest, float(np.linalg.norm(gap)))
    assert 0.75 < closest < 1.5


@pytest.mark.parametrize("defender_behind,can_win", [(True, False), (False, True)])
def test_a_carrier_shields_the_ball_from_a_defender_behind_him(scenario_file, defender_behind, can_win):
    # Both players are agents: the carrier stands facing the opponents' goal with the ball at
    # his feet; the defender either pushes into his back towards the ball, or stands just
    # beyond the ball. From behind, the carrier's body keeps the ball out of reach.
    defender_x = -0.479 if defender_behind else -0.512  # own frame of the right team
    path = scenario_file((0.505, 0.0), [(-1.0, 0.0, "GK"), (0.495, 0.0, "CF")],
                         [(-1.0, 0.0, "GK"), (defender_x, 0.0, "CB")],
                         game_duration=60, deterministic=False, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw", number_of_right_players_agent_controls=1)
    won = 0
    for seed in range(5):
        env.reset(seed=seed)
        for t in range(40):
            push = defender_behind and t < 3  # a step or two towards the ball, then stand
            obs, *_ = env.step([0, 5 if push else 14])  # 5: "right" in his own frame, at the ball
        won += int(np.atleast_1d(obs["ball_owned_team"])[0]) == 1
    assert (won > 0) == can_win
