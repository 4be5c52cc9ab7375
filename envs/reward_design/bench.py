"""Reward-design speed: ``python -m trackfield.reward_design.bench``.

Prints car-steps/s of ``rescore`` with gt7_baseline, TAC throughput (10 rewards,
400 preferences of 150 steps), a vector env's steps/s with a 10-component reward
file against the built-in reward, and ``export_clips`` frames/s at 640 x 360 (wall
clock, and per CPU second of this process and ffmpeg together: the per-core figure).
One thread; figures vary with the machine's load.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np

import trackfield
from trackfield.reward_design import PreferenceSet, TrajectoryRecorder, Window, load_reward, preset, rescore, tac

TEN = "import numpy as np\n\n\n" + "\n\n".join(
    f"def c{k}(current, previous, course):\n    return {expr}\n" for k, expr in enumerate([
        "current.progress - previous.progress", "-np.abs(current.lateral_offset)", "current.speed_kmh / 100",
        "-(current.tyre_off_s - previous.tyre_off_s).max(axis=1)", "-(current.wall_s - previous.wall_s)",
        "-current.car_contact.astype(np.float64)", "-np.abs(current.steering - previous.steering)",
        "-np.abs(current.heading)", "-np.abs(current.slip_angle).sum(axis=1)", "current.slipstream"])) + \
    "\n\nweights = {" + ", ".join(f"'c{k}': 1.0" for k in range(10)) + "}\n"


def _best(fn, repeat):
    """The shortest wall-clock and CPU time (this process) of ``repeat`` calls: on a shared
    machine the CPU time is the per-core figure, the wall clock also counts waiting."""
    walls, cpus = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return min(walls), min(cpus)


def record(steps: int, seed: int = 0):
    env = TrajectoryRecorder(trackfield.make("race_field", race_state=True))
    env.reset(seed=seed)
    for _ in range(steps):
        env.step(env.unwrapped.ai_action())
    return env.trajectory()


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m trackfield.reward_design.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=600, help="steps of the recorded 20-car race")
    parser.add_argument("--vector-steps", type=int, default=100,
                        help="steps of each 64-world vector env in the vector part")
    parser.add_argument("--only", choices=("rescore-tac", "vector", "clips"), help="run one part only")
    args = parser.parse_args(argv)
    if args.only in (None, "rescore-tac"):
        rescore_and_tac(args)
    if args.only in (None, "vector"):
        vector(args)
    if args.only in (None, "clips"):
        clips()


def rescore_and_tac(args):
    traj = record(args.steps)
    program = load_reward(preset("gt7_baseline"))
    rescore(traj, program)
    car_steps = traj.steps * traj.cars
    t, c = _best(lambda: rescore(traj, program), 5)
    print(f"rescore gt7_baseline: {car_steps / t / 1e6:.2f} M car-steps/s wall, {car_steps / c / 1e6:.2f} M per CPU "
          f"second ({traj.cars} cars x {traj.steps} steps)")
    t, c = _best(lambda: (traj.__dict__.pop("_transitions", None), rescore(traj, program)), 3)
    print(f"rescore gt7_baseline incl. building the states: {car_steps / t / 1e6:.2f} M car-steps/s wall, "
          f"{car_steps / c / 1e6:.2f} M per CPU second")

    rng = np.random.default_rng(0)
    pairs = []
    for _ in range(400):
        a, b = rng.integers(0, traj.cars, 2)
        sa, sb = rng.integers(0, traj.steps - 150, 2)
        pairs.append((Window("t", int(a), int(sa), 150), Window("t", int(b), int(sb), 150), int(rng.integers(0, 2))))
    prefs = PreferenceSet({"t": traj}, pairs)
    programs = [program.with_weights({n: w * rng.uniform(0.5, 2) for n, w in program.weight_dict.items()})
                for _ in range(10)]
    t, c = _best(lambda: [tac(p, prefs) for p in programs], 3)
    window_steps = 10 * 400 * 2 * 150
    print(f"TAC, 10 rewards x 400 preferences of 150 steps: {t:.3f} s, {window_steps / t / 1e6:.2f} M window-steps/s "
          f"wall, {window_steps / c / 1e6:.2f} M per CPU second")



def vector(args):
    """Both envs stepped in alternating chunks, so that load from other jobs hits both alike."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ten.py")
        with open(path, "w") as f:
            f.write(TEN)
        envs = {label: trackfield.vector.make("race_field", num_envs=64, num_threads=1, **kw)
                for label, kw in (("built-in", {}), ("10-component file", {"reward": path}))}
        actions = np.zeros((64, 2), np.float32)
        cpu = dict.fromkeys(envs, 0.0)
        for env in envs.values():
            env.reset(seed=0)
            for _ in range(5):
                env.step(actions)
        chunk = 10
        for _ in range(max(1, args.vector_steps // chunk)):
            for label, env in envs.items():
                c0 = time.process_time()
                for _ in range(chunk):
                    env.step(actions)
                cpu[label] += time.process_time() - c0
        steps = max(1, args.vector_steps // chunk) * chunk * 64
        for label in envs:
            print(f"vector race_field 64 envs x 20 cars, {label}: {steps / cpu[label]:.0f} env-steps per CPU second")
        print(f"file / built-in: {cpu['built-in'] / cpu['10-component file']:.2f}")


def clips():
    from trackfield.reward_design import export_clips

    a, b = record(300, seed=1), record(300, seed=2)
    with tempfile.TemporaryDirectory() as tmp:
        export_clips(a, b, os.path.join(tmp, "warm"), max_s=15.0)  # imports, ffmpeg binary in the page cache
        t0, c0 = time.perf_counter(), os.times()
        comparison = export_clips(a, b, os.path.join(tmp, "clips"))
        t, c1 = time.perf_counter() - t0, os.times()
    mine = (c1.user + c1.system) - (c0.user + c0.system)
    ffmpeg = (c1.children_user + c1.children_system) - (c0.children_user + c0.children_system)
    frames = 2 * 150 * len(comparison.strips_a)
    print(f"export_clips 640 x 360: {frames / t:.0f} frames/s wall, {frames / (mine + ffmpeg):.0f} frames per CPU "
          f"second ({frames} frames of two races, mp4 + strips + states; CPU: {mine:.2f} s here, "
          f"{ffmpeg:.2f} s ffmpeg)")


if __name__ == "__main__":
    main()
