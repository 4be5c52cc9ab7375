"""Throughput benchmarks: ``python -m trackfield.bench [football|racing|driving|rllib] [options]``.

Measures env-steps/s through the public API with uniformly random actions (as GRF's
figures quoted below were measured): the single env loop (``trackfield.make``)
and ``trackfield.vector.make`` with N worlds (``--envs``, 64) on 1 and 2 threads. Prints one JSON
line per measurement and a table with the ratios measured in this run: vector vs single
env, 2 threads vs 1 (at ``--scaling-envs`` worlds, 256, where the target is 1.8x),
per-core figures vs the targets' floors (academy 50,000; full game 100,000 with simple115v2,
60,000 smm, 20,000 pixels) and vs real GRF.
Speed is never asserted by tests; this is where it is reported.

For football it then prints the fidelity table (``trackfield.football.fidelity``): the mean
random-policy episode length and ending shares of every academy scenario, measured live,
beside real GRF's stored figures (``--fidelity-episodes 0`` skips it), then the built-in AI's
strength ladder in 11 vs 11 and a random player against each level, beside GRF's figures
(``trackfield.football.strength``; ``--strength-games 0`` skips it).

``python -m trackfield.bench driving`` prints slot-steps/s and live agent-steps/s per core of
``town_self_play`` (see ``trackfield.driving.bench``); with ``--traffic-km K`` it also prints
the built-in traffic's incidents per 100 km on each packaged town (``trackfield.driving.traffic_stats``).
``python -m trackfield.bench racing`` prints car-steps/s per core of the racing domain
beside its peers and its target, then the built-in AI's reference lap of every
shipped track, TUM's real circuits included (see ``trackfield.racing.bench``); with
``--racecraft quick`` or ``full`` also the built-in AI's incident table in a field
(``trackfield.racing.racecraft``).

``python -m trackfield.bench rllib`` (the ``dist`` extra) measures the env-steps/s that
Ray RLlib's env runners collect with PPO's policy (no learner updates) on 1 core (the
driver's own runner) and on N cores (N remote runners, one per core), each runner stepping
its worlds in one trackfield batch, beside the bare ``vector.make`` batch on the same
cores; and, from the 1-core run, the share of a sampled step spent inside trackfield (the
batch's ``step``, Python adapter included) against RLlib's own work.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import time

import numpy as np

# Real GRF 2.10.2, env-steps/s on one core, random actions (measured with GRF's own env loop).
GRF_STEPS_PER_SECOND = {
    ("academy_empty_goal_close", "simple115v2"): 604,
    ("academy_empty_goal_close", "smm"): 633,
    ("academy_3_vs_1_with_keeper", "simple115v2"): 446,
    ("academy_3_vs_1_with_keeper", "smm"): 371,
    ("11_vs_11_stochastic", "simple115v2"): 177,
    ("11_vs_11_stochastic", "smm"): 185,
}
TARGET_PER_CORE = 50_000  # academy scenarios: the football target per core
# The full game's floors per core: simple115v2 and raw 100k, smm 60k, pixels 20k.
FULL_GAME_TARGETS = {"simple115v2": 100_000, "raw": 100_000, "smm": 60_000, "pixels": 20_000,
                     "pixels_gray": 20_000}


def target_per_core(scenario: str, representation: str) -> int:
    """The target floor for this scenario and representation, env-steps/s per core."""
    if scenario.startswith("academy_"):
        return TARGET_PER_CORE
    return FULL_GAME_TARGETS.get(representation, TARGET_PER_CORE)


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              timeout=5).stdout.strip() or "unknown"
    except Exception:
        return "unknown"


def bench_single(scenario: str, representation: str, seconds: float) -> float:
    import trackfield

    env = trackfield.make(scenario, representation=representation)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 19, size=4096).tolist()
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for a in actions:
            _, _, terminated, truncated, _ = env.step(a)
            if terminated or truncated:
                env.reset()
        steps += len(actions)
        if time.perf_counter() > deadline:
            break
    return steps / (time.perf_counter() - start)


def bench_vector(scenario: str, representation: str, num_envs: int, threads: int, seconds: float,
                 engine_only: bool = False) -> float:
    """Steps/s of ``trackfield.vector.make`` (or, with engine_only, of its C++ batch alone)."""
    import trackfield

    envs = trackfield.vector.make(scenario, num_envs=num_envs, num_threads=threads, representation=representation)
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 19, size=(64, num_envs), dtype=np.int32)
    batch = envs.unwrapped._engine.batch
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for a in actions:
            if engine_only:
                envs.unwrapped._engine.actions[:, 0, 0] = a
                batch.step()
            else:
                envs.step(a)
        steps += len(actions) * num_envs
        if time.perf_counter() > deadline:
            break
    rate = steps / (time.perf_counter() - start)
    envs.close()
    return rate


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m trackfield.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("domain", nargs="?", default="football", choices=["football", "racing", "driving", "rllib"],
                        help="domain to measure (default: football)")
    parser.add_argument("--scenarios", nargs="+", default=["academy_empty_goal_close", "academy_3_vs_1_with_keeper"],
                        help="football: scenarios to measure (rllib: the first one)")
    parser.add_argument("--representations", nargs="+", default=["raw", "simple115v2", "smm", "pixels"],
                        help="football: observation kinds to measure")
    parser.add_argument("--envs", type=int, default=64, help="worlds in the vector env")
    parser.add_argument("--scaling-envs", type=int, default=256,
                        help="football: worlds for the thread-scaling columns (the 1.8x target is at 256)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2],
                        help="engine thread counts to measure (rllib: env-runner cores)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--fidelity-episodes", type=int, default=1000,
                        help="random-policy episodes per academy scenario for the GRF comparison (0: skip); "
                             "the protocol's 100 leave about 5 points of seed noise on a share")
    parser.add_argument("--strength-games", type=int, default=40,
                        help="football: 11 vs 11 games per AI pairing for the strength tables (0: skip)")
    parser.add_argument("--tracks-dir", default=None,
                        help="racing: also lap every CSV track of this folder (default $TRACKFIELD_TRACK_PATH, "
                             "else the shipped TUM circuits)")
    parser.add_argument("--no-laps", action="store_true", help="racing: skip the reference laps")
    parser.add_argument("--traffic-km", type=float, default=0.0,
                        help="driving: also measure town_drive's built-in traffic over this many km per town "
                             "(default and 150 vehicles; trackfield.driving.traffic_stats)")
    parser.add_argument("--racecraft", choices=["none", "quick", "full"], default="none",
                        help="racing: also race the built-in AI in every car and print its incident table "
                             "(quick: two 2-lap field races and one race_1v7, minutes; full: 4-lap field races "
                             "on every shipped and five real circuits, race_1v3 and race_1v7, much longer)")
    args = parser.parse_args(argv)
    if args.scaling_envs < 1:
        parser.error(f"--scaling-envs must be at least 1, got {args.scaling_envs}")
    if args.domain == "rllib":
        bench_rllib(args.scenarios[0], envs_per_runner=16, cores=args.threads, seconds=args.seconds * 4)
        return
    if args.domain == "driving":
        from trackfield.driving import bench as driving_bench

        driving_bench.main(args.seconds, args.envs, args.threads, _commit(), traffic_km=args.traffic_km)
        return
    if args.domain == "racing":
        from trackfield.racing import bench as racing_bench

        racing_bench.main(args.seconds, args.envs, args.threads, args.tracks_dir or racing_bench.default_tracks_dir(),
                          not args.no_laps, _commit())
        if args.racecraft != "none":
            from trackfield.racing import racecraft

            print("\nThe built-in AI in every car (seed 0):\n" + racecraft.HEADER, flush=True)
            for row in racecraft.racecraft_table(args.tracks_dir or racing_bench.default_tracks_dir(),
                                                 quick=args.racecraft == "quick"):
                print(racecraft.format_row(row), flush=True)
        return

    commit = _commit()
    rows = []
    for scenario in args.scenarios:
        for rep in args.representations:
            single = bench_single(scenario, rep, args.seconds)
            rates = {t: bench_vector(scenario, rep, args.envs, t, args.seconds) for t in args.threads}
            wide = rates if args.scaling_envs == args.envs else {
                t: bench_vector(scenario, rep, args.scaling_envs, t, args.seconds) for t in args.threads}
            engine = {t: bench_vector(scenario, rep, args.scaling_envs, t, args.seconds, engine_only=True)
                      for t in args.threads}
            record = {"domain": args.domain, "scenario": scenario, "representation": rep, "envs": args.envs,
                      "agents": 1, "single_env_steps_per_s": round(single),
                      "vector_steps_per_s": {str(t): round(r) for t, r in rates.items()},
                      "scaling_envs": args.scaling_envs,
                      "vector_steps_per_s_at_scaling_envs": {str(t): round(r) for t, r in wide.items()},
                      "engine_only_steps_per_s_at_scaling_envs": {str(t): round(r) for t, r in engine.items()},
                      "commit": commit}
            print(json.dumps(record), flush=True)
            rows.append((scenario, rep, single, rates, wide, engine))

    print()
    t_lo, t_hi = min(args.threads), max(args.threads)
    header = (f"{'scenario':28} {'repr':11} {'single':>9} " + " ".join(f"{f'vec x{t}thr':>11}" for t in args.threads)
              + f" {'vec/single':>10} {'per-core':>9} {'/target':>7} {f'{t_hi}thr/{t_lo}thr':>9}"
              + f" {'engine ' + str(t_hi) + '/' + str(t_lo):>10} {'vs GRF':>7}")
    print(header)
    for scenario, rep, single, rates, wide, engine in rows:
        per_core = rates[t_lo] / t_lo
        scaling = wide[t_hi] / wide[t_lo] if t_hi != t_lo else 1.0
        engine_scaling = engine[t_hi] / engine[t_lo] if t_hi != t_lo else 1.0
        grf = GRF_STEPS_PER_SECOND.get((scenario, rep))
        vs_grf = f"{per_core / grf:6.0f}x" if grf else "      -"
        target = target_per_core(scenario, rep)
        print(f"{scenario:28} {rep:11} {single:9.0f} " + " ".join(f"{rates[t]:11.0f}" for t in args.threads)
              + f" {rates[t_lo] / single:9.1f}x {per_core:9.0f} {per_core / target:6.2f}x"
              + f" {scaling:8.2f}x {engine_scaling:9.2f}x {vs_grf}")
    print("\nper-core: vector steps/s on the fewest threads / threads; /target: per-core over the target's floor "
          "(academy 50,000; full game 100,000 simple115v2 and raw, 60,000 smm, 20,000 pixels); "
          f"{t_hi}thr/{t_lo}thr: vector steps/s at {args.scaling_envs} worlds on {t_hi} threads over {t_lo}; "
          "engine: the same for the C++ batch.step alone (no Python per step), showing how the engine scales.")
    if args.domain == "football" and args.fidelity_episodes > 0:
        print_fidelity(args.fidelity_episodes)
    if args.domain == "football" and args.strength_games > 0:
        print_strength(args.strength_games)


def bench_rllib(scenario: str, envs_per_runner: int, cores, seconds: float) -> None:
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig

    import trackfield.rllib as tfr

    ray.init(num_cpus=max(cores), include_dashboard=False, log_to_driver=False)
    in_trackfield = [0.0]
    original_step = tfr.NextStepVectorEnv.step

    def timed_step(self, actions):  # the driver's own runner only: remote ones are other processes
        start = time.perf_counter()
        out = original_step(self, actions)
        in_trackfield[0] += time.perf_counter() - start
        return out

    tfr.NextStepVectorEnv.step = timed_step
    rows = []
    try:
        for n in cores:
            remote = 0 if n == 1 else n
            config = tfr.single_agent(PPOConfig(), scenario, num_envs_per_env_runner=envs_per_runner,
                                      representation="simple115v2")
            algo = config.env_runners(num_env_runners=remote, num_cpus_per_env_runner=1).build_algo()
            group = algo.env_runner_group
            sample = lambda runner: sum(len(e) for e in runner.sample(num_timesteps=2048))  # noqa: E731
            group.foreach_env_runner(sample, local_env_runner=remote == 0)  # warm-up
            in_trackfield[0] = 0.0
            steps, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds:
                steps += sum(group.foreach_env_runner(sample, local_env_runner=remote == 0))
            elapsed = time.perf_counter() - start
            share = in_trackfield[0] / elapsed if remote == 0 else None
            batch = bench_vector(scenario, "simple115v2", envs_per_runner * max(remote, 1), n, seconds / 2)
            rows.append((n, steps / elapsed, batch, share))
            print(json.dumps({"domain": "rllib", "scenario": scenario, "cores": n, "env_runners": max(remote, 1),
                              "envs_per_runner": envs_per_runner, "rllib_sampled_steps_per_s": round(steps / elapsed),
                              "bare_batch_steps_per_s": round(batch), "trackfield_share": share,
                              "commit": _commit()}), flush=True)
            algo.stop()
    finally:
        tfr.NextStepVectorEnv.step = original_step
        ray.shutdown()
    print(f"\n{'cores':>5} {'RLlib sampled/s':>16} {'bare batch/s':>13} {'RLlib/bare':>10} {'in trackfield':>14}")
    for n, rllib, batch, share in rows:
        where = f"{100 * share:13.1f}%" if share is not None else "             -"
        print(f"{n:5d} {rllib:16.0f} {batch:13.0f} {rllib / batch:9.3f}x {where}")
    print("\nRLlib sampled/s: env steps PPO's env runners collect with the policy (no learner updates); "
          "in trackfield: the share of the 1-core run's time spent in the batch's step (C++ and its "
          "Python adapter); the rest is RLlib's (connectors, the policy's forward pass, episodes).")


def print_fidelity(episodes: int) -> None:
    from trackfield.football import fidelity

    rows = fidelity.compare(episodes=episodes)
    print(f"\nBehaviour under a uniform random policy, {episodes} episodes per scenario, trackfield (live) / "
          "real GRF 2.10.2 (stored):")
    print(fidelity.format_table(rows))
    passed = sum(fidelity.within_tolerance(ours, grf) for ours, grf in rows)
    print(f"{passed} of {len(rows)} within the tolerance (length 0.67x-1.5x of GRF's, every ending share "
          "within 15 points); GRF's figures pool 100 episodes under each of its two team processing "
          "orders (it draws one per environment), so they carry about 3.5 points of seed noise on a share "
          "near 50%")


def print_strength(games: int) -> None:
    from trackfield.football import strength

    grf = strength.grf_figures()
    print(f"\nThe built-in AI's strength in 11 vs 11 (trackfield.football.strength), {games} games per pairing, "
          "half of them each way round; real GRF 2.10.2 beside (the same pairings, its stronger AI on each side in "
          "half the games):")
    print(strength.format_table(strength.ladder(games), grf["ladder"]))
    print(f"\nThe AI at 1.0 against each level, as GRF's 11_vs_11_easy_stochastic / _stochastic / "
          f"_hard_stochastic with no controlled player, {games} games each; real GRF 2.10.2 beside:")
    print(strength.format_table(strength.against_grf_files(games), grf["ai_vs_ai"]))
    print(f"\nA uniformly random left player against each level, {games} games each; real GRF beside:")
    print(strength.format_table(strength.random_player(games), grf["random"]))


if __name__ == "__main__":
    main()
