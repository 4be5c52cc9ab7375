"""Train Stable-Baselines3 PPO on a Football Academy scenario, as GRF's baselines do.

    python examples/train_ppo.py --scenario academy_empty_goal_close --steps 300000 --logdir runs/ppo

The rollouts come from ``trackfield.vector.make`` (all worlds stepped in one C++
call) through the SB3 adapter. Training shows SB3's progress bar; with ``--logdir``
it logs to TensorBoard there (episode return and length, and the mean of each
``info["reward_components"]`` entry per rollout through
``trackfield.core.sb3.RewardComponentsCallback``), saves checkpoints, and at the end
writes an evaluation video (``eval.mp4``). It prints the evaluation score (mean goals
per episode of the greedy policy), the return and goal difference of the greedy policy
and of uniformly random actions with their standard errors (all evaluation episodes
run as one vector env), and for the full game GRF's PPO figure beside them.
Needs the [train] extra, and [render] for the video.

Against the built-in AI in the full game, with GRF's checkpoint reward:

    python examples/train_ppo.py --scenario 11_vs_11_easy_stochastic --rewards scoring,checkpoints \
        --steps 500000 --eval-episodes 128

Measured (8 worlds, 128 evaluation games; CPU on a busy 2-core VM): uniformly
random actions return -1.45 +- 0.10 per game (-1.75 goals) on the same 128 seeds, where
real GRF 2.10.2's random player returns -1.54 +- 0.24 (32 games, ``tools/grf_games.py``);
seed 0's greedy policy 0.00 at 250k steps (it stands on the ball from kick-off, which GRF's
easy AI also allows), seed 1's -0.73 at 250k (-1.35 goals), seed 2's -1.48 at 250k and
-0.86 at 500k (-1.07 goals). PPO's curve is not monotone over rounds.
GRF's paper reports PPO at +3.26 goals per
game after 20M steps with this reward. tests/football/test_full_game_learnability.py
(slow) trains in 250k rounds until the greedy policy beats random actions by three
standard errors.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np


# The GRF paper (Kurach et al. 2020): PPO with the checkpoint reward after 20M steps, goal difference per game.
GRF_PPO_GOAL_DIFFERENCE = {"11_vs_11_easy_stochastic": 3.26, "11_vs_11_stochastic": -0.29}


def standard_error(x):
    return float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")


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


def play_games(policy, scenario="academy_empty_goal_close", episodes=100, seed=1000, representation="simple115v2",
               rewards="scoring", **config):
    """Returns (of the first controlled player) and goal differences (left minus right)
    of ``episodes`` episodes played by ``policy`` (a batch of observations -> a batch of
    actions), all in one vector env with ``config``'s keywords: world i plays the episode
    seeded from (seed, i); only each world's first counts."""
    import trackfield

    env = trackfield.vector.make(scenario, num_envs=episodes, num_threads=1, representation=representation,
                                 rewards=rewards, **config)
    obs, _ = env.reset(seed=seed)
    returns, diffs = np.zeros(episodes), np.full(episodes, np.nan)
    while np.isnan(diffs).any():
        obs, reward, terminated, truncated, info = env.step(policy(obs))
        returns += np.where(np.isnan(diffs), reward.reshape(episodes, -1)[:, 0], 0.0)
        ended = (terminated | truncated).reshape(episodes, -1).any(axis=1)
        for i in np.flatnonzero(ended & np.isnan(diffs)):
            score = info["final_info"]["score"][i]
            diffs[i] = score[0] - score[1]
    env.close()
    return returns, diffs


def greedy(model):
    return lambda obs: model.predict(obs, deterministic=True)[0]


def uniform_random(seed=0, actions=19):
    rng = np.random.default_rng(seed)
    return lambda obs: rng.integers(0, actions, len(obs))


def evaluate(model, scenario="academy_empty_goal_close", episodes=100, seed=1000, representation="simple115v2"):
    """Mean score (goals for minus goals against) per episode of the greedy policy."""
    return float(play_games(greedy(model), scenario, episodes, seed, representation)[1].mean())


def write_video(model, path, scenario="academy_empty_goal_close", seed=2000, representation="simple115v2"):
    """One greedy episode as an mp4; returns its length in steps."""
    import trackfield
    from trackfield.core.video import record_episode

    env = trackfield.make(scenario, representation=representation, render_mode="rgb_array", render_width=640)
    result = record_episode(env, lambda obs: int(model.predict(obs, deterministic=True)[0]), path, seed=seed)
    return result["length"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", default="academy_empty_goal_close", help="football scenario to learn")
    parser.add_argument("--steps", type=int, default=300_000, help="env-step budget")
    parser.add_argument("--envs", type=int, default=8, help="worlds in the vector env")
    parser.add_argument("--seed", type=int, default=0, help="seed of the envs and the learner")
    parser.add_argument("--rewards", default="scoring", help="GRF reward: scoring or scoring,checkpoints")
    parser.add_argument("--logdir", default=None, help="TensorBoard logs, checkpoints and eval.mp4 go here")
    parser.add_argument("--checkpoint-every", type=int, default=100_000, help="env steps between checkpoints")
    parser.add_argument("--eval-episodes", type=int, default=100, help="greedy and random episodes after training")
    parser.add_argument("--no-progress-bar", action="store_true", help="no progress bar while training")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    model = train(args.scenario, args.steps, args.envs, args.seed, rewards=args.rewards, verbose=0,
                  logdir=args.logdir, progress_bar=not args.no_progress_bar, checkpoint_every=args.checkpoint_every)
    train_s = time.perf_counter() - start
    returns, diffs = play_games(greedy(model), args.scenario, args.eval_episodes, rewards=args.rewards)
    print(f"scenario={args.scenario} steps={args.steps} train_seconds={train_s:.0f} "
          f"eval_mean_score={diffs.mean():.3f} ({args.eval_episodes} episodes, greedy policy)")
    random_returns, random_diffs = play_games(uniform_random(args.seed), args.scenario, args.eval_episodes,
                                              rewards=args.rewards)
    for name, r, d in (("greedy policy", returns, diffs), ("random actions", random_returns, random_diffs)):
        print(f"  {name:<15} return {r.mean():+.2f} +- {standard_error(r):.2f}, "
              f"goal difference {d.mean():+.2f} +- {standard_error(d):.2f}")
    if args.scenario in GRF_PPO_GOAL_DIFFERENCE:
        print(f"  GRF's PPO on {args.scenario} (GRF paper, checkpoint reward, 20M steps): goal difference "
              f"{GRF_PPO_GOAL_DIFFERENCE[args.scenario]:+.2f}")
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
