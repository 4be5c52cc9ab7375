"""Kicks and GRF-measured behaviours: passes, offside, shots, the keeper, ball drag, kick order.

Scenario coordinates are GRF units in each team's own frame (own goal at x = -1).
A field player controls a loose ball within 0.9 m of his feet (0.1 m ahead of him); the
ball sits 0.6 m ahead of its carrier, so a ball 0.01 units (0.525 m) ahead of a player
is his at the first step. As in GRF, a kick is an animation: the ball leaves the foot
KICK_WINDUP steps after the press (one more when turning), and a pass always goes to the
best-placed team-mate when there is one (behind the passer included).
"""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from conftest import GAME_MODE, FAR_LAZY_KEEPER, GRF_METRES, MAX_KICK_WINDUP, press_kick, take_opening_ball, ACADEMY_FLAGS, NO_END_FLAGS


# ----------------------------------------------------------------------------------- passing


@pytest.mark.parametrize("receiver", [(0.55, 0.0), (0.5, 0.0), (0.6, 0.0)])
def test_short_pass_reaches_teammate_ahead(scenario_file, receiver):
    path = scenario_file((0.31, 0.0),
                         [(-1.0, 0.0, "GK"), (0.3, 0.0, "CM"), (receiver[0], receiver[1], "CF")],
                         FAR_LAZY_KEEPER, game_duration=200, deterministic=True, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    obs, _ = env.reset(seed=0)
    assert obs["active"] == 1
    env.step(0)  # his first touch: GRF reports him on the ball after it
    obs, *_ = env.step(0)
    assert (obs["ball_owned_team"], obs["ball_owned_player"], obs["active"]) == (0, 1, 1)
    obs = press_kick(env, 11)  # the ball is on its way
    received = None
    for t in range(50):
        obs, _, terminated, truncated, _ = env.step(0)
        assert not (terminated or truncated)
        if obs["ball_owned_team"] == 0 and obs["ball_owned_player"] == 2:
            received = t
            break
    assert received is not None, "the pass never reached the team-mate"
    assert obs["active"] == 2  # the single agent now controls the receiver


@pytest.mark.parametrize("receiver,turn", [((0.3, -0.05), 3), ((0.3, 0.25), 7), ((0.45, -0.05), 4)],
                         ids=["above", "below", "diagonal"])
def test_short_pass_reaches_teammate_after_turning_to_face_him(scenario_file, receiver, turn):
    # The passer turns towards a stationary, unmarked team-mate 12 m away and passes.
    path = scenario_file((0.31, 0.1),
                         [(-1.0, 0.0, "GK"), (0.3, 0.1, "CM"), (receiver[0], receiver[1], "CF")],
                         FAR_LAZY_KEEPER, game_duration=200, deterministic=True, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    env.step(turn)  # his first touch
    obs, *_ = env.step(turn)
    assert (obs["ball_owned_team"], obs["ball_owned_player"]) == (0, 1)
    obs = press_kick(env, 11)
    assert obs["active"] == 2
    env.step(14)
    owner = None
    for _ in range(40):
        obs, _, terminated, truncated, _ = env.step(0)
        if obs["ball_owned_team"] >= 0 or terminated or truncated:
            owner = (int(obs["ball_owned_team"]), int(obs["ball_owned_player"]))
            break
    assert owner == (0, 2), f"the pass was collected by {owner}, not the receiver"


def test_short_pass_with_deterministic_false_reaches_teammate(scenario_file):
    path = scenario_file((0.31, 0.0), [(-1.0, 0.0, "GK"), (0.3, 0.0, "CM"), (0.55, 0.0, "CF")],
                         FAR_LAZY_KEEPER, game_duration=200, deterministic=False, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    reached = 0
    for seed in range(10):
        env.reset(seed=seed)
        for a in [0, 11] + [0] * 50:
            obs, _, terminated, truncated, _ = env.step(a)
            if obs["ball_owned_team"] == 0 and obs["ball_owned_player"] == 2:
                reached += 1
                break
            if terminated or truncated:
                break
    assert reached >= 8


@pytest.mark.parametrize("deterministic", [False, True])
def test_a_receiver_with_a_shot_queued_sometimes_controls_the_pass_first(scenario_file, deterministic):
    # The agent drives the receiver while the pass travels and presses a shot on the way.
    # GRF, traced (counterattack_easy, run_to_score_with_keeper, the passing scenarios): he
    # is reported on the ball first in a quarter to a third of such receptions and strikes
    # it first time, never reported, in the rest. deterministic=True: always first time.
    path = scenario_file((0.31, 0.0), [(-1.0, 0.0, "GK"), (0.3, 0.0, "CM"), (0.55, 0.0, "CF")],
                         FAR_LAZY_KEEPER, game_duration=200, deterministic=deterministic, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    controlled = first_time = 0
    for seed in range(80 if not deterministic else 5):
        env.reset(seed=seed)
        take_opening_ball(env, player=1)
        obs = press_kick(env, 11)
        assert obs["active"] == 2
        obs, *_ = env.step(12)  # the shot, queued until the ball reaches him
        speed = np.inf
        for _ in range(40):
            obs, _, terminated, truncated, _ = env.step(0)
            if obs["ball_owned_team"] == 0 and obs["ball_owned_player"] == 2:
                controlled += 1
                break
            was, speed = speed, np.linalg.norm(np.array(obs["ball_direction"][:2]) * GRF_METRES) * 10
            near = np.linalg.norm((np.array(obs["ball"][:2]) - obs["left_team"][2]) * GRF_METRES)
            # Struck on towards goal without being reported: the ball goes on past him faster
            # than it came (a pass that runs by only slows). How fast depends on how he meets
            # it: the AI's shape may have him running back at the passer when the agent takes
            # him over (GRF's support position holds him behind the ball's line here).
            if obs["ball"][0] > obs["left_team"][2][0] + 0.01 and speed > was + 2.0 and near < 3:
                first_time += 1
                break
            if terminated or truncated:
                break  # the pass ran past him
    if deterministic:
        assert (controlled, first_time) == (0, 5)
    else:
        assert controlled + first_time >= 65, (controlled, first_time)
        assert 5 <= controlled <= 25, (controlled, first_time)


@pytest.mark.parametrize("offsides", [True, False])
@pytest.mark.parametrize("defender_x", [-0.5, -0.7])  # own frame: 0.5 / 0.7 in ours
def test_offside_pass_gives_free_kick(scenario_file, offsides, defender_x):
    # The receiver at 0.6 is beyond the second-last defender (a lazy CB) when it is at 0.5,
    # level-or-behind it when the CB is at 0.7.
    path = scenario_file((0.31, 0.0), [(-1.0, 0.0, "GK"), (0.3, 0.0, "CM"), (0.6, 0.0, "CF")],
                         [(-1.0, 0.0, "GK", True), (defender_x, -0.2, "CB", True)],
                         game_duration=100, deterministic=True, **dict(ACADEMY_FLAGS, offsides=offsides))
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    received = False
    for a in [0, 11] + [0] * 40:
        obs, _, terminated, truncated, info = env.step(a)
        if terminated or truncated:
            break
        if obs["ball_owned_team"] == 0 and obs["ball_owned_player"] == 2:
            received = True
            break
    if offsides and defender_x == -0.5:
        assert terminated and not received
        assert info["game_mode"] == GAME_MODE["free_kick"]
        assert np.allclose(obs["ball"][:2], obs["left_team"][2], atol=0.02)  # where the offside was
    else:
        assert received and not terminated


# ------------------------------------------------------- GRF behaviours measured on real GRF


def test_nobody_owns_the_ball_at_reset_and_the_nearer_attacker_takes_it():
    # GRF reports no owner in the first observation; its ball magnet walks the nearest
    # controlled attacker onto the ball whatever direction is pressed (measured: pressing
    # left, then up, with the ball a metre to the right).
    env = trackfield.make("academy_run_to_score", representation="raw")
    obs, _ = env.reset(seed=0)
    assert obs["ball_owned_team"] == -1 and obs["ball_owned_player"] == -1
    for action in [1, 3, 1, 3, 1, 3]:
        obs, *_ = env.step(action)
        if obs["ball_owned_team"] >= 0:
            break
    assert (obs["ball_owned_team"], obs["ball_owned_player"]) == (0, 1)


def test_a_pass_goes_to_the_best_placed_mate_even_behind(scenario_file):
    # GRF rates every team-mate by distance from where the press points and by angle:
    # the only mate is the keeper 50 m behind, so a pass pressed forwards goes back to him.
    path = scenario_file((0.01, 0.0), [(-1.0, 0.0, "GK"), (0.0, 0.0, "CM")], FAR_LAZY_KEEPER,
                         game_duration=100, deterministic=True, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    env.step(5), env.step(5)  # his first touch: GRF reports him on the ball after it
    obs = press_kick(env, 11)
    assert obs["ball_direction"][0] < 0  # backwards, towards our keeper
    assert obs["active"] == 0  # the agent drives the receiver, the keeper included (GRF)


def shots_at_a_lone_keeper(scenario_file, distance_m, keeper_difficulty, seeds, aim=5):
    """A striker runs at goal from `distance_m` out for three steps and shoots at the right
    keeper alone, holding direction `aim` as he strikes (5, right: at goal); returns how many
    of the seeds' shots the keeper held and how many scored."""
    x = 1.0 - distance_m / 52.5
    path = scenario_file((x + 0.02, 0.0), [(-1.0, 0.0, "GK"), (x, 0.0, "CF")], [(-1.0, 0.0, "GK")],
                         name=f"shot_{distance_m}_{int(keeper_difficulty * 100)}", game_duration=60,
                         deterministic=False, right_team_difficulty=keeper_difficulty, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    actions = [5, 5, 5] + ([aim] if aim != 5 else []) + [12, 12]
    saves = goals = 0
    for seed in range(seeds):
        env.reset(seed=seed)
        for t in range(60):
            obs, reward, terminated, truncated, _ = env.step(actions[t] if t < len(actions) else 0)
            if terminated or truncated:
                break
        goals += reward > 0
        saves += obs["ball_owned_team"] == 1
    return saves, goals


@pytest.mark.parametrize("distance_m,min_saves,max_saves", [(26, 65, 100), (13, 0, 20)])
def test_keeper_saves_long_shots_and_is_beaten_from_close_range(scenario_file, distance_m, min_saves,
                                                               max_saves):
    # GRF, measured with its keeper at difficulty 0.6: a shot from 26 m is caught 28 times
    # in 30, one from 13 m always scores; the keeper needs time to react. Over 100 seeds, so
    # a bound is not decided by one shot. trackfield from 26 m: 69-70 of 100 caught since
    # the keeper's parry (stop 32) and first-time play (stop 36), none scored; the rest he
    # parries (79-80 caught before).
    saves, goals = shots_at_a_lone_keeper(scenario_file, distance_m, 0.6, seeds=100)
    assert min_saves <= saves <= max_saves, (saves, goals)
    if distance_m < 20:
        assert goals >= 80
    else:
        assert goals <= 5, f"{goals} of 100 shots from {distance_m} m scored"


KEEPER_TIMING_DIFFICULTY = 0.9  # kKeeperTimingDifficulty (constants.h)


def test_an_ai_keeper_reacts_later_the_weaker_his_ai(scenario_file):
    # GRF's AI sees the game one reaction time late, 0.1 s x (1 - difficulty) more, less
    # by its skill scaled with difficulty: its keeper reacts in 162 ms at easy, 91 at
    # medium, 40 at 1.0. Measured on GRF (tools/football_probes.py keeper_difficulty, 30
    # seeds under each team order), running shots at his middle from 16 m: its keeper
    # concedes 44 of 60 at easy, 39 at medium, 3 at 1.0. Ours here from 15 m, 60 seeds: 52,
    # 31 and 7 (55-58 at every level at stop 40, before the keeper was judged on the time
    # the ball reaches him).
    _, easy = shots_at_a_lone_keeper(scenario_file, 15, 0.05, seeds=60)
    _, medium = shots_at_a_lone_keeper(scenario_file, 15, 0.6, seeds=60)
    _, full = shots_at_a_lone_keeper(scenario_file, 15, 1.0, seeds=60)
    assert easy >= medium + 10 and medium >= full + 10, (easy, medium, full)


def test_a_shot_at_the_keepers_middle_is_saved_and_one_placed_wide_of_him_scores(scenario_file):
    # GRF aims an agent's shot by the direction held as it is struck (its auto-direction):
    # straight at goal it goes at the middle, where the keeper is, and from 20 m GRF's
    # medium keeper stops nearly all of those (2 of 60 scored); a keeper needs a dive for a
    # shot wide of his hands. Ours, 60 seeds: 4 scored and 39 held at his middle, 36
    # scored held up-and-right (at stop 40 every agent shot was aimed inside a post away
    # from the keeper: 30 and 15 scored).
    held, middle = shots_at_a_lone_keeper(scenario_file, 20, 0.6, seeds=60)
    _, placed = shots_at_a_lone_keeper(scenario_file, 20, 0.6, seeds=60, aim=4)
    assert middle <= 10 and held >= 30 and placed >= 25, (middle, held, placed)


@pytest.mark.parametrize("aim,wide", [(4, 0.03), (6, -0.03)])
def test_keeper_parries_a_shot_he_reaches_for_wide_of_his_goal(scenario_file, aim, wide):
    # GRF, traced (tools/football_random_play.py grf keeper academy_3_vs_1_with_keeper): a
    # shot passing 0.7-1.6 m off the keeper's body is parried, not held, and the ball
    # leaves him sideways at two thirds of its speed (22 m/s in, 14-17 m/s out, 50-70
    # degrees off straight back), away from goal. A shot struck at him he holds (above).
    # Here a shot from 24 m, held up-right (4, towards -y) or down-right (6), passes him on
    # that side.
    # The keeper is at KEEPER_TIMING_DIFFICULTY, which reacts after the bare reaction delay.
    x = 1.0 - 24.0 / 52.5
    path = scenario_file((x + 0.02, wide), [(-1.0, 0.0, "GK"), (x, wide, "CF")], [(-1.0, 0.0, "GK")],
                         game_duration=60, deterministic=True, right_team_difficulty=KEEPER_TIMING_DIFFICULTY,
                         **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    obs, _ = env.reset(seed=0)
    parried = None
    actions = [5, 5, 5, aim, 12, 12]
    for t in range(60):
        before = obs
        obs, reward, terminated, truncated, _ = env.step(actions[t] if t < len(actions) else 0)
        toward_goal = before["ball_direction"][0] > 0 and before["ball_owned_team"] == -1
        if parried is None and toward_goal and obs["ball_direction"][0] < 0:
            parried = obs
        if terminated or truncated:
            break
    assert parried is not None, "the shot never reached the keeper"
    assert parried["ball_owned_team"] == -1  # not held
    vx, vy = np.asarray(parried["ball_direction"][:2]) * GRF_METRES * 10  # m/s
    assert vx < 0 and np.sign(vy) == (-1 if aim == 4 else 1), (vx, vy)  # back out, on the side it passed
    assert abs(vy) > abs(vx) and np.hypot(vx, vy) > 10.0, (vx, vy)
    assert reward <= 0  # not into his goal


def test_keeper_comes_out_to_an_unmarked_attacker(scenario_file):
    # GRF's keeper closes an attacker down when no team-mate covers the shooting point.
    path = scenario_file((0.52, 0.0), [(-1.0, 0.0, "GK"), (0.5, 0.0, "CF")], [(-1.0, 0.0, "GK")],
                         game_duration=100, deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw")
    obs, _ = env.reset(seed=0)
    keeper_x = obs["right_team"][0][0]
    for _ in range(15):
        obs, *_ = env.step(0)  # the attacker stands on the ball 25 m out
    assert obs["ball_owned_team"] == 0
    assert (keeper_x - obs["right_team"][0][0]) * 52.5 > 6.0  # the keeper left his line


# ----------------------------------------------------------------------- GRF's ball drag

METRES = np.array([52.5, 34 / 0.42])  # obs units -> metres (x, y)


def test_a_driven_shot_from_55_m_dies_on_the_grass_as_grfs_does(scenario_file):
    # GRF's ball loses 0.015 v^2 to the air and 0.04 v^2 + 1.6 m/s^2 more on the grass;
    # traced on GRF, a low 27 m/s shot is at about 15 m/s a second later and stops 35-44 m
    # on, so from 55 m an empty goal is not reached.
    path = scenario_file((-0.04, 0.0), [(-1.0, 0.0, "GK"), (-0.05, 0.0, "CM")], FAR_LAZY_KEEPER,
                         game_duration=200, deterministic=True, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    env.step(5), env.step(5)  # his first touch: GRF reports him on the ball after it
    obs = press_kick(env, 12)
    start = np.array(obs["ball"][:2]) * METRES
    speeds, positions = [], []
    for _ in range(120):
        obs, reward, terminated, truncated, _ = env.step(0)
        assert reward == 0.0
        speeds.append(np.linalg.norm(np.array(obs["ball_direction"][:2]) * METRES) * 10)
        positions.append(np.array(obs["ball"][:2]) * METRES)
        if speeds[-1] < 0.05 or terminated or truncated:
            break
    assert speeds[0] > 24.0
    assert 12.0 < speeds[9] < 18.0  # a second after the strike
    assert speeds[-1] < 0.05 and not (terminated or truncated)  # at rest on the pitch
    assert 33.0 < np.linalg.norm(positions[-1] - start) < 48.0


@pytest.mark.parametrize("presses,to_goal", [((12, 11), True), ((11, 12), False)],
                         ids=["shot_then_pass", "pass_then_shot"])
def test_the_first_kick_pressed_is_the_one_played(scenario_file, presses, to_goal):
    # GRF, measured: presses during a kick's wind-up change nothing.
    path = scenario_file((0.51, 0.0), [(-1.0, 0.0, "GK"), (0.5, 0.0, "CM"), (0.5, 0.3, "CF", True)],
                         FAR_LAZY_KEEPER, game_duration=100, deterministic=True, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    env.step(5)  # his first touch
    obs, *_ = env.step(5)
    assert obs["ball_owned_player"] == 1
    env.step(presses[0])
    obs, *_ = env.step(presses[1])
    for _ in range(MAX_KICK_WINDUP):
        if obs["ball_owned_player"] == -1:
            break
        obs, *_ = env.step(0)
    direction = np.array(obs["ball_direction"][:2]) * METRES
    heading = np.degrees(np.arctan2(direction[1], direction[0]))
    if to_goal:
        assert abs(heading) < 15 and np.linalg.norm(direction) * 10 > 24  # a shot
    else:
        assert 60 < heading < 120  # the pass to the mate 24 m to the side
