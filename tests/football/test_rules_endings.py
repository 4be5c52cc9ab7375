"""Episode endings and restarts: goals, out of play, time limit, possession change."""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from conftest import GAME_MODE, FAR_LAZY_KEEPER, KICK_WINDUP, MAX_KICK_WINDUP, step_until_done, ACADEMY_FLAGS, NO_END_FLAGS


# ---------------------------------------------------------------------------------- scoring


@pytest.mark.parametrize("spot", [(0.8, 0.0), (0.85, 0.12), (0.85, -0.12), (0.9, 0.05)])
def test_close_range_shot_into_empty_goal_scores(scenario_file, spot):
    x, y = spot
    path = scenario_file((x + 0.01, y), [(-1.0, 0.0, "GK"), (x, y, "CF")], FAR_LAZY_KEEPER,
                         game_duration=100, deterministic=True, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    steps = step_until_done(env, [12] * 40)
    obs, reward, terminated, truncated, info = steps[-1]
    assert terminated and not truncated
    assert reward == 1.0
    assert info["score"] == (1, 0)
    assert info["reward_components"]["scoring"] == 1.0
    assert np.array_equal(obs["score"], [1, 0])
    assert all(r == 0.0 for _, r, *_ in steps[:-1])
    assert len(steps) < 20  # a shot from 5-10 m arrives in well under 2 s


def test_close_range_shots_mostly_score_with_random_kick_errors(scenario_file):
    path = scenario_file((0.83, 0.0), [(-1.0, 0.0, "GK"), (0.82, 0.0, "CF")], FAR_LAZY_KEEPER,
                         game_duration=100, deterministic=False, **ACADEMY_FLAGS)
    env = trackfield.make(path)
    goals = 0
    for seed in range(10):
        env.reset(seed=seed)
        _, reward, terminated, _, info = step_until_done(env, [12] * 40)[-1]
        assert terminated
        goals += info["score"] == (1, 0)
    assert goals >= 8


def test_goal_without_end_on_score_restarts_with_kickoff_for_the_other_team(scenario_file):
    path = scenario_file((0.81, 0.0), [(-1.0, 0.0, "GK"), (0.8, 0.0, "CF")], [(1.0, 0.0, "GK")],
                         game_duration=300, deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    goal_step = None
    for t in range(40):
        obs, reward, terminated, truncated, info = env.step(12)
        assert not (terminated or truncated)
        if reward == 1.0:
            goal_step = t
            break
    assert goal_step is not None
    assert info["score"] == (1, 0)
    assert info["game_mode"] == GAME_MODE["kickoff"]
    assert np.allclose(obs["ball"][:2], [0.0, 0.0])
    # Nobody may be left in the opponent half at a kick-off.
    assert np.all(obs["left_team"][:, 0] <= 0.0)
    assert np.all(obs["right_team"][:, 0] >= 0.0)
    # The conceding (right) team takes the kick-off and play resumes.
    modes, owners = [], []
    for _ in range(60):
        obs, reward, terminated, truncated, info = env.step(0)
        modes.append(info["game_mode"])
        owners.append(int(obs["ball_owned_team"]))
        assert reward == 0.0
    assert 1 in owners[:modes.index(0)]
    assert modes[-1] == GAME_MODE["normal"]


# ----------------------------------------------------------------------------- out of play


@pytest.mark.parametrize("how,ball,player,actions,mode", [
    # dribble over the goal line wide of the post: goal kick for the defenders
    ("run_past_line", (0.9, 0.3), (0.89, 0.3), [5] * 60, "goal_kick"),
    # a long / high pass by a player with no team-mate goes straight on, over the goal
    # line wide of the goal (pressed on the second step: as in GRF, a kick pressed on an
    # episode's first step is not played)
    ("long_pass_wide", (0.9, 0.3), (0.89, 0.3), [0, 9] + [0] * 60, "goal_kick"),
    ("high_pass_wide", (0.9, 0.3), (0.89, 0.3), [0, 10] + [0] * 60, "goal_kick"),
    # over the side line: throw-in
    ("run_over_sideline", (0.5, 0.4), (0.5, 0.39), [7] * 60, "throw_in"),
])
def test_ball_out_of_play_ends_academy_episode(scenario_file, how, ball, player, actions, mode):
    lone = "pass" in how  # with a keeper behind him, GRF's pass would go back to the keeper
    mates = [] if lone else [(-1.0, 0.0, "GK")]
    path = scenario_file(ball, mates + [(player[0], player[1], "CF")], FAR_LAZY_KEEPER,
                         game_duration=100, deterministic=True, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    steps = step_until_done(env, actions)
    obs, reward, terminated, truncated, info = steps[-1]
    assert terminated and not truncated, how
    assert info["game_mode"] != GAME_MODE["normal"]
    assert info["game_mode"] == GAME_MODE[mode]
    assert int(obs["game_mode"]) == GAME_MODE[mode]
    assert info["score"] == (0, 0) and reward == 0.0
    assert all(s[4]["game_mode"] == GAME_MODE["normal"] for s in steps[:-1])


def test_out_of_play_without_end_flag_restarts_play(scenario_file):
    path = scenario_file((0.9, 0.3), [(-1.0, 0.0, "GK"), (0.89, 0.3, "CF")], [(1.0, 0.0, "GK")],
                         game_duration=300, deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    modes = []
    for t in range(80):
        obs, reward, terminated, truncated, info = env.step(5 if t < 15 else 14)
        assert not (terminated or truncated)
        modes.append(info["game_mode"])
    assert GAME_MODE["goal_kick"] in modes
    first = modes.index(GAME_MODE["goal_kick"])
    assert GAME_MODE["normal"] in modes[first:]  # the goal kick is taken


# ------------------------------------------------------------------------------ time limit


def test_time_limit_truncates_after_game_duration_plus_one_steps(scenario_file):
    path = scenario_file((0.0, 0.0), [(-1.0, 0.0, "GK"), (-0.1, 0.0, "CM")],
                         [(-1.0, 0.0, "GK"), (-0.1, 0.0, "CB")], game_duration=10, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw")
    obs, info = env.reset(seed=0)
    assert obs["steps_left"] == 11 and info["steps"] == 0  # GRF: the step() calls left
    for k in range(1, 11):
        obs, _, terminated, truncated, info = env.step(0)
        assert not (terminated or truncated), f"episode ended after {k} of 11 steps"
        assert info["steps"] == k
        assert obs["steps_left"] == 11 - k
    obs, _, terminated, truncated, info = env.step(0)
    assert truncated and not terminated and obs["steps_left"] == 0
    assert info["steps"] == 11
    with pytest.raises(RuntimeError):
        env.step(0)
    env.reset()
    assert len(step_until_done(env, [0] * 50)) == 11


@pytest.mark.parametrize("duration", [1, 5, 37])
def test_game_duration_override_on_shipped_scenario(duration):
    env = trackfield.make("academy_corner", game_duration=duration, end_episode_on_out_of_play=False,
                          end_episode_on_possession_change=False, end_episode_on_score=False)
    env.reset(seed=0)
    steps = step_until_done(env, [0] * (duration + 10))
    assert len(steps) == duration + 1
    assert steps[-1][3] and not steps[-1][2]


# ---------------------------------------------------------------------- possession change


def _pass_to_opponent_scenario(scenario_file, end_on_possession_change):
    # No team-mate to pass to: the pass runs 15 m straight on, to a lazy opponent standing
    # 18 m ahead, where GRF's drag has slowed it to about 5 m/s (easy to control).
    flags = dict(ACADEMY_FLAGS, end_episode_on_possession_change=end_on_possession_change)
    return scenario_file((0.01, 0.0), [(0.0, 0.0, "CM")],
                         [(-1.0, 0.0, "GK", True), (-0.35, 0.0, "CB", True)],
                         game_duration=100, deterministic=True, **flags)


def test_possession_change_ends_episode(scenario_file):
    env = trackfield.make(_pass_to_opponent_scenario(scenario_file, True), representation="raw")
    env.reset(seed=0)
    env.step(0)  # his first touch: GRF reports him on the ball after it
    obs, *_ = env.step(0)
    assert obs["ball_owned_team"] == 0
    steps = step_until_done(env, [11] + [0] * 40)
    obs, reward, terminated, truncated, info = steps[-1]
    assert terminated and not truncated
    assert obs["ball_owned_team"] == 1 and info["ball_owned_team"] == 1
    assert info["game_mode"] == GAME_MODE["normal"]
    assert reward == 0.0
    # Ours through the kick's wind-up, then loose (nobody's) while the episode went on.
    owners = [int(s[0]["ball_owned_team"]) for s in steps[:-1]]
    kicked = owners.index(-1)
    assert KICK_WINDUP - 1 <= kicked <= MAX_KICK_WINDUP - 1
    assert set(owners[:kicked]) == {0} and set(owners[kicked:]) == {-1}


def test_possession_change_does_not_end_episode_when_flag_off(scenario_file):
    env = trackfield.make(_pass_to_opponent_scenario(scenario_file, False), representation="raw")
    env.reset(seed=0)
    owners = []
    for a in [0, 0, 11] + [0] * 30:
        obs, _, terminated, truncated, _ = env.step(a)
        assert not (terminated or truncated)
        owners.append(int(obs["ball_owned_team"]))
    assert owners[:2] == [-1, 0] and 1 in owners


def test_first_ownership_is_not_a_possession_change(scenario_file):
    # The opponents take a loose ball that we never owned: GRF ignores ownership -1.
    path = scenario_file((0.3, 0.0), [(-1.0, 0.0, "GK", True)],
                         [(-1.0, 0.0, "GK", True), (-0.31, 0.0, "CB", True)],
                         game_duration=30, deterministic=True, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    for _ in range(2):  # GRF reports the first owner after his first touch
        obs, _, terminated, _, _ = env.step(0)
    assert obs["ball_owned_team"] == 1
    assert not terminated
