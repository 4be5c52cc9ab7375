"""The Gymnasium / Stable-Baselines3 contract of every shipped scenario."""
from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

import trackfield
from trackfield.football.vector import FootballVectorEnv
from conftest import ALL_SCENARIOS


def sb3_check_env(env, **kwargs):
    """Stable-Baselines3's env checker, imported when a test runs (it imports torch)."""
    from stable_baselines3.common.env_checker import check_env

    return check_env(env, **kwargs)


REPRESENTATIONS = ("raw", "simple115v2", "smm", "pixels")

pytestmark = [
    # Advice, not failures: simple115v2 and raw use unbounded float Boxes (as GRF does), and
    # the raw dict holds (n, 2) arrays that SB3's default policies would need flattened.
    pytest.mark.filterwarnings("ignore:.*Box observation space (minimum|maximum) value is"),
    pytest.mark.filterwarnings("ignore:Your observation .* has an unconventional shape"),
    # raw's integer scalars are Discrete spaces starting at -1 (ball_owned_team, active, ...),
    # GRF's values; SB3's default policies would need them shifted.
    pytest.mark.filterwarnings("ignore:.*Discrete.*start"),
]

def test_shipped_scenarios_are_grf_academy_names():
    expected = {
        "academy_empty_goal_close", "academy_empty_goal", "academy_run_to_score",
        "academy_run_to_score_with_keeper", "academy_pass_and_shoot_with_keeper",
        "academy_run_pass_and_shoot_with_keeper", "academy_3_vs_1_with_keeper", "academy_corner",
        "academy_counterattack_easy", "academy_counterattack_hard", "academy_single_goal_versus_lazy",
    }
    assert expected <= set(ALL_SCENARIOS)


@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("name", ALL_SCENARIOS)
def test_gymnasium_check_env(name, representation):
    env = trackfield.make(name, representation=representation)
    gym_check_env(env, skip_render_check=True)
    env.close()


@pytest.mark.parametrize("representation", REPRESENTATIONS)
@pytest.mark.parametrize("name", ALL_SCENARIOS)
def test_sb3_check_env(name, representation):
    env = trackfield.make(name, representation=representation)
    sb3_check_env(env, warn=True)
    env.close()


@pytest.mark.parametrize("representation,shape,dtype", [
    ("simple115v2", (460,), np.float32), ("smm", (72, 96, 16), np.uint8), ("pixels", (72, 96, 12), np.uint8),
    ("pixels_gray", (72, 96, 4), np.uint8)])
def test_stacked_passes_both_checkers(representation, shape, dtype):
    env = trackfield.make("academy_3_vs_1_with_keeper", representation=representation, stacked=True)
    assert env.observation_space.shape == shape
    assert env.observation_space.dtype == dtype
    gym_check_env(env, skip_render_check=True)
    sb3_check_env(trackfield.make("academy_3_vs_1_with_keeper", representation=representation, stacked=True))


@pytest.mark.parametrize("representation,shape,dtype", [
    ("simple115v2", (115,), np.float32), ("smm", (72, 96, 4), np.uint8), ("pixels", (72, 96, 3), np.uint8),
    ("pixels_gray", (72, 96, 1), np.uint8)])
def test_observation_space_shapes(representation, shape, dtype):
    env = trackfield.make("academy_empty_goal_close", representation=representation)
    assert env.observation_space.shape == shape and env.observation_space.dtype == dtype
    obs, _ = env.reset(seed=0)
    assert obs.shape == shape and obs.dtype == dtype
    assert env.observation_space.contains(obs)
    assert env.action_space == gymnasium.spaces.Discrete(19)


def test_raw_observation_in_space_over_an_episode():
    env = trackfield.make("academy_3_vs_1_with_keeper", representation="raw")
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    for a in np.random.default_rng(0).integers(0, 19, 200):
        obs, _, terminated, truncated, _ = env.step(int(a))
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            obs, _ = env.reset()
            assert env.observation_space.contains(obs)


def test_multi_agent_spaces():
    env = trackfield.make("academy_3_vs_1_with_keeper", number_of_left_players_agent_controls=2)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([19, 19])
    assert env.observation_space.shape == (2, 115)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (2, 115)
    obs, reward, *_ = env.step(np.array([0, 0]))
    assert np.shape(reward) == (2,)


@pytest.mark.parametrize("name", ALL_SCENARIOS)
def test_gym_ids_registered(name):
    env_id = trackfield.gym_id(name)
    assert env_id.startswith("trackfield/") and env_id.endswith("-v0")
    assert env_id in gymnasium.registry


def test_gym_id_spelling():
    assert trackfield.gym_id("academy_empty_goal_close") == "trackfield/AcademyEmptyGoalClose-v0"
    assert trackfield.gym_id("academy_3_vs_1_with_keeper") == "trackfield/Academy3Vs1WithKeeper-v0"


def test_gymnasium_make():
    env = gymnasium.make("trackfield/AcademyEmptyGoalClose-v0")
    obs, info = env.reset(seed=0)
    assert obs.shape == (115,)
    assert "score" in info
    obs, reward, terminated, truncated, info = env.step(0)
    assert obs.shape == (115,) and isinstance(reward, float)
    env.close()


def test_gymnasium_make_passes_config():
    env = gymnasium.make("trackfield/AcademyEmptyGoalClose-v0", representation="smm", stacked=True)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (72, 96, 16) and obs.dtype == np.uint8


def test_gymnasium_make_same_as_trackfield_make():
    a = gymnasium.make("trackfield/Academy3Vs1WithKeeper-v0")
    b = trackfield.make("academy_3_vs_1_with_keeper")
    oa, _ = a.reset(seed=5)
    ob, _ = b.reset(seed=5)
    assert np.array_equal(oa, ob)
    for act in np.random.default_rng(1).integers(0, 19, 50):
        oa, ra, ta, tra, _ = a.step(int(act))
        ob, rb, tb, trb, _ = b.step(int(act))
        assert np.array_equal(oa, ob) and ra == rb and (ta, tra) == (tb, trb)
        if ta or tra:
            break


@pytest.mark.parametrize("mode,expected_type", [
    ("sync", gymnasium.vector.SyncVectorEnv),
    (None, FootballVectorEnv),  # the registered C++ vector entry point
])
def test_gymnasium_make_vec(mode, expected_type):
    kwargs = {"vectorization_mode": mode} if mode else {}
    envs = gymnasium.make_vec("trackfield/Academy3Vs1WithKeeper-v0", num_envs=3, **kwargs)
    assert isinstance(envs.unwrapped, expected_type)
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (3, 115)
    obs, rewards, terminated, truncated, _ = envs.step(envs.action_space.sample())
    assert obs.shape == (3, 115) and rewards.shape == (3,)
    envs.close()


def test_vector_env_spaces():
    envs = trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=4, num_threads=1)
    assert envs.num_envs == 4
    assert envs.single_observation_space.shape == (115,)
    assert envs.observation_space.shape == (4, 115)
    assert envs.single_action_space == gymnasium.spaces.Discrete(19)
    obs, _ = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    obs, rewards, terminated, truncated, info = envs.step(envs.action_space.sample())
    assert envs.observation_space.contains(obs)
    assert rewards.shape == terminated.shape == truncated.shape == (4,)
    assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_


def test_vector_env_episode_info():
    envs = trackfield.vector.make("academy_empty_goal_close", num_envs=4, num_threads=1)
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    returns = np.zeros(4)
    lengths = np.zeros(4, dtype=int)
    seen = 0
    for _ in range(600):
        obs, rewards, terminated, truncated, info = envs.step(rng.integers(0, 19, 4))
        returns += rewards
        lengths += 1
        done = terminated | truncated
        if done.any():
            assert np.array_equal(info["_final_obs"], done)
            assert np.array_equal(info["_episode"], done)
            for i in np.flatnonzero(done):
                assert info["final_obs"][i].shape == (115,)
                assert info["episode"]["r"][i] == pytest.approx(returns[i], abs=1e-5)
                assert info["episode"]["l"][i] == lengths[i]
                # The returned observation already belongs to the new episode.
                assert not np.array_equal(obs[i], info["final_obs"][i])
                seen += 1
            returns[done] = 0
            lengths[done] = 0
    assert seen > 0


def test_make_from_scenario_path(tmp_path):
    from pathlib import Path

    shipped = Path(trackfield.football.scenarios.resolve_scenario_path("academy_empty_goal_close"))
    by_name = trackfield.make("academy_empty_goal_close")
    for path in (shipped, str(shipped)):
        env = trackfield.make(path)
        assert np.array_equal(env.reset(seed=3)[0], by_name.reset(seed=3)[0])
    envs = trackfield.vector.make(shipped, num_envs=2, num_threads=1)
    assert envs.reset(seed=3)[0].shape == (2, 115)


def test_render_rgb_array():
    env = trackfield.make("academy_empty_goal_close", render_mode="rgb_array", render_width=240)
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[1] == 240 and frame.shape[2] == 3
    assert frame.std() > 0
    assert trackfield.make("academy_empty_goal_close").render() is None
