"""Train Stable-Baselines3 PPO to drive to a goal in town_drive (draft: figures pending).

    python examples/train_ppo_driving.py --steps 300000
"""
from __future__ import annotations

import argparse
import time

import numpy as np

# The town_drive settings the example trains and evaluates on (see the docstring).
TASK = dict(waypoints=0, goal_distance=(20.0, 60.0), agents_max=8, max_steps=100)


# The flat observation's route distance to the current goal (/1000 m).
GOAL_ROUTE_COLUMN = 18


def progress_shaping(venv, weight=0.02, gamma=0.99, cap_m=100.0, offset_weight=0.0, heading_weight=0.0):
    """``venv`` with potential-based shaping (Ng, Harada and Russell 1999): each step's
    reward gains gamma * phi(s') - phi(s), phi(s) = -weight * min(route distance to the
    goal, cap_m), and phi = 0 once an episode has terminated (collision, off-road, goal),
    so a policy optimal under the engine's reward stays optimal under the shaped one."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    def phi(obs):
        return -(weight * np.minimum(obs[..., GOAL_ROUTE_COLUMN] * 1000.0, cap_m)
                 + offset_weight * np.abs(obs[..., 0] * 5.0) + heading_weight * np.abs(obs[..., 1] * np.pi))

    class ProgressShaping(VecEnvWrapper):
        def reset(self):
            obs = self.venv.reset()
            self.potential = phi(obs)
            return obs

        def step_wait(self):
            obs, rewards, dones, infos = self.venv.step_wait()
            following = phi(obs)
            after = following.copy()
            for i in np.flatnonzero(dones):
                terminated = not infos[i].get("TimeLimit.truncated", False)
                after[i] = 0.0 if terminated else phi(infos[i]["terminal_observation"])
            rewards = rewards + (gamma * after - self.potential).astype(np.float32)
            self.potential = following
            return obs, rewards, dones, infos

    return ProgressShaping(venv)


def make_venv(num_envs=16, seed=0, shaping=0.02, shaping_gamma=1.0, normalize=False, offset_weight=0.0,
              heading_weight=0.0, **task):
    import trackfield
    from trackfield.core.sb3 import to_sb3

    venv = to_sb3(trackfield.vector.make("town_drive", num_envs=num_envs, num_threads=1, **{**TASK, **task}))
    venv.seed(seed)
    if shaping:
        venv = progress_shaping(venv, shaping, shaping_gamma, offset_weight=offset_weight,
                                heading_weight=heading_weight)
    if normalize:
        from stable_baselines3.common.vec_env import VecNormalize

        venv = VecNormalize(venv, norm_obs=True, norm_reward=False)
    return venv


def train(steps=300_000, num_envs=16, seed=0, verbose=0, logdir=None, progress_bar=False, callback=None,
          n_steps=128, batch_size=512, n_epochs=10, learning_rate=3e-4, ent_coef=0.01, gamma=0.99,
          gae_lambda=0.95, net_arch=(64, 64), shaping=0.02, shaping_gamma=1.0, normalize=False, offset_weight=0.0,
          heading_weight=0.0, **task):
    import torch
    from stable_baselines3 import PPO

    torch.set_num_threads(1)
    venv = make_venv(num_envs, seed, shaping, shaping_gamma, normalize, offset_weight, heading_weight, **task)
    model = PPO("MlpPolicy", venv, n_steps=n_steps, batch_size=batch_size, n_epochs=n_epochs,
                learning_rate=learning_rate, ent_coef=ent_coef, gamma=gamma, gae_lambda=gae_lambda, seed=seed,
                verbose=verbose, policy_kwargs={"net_arch": list(net_arch)}, tensorboard_log=logdir)
    model.learn(total_timesteps=steps, progress_bar=progress_bar, callback=callback, tb_log_name="ppo_driving")
    return model


def evaluate(model, episodes=100, seed=1000, deterministic=True, **task):
    """Drives ``episodes`` episodes (world i of one vector env, seeded from (seed, i): the
    same episodes every call) with the model's greedy policy; each world's first episode
    counts. Returns the shares of episodes that ended at the final goal, in a collision,
    off the road, and at the time limit."""
    import trackfield

    env = trackfield.vector.make("town_drive", num_envs=episodes, num_threads=1, **{**TASK, **task})
    obs, _ = env.reset(seed=seed)
    ended = np.zeros(episodes, bool)
    counts = dict(goal=0, collision=0, off_road=0, time_limit=0)
    while not ended.all():
        if model is None:
            actions = np.random.default_rng(seed + int(ended.sum())).integers(0, 12, episodes)
        elif callable(model) and not hasattr(model, "predict"):
            actions = model(obs)
        else:
            norm = model.get_vec_normalize_env()
            actions, _ = model.predict(obs if norm is None else norm.normalize_obs(obs), deterministic=deterministic)
        obs, _, terminated, truncated, info = env.step(actions)
        done = (terminated | truncated) & ~ended
        if done.any():
            final = info["final_info"]
            for i in np.flatnonzero(done):
                kind = ("goal" if final["reached_goal"][i] else "collision" if final["collided"][i] else
                        "off_road" if final["off_road"][i] else "time_limit")
                counts[kind] += 1
            ended |= done
    return {k: v / episodes for k, v in counts.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=300_000)
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--logdir", default=None)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    model = train(args.steps, args.envs, args.seed, logdir=args.logdir)
    print(f"trained {args.steps} steps in {time.perf_counter() - start:.0f} s")
    shares = evaluate(model, args.episodes)
    print("greedy policy over {} episodes: ".format(args.episodes) + ", ".join(f"{k} {v:.2f}" for k, v in shares.items()))
    return shares


if __name__ == "__main__":
    main()
