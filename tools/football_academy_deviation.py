#!/usr/bin/env python3
"""The academy table against GRF's stored figures, summed into one deviation.

    python tools/football_academy_deviation.py SEED EPISODES [scenario ...]

Runs `trackfield.football.fidelity.measure` for each scenario (two processes) and prints one
line per scenario (length ratio, then ours / GRF's share for each ending) and a summary:
how many are inside the tolerance (length within 0.67x-1.5x of GRF's, every ending share
within 15 points), the deviation (the sum over scenarios and endings of |our share - GRF's|,
in points), the mean |log| of the length ratios, the shortest ratio,
and the four scenarios with the largest single gap. At 1,000 episodes the deviation moves by
about 10-15 points from one seed set to the next, so compare changes over several sets.
GRF's figures pool its two team processing orders; TEAM_ORDER=left_team_first or
right_team_first compares with one order's alone (fidelity.grf_figures).
"""
import math
import os
import sys
from multiprocessing import Pool

from trackfield.football import fidelity

SEED = int(sys.argv[1]) if len(sys.argv) > 1 else 0
EPISODES = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
GRF = fidelity.grf_figures(os.environ.get("TEAM_ORDER") or None)
NAMES = sys.argv[3:] or sorted(GRF)


def measure(name):
    return fidelity.measure(name, EPISODES, SEED)


if __name__ == "__main__":
    with Pool(2) as pool:
        rows = pool.map(measure, NAMES, chunksize=1)
    inside, deviation, ratios, gaps = 0, 0.0, [], []
    for ours in rows:
        grf = GRF[ours.scenario]
        ok = fidelity.within_tolerance(ours, grf)
        inside += ok
        diffs = [abs(ours.shares[e] - grf.shares[e]) for e in fidelity.ENDINGS]
        deviation += sum(diffs)
        ratios.append(ours.mean_length / grf.mean_length)
        gaps.append((max(diffs), ours.scenario))
        shares = " ".join(f"{e} {ours.shares[e]:4.1f}/{grf.shares[e]:3.0f}" for e in fidelity.ENDINGS)
        print(f"{ours.scenario:40s} length {ratios[-1]:4.2f} {shares} {'inside' if ok else 'OUT'}")
    gaps.sort(reverse=True)
    print(f"inside {inside}/{len(rows)}; deviation {deviation:.0f} points; mean |log length ratio| "
          f"{sum(abs(math.log(r)) for r in ratios) / len(ratios):.3f}; shortest {min(ratios):.2f}; largest gaps: "
          + ", ".join(f"{name} {gap:.1f}" for gap, name in gaps[:4]))
