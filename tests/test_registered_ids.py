"""Every Gymnasium id trackfield registers makes with its defaults and passes Gymnasium's and
Stable-Baselines3's env checkers; multi-agent worlds have no single-agent id."""
from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

import trackfield
from trackfield.registration import MULTI_AGENT_ONLY, gym_id
from conftest import NEEDS_TRAINING

IDS = sorted(env_id for env_id in gymnasium.registry if env_id.startswith("trackfield/"))

pytestmark = [
    # Advice, not failures (see test_api_gymnasium.py): unbounded float Boxes as GRF's,
    # raw's Dict of (n, 2) arrays, Discrete spaces starting at -1.
    pytest.mark.filterwarnings("ignore:.*Box observation space (minimum|maximum) value is"),
    pytest.mark.filterwarnings("ignore:Your observation .* has an unconventional shape"),
    pytest.mark.filterwarnings("ignore:.*Discrete.*start"),
    pytest.mark.filterwarnings("ignore:.*not within the observation space"),
]


def test_every_single_agent_scenario_has_an_id_and_no_multi_agent_one_has():
    expected = {gym_id(name) for name in trackfield.list_scenarios() if name not in MULTI_AGENT_ONLY}
    assert set(IDS) == expected
    assert gym_id("town_self_play") not in gymnasium.registry


@pytest.mark.parametrize("env_id", IDS)
def test_id_makes_with_defaults_and_passes_gymnasiums_checker(env_id):
    env = gymnasium.make(env_id)
    try:
        gym_check_env(env.unwrapped, skip_render_check=True)
        env.reset(seed=0)
        _, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        assert np.ndim(reward) == 0 and isinstance(terminated, bool) and isinstance(truncated, bool)
    finally:
        env.close()


@NEEDS_TRAINING
@pytest.mark.parametrize("env_id", IDS)
def test_id_passes_sb3s_checker(env_id):
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = gymnasium.make(env_id)
    try:
        sb3_check_env(env.unwrapped, warn=False)
    finally:
        env.close()


def test_race_section_id_takes_another_section_and_track():
    env = gymnasium.make("trackfield/RaceSection-v0", track="speedway", section="final_chicane")
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
