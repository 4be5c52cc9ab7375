"""How the racing reward presets were chosen: a sweep of weights over scripted behaviours.

    python -m trackfield.racing.reward_sweep            # both presets, the shipped circuits

GT Sophy's weights were never published. A preset must rank driving the way a race
engineer would, on every circuit, before any policy is trained on it; so each candidate
weight set is scored on what it says about behaviours we can script from the built-in
AI (full skill), with a known right order:

| behaviour | what it does | must rank |
|---|---|---|
| clean | the AI at full skill | first |
| cautious | the AI, throttle capped at 0.6 | above every unclean behaviour |
| late_braking | the AI, brakes at a third of its pressure | below clean and cautious |
| cutting | the AI, 0.1 more steering into every corner (runs over the inside) | below clean and cautious |
| sawing | the AI, steering plus a 1.2 Hz +-0.35 saw | below clean and cautious |
| pushy (race) | the AI in race_1v3 that never brakes behind a car within 25 m | below clean |

Each behaviour drives 60 s from five launches on each shipped circuit; the unweighted
components of every step are recorded once, so any weight set's return is a dot product.
A weight set passes when every required order holds on every circuit; its score is the
smallest margin (the gap between the two returns of an order, over the return of the
clean drive), negative when an order fails. `progress` stays at 0.1 (it sets the scale:
0.1 per metre, about 0.55 per step at 200 km/h). The script prints each behaviour's
component totals, the five best sets of each grid, how many sets pass, and for the best
set and for each preset the orders it breaks, worst first.

What it reports on the shipped circuits: no weight set of either grid passes, and neither
preset does.
- Time trial (16 sets; best -0.019, the time_trial preset -0.066): on `gt` late braking
  stays on the road and keeps the clean drive's progress, so it costs only tyre slip,
  while the cautious drive gives up 8% of the progress; no penalty weight in the grid
  ranks cautious above late braking there. off_course_sq does not move the score.
- Race (race_1v3, 18 sets over the race terms, the time trial's weights fixed; best
  -0.19, the race preset -0.21): on `technical` cutting and the pushy driver also rank
  above the cautious drive, and on `speedway` late braking above it.
So the presets' weights are set by hand (off_course_sq 2e-3 is the weight with which SAC
first drove a clean lap, examples/train_sac_racing.py), and this sweep shows how far each
is from ranking the scripted drives as a race engineer would.

This ranks scripted behaviours only; whether a policy trained on a preset drives well
is the other half of the evidence (examples/train_sac_racing.py).
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from trackfield.racing.config import COMPONENTS, REWARD_PRESETS

TRACKS = ("technical", "gt", "speedway")
LAUNCH_SEEDS = (0, 1, 2, 3, 4)
SECONDS = 60.0
ORDERS = [("clean", "late_braking"), ("clean", "cutting"), ("clean", "sawing"), ("cautious", "late_braking"),
          ("cautious", "cutting"), ("cautious", "sawing"), ("clean", "cautious")]
RACE_ORDERS = ORDERS[:-1] + [("clean", "pushy"), ("cautious", "pushy")]
GRID = {
    "off_course_sq": (0.0, 1e-4, 5e-4, 2e-3),
    "wall": (5e-4,),
    "tyre_slip": (0.0, 0.1, 0.5, 2.0),
}
RACE_GRID = {"any_collision": (0.0, 0.5, 2.0), "rear_end": (0.0, 1e-3, 5e-3), "unsporting": (0.0, 1.0),
             "passing": (0.1,)}


def behaviour_action(name: str, ai: np.ndarray, t: float, env) -> np.ndarray:
    throttle, steer = float(ai[0]), float(ai[1])
    if name == "cautious":
        throttle = min(throttle, 0.6)
    elif name == "late_braking" and throttle < 0:
        throttle /= 3.0
    elif name == "cutting" and abs(steer) > 0.03:
        steer += math.copysign(0.1, steer)
    elif name == "sawing":
        steer += 0.35 * math.copysign(1.0, math.sin(2 * math.pi * 1.2 * t))
    elif name == "pushy" and throttle < 0 and _car_ahead_within(env, 25.0):
        throttle = 0.0
    return np.clip(np.array([throttle, steer], np.float32), -1.0, 1.0)


def _car_ahead_within(env, metres: float) -> bool:
    """A car ahead of the agent (car 0) within `metres` of race distance."""
    cars = env.unwrapped._engine.batch.cars(0)   # rows: x, y, yaw, speed, s, d, lap, progress, place
    gaps = cars[1:, 7] - cars[0, 7]
    return bool(np.any((gaps > 0) & (gaps < metres)))


def component_totals(scenario: str, track: str, behaviour: str, seed: int) -> np.ndarray:
    """Sum over one drive of every unweighted component, in COMPONENTS order."""
    import trackfield

    env = trackfield.make(scenario, track=track, max_time_s=SECONDS)
    env.reset(seed=seed)
    totals = np.zeros(len(COMPONENTS))
    t, done = 0.0, False
    while not done:
        action = behaviour_action(behaviour, env.unwrapped.ai_action(), t, env)
        _, _, terminated, truncated, info = env.step(action)
        totals += [info["reward_components"][c] for c in COMPONENTS]
        t += 0.1
        done = terminated or truncated
    env.close()
    return totals


def collect(scenario: str, behaviours, tracks=TRACKS, seeds=LAUNCH_SEEDS) -> dict:
    """{(track, behaviour): mean component totals over the launches}."""
    return {(track, b): np.mean([component_totals(scenario, track, b, s) for s in seeds], axis=0)
            for track in tracks for b in behaviours}


def margins(weights: dict, totals: dict, orders, tracks=TRACKS) -> list:
    """[(relative margin, track, better, worse)] for every order on every circuit, smallest
    first. A margin is (return of `better` - return of `worse`) / |return of clean|."""
    w = np.array([weights.get(c, 0.0) for c in COMPONENTS])
    rows = []
    for track in tracks:
        ret = {b: float(v @ w) for (tr, b), v in totals.items() if tr == track}
        scale = max(abs(ret["clean"]), 1e-9)
        rows += [((ret[better] - ret[worse]) / scale, track, better, worse) for better, worse in orders]
    return sorted(rows)


def score(weights: dict, totals: dict, orders, tracks=TRACKS) -> float:
    """Smallest relative margin over the orders and circuits (negative: an order fails)."""
    return margins(weights, totals, orders, tracks)[0][0]


def failing(weights: dict, totals: dict, orders, tracks=TRACKS) -> str:
    """The orders a weight set breaks, as 'track: better < worse (margin)', worst first."""
    rows = [f"{tr}: {b} < {w} ({m:+.3f})" for m, tr, b, w in margins(weights, totals, orders, tracks) if m < 0]
    return "; ".join(rows) if rows else "none: every order holds on every circuit"


def sweep(base: dict, grid: dict, totals: dict, orders) -> list:
    """[(score, weights)] for every combination of `grid` over `base`, best first."""
    names = list(grid)
    rows = []
    for values in itertools.product(*(grid[n] for n in names)):
        weights = dict(base, **dict(zip(names, values)))
        rows.append((score(weights, totals, orders), weights))
    return sorted(rows, key=lambda r: -r[0])


def main(argv=None) -> None:
    import argparse

    argparse.ArgumentParser(prog="python -m trackfield.racing.reward_sweep", description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args(argv)
    trial = ["clean", "cautious", "late_braking", "cutting", "sawing"]
    totals = collect("race_time_trial", trial)
    print("component totals per 60 s drive (mean of 5 launches):")
    for (track, b), v in totals.items():
        parts = ", ".join(f"{c} {x:.3g}" for c, x in zip(COMPONENTS, v) if x)
        print(f"  {track:9s} {b:13s} {parts}")
    rows = sweep({"progress": 0.1}, GRID, totals, ORDERS)
    print("\ntime_trial: best weight sets (score = smallest relative margin over orders and circuits)")
    for s, w in rows[:5]:
        print(f"  {s:+.3f}  {w}")
    print(f"  passing sets: {sum(s >= 0 for s, _ in rows)} of {len(rows)}; the best breaks "
          f"{failing(rows[0][1], totals, ORDERS)}")
    preset = REWARD_PRESETS["time_trial"]
    print(f"  preset time_trial scores {score(preset, totals, ORDERS):+.3f}; it breaks {failing(preset, totals, ORDERS)}")

    race_totals = collect("race_1v3", trial + ["pushy"])
    base = dict(REWARD_PRESETS["time_trial"])
    rows = sweep(base, RACE_GRID, race_totals, RACE_ORDERS)
    print("\nrace (race_1v3): best weight sets")
    for s, w in rows[:5]:
        print(f"  {s:+.3f}  {w}")
    print(f"  passing sets: {sum(s >= 0 for s, _ in rows)} of {len(rows)}; the best breaks "
          f"{failing(rows[0][1], race_totals, RACE_ORDERS)}")
    preset = REWARD_PRESETS["race"]
    print(f"  preset race scores {score(preset, race_totals, RACE_ORDERS):+.3f}; "
          f"it breaks {failing(preset, race_totals, RACE_ORDERS)}")


if __name__ == "__main__":
    main()
