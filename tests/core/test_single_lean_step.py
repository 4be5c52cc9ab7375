"""The single env's lean step (one agent, array observation: float32 arrays or plain ints)
returns exactly what the general path returns for the same actions given another way
(lists, numpy integers), and still names bad actions."""
import numpy as np
import pytest

import trackfield


def _same(a, b):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _same(a[key], b[key])
    else:
        assert np.array_equal(np.asarray(a), np.asarray(b)), (a, b)


def _run(name, actions, convert):
    env = trackfield.make(name)
    env.reset(seed=3)
    out = []
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(convert(action))
        out.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            env.reset()
    return env, out


@pytest.mark.parametrize("name, actions, lean, general", [
    ("race_time_trial", np.random.default_rng(0).uniform(-1, 1, (60, 2)).astype(np.float32),
     lambda a: a, lambda a: [float(x) for x in a]),
    ("academy_3_vs_1_with_keeper", np.random.default_rng(0).integers(0, 19, 120),
     int, np.int64),
])
def test_lean_step_equals_the_general_path(name, actions, lean, general):
    env, fast = _run(name, actions, lean)
    assert env._lean is not None  # the lean path is the one these actions took
    _, slow = _run(name, actions, general)
    for (o1, r1, te1, tr1, i1), (o2, r2, te2, tr2, i2) in zip(fast, slow):
        _same(o1, o2)
        assert type(r1) is type(r2) and r1 == r2 and (te1, tr1) == (te2, tr2)
        _same(i1, i2)


def test_lean_step_still_names_bad_actions():
    env = trackfield.make("race_time_trial")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(np.array([np.nan, 0.0], np.float32))
    football = trackfield.make("academy_empty_goal_close")
    football.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        football.step(19)
