#!/usr/bin/env python3
"""How far trackfield's full games sit from real GRF's, in one number.

    python tools/football_strength_fit.py [GAMES] [SEEDS]   # defaults: 100 0,1000,2000,3000

Plays `trackfield.football.strength`'s three measurements at each seed: AI 1.0 against
each level, a random player against each level, and the ladder's two pairings. Then it
compares every team's mean goals with GRF's stored figure (`strength.grf_figures()`, both
team orders pooled). Each comparison is a z score: (ours - GRF's) / sqrt(GRF's mean / its
games + our mean / our games), Poisson standard errors. It prints the z scores and the sum
of their squares (16 terms; a random player's own goals are left out). The keeper
timing and kick error were chosen with this number (docs/football_fidelity.md).
"""
import sys

import numpy as np

from trackfield.football import strength


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    seeds = [int(s) for s in (sys.argv[2] if len(sys.argv) > 2 else "0,1000,2000,3000").split(",")]
    grf = strength.grf_figures()
    measured = {}
    for seed in seeds:
        for kind, results in (("ai_vs_ai", strength.against_grf_files(games, seed)),
                              ("random", strength.random_player(games, seed)),
                              ("ladder", strength.ladder(games, seed))):
            for r in results:
                measured.setdefault((kind, r.second), []).append(r)
    chi2 = 0.0
    for (kind, level), rs in measured.items():
        theirs = grf[kind][level]
        n = sum(r.games for r in rs)
        ours = [sum(r.goals_first * r.games for r in rs) / n, sum(r.goals_second * r.games for r in rs) / n]
        line = f"{rs[0].first} v {level}: ours {ours[0]:.2f} - {ours[1]:.2f} ({n} games), GRF {theirs.goals_first:.2f} - {theirs.goals_second:.2f} ({theirs.games}); z"
        for side, (mine, their) in enumerate(zip(ours, (theirs.goals_first, theirs.goals_second))):
            if kind == "random" and side == 0:
                continue
            z = (mine - their) / np.sqrt(their / theirs.games + mine / n)
            chi2 += z * z
            line += f" {z:+.1f}"
        print(line, flush=True)
    print(f"chi2 {chi2:.1f}")


if __name__ == "__main__":
    main()
