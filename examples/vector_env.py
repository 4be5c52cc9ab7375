"""Step 1024 football worlds in one C++ call and report throughput and episode returns."""
import time

import numpy as np

import trackfield

envs = trackfield.vector.make("academy_empty_goal_close", num_envs=1024, num_threads=2)
obs, info = envs.reset(seed=0)
returns = []
start = time.perf_counter()
for _ in range(200):
    obs, rewards, terminated, truncated, info = envs.step(envs.action_space.sample())
    if "episode" in info:
        returns.extend(info["episode"]["r"][info["_episode"]].tolist())
elapsed = time.perf_counter() - start
print(f"{200 * envs.num_envs / elapsed:,.0f} env-steps/s; {len(returns)} episodes, mean return {np.mean(returns):.3f}")
