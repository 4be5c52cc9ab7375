"""GRF's action sets (default, v2, full), teammate_ai=False, and bad input naming its argument.

Facts from GRF 2.10.2 (gfootball/env/football_action_set.py, and measured): "default"
has 19 actions, "v2" appends builtin_ai (20), "full" appends 13 more (33); the raw
observation's sticky_actions lists the set's sticky actions (10, or 13 with "full");
builtin_ai releases every sticky action.
"""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from conftest import NO_END_FLAGS

DEFAULT = ["idle", "left", "top_left", "top", "top_right", "right", "bottom_right", "bottom", "bottom_left",
           "long_pass", "high_pass", "short_pass", "shot", "sprint", "release_direction", "release_sprint",
           "sliding", "dribble", "release_dribble"]
FULL_EXTRA = ["builtin_ai", "keeper_rush", "pressure", "team_pressure", "switch", "release_long_pass",
              "release_high_pass", "release_short_pass", "release_shot", "release_keeper_rush",
              "release_sliding", "release_pressure", "release_team_pressure", "release_switch"]
A = {name: i for i, name in enumerate(DEFAULT + FULL_EXTRA)}
SIZES = {"default": 19, "v2": 20, "full": 33}


# ------------------------------------------------------------------------------- spaces


@pytest.mark.parametrize("action_set", ["default", "v2", "full"])
def test_action_spaces_follow_the_set(action_set):
    n = SIZES[action_set]
    env = trackfield.make("academy_3_vs_1_with_keeper", action_set=action_set)
    assert env.action_space.n == n
    assert list(env.unwrapped.action_names) == (DEFAULT + FULL_EXTRA)[:n]
    multi = trackfield.make("academy_3_vs_1_with_keeper", action_set=action_set,
                            number_of_left_players_agent_controls=2)
    assert multi.action_space.nvec.tolist() == [n, n]
    vec = trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=3, num_threads=1, action_set=action_set)
    assert vec.single_action_space.n == n and vec.action_space.nvec.tolist() == [n] * 3
    vec.close()
    par = trackfield.parallel_env("academy_3_vs_1_with_keeper", action_set=action_set,
                                  number_of_left_players_agent_controls=2, number_of_right_players_agent_controls=1)
    assert all(par.action_space(agent).n == n for agent in par.possible_agents)
    raw = trackfield.make("academy_3_vs_1_with_keeper", action_set=action_set, representation="raw")
    obs, _ = raw.reset(seed=0)
    assert obs["sticky_actions"].shape == ((13,) if action_set == "full" else (10,))
    assert raw.observation_space["sticky_actions"].shape == obs["sticky_actions"].shape


def test_sticky_actions_behave_as_grf_full_set():
    # The same presses on GRF 2.10.2 (academy_empty_goal_close, action_set='full') gave
    # exactly these sticky_actions rows.
    expected = {
        "right": [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0],
        "sprint": [0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0],
        "dribble": [0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0],
        "keeper_rush": [0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0],
        "pressure": [0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0],
        "team_pressure": [0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1],
        "release_sliding": [0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1],
        "release_pressure": [0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1],
        "release_team_pressure": [0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0],
        "release_keeper_rush": [0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0],
        "builtin_ai": [0] * 13,
        "idle": [0] * 13,
    }
    env = trackfield.make("academy_empty_goal_close", action_set="full", representation="raw")
    env.reset(seed=0)
    for name, row in expected.items():
        obs, *_ = env.step(A[name])
        assert obs["sticky_actions"].tolist() == row, name


def test_builtin_ai_releases_default_sticky_actions_in_v2():
    env = trackfield.make("academy_empty_goal_close", action_set="v2", representation="raw")
    env.reset(seed=0)
    for a in (A["top"], A["sprint"], A["dribble"]):
        obs, *_ = env.step(a)
    assert obs["sticky_actions"].sum() == 3
    obs, *_ = env.step(A["builtin_ai"])
    assert obs["sticky_actions"].sum() == 0


def test_the_shared_indices_play_the_same_game_in_every_set():
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 19, 300)
    runs = []
    for action_set in ("default", "v2", "full"):
        env = trackfield.make("academy_3_vs_1_with_keeper", action_set=action_set)
        obs, _ = env.reset(seed=3)
        trace = [obs]
        for a in actions:
            obs, _, terminated, truncated, _ = env.step(int(a))
            trace.append(obs)
            if terminated or truncated:
                obs, _ = env.reset()
        runs.append(np.array(trace))
    assert np.array_equal(runs[0], runs[1]) and np.array_equal(runs[0], runs[2])


# ------------------------------------------------------------------------ v2 and full


def test_builtin_ai_plays_the_agents_player():
    # The AI on the ball 11 m from an empty goal shoots; an idle agent does not. About half
    # of the AI's shots from there go wide, as GRF's AI's do, so it scores in some episodes.
    goals = {"builtin_ai": 0, "idle": 0}
    shots = {"builtin_ai": 0, "idle": 0}
    for seed in range(8):
        for name in goals:
            env = trackfield.make("academy_empty_goal_close", action_set="v2", representation="raw")
            env.reset(seed=seed)
            shot = False
            for _ in range(80):
                obs, reward, terminated, truncated, _ = env.step(A[name])
                shot |= obs["ball_owned_team"] == -1 and obs["ball_direction"][0] * 52.5 * 10 > 15.0  # m/s
                if terminated or truncated:
                    break
            goals[name] += reward == 1.0
            shots[name] += shot
    assert shots["builtin_ai"] >= 7 and goals["builtin_ai"] >= 2
    assert shots["idle"] == 0 and goals["idle"] == 0



@pytest.mark.parametrize("controlled", [1, 11])
def test_agents_that_always_choose_builtin_ai_play_exactly_as_the_ai_alone(controlled):
    # builtin_ai hands the agent's player to the AI as if no agent were there: the games
    # (every step's ball owner, every final score) equal AI against AI. (Before, the AI's
    # keeper hands, tackles, first-time strikes, facing and lead passes still treated the
    # player as an agent's: the team scored 0.9 a game against easy instead of 2.25.)
    def play(**config):
        env = trackfield.vector.make("11_vs_11_easy_stochastic", num_envs=4, **config)
        env.reset(seed=7)
        owners, scores = [], None
        actions = np.full(env.action_space.shape, 19, dtype=np.int64)
        for _ in range(3001):
            _, _, terminated, truncated, info = env.step(actions)
            owners.append(np.asarray(info["ball_owned_team"]).copy())
            if (terminated | truncated).all():
                scores = np.asarray(info["final_info"]["score"])
        env.close()
        return np.array(owners), scores

    ai_owners, ai_scores = play(number_of_left_players_agent_controls=0, number_of_right_players_agent_controls=0)
    agent_owners, agent_scores = play(action_set="v2", number_of_left_players_agent_controls=controlled)
    assert ai_scores is not None and ai_scores.sum() > 0
    np.testing.assert_array_equal(agent_scores, ai_scores)
    np.testing.assert_array_equal(agent_owners, ai_owners)

def defending_scenario(scenario_file):
    """The right team's AI attacks from midfield; the left agent defends."""
    return scenario_file((0.0, 0.0), [(-1.0, 0.0, "GK"), (-0.5, 0.3, "CB"), (-0.6, -0.3, "CB")],
                         [(-1.0, 0.0, "GK", True), (0.01, 0.0, "CF")], game_duration=100,
                         deterministic=True, **NO_END_FLAGS)


def ball_distances(env, actions, players):
    """Distances (GRF units) of left players to the ball after the actions, per player."""
    obs, _ = env.reset(seed=0)
    for a in actions:
        obs, *_ = env.step(a)
    return {p: float(np.linalg.norm(obs["left_team"][p] - obs["ball"][:2])) for p in players}


def test_pressure_runs_the_active_player_at_the_ball(scenario_file):
    env = trackfield.make(defending_scenario(scenario_file), representation="raw", action_set="full")
    idle = ball_distances(env, [A["idle"]] * 15, [1, 2])
    pressing = ball_distances(env, [A["pressure"]] + [A["idle"]] * 14, [1, 2])
    assert min(pressing.values()) < min(idle.values()) - 0.05  # 2.6 m nearer
    released = ball_distances(env, [A["pressure"], A["release_pressure"]] + [A["idle"]] * 13, [1, 2])
    assert min(released.values()) > min(pressing.values())


def test_team_pressure_sends_the_ai_team_mates_at_the_carrier(scenario_file):
    # An opposing agent stands on the ball in his own half: the AI holds off him, goal-side
    # (GRF's, measured), unless team pressure sends its nearest player at the ball.
    path = scenario_file((-0.4, 0.0), [(-1.0, 0.0, "GK"), (-0.6, 0.2, "CB"), (-0.5, -0.2, "CB")],
                         [(-1.0, 0.0, "GK", True), (0.4, 0.0, "CF"), (-0.9, 0.4, "CB", True)],
                         game_duration=200, deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw", action_set="full", number_of_right_players_agent_controls=1)

    def nearest_after(first, steps):
        obs, _ = env.reset(seed=0)
        for a in [first] + [A["idle"]] * (steps - 1):
            obs, *_ = env.step(np.array([a, A["idle"]]))
        left, ball = obs["left_team"][0], obs["ball"][0][:2]
        return min(float(np.linalg.norm(left[p] - ball)) for p in (1, 2))

    assert nearest_after(A["idle"], 60) > 0.15  # about 10.5 m off
    assert nearest_after(A["team_pressure"], 60) < 0.05  # at his feet


def test_keeper_rush_brings_the_ai_keeper_out(scenario_file):
    # An opponent holds the ball in his own half: GRF's keeper would stay 10 m out.
    path = scenario_file((0.49, 0.0), [(-1.0, 0.0, "GK"), (-0.5, 0.3, "CB")],
                         [(-1.0, 0.0, "GK", True), (-0.5, 0.0, "CF", True)], game_duration=100,
                         deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw", action_set="full")
    idle = ball_distances(env, [A["idle"]] * 40, [0])[0]
    rushing = ball_distances(env, [A["keeper_rush"]] + [A["idle"]] * 39, [0])[0]
    released = ball_distances(env, [A["keeper_rush"]] + [A["idle"]] * 9 + [A["release_keeper_rush"]] +
                              [A["idle"]] * 30, [0])[0]
    assert rushing < idle - 0.15  # 8 m nearer
    assert rushing < released - 0.05


def test_switch_hands_control_to_another_player_for_a_while(scenario_file):
    env = trackfield.make(defending_scenario(scenario_file), representation="raw", action_set="full")
    obs, _ = env.reset(seed=0)
    first = int(obs["active"])
    obs, *_ = env.step(A["switch"])
    switched = int(obs["active"])
    assert switched not in (first, 0)  # a field player, never the keeper
    for _ in range(5):
        obs, *_ = env.step(A["idle"])
        assert int(obs["active"]) == switched
    # A switch in possession keeps the carrier.
    env = trackfield.make("academy_empty_goal_close", action_set="full", representation="raw")
    obs, _ = env.reset(seed=0)
    for _ in range(3):
        obs, *_ = env.step(A["idle"])
    carrier = int(obs["ball_owned_player"])
    assert carrier == int(obs["active"]) >= 0
    obs, *_ = env.step(A["switch"])
    assert int(obs["active"]) == carrier


def test_release_shot_withdraws_a_shot_pressed_before_the_ball_arrived(scenario_file):
    # The runner reaches the loose ball on the 8th step; a shot pressed on the 7th is
    # buffered and played first time (so, as in GRF, he is never reported on the ball),
    # unless released before the ball arrives.
    path = scenario_file((0.36, 0.0), [(-1.0, 0.0, "GK"), (0.3, 0.0, "CF")], [(1.0, 0.0, "GK", True)],
                         game_duration=100, deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw", action_set="full")

    def owners(actions):
        env.reset(seed=0)
        return [int(env.step(a)[0]["ball_owned_player"]) for a in actions]

    run = [A["right"]] + [A["idle"]] * 5
    plain = owners(run + [A["idle"]] * 10)
    assert plain.index(1) == 7 and plain[-1] == 1
    shot = owners(run + [A["shot"]] + [A["idle"]] * 9)
    assert 1 not in shot and shot[-1] == -1  # struck with his first touch
    withdrawn = owners(run + [A["shot"], A["release_shot"]] + [A["idle"]] * 8)
    assert withdrawn[-1] == 1
    other = owners(run + [A["shot"], A["release_short_pass"]] + [A["idle"]] * 8)
    assert other[-1] == -1  # releasing another button leaves the shot


# ------------------------------------------------------------------------- teammate_ai


def test_teammate_ai_false_leaves_team_mates_idle():
    moved = {}
    for teammate_ai in (True, False):
        env = trackfield.make("academy_3_vs_1_with_keeper", representation="raw", teammate_ai=teammate_ai)
        obs, _ = env.reset(seed=0)
        start_left, start_right = obs["left_team"].copy(), obs["right_team"].copy()
        for _ in range(30):
            active = int(obs["active"])
            obs, _, terminated, truncated, _ = env.step(A["right"])
            if not teammate_ai:
                others = [p for p in range(len(start_left)) if p != active and p != int(obs["active"])]
                assert np.array_equal(obs["left_team_direction"][others], np.zeros((len(others), 2)))
            if terminated or truncated:
                break
        idle = [p for p in range(len(start_left)) if p != int(obs["active"])]
        moved[teammate_ai] = np.abs(obs["left_team"][idle] - start_left[idle]).sum()
        moved[(teammate_ai, "opponents")] = np.abs(obs["right_team"] - start_right).sum()
    assert moved[True] > 0.05 and moved[False] < 0.02
    assert moved[(False, "opponents")] > 0.02  # the other team's AI still plays


def test_teammate_ai_false_still_lets_builtin_ai_play_the_agents_player():
    env = trackfield.make("academy_empty_goal_close", action_set="v2", teammate_ai=False)
    goals = 0
    for seed in range(3):
        env.reset(seed=seed)
        for _ in range(80):
            _, reward, terminated, truncated, _ = env.step(A["builtin_ai"])
            if terminated or truncated:
                break
        goals += reward == 1.0
    assert goals >= 2


def test_teammate_ai_false_in_the_vector_and_parallel_envs():
    vec = trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=2, num_threads=1, teammate_ai=False,
                                 representation="raw")
    obs, _ = vec.reset(seed=0)
    for _ in range(10):
        obs, *_ = vec.step(np.zeros(2, dtype=np.int64))
    keeper_moved = np.abs(obs["left_team_direction"][:, 0]).sum()
    assert keeper_moved == 0.0  # the keeper is never the active player here
    vec.close()
    par = trackfield.parallel_env("academy_3_vs_1_with_keeper", teammate_ai=False)
    par.reset(seed=0)
    par.step({"left_0": 0})


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("maker", ["make", "vector", "parallel"])
def test_unknown_action_set_is_refused_listing_the_names(maker):
    build = {"make": lambda **kw: trackfield.make("academy_empty_goal_close", **kw),
             "vector": lambda **kw: trackfield.vector.make("academy_empty_goal_close", num_envs=2, **kw),
             "parallel": lambda **kw: trackfield.parallel_env("academy_empty_goal_close", **kw)}[maker]
    with pytest.raises(ValueError, match=r"action_set must be one of \['default', 'v2', 'full'\], got 'v3'"):
        build(action_set="v3")
    with pytest.raises(ValueError, match="action_set"):
        build(action_set=2)


@pytest.mark.parametrize("action_set,bad", [("default", 19), ("v2", 20), ("full", 33), ("full", -1)])
def test_an_action_outside_the_set_names_the_agent(action_set, bad):
    env = trackfield.make("academy_3_vs_1_with_keeper", action_set=action_set)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=rf"left_0.*action_set='{action_set}'.*\[0, {SIZES[action_set] - 1}\]"):
        env.step(bad)
    multi = trackfield.make("academy_3_vs_1_with_keeper", action_set=action_set,
                            number_of_left_players_agent_controls=2, number_of_right_players_agent_controls=1)
    multi.reset(seed=0)
    with pytest.raises(ValueError, match=r"'right_0'"):
        multi.step([0, 0, bad])
    vec = trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=3, num_threads=1, action_set=action_set)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match=r"world 2.*left_0"):
        vec.step(np.array([0, 0, bad]))
    vec.close()
    par = trackfield.parallel_env("academy_3_vs_1_with_keeper", action_set=action_set,
                                  number_of_left_players_agent_controls=2)
    par.reset(seed=0)
    with pytest.raises(ValueError, match="'left_1'"):
        par.step({"left_0": 0, "left_1": bad})


def test_multi_agent_action_of_the_wrong_shape_is_refused():
    env = trackfield.make("academy_3_vs_1_with_keeper", number_of_left_players_agent_controls=2)
    env.reset(seed=0)
    for bad in ([0], [0, 1, 2], [[0, 1]], 3):
        with pytest.raises(ValueError, match=r"actions must have shape \(2,\)"):
            env.step(bad)
    env.step([0, 1])  # still usable
    vec = trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=2, num_threads=1,
                                 number_of_left_players_agent_controls=2)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions must have shape \(2, 2\)"):
        vec.step(np.zeros((2, 3), dtype=np.int64))
    vec.close()


@pytest.mark.parametrize("side,count,players", [("left", 5, 4), ("right", 3, 2), ("left", 12, None),
                                                 ("right", -1, None)])
def test_controlled_player_count_out_of_range_names_the_argument(side, count, players):
    key = f"number_of_{side}_players_agent_controls"
    with pytest.raises(ValueError, match=key) as err:
        trackfield.make("academy_3_vs_1_with_keeper", **{key: count})
    if players is not None:  # beyond the scenario's team: its size is given
        assert f"has {players} {side} players" in str(err.value)
    with pytest.raises(ValueError, match=key):
        trackfield.parallel_env("academy_3_vs_1_with_keeper", **{key: count})


@pytest.mark.parametrize("key,value,error", [("teammate_ai", 1, TypeError), ("handballs", "yes", TypeError),
                                             ("handball_probability", 1.5, ValueError),
                                             ("handball_probability", float("nan"), ValueError)])
def test_rule_options_are_checked(key, value, error):
    with pytest.raises(error, match=key):
        trackfield.make("academy_empty_goal_close", **{key: value})


# ------------------------------------------------------------------- right-team agents


@pytest.mark.parametrize("action,dx", [("left", -1), ("right", 1)])
def test_right_team_actions_are_seen_from_its_own_side(action, dx):
    # GRF 2.10.2, measured (academy_run_to_score, a right agent pressing left for 8 steps):
    # its player runs towards x = -1 in its own, rotated observation.
    env = trackfield.make("academy_run_to_score", representation="raw", number_of_left_players_agent_controls=0,
                          number_of_right_players_agent_controls=1)
    obs, _ = env.reset(seed=0)
    active = int(obs["active"])
    start = obs["left_team"][active].copy()
    for _ in range(8):
        obs, *_ = env.step(A[action])
    assert int(obs["active"]) == active
    moved = obs["left_team"][active] - start
    assert moved[0] * dx > 0.02 and abs(moved[1]) < 0.01


@pytest.mark.parametrize("config", [dict(action_set="full"), dict(action_set="v2", teammate_ai=False)],
                         ids=["full", "v2_no_teammate_ai"])
def test_pettingzoo_api_with_other_action_sets(config):
    import warnings

    from pettingzoo.test import api_test, parallel_api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box spaces: by design
        par = trackfield.parallel_env("academy_3_vs_1_with_keeper", number_of_left_players_agent_controls=2,
                                      number_of_right_players_agent_controls=1, **config)
        parallel_api_test(par, num_cycles=100)
        api_test(trackfield.env("academy_3_vs_1_with_keeper", number_of_left_players_agent_controls=2, **config),
                 num_cycles=100)
