"""get_state() / set_state(): exact save and restore, and refusal of bad snapshots."""
from __future__ import annotations

import struct
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import trackfield
from conftest import assert_obs_equal

SNAPSHOT_HEADER_BYTES = 32  # magic u32, version u32, payload size u64, config fingerprint u64, checksum u64


def record(env, actions):
    """Steps env through actions; returns [(obs, reward, terminated, truncated, info)] until the end."""
    out = []
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        out.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            break
    return out


def assert_same_records(a, b):
    assert len(a) == len(b)
    for k, (x, y) in enumerate(zip(a, b)):
        assert_obs_equal(x[0], y[0], f"step {k}")
        assert np.array_equal(x[1], y[1]) and x[2:4] == y[2:4], f"step {k}"
        assert x[4]["score"] == y[4]["score"] and x[4]["steps"] == y[4]["steps"]
        for name, value in x[4]["reward_components"].items():
            assert np.array_equal(value, y[4]["reward_components"][name]), f"step {k}: {name}"


@pytest.mark.parametrize("name,config", [
    ("academy_3_vs_1_with_keeper", {"representation": "raw"}),
    ("academy_3_vs_1_with_keeper", {"representation": "simple115v2", "stacked": True}),
    ("academy_counterattack_hard", {"representation": "smm", "stacked": True}),
    ("academy_counterattack_easy", {"representation": "smm"}),
    ("academy_corner", {"number_of_left_players_agent_controls": 2, "rewards": "scoring,checkpoints"}),
])
@pytest.mark.parametrize("k", [0, 7, 25])
def test_restore_and_replay_is_identical(name, config, k):
    env = trackfield.make(name, **config)
    agents = config.get("number_of_left_players_agent_controls", 1)
    rng = np.random.default_rng(k)
    env.reset(seed=17)
    shape = () if agents == 1 else (agents,)
    for _ in range(k):
        _, _, terminated, truncated, _ = env.step(rng.integers(0, 19, shape))
        if terminated or truncated:
            env.reset()
    state = env.get_state()
    assert isinstance(state, bytes)
    snapshot_obs = env.observation()
    actions = [rng.integers(0, 19, shape) for _ in range(60)]
    first = record(env, actions)
    env.set_state(state)
    assert_obs_equal(env.observation(), snapshot_obs, "observation right after set_state")
    second = record(env, actions)
    assert_same_records(first, second)
    # and again, after unrelated play in between
    env.reset(seed=99)
    record(env, [np.zeros(shape, dtype=int)] * 10)
    env.set_state(state)
    assert_same_records(first, record(env, actions))


def test_state_moves_between_envs_with_same_config():
    a = trackfield.make("academy_3_vs_1_with_keeper", stacked=True)
    b = trackfield.make("academy_3_vs_1_with_keeper", stacked=True)
    a.reset(seed=1)
    for act in [5, 5, 13, 5, 11]:
        a.step(act)
    b.set_state(a.get_state())  # no reset needed first
    assert np.array_equal(a.observation(), b.observation())
    actions = [int(x) for x in np.random.default_rng(0).integers(0, 19, 80)]
    assert_same_records(record(a, actions), record(b, actions))


def test_state_restores_the_random_generator():
    # After a restore, random outcomes repeat; two different futures from the same state differ
    # only by actions.
    env = trackfield.make("academy_3_vs_1_with_keeper", representation="raw")
    env.reset(seed=3)
    state = env.get_state()
    runs = []
    for _ in range(3):
        env.set_state(state)
        runs.append(record(env, [12] * 40))
    assert_same_records(runs[0], runs[1])
    assert_same_records(runs[0], runs[2])


def test_state_of_ended_episode_needs_reset():
    env = trackfield.make("academy_empty_goal_close", deterministic=True)
    env.reset(seed=0)
    steps = record(env, [5] * 8 + [12] * 40)
    assert steps[-1][2]
    ended = env.get_state()
    env.reset(seed=0)
    env.step(0)
    env.set_state(ended)
    with pytest.raises(RuntimeError):
        env.step(0)
    env.reset(seed=0)
    env.step(0)


def test_vector_env_state_per_world():
    envs = trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=3, num_threads=1)
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(5):
        envs.step(rng.integers(0, 19, 3))
    saved = [envs.get_state(i) for i in range(3)]
    actions = rng.integers(0, 19, (30, 3))
    first = [envs.step(a)[0] for a in actions]
    for i in range(3):
        envs.set_state(i, saved[i])
    second = [envs.step(a)[0] for a in actions]
    for x, y in zip(first, second):
        assert np.array_equal(x, y)
    with pytest.raises((IndexError, ValueError)):
        envs.get_state(3)
    with pytest.raises((IndexError, ValueError)):
        envs.set_state(-1, saved[0])


@pytest.fixture
def env_and_state():
    env = trackfield.make("academy_3_vs_1_with_keeper", stacked=True)
    env.reset(seed=0)
    for a in [5, 5, 5]:
        env.step(a)
    return env, env.get_state()


@pytest.mark.parametrize("make_bad", [
    lambda s: b"",
    lambda s: b"garbage",
    lambda s: b"\x00" * len(s),
    lambda s: bytes(np.random.default_rng(0).integers(0, 256, len(s), dtype=np.uint8)),
    lambda s: s[:-1],
    lambda s: s[:len(s) // 2],
    lambda s: s[:SNAPSHOT_HEADER_BYTES],
    lambda s: s[:10],
    lambda s: s + b"\x00",
    lambda s: s * 2,
    lambda s: b"\xff" * 4 + s[4:],  # wrong magic
    lambda s: s[:4] + struct.pack("<I", 999) + s[8:],  # wrong format version
    lambda s: s[:16] + bytes(8) + s[24:],  # wrong config fingerprint
], ids=["empty", "short_garbage", "zeros", "random", "minus_one_byte", "half", "header_only",
        "partial_header", "trailing_byte", "doubled", "magic", "version", "fingerprint"])
def test_bad_snapshot_raises_value_error(env_and_state, make_bad):
    env, state = env_and_state
    before = env.observation()
    with pytest.raises(ValueError, match="set_state"):
        env.set_state(make_bad(state))
    # the env is untouched and still usable
    assert np.array_equal(env.observation(), before)
    env.set_state(state)
    env.step(0)


@pytest.mark.parametrize("other", [
    ("academy_empty_goal_close", {"stacked": True}),
    ("academy_3_vs_1_with_keeper", {}),  # not stacked
    ("academy_3_vs_1_with_keeper", {"stacked": True, "representation": "smm"}),
    ("academy_3_vs_1_with_keeper", {"stacked": True, "game_duration": 50}),
    ("academy_3_vs_1_with_keeper", {"stacked": True, "deterministic": True}),
    ("academy_3_vs_1_with_keeper", {"stacked": True, "number_of_left_players_agent_controls": 2}),
])
def test_snapshot_from_other_scenario_or_config_raises_value_error(env_and_state, other):
    _, state = env_and_state
    name, config = other
    env = trackfield.make(name, **config)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="another scenario or configuration"):
        env.set_state(state)


@pytest.mark.parametrize("bad", ["state", 42, None, [1, 2, 3], np.zeros(10, dtype=np.uint8)])
def test_set_state_wrong_type_raises_type_error(env_and_state, bad):
    env, _ = env_and_state
    with pytest.raises(TypeError):
        env.set_state(bad)


def test_set_state_accepts_bytearray(env_and_state):
    env, state = env_and_state
    env.set_state(bytearray(state))


_CORRUPT_PAYLOAD_SCRIPT = textwrap.dedent("""
    import struct, sys
    import trackfield
    env = trackfield.make("academy_3_vs_1_with_keeper")
    env.reset(seed=0)
    state = bytearray(env.get_state())
    # The payload starts with the world's team sizes (int32 x 2); make them absurd, and
    # recompute the header's checksum (FNV-1a 64) so that the world's own checks must catch it.
    struct.pack_into("<ii", state, 32, 100000, -7)
    h = 0xcbf29ce484222325
    for byte in state[32:]:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    struct.pack_into("<Q", state, 24, h)
    try:
        env.set_state(bytes(state))
    except ValueError as error:
        print("REFUSED", error)
        sys.exit(0)
    for _ in range(5):
        env.step(0)
    print("STEPPED")
""")


def test_corrupted_snapshot_payload_does_not_crash():
    result = subprocess.run([sys.executable, "-c", _CORRUPT_PAYLOAD_SCRIPT], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, f"process died with {result.returncode}: {result.stderr[-500:]}"
    assert "REFUSED" in result.stdout and "team size" in result.stdout, result.stdout
