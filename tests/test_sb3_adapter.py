"""The Stable-Baselines3 VecEnv adapter over trackfield vector envs."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import trackfield

from conftest import NEEDS_TRAINING
from trackfield.core.sb3 import to_sb3

pytestmark = NEEDS_TRAINING


def vec_env_classes():
    """SB3's VecEnv and VecMonitor and our SB3VecEnv, imported when a test runs (SB3 imports torch)."""
    from stable_baselines3.common.vec_env import VecEnv, VecMonitor

    from trackfield.core.sb3 import SB3VecEnv

    return VecEnv, VecMonitor, SB3VecEnv

SCENARIO = "academy_empty_goal_close"  # short episodes


def make_vec(num_envs=4, **config):
    return trackfield.vector.make(SCENARIO, num_envs=num_envs, num_threads=2, **config)


def random_actions(rng, n):
    return rng.integers(0, 19, size=n)


def test_is_an_sb3_vec_env():
    VecEnv, VecMonitor, SB3VecEnv = vec_env_classes()
    venv = to_sb3(make_vec())
    assert isinstance(venv, VecEnv) and isinstance(venv, SB3VecEnv)
    assert venv.num_envs == 4
    assert venv.observation_space.shape == (115,)
    assert venv.action_space.n == 19
    assert venv.render_mode is None
    venv.close()


@pytest.mark.slow
def test_ppo_learns_a_short_run():
    import torch
    from stable_baselines3 import PPO

    torch.set_num_threads(2)
    venv = to_sb3(make_vec())
    model = PPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=2, seed=0, device="cpu")
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    # the adapter's info["episode"] fills SB3's episode buffer (ep_rew_mean) without a Monitor
    assert len(model.ep_info_buffer) > 0
    assert all({"r", "l"} <= set(ep) for ep in model.ep_info_buffer)
    venv.close()


def test_observations_equal_the_vector_envs():
    venv = to_sb3(make_vec())
    reference = make_vec()
    venv.seed(11)
    obs = venv.reset()
    ref_obs, _ = reference.reset(seed=11)
    np.testing.assert_array_equal(obs, ref_obs)
    assert isinstance(obs, np.ndarray)
    rng = np.random.default_rng(0)
    for _ in range(80):
        actions = random_actions(rng, 4)
        obs, rewards, dones, infos = venv.step(actions)
        ref_obs, ref_rew, ref_term, ref_trunc, ref_info = reference.step(actions)
        np.testing.assert_array_equal(obs, ref_obs)
        np.testing.assert_array_equal(rewards, ref_rew)
        np.testing.assert_array_equal(dones, ref_term | ref_trunc)
        assert isinstance(infos, list) and len(infos) == 4
        for i in range(4):
            if dones[i]:
                np.testing.assert_array_equal(infos[i]["terminal_observation"], ref_info["final_obs"][i])
            else:
                assert "terminal_observation" not in infos[i]
    # the returned arrays are copies, not views of the engine's buffers
    before = obs.copy()
    venv.step(random_actions(rng, 4))
    np.testing.assert_array_equal(obs, before)


def test_terminal_observation_is_the_final_obs():
    """World 0 of a vector env reproduces trackfield.make(...) with the same seed: the
    terminal observation must be the single env's last observation of the episode."""
    config = dict(game_duration=60)  # episodes end by a goal, the ball going out, or truncation
    venv = to_sb3(make_vec(**config))
    single = trackfield.make(SCENARIO, **config)
    venv.seed(5)
    obs = venv.reset()
    single_obs, _ = single.reset(seed=5)
    np.testing.assert_array_equal(obs[0], single_obs)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        actions = random_actions(rng, 4)
        obs, rewards, dones, infos = venv.step(actions)
        single_obs, reward, terminated, truncated, _ = single.step(int(actions[0]))
        assert rewards[0] == reward
        assert bool(dones[0]) == (terminated or truncated)
        if dones[0]:
            np.testing.assert_array_equal(infos[0]["terminal_observation"], single_obs)
            assert infos[0]["TimeLimit.truncated"] == (truncated and not terminated)
            assert isinstance(infos[0]["episode"]["r"], float) and isinstance(infos[0]["episode"]["l"], int)
            single_obs, _ = single.reset()
            ended += 1
        np.testing.assert_array_equal(obs[0], single_obs)
        if ended >= 3:
            break
    assert ended >= 3


def test_truncation_sets_timelimit_flag():
    venv = to_sb3(make_vec(num_envs=2, game_duration=5, end_episode_on_score=False,
                           end_episode_on_out_of_play=False, end_episode_on_possession_change=False))
    venv.seed(0)
    venv.reset()
    for _ in range(6):
        obs, rewards, dones, infos = venv.step(np.zeros(2, dtype=np.int64))
    assert dones.all()
    for info in infos:
        assert info["TimeLimit.truncated"] is True
        assert info["episode"]["l"] == 6
        assert info["terminal_observation"].shape == (115,)


def test_vec_monitor_wrapping():
    VecEnv, VecMonitor, SB3VecEnv = vec_env_classes()
    plain = to_sb3(make_vec())
    monitored = VecMonitor(to_sb3(make_vec()))
    plain.seed(2)
    monitored.seed(2)
    np.testing.assert_array_equal(plain.reset(), monitored.reset())
    rng = np.random.default_rng(2)
    returns = np.zeros(4)
    lengths = np.zeros(4, dtype=int)
    episodes = 0
    for _ in range(200):
        actions = random_actions(rng, 4)
        obs, rewards, dones, infos = plain.step(actions)
        m_obs, m_rewards, m_dones, m_infos = monitored.step(actions)
        np.testing.assert_array_equal(obs, m_obs)
        returns += rewards
        lengths += 1
        for i in np.flatnonzero(dones):
            mon, own = m_infos[i]["episode"], infos[i]["episode"]
            assert mon["l"] == own["l"] == lengths[i]
            assert mon["r"] == pytest.approx(own["r"]) and own["r"] == pytest.approx(returns[i])
            returns[i] = 0.0
            lengths[i] = 0
            episodes += 1
    assert episodes > 0
    monitored.close()


def test_seed_is_used_once():
    venv = to_sb3(make_vec())
    reference = make_vec()
    assert venv.seed(9) == [9] * 4
    venv.reset()
    reference.reset(seed=9)
    assert venv.env_method("get_state", indices=[0, 3]) == [reference.get_state(0), reference.get_state(3)]
    venv.reset()  # no new seed: worlds continue from their own generators, as an unseeded reset does
    reference.reset()
    assert venv.env_method("get_state") == [reference.get_state(i) for i in range(4)]
    venv.seed(9)
    venv.reset()
    reference.reset(seed=9)
    assert venv.env_method("get_state", indices=1) == [reference.get_state(1)]


def test_attributes_and_methods():
    VecEnv, VecMonitor, SB3VecEnv = vec_env_classes()
    venv = to_sb3(make_vec(num_envs=3))
    assert venv.get_attr("num_threads") == [2, 2, 2]
    assert venv.get_attr("num_envs", indices=[0, 2]) == [3, 3]
    assert venv.has_attr("config") and not venv.has_attr("no_such_attribute")
    venv.set_attr("custom_flag", 7)
    assert venv.get_attr("custom_flag", indices=1) == [7]
    assert venv.env_is_wrapped(VecMonitor) == [False, False, False]
    venv.reset()
    state = venv.env_method("get_state", indices=2)[0]
    venv.env_method("set_state", state, indices=[0])
    assert venv.env_method("get_state", indices=0) == [state]
    venv.close()


def test_rgb_array_images():
    venv = to_sb3(make_vec(num_envs=2, render_mode="rgb_array", render_width=96))
    venv.reset()
    images = venv.get_images()
    assert len(images) == 2 and images[0].ndim == 3 and images[0].shape[2] == 3
    assert venv.render(mode="rgb_array").ndim == 3


def test_rejects_multi_agent_worlds():
    with pytest.raises(ValueError, match="one agent per world"):
        to_sb3(trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=2, num_threads=1,
                                      number_of_left_players_agent_controls=2))


def test_trackfield_does_not_import_sb3():
    code = ("import sys, trackfield, trackfield.core.sb3, trackfield.core.pettingzoo; "
            "assert 'stable_baselines3' not in sys.modules, 'SB3 imported eagerly'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_reward_components_callback_logs_the_means_of_what_it_saw():
    from stable_baselines3 import PPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import KVWriter, Logger

    from trackfield.core.sb3 import RewardComponentsCallback

    class Witness(BaseCallback):  # keeps every info of the current rollout
        def _on_rollout_start(self):
            self.seen = []

        def _on_step(self):
            self.seen += [dict(info["reward_components"]) for info in self.locals["infos"]]
            return True

    venv = to_sb3(trackfield.vector.make("academy_empty_goal_close", num_envs=4, num_threads=1,
                                         rewards="scoring,checkpoints"))
    class Capture(KVWriter):  # what the logger writes at each dump (TensorBoard gets the same)
        def __init__(self):
            self.dumps = []

        def write(self, key_values, key_excluded, step=0):
            self.dumps.append(dict(key_values))

    witness, logged, capture = Witness(), RewardComponentsCallback(), Capture()
    model = PPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, device="cpu", seed=0)
    model.set_logger(Logger(folder=None, output_formats=[capture]))
    model.learn(total_timesteps=3 * 128, callback=[witness, logged])
    assert set(logged.last_means) == {"scoring", "checkpoints"}
    assert len(witness.seen) == 128
    for name in ("scoring", "checkpoints"):
        expected = np.mean([info[name] for info in witness.seen])
        assert logged.last_means[name] == pytest.approx(expected, abs=1e-9)
        assert capture.dumps[-1][f"reward_components/{name}"] == pytest.approx(expected, abs=1e-9)
    # random play collects some checkpoints: the means are not all trivially zero
    assert any(d.get("reward_components/checkpoints", 0.0) > 0 for d in capture.dumps)
