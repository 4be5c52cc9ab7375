"""Racing throughput and reference laps, for ``python -m trackfield.bench racing``.

Car-steps/s count every simulated car (AI included) at 10 Hz control with 100 Hz
physics and the ``features`` observation, through the public API with uniformly random
actions: the single env loop for race_time_trial, race_1v7 and race_field, the vector
env of 64 worlds on 1 and 2 threads, the physics alone (one car, no observation) and
``pixels``. Peers, measured on a 2-core VM: Gymnasium's
CarRacing-v3 167 car-steps/s, highway-env's racetrack 205, a GT Sport console's 20
cars at 10 Hz = 200. Then the full-skill AI's gt3 flying lap (time, top and slowest
speed, seconds off course and on a wall) of every shipped track and every track of a
folder (``--tracks-dir``, default $TRACKFIELD_TRACK_PATH, else the shipped TUM circuits).
"""
from __future__ import annotations

import glob
import json
import os
import time

import numpy as np

PEERS = {"CarRacing-v3": 167, "highway-env racetrack": 205, "GT Sport console (20 cars x 10 Hz)": 200}
TARGET_PER_CORE = 50_000


def _single(scenario: str, seconds: float, **config) -> tuple[float, int]:
    import trackfield

    env = trackfield.make(scenario, **config)
    env.reset(seed=0)
    actions = np.random.default_rng(0).uniform(-1, 1, (1024, 2)).astype(np.float32)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for a in actions[:128]:
            _, _, terminated, truncated, _ = env.step(a)
            steps += 1
            if terminated or truncated:
                env.reset()
    return steps / (time.perf_counter() - start), env.num_cars


def _vector(scenario: str, num_envs: int, threads: int, seconds: float, engine_only: bool = False) -> tuple[float, int]:
    import trackfield

    env = trackfield.vector.make(scenario, num_envs=num_envs, num_threads=threads)
    env.reset(seed=0)
    cars = env.config.groups * env.scenario.cars
    actions = np.random.default_rng(0).uniform(-1, 1, (num_envs, 2)).astype(np.float32)
    steps, start = 0, time.perf_counter()
    if engine_only:
        engine = env.unwrapped_engine if hasattr(env, "unwrapped_engine") else env._engine
        engine.actions[:, 0, :] = actions
        while time.perf_counter() - start < seconds:
            for _ in range(10):
                engine.batch.step()
            steps += 10 * num_envs
    else:
        while time.perf_counter() - start < seconds:
            for _ in range(10):
                env.step(actions)
            steps += 10 * num_envs
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed, cars


def _physics(seconds: float) -> float:
    """Car control steps/s of the physics alone: one car, 10 physics steps per control step."""
    from trackfield import _engine
    from trackfield.racing import load_track

    sim = _engine.racing.CarSim(load_track("technical").to_engine(), "gt3")
    sim.place(100.0, 0.0, 30.0, 0.0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        sim.step(0.6, 0.0, 10_000)
        sim.place(100.0, 0.0, 30.0, 0.0)
        steps += 10_000
    return steps / 10 / (time.perf_counter() - start)


def reference_laps(tracks_dir: str | None, car: str = "gt3"):
    """(name, reference_lap_details dict, source) of every shipped track and every CSV in tracks_dir."""
    from trackfield.racing import list_tracks, load_track
    from trackfield.racing.reference import reference_lap_details

    rows = []
    for name in list_tracks():
        rows.append((name, reference_lap_details(load_track(name), car), "shipped"))
    if tracks_dir and os.path.isdir(tracks_dir):
        for path in sorted(glob.glob(os.path.join(tracks_dir, "*.csv"))):
            name = os.path.splitext(os.path.basename(path))[0]
            track = load_track(path, crossings="bridge" if name == "Suzuka" else "error")
            line = os.path.join(tracks_dir, "racelines", os.path.basename(path))
            d = reference_lap_details(track, car, raceline=line if os.path.isfile(line) else None)
            rows.append((name, d, "racing line file"))
    return rows


def default_tracks_dir() -> str | None:
    from trackfield.racing.track_files import TUM_DIR

    for candidate in os.environ.get("TRACKFIELD_TRACK_PATH", "").split(os.pathsep) + [str(TUM_DIR)]:
        if candidate and os.path.isdir(candidate):
            return candidate
    return None


def main(seconds: float, envs: int, threads, tracks_dir: str | None, laps: bool, commit: str) -> None:
    rows = []
    for scenario in ("race_time_trial", "race_1v7", "race_field"):
        rate, cars = _single(scenario, seconds)
        rows.append((f"{scenario} single env", rate * cars, cars))
    for scenario in ("race_time_trial", "race_1v7"):
        for t in threads:
            rate, cars = _vector(scenario, envs, t, seconds)
            rows.append((f"{scenario} vector {envs} envs x{t} thr", rate * cars / t, cars))
        for t in threads:
            rate, cars = _vector(scenario, envs, t, seconds, engine_only=True)
            rows.append((f"{scenario} engine only {envs} envs x{t} thr", rate * cars / t, cars))
    rate, cars = _single("race_1v7", seconds, observation="pixels")
    rows.append(("race_1v7 pixels single env", rate * cars, cars))
    rows.append(("physics alone (1 car)", _physics(seconds), 1))
    for label, per_core, cars in rows:
        print(json.dumps({"domain": "racing", "measurement": label, "cars": cars,
                          "car_steps_per_s_per_core": round(per_core), "commit": commit}), flush=True)
    print(f"\n{'measurement (car-steps/s per core)':44} {'cars':>4} {'rate':>10} {'/50k':>6} "
          + " ".join(f"{'vs ' + k.split()[0]:>12}" for k in PEERS))
    for label, per_core, cars in rows:
        print(f"{label:44} {cars:4d} {per_core:10.0f} {per_core / TARGET_PER_CORE:5.2f}x "
              + " ".join(f"{per_core / v:11.0f}x" for v in PEERS.values()))
    print("peers: " + ", ".join(f"{k} {v}" for k, v in PEERS.items()) + " car-steps/s (measured on a 2-core VM)")
    if laps:
        # Off course: three tyres or more out; a slowest point far below the track's
        # slowest corner (about 40 km/h and up) means a spin.
        print(f"\n{'track':16} {'gt3 lap':>9} {'top km/h':>9} {'min km/h':>9} {'off s':>6} {'wall s':>6}  line")
        for name, d, source in reference_laps(tracks_dir):
            lap = d["lap_time_s"]
            print(f"{name:16} {int(lap // 60)}:{lap % 60:06.3f} {d['top_speed_kmh']:9.1f} {d['min_speed_kmh']:9.1f} "
                  f"{d['off_course_s']:6.2f} {d['wall_s']:6.2f}  {source}")
