"""Driving throughput, for ``python -m trackfield.bench driving``.

Through the public vector API (``town_self_play``, uniformly random discrete actions,
the flat observation), 64 worlds x (10, 50, 150) agent slots on 1 and 2 threads, and
the ``sets`` and ``pixels`` observations at 150 slots; and the engine alone (``batch.step()`` on the
same buffers, no Python per step), and the vector env with ``copy=False`` (observations as
views of the engine's buffer, path ``vector_env_views``). Reports
slot-steps/s (every agent slot of every world, live or not) and live agent-steps/s,
both per core. Targets (per core): 500,000 slot-steps/s at 64 x 150 with half the
slots live on average, and 250,000 live agent-steps/s. Printed, never asserted.
"""
from __future__ import annotations

import json
import time

import numpy as np

TARGET_SLOT_STEPS = 500_000
TARGET_LIVE_STEPS = 250_000


def measure(slots: int, envs: int, threads: int, seconds: float, engine_only: bool,
            observation: str = "flat", copy: bool = True) -> dict:
    import trackfield

    # Half the slots live on average: agents drawn U{1, slots}.
    env = trackfield.vector.make("town_self_play", num_envs=envs, num_threads=threads, slots=slots, max_steps=300,
                                 observation=observation, copy=copy)
    env.reset(seed=0)
    eng = env._engine
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 12, size=(16, envs, slots))
    steps = live = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for a in actions:
            if engine_only:
                eng.actions[..., 0] = a
                eng.batch.step()
            else:
                env.step(a)
            live += int(eng.live.sum())
            steps += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    # Per CPU-second as well: on a shared machine wall time counts other processes' turns.
    return {"slot_steps_per_s_per_core": round(steps * envs * slots / elapsed / threads),
            "live_agent_steps_per_s_per_core": round(live / elapsed / threads),
            "slot_steps_per_cpu_s": round(steps * envs * slots / cpu),
            "live_agent_steps_per_cpu_s": round(live / cpu),
            "live_fraction": round(live / (steps * envs * slots), 3)}


def main(seconds: float, envs: int, threads_list, commit: str, traffic_km: float = 0.0) -> None:
    runs = [(slots, "flat") for slots in (10, 50, 150)] + [(150, "sets"), (150, "pixels")]
    for slots, observation in runs:
        for threads in threads_list:
            for path in ("vector_env", "vector_env_views", "engine"):
                record = {"domain": "driving", "scenario": "town_self_play", "representation": observation,
                          "envs": envs, "agents": slots, "threads": threads, "path": path, "commit": commit}
                record.update(measure(slots, envs, threads, seconds, path == "engine", observation,
                                      copy=path != "vector_env_views"))
                if slots == 150:
                    record["targets_per_core"] = {"slot_steps": TARGET_SLOT_STEPS, "live_agent_steps": TARGET_LIVE_STEPS}
                print(json.dumps(record), flush=True)
    if traffic_km > 0:
        from trackfield.driving.traffic_stats import HEADER, measure_traffic

        print("\ntown_drive's built-in traffic, per 100 km driven by non-erratic built-in vehicles:")
        print(HEADER)
        for vehicles in (0, 150):
            for name in (None, "Town01", "Town03"):
                extra = dict(slots=vehicles, agents=vehicles, worlds=4) if vehicles else {}
                stats = measure_traffic(name, km=traffic_km, **extra)
                if vehicles:
                    stats.map += f", {vehicles} vehicles"
                print(stats.row(), flush=True)
