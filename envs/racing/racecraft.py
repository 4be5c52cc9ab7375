"""How cleanly the built-in AI races a field: ``python -m trackfield.racing.racecraft``.

Runs races with the built-in AI in every car (car 0, the agent's car, driven through
``env.ai_action()``) and counts, per race:

* contact events: onsets of contact, per pair of cars (a pair touching again after at
  least one control step apart is a new event);
* cars ever off course (three tyres or more beyond the painted edge plus kerb);
* cars that spun (heading more than 90 degrees from the centre line's at any moment);
* whether every car covered the race distance (lap races);
* held order changes: a pair of cars swaps order (centre-line distance covered) and stays
  swapped for 3 s; clean when neither car was in contact or off course within 3 s of the swap.

``racecraft_table()`` runs the standard set of races (``race_field`` over the shipped
circuits and five of TUM's real circuits, ``race_1v3`` and ``race_1v7``);
``python -m trackfield.bench racing --racecraft`` prints it.
"""
from __future__ import annotations

import argparse
import glob
import os
from dataclasses import asdict, dataclass

import numpy as np

HOLD_S = 3.0  # an order change counts once it has held this long; clean: no incident this close


@dataclass(frozen=True)
class RaceIncidents:
    race: str                 # scenario and track
    cars: int
    time_s: float             # race time simulated
    contact_events: int       # contact onsets, per pair
    cars_off_course: int      # cars ever off course (three tyres)
    cars_spun: int            # cars ever pointing more than 90 degrees from the track's direction
    all_finished: bool        # every car covered the race distance (True for timed races)
    order_changes: int        # held order changes
    clean_order_changes: int  # of them with neither car in contact or off course within HOLD_S

    @property
    def clean_share(self) -> float:
        return self.clean_order_changes / self.order_changes if self.order_changes else 0.0


def run_race(scenario: str = "race_field", track="technical", laps: int | None = None, seed: int = 0,
             max_time_s: float | None = None, **config) -> RaceIncidents:
    """One race with the built-in AI in every car; its :class:`RaceIncidents`.

    Lap races (``laps``) run until every car has covered the race distance or the time
    limit passes; timed races run ``max_time_s``."""
    import trackfield

    from trackfield.racing.scenarios import load_racing_scenario

    race_laps = laps if laps is not None else load_racing_scenario(scenario).laps
    # The env ends the episode when the agent's car finishes; a lap more keeps the others racing.
    kwargs = dict(track=track, race_state=True, **config)
    if race_laps:
        kwargs["laps"] = race_laps + 1
    if max_time_s is not None:
        kwargs["max_time_s"] = max_time_s
    env = trackfield.make(scenario, **kwargs)
    _, info = env.reset(seed=seed)
    n = env.num_cars
    distance = race_laps * env.track.length if race_laps else None
    limit = env.config.max_time_s if env.config.max_time_s is not None else env.scenario.max_time_s
    dt = 1.0 / (env.config.control_hz or 10)
    hold = int(round(HOLD_S / dt))

    progress, touching, off, pair_touch = [], [], [], []
    ever_off = np.zeros(n, bool)
    spun = np.zeros(n, bool)
    prev_pairs = np.zeros((n, n), bool)
    events = 0
    t = 0.0
    while True:
        st = info["race_state"]
        pairs = (st.contact != 0)
        pairs = pairs | pairs.T
        events += int(np.triu(pairs & ~prev_pairs, 1).sum())
        prev_pairs = pairs
        progress.append(np.asarray(st.progress, float).copy())
        touching.append(pairs.any(axis=1))
        off.append(np.asarray(st.off_course_three_tyres, bool).copy())
        ever_off |= off[-1]
        spun |= np.abs(st.heading) > 0.5 * np.pi
        done = distance is not None and bool(np.all(progress[-1] >= distance))
        if done or t >= limit - 0.5 * dt:
            break
        _, _, terminated, truncated, info = env.step(env.ai_action())
        t += dt
        if terminated or truncated:
            limit = t
    env.close()

    p = np.stack(progress)            # (T, n)
    incident = np.stack(touching) | np.stack(off)
    changes = clean = 0
    T = len(p)
    for i in range(n):
        for j in range(i + 1, n):
            ahead = np.sign(p[:, i] - p[:, j])
            ahead[ahead == 0] = 1
            flips = np.flatnonzero(ahead[1:] != ahead[:-1]) + 1
            for f in flips:
                if f + hold > T or np.any(ahead[f:f + hold] != ahead[f]):
                    continue
                changes += 1
                window = slice(max(0, f - hold), min(T, f + hold))
                if not incident[window, i].any() and not incident[window, j].any():
                    clean += 1
    finished = distance is None or bool(np.all(p[-1] >= distance))
    name = os.path.splitext(os.path.basename(str(track)))[0]
    label = f"{scenario}, {name}" + (f", {race_laps} laps" if race_laps else f", {t:.0f} s")
    return RaceIncidents(label, n, round(t, 1), events, int(ever_off.sum()), int(spun.sum()), finished, changes, clean)


def shared_tracks(tracks_dir: str | None, names=("Monza", "Spa", "Silverstone", "Catalunya", "Austin")) -> list[str]:
    """Paths of the named real circuits present in tracks_dir."""
    if not tracks_dir:
        return []
    return [p for name in names for p in glob.glob(os.path.join(tracks_dir, f"{name}.csv"))]


def racecraft_table(tracks_dir: str | None = None, laps: int = 4, seed: int = 0, quick: bool = False):
    """The standard races: race_field over ``laps`` laps on every shipped circuit and the
    real circuits of tracks_dir (TUM's, shipped), race_1v3 and race_1v7 (150 s) on the shipped circuits.
    ``quick``: race_field technical and Monza over 2 laps, race_1v7 on gt."""
    from trackfield.racing import list_tracks

    races = []
    if quick:
        races.append(("race_field", "technical", 2, None))
        races += [("race_field", t, 2, None) for t in shared_tracks(tracks_dir, ("Monza",))]
        races.append(("race_1v7", "gt", None, 150.0))
    else:
        races += [("race_field", t, laps, None) for t in list_tracks()]
        races += [("race_field", t, laps, None) for t in shared_tracks(tracks_dir)]
        races += [(s, t, None, 150.0) for s in ("race_1v3", "race_1v7") for t in list_tracks()]
    for scenario, track, n_laps, max_time in races:
        yield run_race(scenario, track, laps=n_laps, max_time_s=max_time, seed=seed)


def format_row(r: RaceIncidents) -> str:
    return (f"| {r.race} | {r.contact_events} | {r.cars_off_course} of {r.cars} | {r.cars_spun} | "
            f"{'yes' if r.all_finished else 'no'} | {r.order_changes} | {100 * r.clean_share:.0f}% |")


HEADER = ("| race | contact events | cars off course | cars that spun | all finished | held order changes | of them clean |\n"
          "|---|---|---|---|---|---|---|")


def main(argv=None) -> None:
    from trackfield.racing.bench import default_tracks_dir

    ap = argparse.ArgumentParser(prog="python -m trackfield.racing.racecraft", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tracks-dir", default=None,
                    help="folder of real circuits (TUM CSV; default $TRACKFIELD_TRACK_PATH, else the shipped ones)")
    ap.add_argument("--laps", type=int, default=4, help="laps of each race_field race")
    ap.add_argument("--seed", type=int, default=0, help="seed of every race")
    ap.add_argument("--quick", action="store_true", help="two 2-lap field races and one race_1v7")
    ap.add_argument("--race", nargs=2, metavar=("SCENARIO", "TRACK"), help="one race only")
    args = ap.parse_args(argv)
    print(HEADER, flush=True)
    if args.race:
        scenario, track = args.race
        timed = scenario != "race_field"
        rows = [run_race(scenario, track, laps=None if timed else args.laps, max_time_s=150.0 if timed else None,
                         seed=args.seed)]
    else:
        rows = racecraft_table(args.tracks_dir or default_tracks_dir(), args.laps, args.seed, args.quick)
    for r in rows:
        print(format_row(r), flush=True)


if __name__ == "__main__":
    main()
