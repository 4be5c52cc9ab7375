"""Play one academy episode with random actions and print what happened each second."""
import argparse

import trackfield

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--scenario", default="academy_3_vs_1_with_keeper", help="football scenario name or file")
parser.add_argument("--seed", type=int, default=0, help="reset seed (default 0)")
args = parser.parse_args()

env = trackfield.make(args.scenario, representation="raw")
obs, info = env.reset(seed=args.seed)
done = False
while not done:
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    done = terminated or truncated
    if info["steps"] % 10 == 0 or done:
        print(f"t={info['steps'] / 10:4.1f}s ball={obs['ball'].round(2)} owned_by_team={int(obs['ball_owned_team'])} "
              f"score={info['score']} mode={info['game_mode']}")
print("ended:", "terminated" if terminated else "truncated", "reward", reward)
