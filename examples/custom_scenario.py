"""Write a GRF-format scenario file and train-free play it: a 2 v 1 breakaway."""
import argparse
import tempfile
from pathlib import Path

import trackfield

SCENARIO = '''
from . import *


def build_scenario(builder):
    builder.config().game_duration = 300
    builder.config().deterministic = False
    builder.config().offsides = False
    builder.config().end_episode_on_score = True
    builder.config().end_episode_on_out_of_play = True
    builder.config().end_episode_on_possession_change = True
    builder.config().right_team_difficulty = 0.3
    builder.SetBallPosition(0.3, 0.0)

    builder.SetTeam(Team.e_Left)
    builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
    builder.AddPlayer(0.28, 0.0, e_PlayerRole_CF)
    builder.AddPlayer(0.25, 0.2, e_PlayerRole_RM)

    builder.SetTeam(Team.e_Right)
    builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
'''

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--episodes", type=int, default=20, help="breakaways to play (default 20)")
args = parser.parse_args()

path = Path(tempfile.mkdtemp()) / "breakaway.py"
path.write_text(SCENARIO)
env = trackfield.make(str(path), rewards="scoring,checkpoints")
goals = 0
for episode in range(args.episodes):
    obs, info = env.reset(seed=episode)
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        done = terminated or truncated
    goals += info["score"][0]
print(f"random policy scored in {goals} of {args.episodes} breakaways")
