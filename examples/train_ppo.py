"""Train Stable-Baselines3 PPO on a Football Academy scenario, as GRF's baselines do.

    python examples/train_ppo.py --scenario academy_empty_goal_close --steps 300000 --logdir runs/ppo

The rollouts come from ``trackfield.vector.make`` (all worlds stepped in one C++
call) through the SB3 adapter. Training shows SB3's progress bar; with ``--logdir``
it logs to TensorBoard there (episode return and length, and the mean of each
``info["reward_components"]`` entry per rollout through
``trackfield.core.sb3.RewardComponentsCallback``), saves checkpoints, and at the end
writes an evaluation video (``eval.mp4``). It prints the evaluation score (mean goals
per episode of the greedy policy). Needs the [train] extra, and [render] for the video.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np


def train(scenario="academy_empty_goal_close", steps=300_000, num_envs=8, seed=0, representation="simple115v2",
          rewards="scoring", verbose=0, logdir=None, progress_bar=False, checkpoint_every=0):
    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.callbacks import CheckpointCallback

    import trackfield
    from trackfield.core.sb3 import RewardComponentsCallback, to_sb3

    torch.set_num_threads(1)
    venv = to_sb3(trackfield.vector.make(scenario, num_envs=num_envs, num_threads=1,
                                         representation=representation, rewards=rewards))
    venv.seed(seed)
    model = PPO("MlpPolicy", venv, n_steps=128, batch_size=256, n_epochs=4, learning_rate=3e-4, gamma=0.993,
                gae_lambda=0.95, ent_coef=0.01, clip_range=0.2, seed=seed, verbose=verbose,
                policy_kwargs={"net_arch": [128, 128]}, tensorboard_log=logdir)
    callbacks = [RewardComponentsCallback()]
    if logdir and checkpoint_every:
        callbacks.append(CheckpointCallback(save_freq=max(1, checkpoint_every // num_envs),
                                            save_path=os.path.join(logdir, "checkpoints"), name_prefix="ppo"))
    model.learn(total_timesteps=steps, callback=callbacks, progress_bar=progress_bar, tb_log_name="ppo")
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


def write_video(model, path, scenario="academy_empty_goal_close", seed=2000, representation="simple115v2"):
    """One greedy episode as an mp4; returns its length in steps."""
    import trackfield
    from trackfield.core.video import record_episode

    env = trackfield.make(scenario, representation=representation, render_mode="rgb_array", render_width=640)
    result = record_episode(env, lambda obs: int(model.predict(obs, deterministic=True)[0]), path, seed=seed)
    return result["length"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenario", default="academy_empty_goal_close")
    parser.add_argument("--steps", type=int, default=300_000)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rewards", default="scoring")
    parser.add_argument("--logdir", default=None, help="TensorBoard logs, checkpoints and eval.mp4 go here")
    parser.add_argument("--checkpoint-every", type=int, default=100_000, help="env steps between checkpoints")
    parser.add_argument("--eval-episodes", type=int, default=100)
    parser.add_argument("--no-progress-bar", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    model = train(args.scenario, args.steps, args.envs, args.seed, rewards=args.rewards, verbose=0,
                  logdir=args.logdir, progress_bar=not args.no_progress_bar, checkpoint_every=args.checkpoint_every)
    train_s = time.perf_counter() - start
    score = evaluate(model, args.scenario, episodes=args.eval_episodes)
    print(f"scenario={args.scenario} steps={args.steps} train_seconds={train_s:.0f} "
          f"eval_mean_score={score:.3f} ({args.eval_episodes} episodes, greedy policy)")
    if args.logdir:
        model.save(os.path.join(args.logdir, "final_model"))
        try:
            length = write_video(model, os.path.join(args.logdir, "eval.mp4"), args.scenario)
            print(f"evaluation video: {os.path.join(args.logdir, 'eval.mp4')} ({length} steps)")
        except ImportError as error:
            print(f"no evaluation video: {error}")
        print(f"TensorBoard: tensorboard --logdir {args.logdir}")


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
