"""Reproducibility: seeds, deterministic mode, thread counts, and vector vs single envs."""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from conftest import assert_obs_equal


def play(env, seed, actions, episodes_reset_unseeded=True):
    """Steps env through actions (resetting unseeded at episode ends); returns the trajectory."""
    obs, _ = env.reset(seed=seed)
    trajectory = [(obs, 0.0, False, False)]
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        trajectory.append((obs, reward, terminated, truncated, info["score"]))
        if terminated or truncated:
            if not episodes_reset_unseeded:
                break
            obs, _ = env.reset()
            trajectory.append((obs, "reset"))
    return trajectory


def assert_same_trajectory(a, b):
    assert len(a) == len(b)
    for k, (x, y) in enumerate(zip(a, b)):
        assert_obs_equal(x[0], y[0], f"step {k}")
        assert x[1:] == y[1:], f"step {k}"


@pytest.mark.parametrize("name", ["academy_3_vs_1_with_keeper", "academy_counterattack_hard",
                                  "academy_run_pass_and_shoot_with_keeper"])
@pytest.mark.parametrize("representation", ["raw", "simple115v2", "smm"])
def test_same_seed_same_actions_identical(name, representation):
    actions = [int(a) for a in np.random.default_rng(0).integers(0, 19, 600)]
    a = play(trackfield.make(name, representation=representation), 123, actions)
    b = play(trackfield.make(name, representation=representation), 123, actions)
    assert_same_trajectory(a, b)


def test_reseeding_the_same_env_reproduces_the_run():
    env = trackfield.make("academy_3_vs_1_with_keeper", representation="raw")
    actions = [int(a) for a in np.random.default_rng(1).integers(0, 19, 500)]
    first = play(env, 9, actions)
    second = play(env, 9, actions)
    assert_same_trajectory(first, second)


def test_different_seeds_diverge_on_stochastic_scenario():
    name = "academy_3_vs_1_with_keeper"
    actions = [int(a) for a in np.random.default_rng(2).integers(0, 19, 600)]
    runs = [play(trackfield.make(name, representation="raw"), seed, actions) for seed in (1, 2, 3)]
    for i in range(3):
        for j in range(i + 1, 3):
            a, b = runs[i], runs[j]
            differs = len(a) != len(b) or any(
                not np.array_equal(x[0]["ball"], y[0]["ball"]) or
                not np.array_equal(x[0]["left_team"], y[0]["left_team"]) for x, y in zip(a, b))
            assert differs, f"seeds {i + 1} and {j + 1} gave identical games"


def test_unseeded_first_reset_differs_between_envs():
    # Gymnasium: an env reset without a seed draws one (two envs should not play the same game).
    name = "academy_3_vs_1_with_keeper"
    actions = [int(a) for a in np.random.default_rng(3).integers(0, 19, 400)]
    a = play(trackfield.make(name), None, actions)
    b = play(trackfield.make(name), None, actions)
    assert len(a) != len(b) or any(not np.array_equal(x[0], y[0]) for x, y in zip(a, b))


@pytest.mark.parametrize("name", ["academy_3_vs_1_with_keeper", "academy_counterattack_easy"])
def test_deterministic_mode_ignores_seed(name):
    actions = [int(a) for a in np.random.default_rng(4).integers(0, 19, 600)]
    base = play(trackfield.make(name, representation="raw", deterministic=True), 0, actions)
    for seed in (1, 987654321):
        other = play(trackfield.make(name, representation="raw", deterministic=True), seed, actions)
        assert_same_trajectory(base, other)


def test_deterministic_vector_worlds_are_identical():
    envs = trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=3, num_threads=1, deterministic=True)
    obs, _ = envs.reset(seed=5)
    a = np.random.default_rng(0).integers(0, 19, 200)
    for k in range(200):
        assert np.array_equal(obs[0], obs[1]) and np.array_equal(obs[0], obs[2])
        obs, rewards, terminated, truncated, _ = envs.step(np.full(3, a[k]))
        assert len(set(rewards.tolist())) == 1 and len(set(terminated.tolist())) == 1


def _vector_run(name, num_threads, actions, seed=0, **config):
    envs = trackfield.vector.make(name, num_envs=actions.shape[1], num_threads=num_threads, **config)
    out = [envs.reset(seed=seed)[0]]
    for a in actions:
        obs, rewards, terminated, truncated, info = envs.step(a)
        out.append((obs, rewards, terminated, truncated))
        if "final_obs" in info:
            out.append(tuple(info["final_obs"][i] for i in np.flatnonzero(info["_final_obs"])))
    envs.close()
    return out


@pytest.mark.parametrize("name,config", [
    ("academy_3_vs_1_with_keeper", {}),
    ("academy_counterattack_hard", {"representation": "smm"}),
    ("academy_corner", {"number_of_left_players_agent_controls": 2, "stacked": True}),
])
def test_vector_thread_count_does_not_change_results(name, config):
    agents = config.get("number_of_left_players_agent_controls", 1)
    shape = (200, 4) if agents == 1 else (200, 4, agents)
    actions = np.random.default_rng(5).integers(0, 19, shape)
    one = _vector_run(name, 1, actions, **config)
    two = _vector_run(name, 2, actions, **config)
    assert len(one) == len(two)
    for k, (x, y) in enumerate(zip(one, two)):
        if isinstance(x, tuple):
            assert len(x) == len(y)
            for u, v in zip(x, y):
                assert np.array_equal(u, v), f"step {k}"
        else:
            assert np.array_equal(x, y)


def test_vector_threads_with_many_worlds():
    actions = np.random.default_rng(6).integers(0, 19, (100, 37))
    one = _vector_run("academy_3_vs_1_with_keeper", 1, actions, seed=3)
    two = _vector_run("academy_3_vs_1_with_keeper", 2, actions, seed=3)
    for x, y in zip(one, two):
        for u, v in zip(x if isinstance(x, tuple) else (x,), y if isinstance(y, tuple) else (y,)):
            assert np.array_equal(u, v)


@pytest.mark.parametrize("representation", ["simple115v2", "raw"])
@pytest.mark.parametrize("name", ["academy_3_vs_1_with_keeper", "academy_empty_goal_close"])
def test_vector_world_zero_equals_single_env_until_episode_end(name, representation):
    for seed in (0, 1, 2):
        single = trackfield.make(name, representation=representation)
        envs = trackfield.vector.make(name, num_envs=3, num_threads=2, representation=representation)
        obs1, _ = single.reset(seed=seed)
        obsv, _ = envs.reset(seed=seed)
        world0 = (lambda o: {k: v[0] for k, v in o.items()}) if representation == "raw" else (lambda o: o[0])
        assert_obs_equal(obs1, world0(obsv), "reset")
        rng = np.random.default_rng(seed)
        for t in range(500):
            a = rng.integers(0, 19, 3)
            obs1, r1, te1, tr1, info1 = single.step(int(a[0]))
            obsv, rv, tev, trv, infov = envs.step(a)
            assert r1 == rv[0] and te1 == tev[0] and tr1 == trv[0], f"step {t}"
            if te1 or tr1:
                # the vector env reset world 0 in the same step; the ended episode's last obs is in info
                assert infov["_final_obs"][0]
                assert_obs_equal(obs1, infov["final_obs"][0], f"final obs at step {t}")
                assert infov["episode"]["l"][0] == info1["steps"]
                assert tuple(infov["episode"]["score"][0]) == info1["score"]
                fresh, _ = single.reset()
                assert_obs_equal(fresh, world0(obsv), "first obs of the next episode")
                break
            assert_obs_equal(obs1, world0(obsv), f"step {t}")
        else:
            pytest.fail("no episode ended in 500 steps")


def test_vector_world_zero_tracks_single_env_over_many_episodes():
    # Both reset from the world's own generator, so they stay in step across episodes.
    name = "academy_3_vs_1_with_keeper"
    single = trackfield.make(name)
    envs = trackfield.vector.make(name, num_envs=2, num_threads=1)
    obs1, _ = single.reset(seed=42)
    obsv, _ = envs.reset(seed=42)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(1500):
        a = rng.integers(0, 19, 2)
        obs1, r1, te1, tr1, _ = single.step(int(a[0]))
        obsv, rv, tev, trv, info = envs.step(a)
        assert r1 == rv[0] and (te1, tr1) == (tev[0], trv[0])
        if te1 or tr1:
            assert np.array_equal(obs1, info["final_obs"][0])
            obs1, _ = single.reset()
            episodes += 1
        assert np.array_equal(obs1, obsv[0])
    assert episodes >= 10


def test_vector_worlds_differ_from_each_other():
    envs = trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=4, num_threads=1)
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    history = []
    for _ in range(300):
        obs, *_ = envs.step(np.full(4, rng.integers(0, 19)))
        history.append(obs.copy())
    history = np.array(history)
    for i in range(1, 4):
        assert not np.array_equal(history[:, 0], history[:, i])
