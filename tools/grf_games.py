#!/usr/bin/env python3
"""Full games under ../shared/tools/behaviour_stats.py's protocol, printing every game's final
score (one JSON line per game), so that goal differences get standard errors.

    $GRF_VENV/bin/python tools/grf_games.py 11_vs_11_stochastic 10 0 1000   # AI v AI, seeds 1000..1009
    $GRF_VENV/bin/python tools/grf_games.py 11_vs_11_stochastic 10 1 1000   # a random left player

Arguments: scenario, games, controlled left players (0: the built-in AI plays both teams), first
engine seed. It reuses behaviour_stats.py's environment and its single random-action stream, so
it runs real GRF exactly as that script does. trackfield's side of the same measurement is
``trackfield.football.strength`` (``python -m trackfield.bench football``).
"""
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.environ.get("BEHAVIOUR_STATS_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "shared", "tools")))
import behaviour_stats as bs  # noqa: E402


def main():
    scenario, games, left = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    seed0 = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    _, reset, step = bs.grf_env(scenario, left)
    rng = np.random.default_rng(0)
    for game in range(games):
        started = time.time()
        reset(seed0 + game)
        while True:
            act = [] if left == 0 else (int(rng.integers(19)) if left == 1 else list(rng.integers(19, size=left)))
            obs, _, done, _ = step(act)
            if done:
                break
        final = bs.first(obs)
        print(json.dumps(dict(scenario=scenario, left=left, seed=seed0 + game, score=[int(s) for s in final["score"]],
                              seconds=round(time.time() - started, 1))), flush=True)


if __name__ == "__main__":
    main()
