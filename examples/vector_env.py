"""Step 1024 football worlds in one C++ call and report throughput and episode returns."""
import argparse
import time

import numpy as np

import trackfield

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--envs", type=int, default=1024, help="worlds stepped in one call (default 1024)")
parser.add_argument("--threads", type=int, default=2, help="engine threads (default 2)")
parser.add_argument("--steps", type=int, default=200, help="batch steps (default 200)")
args = parser.parse_args()

envs = trackfield.vector.make("academy_empty_goal_close", num_envs=args.envs, num_threads=args.threads)
obs, info = envs.reset(seed=0)
returns = []
start = time.perf_counter()
for _ in range(args.steps):
    obs, rewards, terminated, truncated, info = envs.step(envs.action_space.sample())
    if "episode" in info:
        returns.extend(info["episode"]["r"][info["_episode"]].tolist())
elapsed = time.perf_counter() - start
print(f"{args.steps * envs.num_envs / elapsed:,.0f} env-steps/s; {len(returns)} episodes, mean return {np.mean(returns):.3f}")
