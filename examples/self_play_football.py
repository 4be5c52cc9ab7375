"""Self-play evaluation: two saved Stable-Baselines3 policies play each other and the
built-in AI; the script prints goal differences.

    python examples/self_play_football.py --policy-a a.zip --policy-b b.zip --games 16
    python examples/self_play_football.py --train-steps 200000 --out runs/self_play   # train two first

One policy can play either side: a right-side agent's observation is the pitch turned
round (its own team first, attacking left to right, as GRF's right-team observations),
so a policy trained on the left plays the right unchanged. Every match of ``--games``
games runs as one ``trackfield.vector.make`` batch (all games stepped in one C++ call,
by train_ppo.py's ``play_games``); each side is a function from a batch of observations
to a batch of actions. Pairings: A against B on both sides (so neither side's kick-off
order favours one policy), then A and B each against the built-in AI at easy (0.05),
medium (0.6) and hard (0.95).
``--train-steps`` trains A and B with examples/train_ppo.py on the same scenario
(seeds 0 and 1, scoring and checkpoint rewards) and saves them under ``--out``.
Needs the [train] extra.
"""
from __future__ import annotations

import argparse
import os

import numpy as np

AI_LEVELS = {"easy": 0.05, "medium": 0.6, "hard": 0.95}


def train_ppo():
    """examples/train_ppo.py as a module: its training and its vector-env game loop."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("train_ppo", os.path.join(os.path.dirname(__file__), "train_ppo.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sb3_policy(path_or_model):
    """A batch policy from a saved SB3 model (path) or a model object: greedy actions."""
    import torch

    torch.set_num_threads(1)  # a batch of a few dozen observations is too small to share out
    model = path_or_model
    if isinstance(path_or_model, (str, os.PathLike)):
        from stable_baselines3 import PPO

        model = PPO.load(path_or_model, device="cpu")
    return lambda obs: model.predict(obs, deterministic=True)[0]


def play(left, right, scenario="11_vs_11_easy_stochastic", games=8, seed=0, action_set="default"):
    """Goal differences (left minus right), one per game. ``left`` is a batch policy;
    ``right`` a batch policy or a built-in AI level (a float in [0, 1])."""
    if callable(right):  # both sides controlled: one agent each, the right one seeing the pitch turned round
        config = dict(number_of_right_players_agent_controls=1)
        both = lambda obs: np.stack([left(obs[:, 0]), right(obs[:, 1])], axis=1)  # noqa: E731
    else:
        config = dict(number_of_right_players_agent_controls=0, right_team_difficulty=float(right))
        both = left
    return train_ppo().play_games(both, scenario, games, seed, number_of_left_players_agent_controls=1,
                                  action_set=action_set, **config)[1]


def summary(diffs) -> str:
    """Mean goal difference with its standard error."""
    se = diffs.std(ddof=1) / np.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    return f"{diffs.mean():+.2f} +- {se:.2f} ({len(diffs)} games)"


def tournament(policy_a, policy_b, scenario="11_vs_11_easy_stochastic", games=8, seed=0, levels=AI_LEVELS):
    """Rows (pairing, goal differences from the first-named side's view)."""
    rows = []
    a_left = play(policy_a, policy_b, scenario, games, seed)
    b_left = play(policy_b, policy_a, scenario, games, seed + games)
    rows.append(("A vs B (A left, then A right)", np.concatenate([a_left, -b_left])))
    for name, policy in (("A", policy_a), ("B", policy_b)):
        for level_name, level in levels.items():
            rows.append((f"{name} vs built-in AI {level_name} ({level})", play(policy, level, scenario, games, seed)))
    return rows


def train_pair(scenario, steps, out):
    """Trains A (seed 0) and B (seed 1) with examples/train_ppo.py; returns their paths."""
    os.makedirs(out, exist_ok=True)
    paths = []
    for name, seed in (("a", 0), ("b", 1)):
        model = train_ppo().train(scenario, steps=steps, seed=seed, rewards="scoring,checkpoints")
        paths.append(os.path.join(out, f"policy_{name}.zip"))
        model.save(paths[-1])
        print(f"trained {name}: {steps} steps, seed {seed} -> {paths[-1]}")
    return paths


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", default="11_vs_11_easy_stochastic", help="football scenario the games use")
    parser.add_argument("--policy-a", help="a saved SB3 PPO model (.zip)")
    parser.add_argument("--policy-b", help="a saved SB3 PPO model (.zip)")
    parser.add_argument("--train-steps", type=int, default=0, help="train A and B first (PPO, this many steps each)")
    parser.add_argument("--out", default="runs/self_play", help="where --train-steps saves A and B")
    parser.add_argument("--games", type=int, default=8, help="games per pairing and side")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    args = parser.parse_args(argv)
    if args.train_steps:
        args.policy_a, args.policy_b = train_pair(args.scenario, args.train_steps, args.out)
    if not (args.policy_a and args.policy_b):
        parser.error("give --policy-a and --policy-b, or --train-steps to train them")
    rows = tournament(sb3_policy(args.policy_a), sb3_policy(args.policy_b), args.scenario, args.games, args.seed)
    print(f"{args.scenario}: goal difference per game, mean +- standard error")
    for pairing, diffs in rows:
        print(f"  {pairing:<36} {summary(diffs)}")


if __name__ == "__main__":
    main()
