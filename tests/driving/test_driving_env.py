"""The driving envs through the public API: checkers, determinism, bad input, docs."""
from __future__ import annotations

import re

import numpy as np
import pytest

import trackfield
from trackfield import _engine

FAST = dict(max_steps=40)


def test_gymnasium_and_sb3_checkers_pass_on_town_drive():
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    check_env(trackfield.make("town_drive", **FAST), skip_render_check=True)
    sb3_check_env(trackfield.make("town_drive", **FAST))


def test_pettingzoo_parallel_api_on_town_self_play_with_few_agents():
    from pettingzoo.test import parallel_api_test

    parallel_api_test(trackfield.parallel_env("town_self_play", agents=4, max_steps=60), num_cycles=150)


def test_gymnasium_id_is_registered():
    import gymnasium

    env = gymnasium.make("trackfield/TownDrive-v0", **FAST)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (337,) and env.action_space.n == 12


def rollout_vector(num_threads, seed=3, steps=15):
    env = trackfield.vector.make("town_self_play", num_envs=3, num_threads=num_threads, agents_max=12, max_steps=10)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=seed)
    out = [obs.copy()]
    for _ in range(steps):
        obs, rew, *_ = env.step(rng.integers(0, 12, size=(3, 150)))
        out += [obs.copy(), rew.copy()]
    return out


def test_same_seed_same_observations_and_threads_are_bitwise_equal():
    a, b, c = rollout_vector(1), rollout_vector(1), rollout_vector(2)
    for x, y, z in zip(a, b, c):
        assert np.array_equal(x, y) and np.array_equal(x, z)
    other = rollout_vector(1, seed=4)
    assert not np.array_equal(a[0], other[0])


def test_batched_world_zero_equals_the_single_env_seeded_the_same():
    vec = trackfield.vector.make("town_drive", num_envs=2, num_threads=2, agents=6)
    single = trackfield.make("town_drive", agents=6)
    vobs, _ = vec.reset(seed=11)
    sobs, _ = single.reset(seed=11)
    assert np.array_equal(vobs[0], sobs)
    for t in range(25):
        action = t % 12
        vobs, vr, vterm, vtrunc, _ = vec.step(np.array([action, 5]))
        sobs, sr, sterm, strunc, _ = single.step(action)
        assert vr[0] == sr and vterm[0] == sterm
        if sterm or strunc:
            break
        assert np.array_equal(vobs[0], sobs)


def test_observations_are_in_bounds_and_dead_slots_are_zero():
    env = trackfield.vector.make("town_self_play", num_envs=2, agents=5)
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32 and np.abs(obs).max() <= 1.0
    assert env.single_observation_space.contains(obs[0])
    assert not obs[:, 5:].any() and info["alive"][:, :5].all()


@pytest.mark.parametrize("kwargs, name", [
    (dict(dt=0.0), "dt"), (dict(dt=-0.3), "dt"), (dict(agents=151), "agents"),
    (dict(slots=10, agents=20), "agents"), (dict(map="NoSuchTown"), "map"), (dict(slots=0), "slots"),
    (dict(action="joystick"), "action"), (dict(goal_distance=(80, 20)), "goal_distance"),
    (dict(goal_distance=(-5, 20)), "goal_distance"), (dict(goal_distance=(0, 0)), "goal_distance"),
    (dict(goal_distance=50), "goal_distance"), (dict(goal_distance=(10, 20, 30)), "goal_distance"),
])
def test_bad_config_raises_value_error_naming_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        trackfield.make("town_drive", **kwargs)


def test_goal_distance_puts_the_final_goal_that_far_along_the_route():
    low, high = 30.0, 80.0
    env = trackfield.vector.make("town_drive", num_envs=200, waypoints=0, goal_distance=(low, high), agents=1)
    _, info = env.reset(seed=0)
    route = info["goal_distance"]
    assert np.isfinite(route).all()
    inside = (route >= low - 1e-3) & (route <= high + 1e-3)
    assert inside.mean() >= 0.95, np.sort(route[~inside])   # a dead end can cut a walk short
    assert np.percentile(route, 90) - np.percentile(route, 10) > 0.5 * (high - low)   # spread over the range
    # The default draws a goal anywhere on the map: most are further.
    default = trackfield.vector.make("town_drive", num_envs=200, waypoints=0, agents=1)
    _, info = default.reset(seed=0)
    assert np.median(info["goal_distance"]) > 2 * high
    with_waypoints = trackfield.make("town_drive", waypoints=3, goal_distance=(low, high), agents=1)
    for seed in range(10):
        with_waypoints.reset(seed=seed)
        goals, index = with_waypoints.unwrapped_engine.batch.goals(0, 0)
        assert 1 <= len(goals) <= 4 and index == 0


def test_bad_actions_raise_naming_the_agent():
    env = trackfield.make("town_drive")
    env.reset(seed=0)
    for bad in (12, -1):
        with pytest.raises(ValueError, match="agent"):
            env.step(bad)
    box = trackfield.make("town_drive", action="box")
    box.reset(seed=0)
    with pytest.raises(ValueError, match="agent"):
        box.step(np.array([np.nan, 0.0], np.float32))
    pz = trackfield.parallel_env("town_self_play", agents=3)
    pz.reset(seed=0)
    actions = {a: 0 for a in pz.agents}
    actions[pz.agents[1]] = 99
    with pytest.raises(ValueError, match=pz.agents[1]):
        pz.step(actions)
    vec = trackfield.vector.make("town_self_play", num_envs=2, agents=3)
    vec.reset(seed=0)
    acts = np.zeros((2, 150), np.int64)
    acts[1, 2] = 12
    with pytest.raises(ValueError, match="agent"):
        vec.step(acts)


def test_docstring_observation_table_matches_the_engine_field_table():
    from trackfield.driving.env import DrivingEnv

    section = DrivingEnv.__doc__.split("## Observation Space")[1].split("##")[0]
    flat_section, sets_section = section.split("| Set field |")
    for text, fields_of, size in ((flat_section, _engine.driving.flat_fields, 337),
                                  (sets_section, _engine.driving.sets_fields, 1369)):
        rows = re.findall(r"^\s*\| (\w+) \| ([\d x]+) \|", text, re.M)
        table = {name: tuple(int(n) for n in shape.split(" x ")) for name, shape in rows}
        fields = {name: tuple(shape) for name, shape, *_ in fields_of()}
        assert table == fields
        assert sum(int(np.prod(s)) for s in fields.values()) == size
    names = re.findall(r"^\s*\| (\w+) \| [^|]+ \| [^|]+ \|$", DrivingEnv.__doc__.split("## Rewards")[1].split("##")[0], re.M)
    assert [n for n in names if n != "Component"] == list(_engine.driving.REWARD_COMPONENTS)


def test_env_docstring_example_runs():
    import doctest

    import trackfield.driving.env as env_module

    result = doctest.testmod(env_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_info_holds_every_reward_component_and_the_alive_mask():
    env = trackfield.vector.make("town_self_play", num_envs=2, agents=3)
    _, info = env.reset(seed=0)
    assert info["live"].shape == (2, 150) and info["live"].sum() == 6   # the mask is there from the start
    _, rewards, _, _, info = env.step(np.full((2, 150), 10))
    components = info["reward_components"]
    assert list(components) == list(_engine.driving.REWARD_COMPONENTS)
    assert all(v.shape == (2, 150) for v in components.values())
    assert np.allclose(sum(components.values()), rewards, atol=1e-5)
    assert info["live"].shape == (2, 150) and info["live"][:, :3].any()


MILD = (7, 8, 6, 10, 4)  # cruise, steer either way, throttle, ease off: the ego lives 15 steps


def test_snapshot_restores_the_world_bit_for_bit():
    env = trackfield.make("town_drive", agents=10)
    env.reset(seed=7)
    for t in range(5):
        env.step(MILD[t % 5])
    state = env.get_state()
    after = [env.step(MILD[t % 5])[0] for t in range(10)]
    env.reset(options={"state": state})
    again = [env.step(MILD[t % 5])[0] for t in range(10)]
    assert all(np.array_equal(a, b) for a, b in zip(after, again))
    other = trackfield.make("town_drive", agents=11)
    other.reset(seed=0)
    with pytest.raises(ValueError):
        other.set_state(state)
