#!/usr/bin/env python3
"""Before/after speed of the football engine on a noisy machine: best of seven by CPU time.

    python tools/football_speed.py LABEL

64 worlds through trackfield.vector.make on one thread, simple115v2, 19,200 random steps
per repetition; CPU time rather than wall time, and the best of seven, so that other load
on a shared VM moves the figure less than `python -m trackfield.bench` (which reports wall
time, as users see it). Run two builds alternately and compare their ranges.
"""
import sys
import time

import numpy as np

import trackfield

SCENARIOS = ["11_vs_11_stochastic", "academy_3_vs_1_with_keeper", "academy_empty_goal_close"]
WORLDS, STEPS, REPEATS = 64, 300, 7

label = sys.argv[1] if len(sys.argv) > 1 else ""
rates = {}
for name in SCENARIOS:
    env = trackfield.vector.make(name, num_envs=WORLDS, num_threads=1, representation="simple115v2")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = [rng.integers(0, 19, size=WORLDS) for _ in range(50)]
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        for i in range(STEPS):
            env.step(actions[i % len(actions)])
        best = min(best, time.process_time() - start)
    rates[name] = round(STEPS * WORLDS / best / 1000)
    env.close()
print(label, {k: f"{v}k" for k, v in rates.items()}, "env-steps/s (best of 7, CPU time)")
