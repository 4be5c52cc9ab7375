"""Train Stable-Baselines3 PPO to drive to its goal in town_drive.

    python examples/train_ppo_driving.py --steps 1000000

PPO on ``town_drive`` (one ego among built-in IDM traffic on the generated small town)
with the flat observation and the engine's GIGAFLOW reward, plus a shaping term given
here. FIGURES PENDING.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

# The town_drive settings the example trains and evaluates on (see the docstring).
TASK = dict(action="box", waypoints=0, goal_distance=(20.0, 60.0), agents_max=8, max_steps=200)
BUDGET_STEPS = 1_000_000

# Columns of the flat observation the shaping reads: lane offset (/5 m), heading error to
# the lane (/pi), route distance to the current goal (/1000 m).
LANE_OFFSET, HEADING_ERROR, GOAL_ROUTE = 0, 1, 18


def shaped(venv, progress=0.1, offset=1.0, heading=1.0, cap_m=100.0):
    """``venv`` with a telescoping shaping term added to the engine's reward: each step
    gains phi(s') - phi(s) with phi(s) = -(progress * min(route distance to the goal, cap_m)
    + offset * |lane offset| + heading * |heading error|) (per m, per m, per rad), and
    phi = 0 once an episode has terminated. Over a terminated episode the term sums to
    -phi(start) however it ended (goal, collision or off-road), so it pays nothing for
    crashing and cannot outweigh the engine's goal and crash terms; it only tells the
    policy at each step whether it got nearer the goal and the lane centre."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    def phi(obs):
        return -(progress * np.minimum(obs[..., GOAL_ROUTE] * 1000.0, cap_m)
                 + offset * np.abs(obs[..., LANE_OFFSET] * 5.0) + heading * np.abs(obs[..., HEADING_ERROR] * np.pi))

    class Shaped(VecEnvWrapper):
        def reset(self):
            obs = self.venv.reset()
            self.potential = phi(obs)
            return obs

        def step_wait(self):
            obs, rewards, dones, infos = self.venv.step_wait()
            following = phi(obs)   # the next step's start (a new episode's first observation after an end)
            after = following.copy()
            for i in np.flatnonzero(dones):
                truncated = infos[i].get("TimeLimit.truncated", False)
                after[i] = phi(infos[i]["terminal_observation"]) if truncated else 0.0
            rewards = rewards + (after - self.potential).astype(np.float32)
            self.potential = following
            return obs, rewards, dones, infos

    return Shaped(venv)


def make_venv(num_envs=16, seed=0, shaping=(0.1, 1.0, 1.0), **task):
    """``num_envs`` worlds of town_drive (``TASK`` updated by ``task``) in one C++ batch as
    an SB3 VecEnv, shaped (``shaping``: progress, offset, heading weights; None: the
    engine's reward alone), with observations normalised by running statistics."""
    import trackfield
    from stable_baselines3.common.vec_env import VecNormalize
    from trackfield.core.sb3 import to_sb3

    venv = to_sb3(trackfield.vector.make("town_drive", num_envs=num_envs, num_threads=1, **{**TASK, **task}))
    venv.seed(seed)
    if shaping:
        venv = shaped(venv, *shaping)
    return VecNormalize(venv, norm_obs=True, norm_reward=False)


def train(steps=BUDGET_STEPS, num_envs=16, seed=0, verbose=0, logdir=None, progress_bar=False, callback=None,
          n_steps=128, batch_size=512, n_epochs=10, learning_rate=3e-4, ent_coef=0.0, gamma=0.99, gae_lambda=0.95,
          net_arch=(64, 64), shaping=(0.1, 1.0, 1.0), **task):
    import torch
    from stable_baselines3 import PPO

    torch.set_num_threads(1)
    venv = make_venv(num_envs, seed, shaping, **task)
    model = PPO("MlpPolicy", venv, n_steps=n_steps, batch_size=batch_size, n_epochs=n_epochs,
                learning_rate=learning_rate, ent_coef=ent_coef, gamma=gamma, gae_lambda=gae_lambda, seed=seed,
                verbose=verbose, policy_kwargs={"net_arch": list(net_arch)}, tensorboard_log=logdir)
    model.learn(total_timesteps=steps, progress_bar=progress_bar, callback=callback, tb_log_name="ppo_driving")
    return model


def evaluate(model, episodes=100, seed=1000, deterministic=True, **task):
    """Drives ``episodes`` episodes of ``TASK`` (updated by ``task``), world i of one vector
    env seeded from (seed, i), so every call drives the same episodes; each world's first
    episode counts. ``model``: a trained SB3 model (its greedy policy, observations
    normalised with its VecNormalize statistics), a callable obs -> actions, or None for
    uniform random actions. Returns the shares of episodes that ended at the final goal
    (the engine's ``reached_goal``: within goal_radius below goal_speed), in a collision,
    off the road, and at the time limit."""
    import trackfield

    env = trackfield.vector.make("town_drive", num_envs=episodes, num_threads=1, **{**TASK, **task})
    obs, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    ended = np.zeros(episodes, bool)
    counts = dict(goal=0, collision=0, off_road=0, time_limit=0)
    while not ended.all():
        if model is None:
            actions = env.action_space.sample()
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
    parser.add_argument("--steps", type=int, default=BUDGET_STEPS)
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--logdir", default=None)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    model = train(args.steps, args.envs, args.seed, logdir=args.logdir)
    print(f"trained {args.steps} steps in {time.perf_counter() - start:.0f} s")
    shares = evaluate(model, args.episodes)
    for name, result in (("greedy PPO", shares), ("random", evaluate(None, args.episodes))):
        print(f"  {name:>10} over {args.episodes} episodes: " + ", ".join(f"{k} {v:.2f}" for k, v in result.items()))
    return shares


if __name__ == "__main__":
    main()
