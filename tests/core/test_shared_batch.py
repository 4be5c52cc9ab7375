"""The shared batch and its adapters (envs/core) on the probe domain: continuous actions,
agents that join and leave mid-episode, per-agent rewards and info, stacking, snapshots,
determinism across threads. Football covers discrete actions; these cover the rest that
racing and driving rely on (cpp_engine/common/probe_domain.h defines the probe)."""
from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from trackfield import _engine
from trackfield.core.engine import BatchEngine
from trackfield.core.pettingzoo import BatchParallelEnv
from trackfield.core.single import BatchEnv
from trackfield.core.vector import BatchVectorEnv

PUSH, HOLD = [1.0, -1.0], [0.0, 0.0]  # full speed ahead (0.1 per step); stand still


def probe_engine(num_envs=1, num_threads=1, autoreset=False, **settings):
    cfg = _engine.probe.Config()
    for key, value in settings.items():
        setattr(cfg, key, value)
    return BatchEngine(_engine.probe, cfg, num_envs=num_envs, num_threads=num_threads, autoreset=autoreset)


class ProbeEnv(BatchEnv):
    def __init__(self, **settings):
        self._attach(probe_engine(**settings))


class ProbeVectorEnv(BatchVectorEnv):
    def __init__(self, num_envs, num_threads=1, **settings):
        self._attach(probe_engine(num_envs, num_threads, autoreset=True, **settings))


class ProbeParallelEnv(BatchParallelEnv):
    def __init__(self, **settings):
        engine = probe_engine(**settings)
        self._attach(engine, [f"car_{i}" for i in range(engine.num_agents)])


# ------------------------------------------------------------------------------ layout


def test_layout_declares_continuous_actions_and_fields():
    eng = probe_engine(num_agents=3)
    assert eng.actions.dtype == np.float32 and eng.actions.shape == (1, 3, 2)
    assert eng.agent_action_space == gym.spaces.Box(-1, 1, (2,), np.float32)
    assert eng.reward_component_names == ("push", "alive")
    assert eng.world_observation_space().shape == (3, 4)
    assert eng.world_action_space().shape == (3, 2)


def test_buffers_are_checked_once_with_names():
    cfg = _engine.probe.Config()
    good = probe_engine().buffers
    bad = dict(good, rewards=np.zeros((1, 1), np.float64))
    with pytest.raises(TypeError, match="rewards: expected dtype float32"):
        _engine.probe.Batch(cfg, 1, 1, False, bad)
    bad = dict(good, live=np.zeros((1, 5), np.bool_))
    with pytest.raises(ValueError, match="live: expected 2 elements"):
        _engine.probe.Batch(cfg, 1, 1, False, bad)
    bad = {k: v for k, v in good.items() if k != "agent_info"}
    with pytest.raises(ValueError, match="missing 'agent_info'"):
        _engine.probe.Batch(cfg, 1, 1, False, bad)
    with pytest.raises(ValueError, match="unknown buffer 'extra'"):
        _engine.probe.Batch(cfg, 1, 1, False, dict(good, extra=np.zeros(1)))
    bad = dict(good, obs=np.zeros((1, 2, 4), np.float32)[:, :, ::2])
    with pytest.raises((ValueError, TypeError)):
        _engine.probe.Batch(cfg, 1, 1, False, bad)
    cfg.num_agents = 9
    with pytest.raises(ValueError, match="num_agents must be in"):
        _engine.probe.layout(cfg)


# ------------------------------------------------------------------------- live mask


def test_agents_join_on_schedule_and_leave_at_the_goal():
    eng = probe_engine(num_agents=3, join_every=3, max_steps=100)
    eng.batch.reset_one(0, 7)
    assert eng.live[0].tolist() == [True, False, False]
    joined, left = {}, {}
    for t in range(1, 40):
        before = eng.live[0].copy()
        eng.actions[0] = PUSH
        eng.batch.step()
        for a in range(3):
            if eng.live[0, a] and not before[a]:
                joined[a] = t
            if before[a] and not eng.live[0, a]:
                left[a] = t
                assert eng.agent_terminated[0, a] and not eng.agent_truncated[0, a]
                assert eng.agent_info[0, a, 0] >= 1.0  # it left because it reached x >= 1
            # a slot not in play earns nothing; one in play earns push + 1 = 2
            assert eng.rewards[0, a] == (2.0 if before[a] else 0.0)
        if eng.terminated[0]:
            break
    assert joined == {1: 3, 2: 6}
    assert eng.terminated[0] and not eng.truncated[0] and sorted(left) == [0, 1, 2]
    assert not eng.live[0].any()
    # each agent needed ceil((1 - x0) / 0.1) steps from joining
    assert left[0] < left[1] + 3 and left[2] > joined[2]


def test_slots_not_in_play_show_zeros_and_leavers_their_last_frame():
    eng = probe_engine(num_agents=2, join_every=5, max_steps=100)
    eng.batch.reset_one(0, 1)
    assert np.all(eng.obs[0, 1] == 0) and eng.obs[0, 0, 3] == 0.0
    for _ in range(30):
        eng.actions[0] = PUSH
        eng.batch.step()
        if eng.agent_terminated[0, 0]:
            break
    # the step agent 0 leaves in, its observation is the real last frame (x >= 1)
    assert eng.agent_terminated[0, 0] and eng.obs[0, 0, 0] >= 1.0
    eng.actions[0] = PUSH
    eng.batch.step()
    assert np.all(eng.obs[0, 0] == 0)  # gone: zeros from then on
    assert eng.obs[0, 1, 3] == 1.0      # slot index of agent 1, still in play


def test_truncation_ends_every_agent_in_play():
    eng = probe_engine(num_agents=2, join_every=0, max_steps=4)
    eng.batch.reset_one(0, 0)
    for _ in range(4):
        eng.actions[0] = HOLD
        eng.batch.step()
    assert eng.truncated[0] and not eng.terminated[0]
    assert eng.agent_truncated[0].tolist() == [True, True] and not eng.live[0].any()
    assert eng.episode_length[0] == 4


@pytest.mark.parametrize("image", [False, True])
def test_stack_of_a_joining_agent_starts_with_copies_of_its_first_frame(image):
    eng = probe_engine(num_agents=2, join_every=2, max_steps=100, stack=4, image=image)
    frame = (2, 2, 1) if image else (4,)
    eng.batch.reset_one(0, 3)
    history = []
    for _ in range(6):
        eng.actions[0] = PUSH
        eng.batch.step()
        history.append(eng.obs[0, 1].copy())
    if image:  # channels of each pixel grouped in time: [..., time]
        frames = lambda obs: [obs[..., t] for t in range(4)]  # noqa: E731
    else:      # frames concatenated, oldest first
        frames = lambda obs: [obs[4 * t:4 * t + 4] for t in range(4)]  # noqa: E731
    assert eng.obs.shape[2:] == (frame[:-1] + (4,) if image else (16,))
    assert all(np.all(f == 0) for f in frames(history[0]))       # step 1: agent 1 waiting
    joined = frames(history[1])                                   # step 2: joined
    assert all(np.array_equal(f, joined[3]) for f in joined)      # four copies of its first frame
    later = frames(history[3])
    assert np.array_equal(later[1], frames(history[2])[2]) and np.array_equal(later[2], frames(history[2])[3])
    assert not np.array_equal(later[3], later[2])                 # it moved


# ----------------------------------------------------------------------- determinism


def rollout(num_envs, num_threads, steps=120, seed=5):
    env = ProbeVectorEnv(num_envs, num_threads, num_agents=3, join_every=2, max_steps=30, stack=2)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    out = [obs]
    for _ in range(steps):
        actions = rng.uniform(-1, 1, (16, 3, 2)).astype(np.float32)[:num_envs]  # world i's do not depend on N
        obs, rew, term, trunc, info = env.step(actions)
        out += [obs, rew, term, trunc, info["live"], info["x"]]
    return out


def test_threads_give_bitwise_identical_results():
    ref = rollout(16, 1)
    for threads in (2, 4):
        for a, b in zip(ref, rollout(16, threads)):
            assert np.array_equal(a, b)


def test_world_zero_of_a_batch_equals_a_batch_of_one_until_it_ends():
    big, small = rollout(8, 2, steps=20), rollout(1, 1, steps=20)
    for a, b in zip(big, small):
        if a.ndim and a.shape[0] == 8:
            a = a[:1]
        assert np.array_equal(a, b)


# ------------------------------------------------------------------------- snapshots


def test_snapshot_restores_live_mask_returns_and_stack():
    eng = probe_engine(num_agents=3, join_every=2, max_steps=60, stack=3)
    eng.batch.reset_one(0, 11)
    rng = np.random.default_rng(1)
    for _ in range(5):
        eng.actions[0] = rng.uniform(-1, 1, (3, 2))
        eng.batch.step()
    state = eng.batch.get_state(0)
    live, obs = eng.live.copy(), eng.obs.copy()
    actions = rng.uniform(-1, 1, (40, 3, 2)).astype(np.float32)

    def finish():
        trace = []
        for a in actions:
            eng.actions[0] = a
            eng.batch.step()
            trace.append((eng.obs.copy(), eng.rewards.copy(), eng.live.copy(), bool(eng.terminated[0] or eng.truncated[0])))
            if trace[-1][-1]:
                break
        return trace, eng.episode_return.copy()

    first = finish()
    eng.batch.set_state(0, state)
    assert np.array_equal(eng.live, live) and np.array_equal(eng.obs, obs)
    second = finish()
    for (o1, r1, l1, d1), (o2, r2, l2, d2) in zip(first[0], second[0]):
        assert np.array_equal(o1, o2) and np.array_equal(r1, r2) and np.array_equal(l1, l2) and d1 == d2
    assert np.array_equal(first[1], second[1])  # the episode return counts the steps before the snapshot


def test_snapshot_of_other_config_or_domain_is_refused():
    a, b = probe_engine(num_agents=2), probe_engine(num_agents=3)
    a.batch.reset_one(0, 0)
    with pytest.raises(ValueError, match="another scenario or configuration"):
        b.batch.set_state(0, a.batch.get_state(0))
    import trackfield

    football = trackfield.make("academy_empty_goal_close")
    football.reset(seed=0)
    with pytest.raises(ValueError, match="not a probe snapshot"):
        a.batch.set_state(0, football.get_state())


# ------------------------------------------------------------------ Python adapters


def test_single_env_passes_gymnasium_checker_with_continuous_actions():
    env = ProbeEnv(num_agents=1, join_every=0, max_steps=20)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    assert env.action_space == gym.spaces.Box(-1, 1, (2,), np.float32)


@pytest.mark.parametrize("action, message", [
    ([np.nan, 0.0], "finite"), ([0.0, np.inf], "finite"), ([1.5, 0.0], r"\[-1, 1\]"),
    ([0.0], "2 element"), ("ab", "numbers"), (True, "boolean"), ([1j, 0], "numbers"),
])
def test_single_env_rejects_bad_continuous_actions(action, message):
    env = ProbeEnv(num_agents=1, join_every=0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=message):
        env.step(action)
    env.step(np.array([0.5, -0.5], np.float64))  # still usable; float64 is converted


def test_vector_env_rejects_bad_actions_naming_world_and_agent():
    env = ProbeVectorEnv(3, num_agents=2)
    env.reset(seed=0)
    actions = np.zeros((3, 2, 2), np.float32)
    actions[2, 1, 0] = np.nan
    with pytest.raises(ValueError, match="world 2, agent 1"):
        env.step(actions)
    actions[2, 1, 0] = -1.01
    with pytest.raises(ValueError, match=r"world 2, agent 1 got \[-1.0"):
        env.step(actions)
    with pytest.raises(ValueError, match=r"shape \(3, 2, 2\)"):
        env.step(np.zeros((3, 2), np.float32))
    env.step(np.zeros((3, 2, 2), np.float32))


def test_engine_refuses_bad_actions_of_live_agents_only():
    # The C++ check is the last line of defence behind the Python one.
    eng = probe_engine(num_agents=2, join_every=10)
    eng.batch.reset_one(0, 0)
    eng.actions[0, 1] = np.nan  # slot 1 is not in play yet: ignored
    eng.actions[0, 0] = [0.2, 0.0]
    eng.batch.step()
    eng.actions[0, 0] = [2.0, 0.0]
    with pytest.raises(ValueError, match="probe action 2 of world 0, agent 0, element 0 is outside"):
        eng.batch.step()


def test_vector_env_reports_episodes_final_info_and_per_agent_fields():
    env = ProbeVectorEnv(4, num_agents=2, join_every=0, max_steps=8)
    env.reset(seed=1)
    for t in range(8):
        obs, rew, term, trunc, info = env.step(np.tile(np.float32(HOLD), (4, 2, 1)))
    assert trunc.all() and not term.any()  # standing still, nobody reaches the goal
    ep = info["episode"]
    assert ep["r"].shape == (4, 2) and np.all(ep["r"] == 8.0) and np.all(ep["l"] == 8)  # 1 per step each
    final = info["final_info"]
    assert final["steps"].tolist() == ep["l"].tolist() and final["_steps"].all()
    assert final["x"].shape == (4, 2) and info["x"].shape == (4, 2)
    assert np.all(info["steps"] == 0)  # the returned info is the new episode's
    assert info["live"].all()
    assert info["reward_components"]["push"].shape == (4, 2)


def test_parallel_env_passes_pettingzoo_tests_with_agents_coming_and_going():
    from pettingzoo.test import parallel_api_test

    env = ProbeParallelEnv(num_agents=3, join_every=2, max_steps=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(env, num_cycles=200)


def test_parallel_env_agent_bookkeeping():
    env = ProbeParallelEnv(num_agents=2, join_every=2, max_steps=100)
    obs, infos = env.reset(seed=4)
    assert env.agents == ["car_0"] and list(obs) == ["car_0"] and infos["car_0"]["state"] == 1
    seen_join = seen_leave = False
    while env.agents:
        obs, rew, term, trunc, infos = env.step({a: np.float32(PUSH) for a in env.agents})
        if "car_1" in obs and "car_1" in env.agents and rew["car_1"] == 0.0:
            seen_join = True  # joined this step: first observation, no reward yet
        for agent, done in term.items():
            if done:
                seen_leave = True
                assert agent not in env.agents and obs[agent][0] >= 1.0 and rew[agent] == 2.0
    assert seen_join and seen_leave
    with pytest.raises(RuntimeError, match="every agent left"):
        env.step({})


def test_parallel_env_refuses_actions_for_agents_not_in_play():
    env = ProbeParallelEnv(num_agents=2, join_every=5)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not in play"):
        env.step({"car_0": PUSH, "car_1": PUSH})
    with pytest.raises(ValueError, match="car_0.*finite"):
        env.step({"car_0": [np.nan, 0]})


def test_sb3_adapter_serves_continuous_actions():
    pytest.importorskip("stable_baselines3")
    from trackfield.core.sb3 import to_sb3

    venv = to_sb3(ProbeVectorEnv(3, num_agents=1, join_every=0, max_steps=5))
    venv.seed(0)
    obs = venv.reset()
    assert obs.shape == (3, 4)
    for _ in range(5):
        obs, rewards, dones, infos = venv.step(np.full((3, 2), 0.5, np.float32))
    assert dones.all() and all(info["TimeLimit.truncated"] for info in infos)
    assert infos[0]["terminal_observation"].shape == (4,)


def test_reset_from_a_state_option_restores_that_state():
    env = ProbeEnv(num_agents=2, join_every=1, max_steps=30)
    env.reset(seed=3)
    for _ in range(4):
        env.step(np.float32([PUSH, PUSH]))
    state, obs = env.get_state(), env.observation()
    env.reset(seed=9)
    restored, info = env.reset(options={"state": state})
    assert np.array_equal(restored, obs) and info["steps"] == 4
    with pytest.raises(ValueError, match="either seed or"):
        env.reset(seed=1, options={"state": state})
