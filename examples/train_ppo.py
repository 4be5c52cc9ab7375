"""Train Stable-Baselines3 PPO on a Football Academy scenario, as GRF's baselines do.

    python examples/train_ppo.py --scenario academy_empty_goal_close --steps 300000

The rollouts come from ``trackfield.vector.make`` (all worlds stepped in one C++
call) through the SB3 adapter; the script prints the evaluation score (mean goals
per episode of the trained policy) at the end. Needs the [train] extra.
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def train(scenario="academy_empty_goal_close", steps=300_000, num_envs=8, seed=0, representation="simple115v2",
          rewards="scoring", verbose=0):
    import torch
    from stable_baselines3 import PPO

    import trackfield
    from trackfield.core.sb3 import to_sb3

    torch.set_num_threads(1)
    venv = to_sb3(trackfield.vector.make(scenario, num_envs=num_envs, num_threads=1,
                                         representation=representation, rewards=rewards))
    venv.seed(seed)
    model = PPO("MlpPolicy", venv, n_steps=128, batch_size=256, n_epochs=4, learning_rate=3e-4, gamma=0.993,
                gae_lambda=0.95, ent_coef=0.01, clip_range=0.2, seed=seed, verbose=verbose,
                policy_kwargs={"net_arch": [128, 128]})
    model.learn(total_timesteps=steps)
    return model


def evaluate(model, scenario="academy_empty_goal_close", episodes=100, seed=1000, representation="simple115v2"):
    """Mean score (goals for minus goals against) per episode of the greedy policy."""
    import trackfield

    env = trackfield.make(scenario, representation=representation)
    total = 0.0
    for ep in range(episodes):
        obs, info = env.reset(seed=seed + ep)
        done = False
        while not done:
            action, _ = model.predict(obs, deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        total += info["score"][0] - info["score"][1]
    return total / episodes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenario", default="academy_empty_goal_close")
    parser.add_argument("--steps", type=int, default=300_000)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rewards", default="scoring")
    args = parser.parse_args()
    start = time.perf_counter()
    model = train(args.scenario, args.steps, args.envs, args.seed, rewards=args.rewards, verbose=1)
    train_s = time.perf_counter() - start
    score = evaluate(model, args.scenario)
    print(f"scenario={args.scenario} steps={args.steps} train_seconds={train_s:.0f} "
          f"eval_mean_score={score:.3f} (100 episodes, greedy policy)")


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
