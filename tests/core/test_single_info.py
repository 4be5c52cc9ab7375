"""The single env's info dict, built in C++ (Batch.info_one), holds exactly what the
Python field reader (InfoFields) makes of the same buffers, in every domain."""
import numpy as np
import pytest

import trackfield

CASES = [("academy_3_vs_1_with_keeper", {}), ("race_time_trial", {}), ("race_1v3", {}),
         ("town_drive", {})]


def python_info(engine, i, final=False):
    world = engine.final_world_info if final else engine.world_info
    agent = engine.final_agent_info if final else engine.agent_info
    info = engine.world_info_fields.one(world[i])
    if engine.agent_info_fields.size:
        info.update(engine.agent_info_fields.one(agent[i, 0]))
    info["reward_components"] = dict(zip(engine.reward_component_names, engine.reward_components[i, 0].tolist()))
    info.update(engine.constant_info)
    return info


# Added by a domain's env over the engine's info (DrivingEnv: the built-in traffic's arrays).
ENV_LEVEL_KEYS = {"traffic"}


def assert_same(a, b):
    assert list(a) == list(b)  # same keys in the same order
    for key in a:
        x, y = a[key], b[key]
        if key == "reward_components":
            assert x == pytest.approx(y, rel=1e-6)
        elif isinstance(y, np.ndarray):
            assert isinstance(x, np.ndarray) and x.dtype == y.dtype and x.shape == y.shape, key
            np.testing.assert_array_equal(x, y)
        else:
            assert type(x) is type(y) and x == y, key


@pytest.mark.parametrize("scenario,config", CASES, ids=[c[0] for c in CASES])
def test_info_matches_the_python_reader(scenario, config):
    env = trackfield.make(scenario, **config)
    env.reset(seed=3)
    engine = env.unwrapped_engine
    env.action_space.seed(0)
    for _ in range(40):
        _, _, terminated, truncated, info = env.step(env.action_space.sample())
        assert ("traffic" in info) == (scenario == "town_drive")
        assert_same({k: v for k, v in info.items() if k not in ENV_LEVEL_KEYS}, python_info(engine, 0))
        if terminated or truncated:
            break
    assert_same(engine.batch.info_one(0, True), {k: v for k, v in python_info(engine, 0, final=True).items()
                                                  if k not in engine.constant_info})


def test_info_one_rejects_bad_indices():
    env = trackfield.make("race_time_trial")
    env.reset(seed=0)
    with pytest.raises(IndexError, match="world index"):
        env.unwrapped_engine.batch.info_one(1)
    many = trackfield.make("race_1v3", agents=2)
    many.reset(seed=0)
    with pytest.raises(ValueError, match="several agent slots"):
        many.unwrapped_engine.batch.info_one(0)
