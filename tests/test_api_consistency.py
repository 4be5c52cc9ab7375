"""One API across the entry points: reset's state option, close, thread count and action
shape behave and word their errors alike in the single, vector and PettingZoo envs."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import trackfield

SCENARIO = "academy_3_vs_1_with_keeper"


def vector(num_envs=3, **config):
    return trackfield.vector.make(SCENARIO, num_envs=num_envs, num_threads=1, **config)


def stepped_vector(steps=5):
    env = vector()
    env.reset(seed=0)
    for _ in range(steps):
        env.step(np.zeros(env.num_envs, dtype=np.int64))
    return env


# ------------------------------------------------------------ reset(options={"state": ...})


def test_vector_reset_restores_one_state_into_every_world():
    env = stepped_vector()
    state = env.get_state(1)
    follow = vector()
    obs, _ = follow.reset(options={"state": state})
    for i in range(3):
        assert follow.get_state(i) == state
        assert np.array_equal(obs[i], obs[0])
    # the restored worlds play on as world 1 does
    actions = np.full(3, 5, dtype=np.int64)
    after, *_ = follow.step(actions)
    expected, *_ = env.step(actions)
    assert np.array_equal(after[0], expected[1])


def test_vector_reset_restores_one_state_per_world():
    env = stepped_vector()
    states = [env.get_state(i) for i in (2, 0, 1)]
    follow = vector()
    follow.reset(options={"state": states})
    assert [follow.get_state(i) for i in range(3)] == states


@pytest.mark.parametrize("make", [
    lambda: trackfield.make(SCENARIO),
    lambda: vector(),
    lambda: trackfield.parallel_env(SCENARIO),
], ids=["single", "vector", "parallel"])
def test_bad_reset_options_raise_the_same_errors_everywhere(make):
    env = make()
    env.reset(seed=0)
    state = env.get_state() if not hasattr(env, "num_envs") else env.get_state(0)
    with pytest.raises(TypeError, match=r"options must be a dict or None, got list"):
        env.reset(options=["state"])
    with pytest.raises(ValueError, match=r"reset: pass either seed or options\['state'\], not both"):
        env.reset(seed=1, options={"state": state})
    env.reset(options={"state": state})  # and alone it is honoured


def test_vector_reset_refuses_a_state_list_of_the_wrong_length_or_kind():
    env = vector()
    env.reset(seed=0)
    with pytest.raises(TypeError, match=r"list of 3 of them .* got list of length 2"):
        env.reset(options={"state": [env.get_state(0)] * 2})
    with pytest.raises(TypeError, match=r"options\['state'\] must be bytes"):
        env.reset(options={"state": 5})


def test_parallel_reset_refuses_a_state_whose_episode_ended():
    env = trackfield.parallel_env("academy_empty_goal_close", game_duration=3)
    env.reset(seed=0)
    while env.agents:
        env.step({agent: 0 for agent in env.agents})
    with pytest.raises(ValueError, match="already ended"):
        env.reset(options={"state": env.get_state()})


# ------------------------------------------------------------ close


@pytest.mark.parametrize("make,action", [
    (lambda: trackfield.make(SCENARIO), lambda env: 0),
    (lambda: trackfield.make("race_time_trial"), lambda env: np.zeros(2, np.float32)),
    (lambda: vector(), lambda env: np.zeros(env.num_envs, dtype=np.int64)),
    (lambda: trackfield.parallel_env(SCENARIO), lambda env: {agent: 0 for agent in env.agents}),
], ids=["single", "single-racing", "vector", "parallel"])
def test_step_and_reset_after_close_raise(make, action):
    env = make()
    env.reset(seed=0)
    env.step(action(env))
    todo = action(env)
    env.close()
    env.close()  # closing twice is allowed
    with pytest.raises(RuntimeError, match=r"step\(\) called after close\(\)"):
        env.step(todo)
    with pytest.raises(RuntimeError, match=r"reset\(\) called after close\(\)"):
        env.reset(seed=0)


# ------------------------------------------------------------ threads


def test_more_threads_than_cpus_warn_and_are_capped():
    from trackfield.core.engine import default_threads

    cores = default_threads()
    with pytest.warns(RuntimeWarning, match=rf"num_threads={cores + 998} is more than the {cores} CPUs"):
        env = trackfield.vector.make("academy_empty_goal_close", num_envs=cores + 1, num_threads=cores + 998)
    assert env.num_threads == cores
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert trackfield.vector.make("academy_empty_goal_close", num_envs=2, num_threads=1).num_threads == 1


# ------------------------------------------------------------ racing actions and agents


@pytest.mark.parametrize("action", [np.zeros((1, 2), np.float32), [[0.5, 0.0]], np.zeros((2, 1))])
def test_racing_single_env_rejects_a_batch_shaped_action(action):
    env = trackfield.make("race_time_trial")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"action for car_0 must have shape \(2,\), got shape"):
        env.step(action)
    env.step(np.array([0.5, 0.0], np.float32))
    env.step([0.5, 0.0])


def test_racing_with_no_agents_is_a_race_of_ai_cars_to_watch():
    env = trackfield.make("race_1v3", agents=0)
    assert env.action_space.shape == (0, 2)
    env.reset(seed=0)
    _, reward, *_ = env.step(np.zeros((0, 2), np.float32))
    assert np.shape(reward) == (0,)
    assert "0: every car is the AI's" in trackfield.racing.RacingEnv.__doc__


# ------------------------------------------------------------ the same across domains

DOMAINS = {"football": "academy_3_vs_1_with_keeper", "racing": "race_1v3"}


def idle(space):
    return np.zeros(space.shape, space.dtype)


def stepped(scenario, steps=5, num_envs=3, **config):
    env = trackfield.vector.make(scenario, num_envs=num_envs, num_threads=1, **config)
    env.reset(seed=0)
    for _ in range(steps):
        env.step(idle(env.action_space))
    return env


@pytest.mark.parametrize("scenario", DOMAINS.values(), ids=DOMAINS.keys())
def test_vector_reset_honours_a_state_in_every_domain(scenario):
    env = stepped(scenario)
    one, per_world = env.get_state(1), [env.get_state(i) for i in (2, 0, 1)]
    follow = trackfield.vector.make(scenario, num_envs=3, num_threads=1)
    obs, _ = follow.reset(options={"state": one})
    assert [follow.get_state(i) for i in range(3)] == [one] * 3
    assert all(np.array_equal(obs[i], obs[0]) for i in range(3))
    follow.reset(options={"state": per_world})
    assert [follow.get_state(i) for i in range(3)] == per_world
    with pytest.raises(TypeError, match=r"list of 3 of them .* got list of length 2"):
        follow.reset(options={"state": per_world[:2]})


@pytest.mark.parametrize("scenario", DOMAINS.values(), ids=DOMAINS.keys())
@pytest.mark.parametrize("entry", ["single", "vector", "parallel", "aec"])
def test_bad_reset_options_raise_the_same_errors_in_every_domain(scenario, entry):
    env = {"single": lambda: trackfield.make(scenario), "vector": lambda: trackfield.vector.make(scenario, num_envs=2),
           "parallel": lambda: trackfield.parallel_env(scenario), "aec": lambda: trackfield.env(scenario)}[entry]()
    env.reset(seed=0)
    owner = env.unwrapped
    state = owner.get_state(0) if entry == "vector" else owner.get_state()
    for options in (["state"], "state", 5):
        with pytest.raises(TypeError, match=rf"options must be a dict or None, got {type(options).__name__}"):
            env.reset(options=options)
    with pytest.raises(ValueError, match=r"reset: pass either seed or options\['state'\], not both"):
        env.reset(seed=1, options={"state": state})
    env.reset(options={"state": state})
    assert (owner.get_state(0) if entry == "vector" else owner.get_state()) == state


@pytest.mark.parametrize("scenario", DOMAINS.values(), ids=DOMAINS.keys())
@pytest.mark.parametrize("entry", ["single", "vector", "parallel"])
def test_step_after_close_raises_in_every_domain(scenario, entry):
    env = {"single": lambda: trackfield.make(scenario), "vector": lambda: trackfield.vector.make(scenario, num_envs=2),
           "parallel": lambda: trackfield.parallel_env(scenario)}[entry]()
    env.reset(seed=0)
    if entry == "parallel":
        action = {agent: idle(env.action_space(agent)) for agent in env.agents}
    else:
        action = idle(env.action_space)
    env.step(action)
    env.close()
    with pytest.raises(RuntimeError, match=r"step\(\) called after close\(\); make a new env"):
        env.step(action)
    with pytest.raises(RuntimeError, match=r"reset\(\) called after close\(\); make a new env"):
        env.reset(seed=0)


# ------------------------------------------------------------ reset(options={"reset_mask": ...})


@pytest.mark.parametrize("scenario", DOMAINS.values(), ids=DOMAINS.keys())
def test_vector_reset_mask_resets_only_the_masked_worlds(scenario):
    env = stepped(scenario)
    before = [env.get_state(i) for i in range(3)]
    fresh = trackfield.vector.make(scenario, num_envs=3, num_threads=1)
    fresh.reset(seed=7)
    obs, _ = env.reset(seed=7, options={"reset_mask": np.array([False, True, False])})
    assert env.get_state(0) == before[0] and env.get_state(2) == before[2]
    assert env.get_state(1) == fresh.get_state(1)      # world 1 from (7, 1), as a full reset seeds it
    assert np.array_equal(obs[1], fresh.reset(seed=7)[0][1])
    env.step(idle(env.action_space))                     # and the batch plays on


@pytest.mark.parametrize("scenario", DOMAINS.values(), ids=DOMAINS.keys())
def test_vector_reset_mask_is_checked(scenario):
    env = trackfield.vector.make(scenario, num_envs=3, num_threads=1)
    with pytest.raises(RuntimeError, match=r"reset every world first"):
        env.reset(options={"reset_mask": np.array([True, False, False])})
    env.reset(seed=0)
    for mask in (np.array([1, 0, 0]), np.array([True, False]), [True, False]):
        with pytest.raises(ValueError, match=r"options\['reset_mask'\] must be a bool array of shape \(3,\)"):
            env.reset(options={"reset_mask": mask})
    with pytest.raises(ValueError, match=r"either options\['reset_mask'\] or options\['state'\]"):
        env.reset(options={"reset_mask": np.ones(3, bool), "state": env.get_state(0)})


def test_a_racing_mix_splits_a_reset_mask_and_a_state_list_over_its_scenarios():
    mix = trackfield.vector.make(scenarios={"race_time_trial": 0.5, "race_1v1": 0.5}, num_envs=4, num_threads=1)
    mix.reset(seed=0)
    for _ in range(3):
        mix.step(idle(mix.action_space))
    parts = mix.parts
    before = [p.get_state(i) for p in parts for i in range(p.num_envs)]
    mix.reset(seed=3, options={"reset_mask": np.array([False, True, True, False])})
    after = [p.get_state(i) for p in parts for i in range(p.num_envs)]
    assert after[0] == before[0] and after[3] == before[3]
    assert after[1] != before[1] and after[2] != before[2]
    mix.reset(options={"state": before})
    assert [p.get_state(i) for p in parts for i in range(p.num_envs)] == before
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        mix.reset(options={"reset_mask": np.ones(2, bool)})


# ------------------------------------------------------------ a parallel env needs an agent


@pytest.mark.parametrize("scenario,config,word", [
    ("race_1v3", {"agents": 0}, "agents=0"),
    ("academy_3_vs_1_with_keeper", {"number_of_left_players_agent_controls": 0}, "number_of_left_players_agent_controls=0"),
])
def test_a_parallel_env_with_no_agent_to_control_is_refused(scenario, config, word):
    with pytest.raises(ValueError, match=word):
        trackfield.parallel_env(scenario, **config)
    with pytest.raises(ValueError, match=word):
        trackfield.env(scenario, **config)


# ------------------------------------------------------------ copy=False


@pytest.mark.parametrize("scenario,config", [
    ("academy_3_vs_1_with_keeper", {}), ("academy_3_vs_1_with_keeper", {"representation": "smm"}),
    ("race_1v3", {}), ("race_1v3", {"agents": 2}),
], ids=["football", "football-smm", "racing", "racing-two-agents"])
def test_copy_false_hands_out_the_engines_buffer_and_copy_true_a_fresh_array(scenario, config):
    views = trackfield.vector.make(scenario, num_envs=3, num_threads=1, copy=False, **config)
    copies = trackfield.vector.make(scenario, num_envs=3, num_threads=1, **config)
    assert views.copy is False and copies.copy is True
    first, _ = views.reset(seed=0)
    own, _ = copies.reset(seed=0)
    assert np.array_equal(first, own) and not first.flags.writeable
    action = idle(views.action_space)
    second = views.step(action)[0]
    assert np.shares_memory(first, second)               # the same buffer, step after step
    after = copies.step(action)[0]
    assert np.array_equal(second, after) and np.array_equal(first, after)   # overwritten in place
    assert not np.shares_memory(own, after) and own.flags.writeable
    with pytest.raises(ValueError):
        first[...] = 0                                    # read-only: the engine's to write
    with pytest.raises(TypeError, match="copy must be True or False"):
        trackfield.vector.make(scenario, num_envs=2, copy="no", **config)
