"""Scoring and GRF checkpoint rewards, from the engine and from trackfield.wrappers."""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from trackfield.wrappers import CheckpointReward, ScoringReward
from conftest import ACADEMY_FLAGS, NO_END_FLAGS

CHECKPOINT_SCENARIOS = ["academy_empty_goal_close", "academy_empty_goal", "academy_run_to_score",
                        "academy_3_vs_1_with_keeper", "academy_counterattack_easy"]


def episodes_from_vector(name, num_envs=16, steps=1500, seed=0, **config):
    """Random play in a vector env; yields per finished episode arrays of (reward, scoring, checkpoints)."""
    envs = trackfield.vector.make(name, num_envs=num_envs, num_threads=1, **config)
    envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    current = [[] for _ in range(num_envs)]
    for _ in range(steps):
        _, rewards, terminated, truncated, info = envs.step(rng.integers(0, 19, num_envs))
        comps = info["reward_components"]
        for i in range(num_envs):
            current[i].append((rewards[i], comps["scoring"][i], comps["checkpoints"][i]))
        for i in np.flatnonzero(terminated | truncated):
            yield np.array(current[i], dtype=np.float64)
            current[i] = []


@pytest.mark.parametrize("name", CHECKPOINT_SCENARIOS)
def test_checkpoint_rewards_over_random_episodes(name):
    episodes = list(episodes_from_vector(name, rewards="scoring,checkpoints"))
    assert len(episodes) > 50
    scoring_episodes = 0
    for ep in episodes:
        reward, scoring, checkpoints = ep.T
        # reward == scoring + checkpoints, every step
        assert np.allclose(reward, scoring + checkpoints, atol=1e-6)
        # each step pays whole checkpoints (multiples of 0.1), never negative
        assert np.all(checkpoints >= 0)
        assert np.allclose(checkpoints * 10, np.round(checkpoints * 10), atol=1e-4)
        # at most 10 checkpoints an episode
        assert 0.0 <= checkpoints.sum() <= 1.0 + 1e-5
        assert set(np.unique(scoring)) <= {-1.0, 0.0, 1.0}
        if scoring.sum() > 0:
            scoring_episodes += 1
            # scoring pays every unpaid checkpoint: a scoring episode totals exactly 1
            assert checkpoints.sum() == pytest.approx(1.0, abs=1e-5)
        if scoring.sum() < 0:
            # conceding pays nothing
            assert checkpoints[scoring == -1].sum() == 0.0
    if name in ("academy_empty_goal_close", "academy_empty_goal", "academy_run_to_score"):
        assert scoring_episodes > 0


def test_scoring_only_reward_still_reports_checkpoints():
    episodes = list(episodes_from_vector("academy_empty_goal_close", rewards="scoring"))
    total_checkpoints = 0.0
    for ep in episodes:
        reward, scoring, checkpoints = ep.T
        assert np.array_equal(reward, scoring)
        assert checkpoints.sum() <= 1.0 + 1e-5
        total_checkpoints += checkpoints.sum()
    assert total_checkpoints > 1.0  # reported although not paid


def _carrier_scenario(scenario_file, ball, **overrides):
    config = dict(game_duration=100, deterministic=True, **ACADEMY_FLAGS)
    config.update(overrides)
    return scenario_file(ball, [(-1.0, 0.0, "GK"), (ball[0] - 0.01, ball[1], "CF")],
                         [(1.0, 0.0, "GK", True)], **config)


@pytest.mark.parametrize("rewards", ["scoring", "scoring,checkpoints"])
def test_checkpoints_paid_on_first_possession_by_distance(scenario_file, rewards):
    # Ball at (0.9, 0.3): distance 0.316 to (1, 0) passes thresholds 0.99 - k * 0.8 / 9 for k = 0..7.
    env = trackfield.make(_carrier_scenario(scenario_file, (0.9, 0.3)), rewards=rewards)
    env.reset(seed=0)
    # As in GRF, a player starting at the ball is reported on it (and paid) once he has
    # touched it, on the second step.
    _, reward, _, _, info = env.step(0)
    assert info["reward_components"]["checkpoints"] == 0.0
    _, reward, _, _, info = env.step(0)
    assert info["reward_components"]["checkpoints"] == pytest.approx(0.8, abs=1e-5)
    assert info["reward_components"]["scoring"] == 0.0
    assert reward == pytest.approx(0.8 if rewards == "scoring,checkpoints" else 0.0, abs=1e-5)
    # holding the ball on the same spot pays nothing more
    for _ in range(5):
        _, reward, _, _, info = env.step(0)
        assert info["reward_components"]["checkpoints"] == 0.0 and reward == 0.0


def test_checkpoints_paid_one_zone_at_a_time_while_dribbling(scenario_file):
    # From (0.0, 0): distance 1.0 > 0.99, no checkpoint yet. Dribbling towards goal pays
    # each zone when the ball enters it.
    env = trackfield.make(_carrier_scenario(scenario_file, (0.01, 0.0), **NO_END_FLAGS, game_duration=300),
                          rewards="scoring,checkpoints", representation="raw")
    env.reset(seed=0)
    env.step(0), env.step(0)  # his first touch (GRF reports him after it)
    paid = []
    for _ in range(150):
        obs, reward, terminated, truncated, info = env.step(5)
        cp = info["reward_components"]["checkpoints"]
        if cp > 0:
            d = np.hypot(obs["ball"][0] - 1.0, obs["ball"][1])
            k = len(paid)
            assert d <= 0.99 - k * 0.8 / 9 + 1e-5
            paid.append(cp)
        if obs["ball"][0] > 0.85 or obs["ball_owned_team"] != 0:
            break
    assert len(paid) >= 8
    assert all(p == pytest.approx(0.1, abs=1e-6) for p in paid)


def test_scoring_episode_totals_one_checkpoint_reward(scenario_file):
    # The carrier starts on the ball 16 m out (distance 0.3): the first step he is reported
    # on the ball (the second, after his first touch) pays 8 checkpoints, then the shot's
    # goal pays the last 2.
    env = trackfield.make(_carrier_scenario(scenario_file, (0.7, 0.0)), rewards="scoring,checkpoints")
    env.reset(seed=0)
    rewards, checkpoints = [], []
    for step in range(40):
        _, reward, terminated, truncated, info = env.step(0 if step < 2 else 12)
        rewards.append(reward)
        checkpoints.append(info["reward_components"]["checkpoints"])
        if terminated or truncated:
            break
    assert info["score"] == (1, 0)
    assert sum(checkpoints) == pytest.approx(1.0, abs=1e-5)
    # the goal step pays the goal plus the checkpoints still unpaid
    assert checkpoints[:2] == [0.0, pytest.approx(0.8, abs=1e-5)]
    assert checkpoints[-1] == pytest.approx(0.2, abs=1e-5)
    assert rewards[-1] == pytest.approx(1.2, abs=1e-5)
    assert sum(rewards) == pytest.approx(2.0, abs=1e-5)


def test_scripted_goal_on_shipped_scenario_pays_one_checkpoint_total():
    env = trackfield.make("academy_empty_goal_close", rewards="scoring,checkpoints", deterministic=True)
    env.reset(seed=0)
    total_cp, total = 0.0, 0.0
    for a in [5] * 8 + [12] * 30:
        _, reward, terminated, truncated, info = env.step(a)
        total_cp += info["reward_components"]["checkpoints"]
        total += reward
        if terminated or truncated:
            break
    assert info["score"] == (1, 0) and terminated
    assert total_cp == pytest.approx(1.0, abs=1e-5)
    assert total == pytest.approx(2.0, abs=1e-5)


def test_checkpoints_cleared_on_reset(scenario_file):
    env = trackfield.make(_carrier_scenario(scenario_file, (0.9, 0.3)), rewards="scoring,checkpoints")
    for seed in range(3):
        env.reset(seed=seed)
        env.step(0)
        _, reward, *_ = env.step(0)
        assert reward == pytest.approx(0.8, abs=1e-5)


def test_checkpoints_counted_per_agent():
    env = trackfield.make("academy_3_vs_1_with_keeper", rewards="scoring,checkpoints",
                          number_of_left_players_agent_controls=2)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    totals = np.zeros(2)
    episodes = 0
    for _ in range(3000):
        _, rewards, terminated, truncated, info = env.step(rng.integers(0, 19, 2))
        cp = info["reward_components"]["checkpoints"]
        assert cp.shape == (2,)
        assert np.allclose(rewards, info["reward_components"]["scoring"] + cp, atol=1e-6)
        totals += cp
        if terminated or truncated:
            assert np.all(totals <= 1.0 + 1e-5)
            totals[:] = 0
            episodes += 1
            env.reset()
    assert episodes > 10


@pytest.mark.parametrize("name", ["academy_empty_goal_close", "academy_3_vs_1_with_keeper",
                                  "academy_run_to_score"])
def test_checkpoint_wrapper_matches_engine_checkpoints(name):
    wrapped = CheckpointReward(trackfield.make(name, rewards="scoring"))
    engine = trackfield.make(name, rewards="scoring,checkpoints")
    rng = np.random.default_rng(1)
    wrapped.reset(seed=11)
    engine.reset(seed=11)
    nonzero = 0
    episodes = 0
    for _ in range(3000):
        a = int(rng.integers(0, 19))
        ow, rw, tw, trw, _ = wrapped.step(a)
        oe, re, te, tre, _ = engine.step(a)
        assert np.array_equal(ow, oe)
        assert rw == pytest.approx(re, abs=1e-6)
        assert (tw, trw) == (te, tre)
        nonzero += rw != 0
        if te or tre:
            episodes += 1
            wrapped.reset()
            engine.reset()
    assert episodes > 5 and nonzero > 0


def test_checkpoint_wrapper_refuses_double_counting():
    with pytest.raises(ValueError):
        CheckpointReward(trackfield.make("academy_empty_goal_close", rewards="scoring,checkpoints"))


def test_checkpoint_wrapper_weight():
    base = trackfield.make("academy_empty_goal_close", rewards="scoring", deterministic=True)
    env = CheckpointReward(trackfield.make("academy_empty_goal_close", rewards="scoring", deterministic=True),
                           weight=0.5)
    base.reset(seed=0)
    env.reset(seed=0)
    for a in [5] * 8 + [12] * 30:
        _, rb, tb, trb, info = base.step(a)
        _, rw, *_ = env.step(a)
        assert rw == pytest.approx(rb + 0.5 * info["reward_components"]["checkpoints"], abs=1e-6)
        if tb or trb:
            break


def test_scoring_wrapper_drops_checkpoints():
    env = ScoringReward(trackfield.make("academy_empty_goal_close", rewards="scoring,checkpoints",
                                        deterministic=True))
    env.reset(seed=0)
    for a in [5] * 8 + [12] * 30:
        _, reward, terminated, truncated, info = env.step(a)
        assert reward == info["reward_components"]["scoring"]
        if terminated or truncated:
            break
    assert reward == 1.0


def test_right_team_agent_rewards_are_from_its_side(scenario_file):
    # The right team's carrier at (0.89, 0.3) in its own frame: the same 8 checkpoints as a
    # left carrier there, and +1 (plus the last 2 checkpoints) when it scores on the left goal.
    path = scenario_file((-0.9, -0.3), [(1.0, 0.0, "GK", True)],
                         [(-1.0, 0.0, "GK"), (0.89, 0.3, "CF")],
                         game_duration=100, deterministic=True, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw", rewards="scoring,checkpoints",
                          number_of_left_players_agent_controls=0, number_of_right_players_agent_controls=1)
    obs, _ = env.reset(seed=0)
    assert np.allclose(obs["left_team"][1], [0.89, 0.3], atol=1e-6)  # its own team, its own frame
    env.step(0)  # his first touch
    obs, reward, _, _, info = env.step(0)
    assert obs["ball_owned_team"] == 0 and info["ball_owned_team"] == 1
    assert reward == pytest.approx(0.8, abs=1e-5)
    env.step(3)  # towards goal ("top" in its frame): GRF aims a shot by the direction held
    for _ in range(40):
        obs, reward, terminated, truncated, info = env.step(12)
        if terminated or truncated:
            break
    assert info["score"] == (0, 1)           # absolute: left, right
    assert obs["score"].tolist() == [1, 0]   # the agent's view: own, opponents
    assert info["reward_components"]["scoring"] == 1.0
    assert reward == pytest.approx(1.2, abs=1e-5)
