"""Red-phase durations of maps' lights, as the engine cycles them with the training timings.

    python tools/driving_light_phases.py Town01 Town03

200 episodes of 120 s at dt 0.1 s per map; only complete runs of a colour are counted.
"""
import sys
import numpy as np
from trackfield.driving.engine import build_drive_map, resolve_roadmap

DT, STEPS, EPISODES = 0.1, 1200, 200   # 120 s episodes
for name in sys.argv[1:] or ["Town01", "Town03"]:
    dm = build_drive_map(resolve_roadmap(name, 0))
    col = dm.light_timeline(EPISODES, STEPS, DT, 1)       # (episodes, steps, lights)
    reds, greens = [], []
    for e in range(EPISODES):
        for k in range(col.shape[2]):
            c = col[e, :, k]
            change = np.flatnonzero(np.diff(c.astype(np.int16))) + 1
            bounds = np.concatenate([[0], change, [len(c)]])
            for a, b in zip(bounds[1:-2], bounds[2:-1]):   # complete runs only
                if c[a] == 3: reds.append((b - a) * DT)
                if c[a] == 1: greens.append((b - a) * DT)
    reds, greens = np.array(reds), np.array(greens)
    print(f"{name}: {col.shape[2]} lights; red phases {len(reds)}: median {np.median(reds):.1f} s, "
          f"p10 {np.percentile(reds, 10):.1f} s, p90 {np.percentile(reds, 90):.1f} s, max {reds.max():.1f} s, "
          f"over 10 s {100 * np.mean(reds > 10.0 + 1e-6):.0f}%; green median {np.median(greens):.1f} s")
