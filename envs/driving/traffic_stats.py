"""How well town_drive's built-in drivers drive: ``measure_traffic`` drives worlds of
``town_drive`` (the ego driven by the same built-in driver, ``env.ai_action()``, or by the
scripted lane keeper) until the built-in vehicles have driven ``km`` kilometres, and counts,
per 100 km driven by built-in vehicles that are not erratic: collisions, off-road events,
red-light violations; the share of the vehicle lives that end which end at the goal; and the
vehicles that stood still for more than 60 s while not held by a red light (stopping for one,
or queued behind a vehicle that is). ``python -m trackfield.driving.traffic_stats`` prints the
table; ``python -m trackfield.bench driving --traffic-km K`` prints it for every packaged town.
"""
from __future__ import annotations

import argparse
import dataclasses
import time

import numpy as np

STOPPED_SPEED = 0.1      # m/s: below this a vehicle stands
STOPPED_LIMIT_S = 60.0   # standing longer than this outside a red-light queue counts


@dataclasses.dataclass
class TrafficStats:
    map: str
    vehicles: int           # built-in vehicle lives seen (non-erratic)
    km: float               # driven by non-erratic built-in vehicles
    collisions: int
    off_road: int
    red_lights: int
    goals: int
    ended: int              # lives that ended (collision, off road or goal)
    stuck: int              # vehicles standing > 60 s outside a red-light queue
    seconds: float = 0.0

    def per_100km(self, count: int) -> float:
        return 100.0 * count / self.km if self.km > 0 else float("nan")

    @property
    def goal_share(self) -> float:
        return self.goals / self.ended if self.ended else float("nan")

    def row(self) -> str:
        return (f"| {self.map} | {self.per_100km(self.collisions):.2f} | {self.per_100km(self.off_road):.2f} | "
                f"{self.per_100km(self.red_lights):.2f} | {self.goal_share:.2f} ({self.goals} of {self.ended}) | "
                f"{self.stuck} | {self.km:.0f} |")

    def as_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d.update(collisions_per_100km=self.per_100km(self.collisions), off_road_per_100km=self.per_100km(self.off_road),
                 red_lights_per_100km=self.per_100km(self.red_lights), goal_share=self.goal_share)
        return d


HEADER = ("| map | collisions / 100 km | off road / 100 km | red lights / 100 km | lives ending at the goal | "
          "stopped > 60 s | km |\n|---|---|---|---|---|---|---|")


def measure_traffic(map=None, km: float = 100.0, worlds: int = 8, seed: int = 0, ego: str = "ai",
                    max_steps: int = 1000, max_env_steps: int = 20000, **config) -> TrafficStats:
    """Drives ``worlds`` town_drive worlds until the built-in vehicles have driven ``km``
    (or ``max_env_steps`` steps). ``ego``: "ai" (the built-in driver, ``ai_action``) or
    "lane_keeper" (``trackfield.driving.evaluation.lane_keeping_policy``). Other keyword
    arguments go to the environment (``slots=150, agents=150`` for dense traffic)."""
    if ego not in ("ai", "lane_keeper"):
        raise ValueError(f"ego must be 'ai' or 'lane_keeper', got {ego!r}")
    from trackfield.driving.config import DrivingConfig
    from trackfield.driving.engine import make_engine
    from trackfield.driving.evaluation import lane_keeping_policy
    from trackfield.driving.scenarios import load_driving_scenario
    from trackfield.core.config import config_from_kwargs

    if ego == "ai":
        config.setdefault("action", "box")
    cfg = config_from_kwargs(DrivingConfig, dict(map=map, max_steps=max_steps, **config), "measure_traffic")
    engine = make_engine(load_driving_scenario("town_drive"), cfg, num_envs=worlds, num_threads=1, autoreset=False)
    batch = engine.batch
    dt = float(engine.drive_config.dt)
    batch.reset_all(seed)
    n = engine.drive_config.slots - engine.drive_config.controlled
    prev_id = np.full((worlds, n), -1, np.int64)
    prev_x = np.zeros((worlds, n))
    prev_y = np.zeros((worlds, n))
    standing = np.zeros((worlds, n))
    flagged = np.zeros((worlds, n), bool)
    stats = TrafficStats(str(map) if map is not None else "generated town", 0, 0.0, 0, 0, 0, 0, 0, 0)
    start = time.perf_counter()
    steps = 0
    while stats.km < km and steps < max_env_steps:
        if ego == "ai":
            engine.set_batch_actions(batch.ai_actions_all(), (engine.num_envs, engine.num_agents))
        else:
            engine.set_batch_actions(lane_keeping_policy(engine.obs), (engine.num_envs, engine.num_agents))
        batch.step()
        steps += 1
        for i in range(worlds):
            t = batch.traffic(i)
            ids, alive = t["id"], t["alive"]
            calm = ~t["erratic"]
            present = ids >= 0
            same = present & (ids == prev_id[i]) & ~t["spawned"]
            moved = np.hypot(t["x"] - prev_x[i], t["y"] - prev_y[i])
            stats.km += float(moved[same & calm].sum()) / 1000.0
            new = present & ~same & calm
            stats.vehicles += int(new.sum())
            ev = same & calm
            stats.collisions += int((t["collided"] & ev).sum())
            stats.off_road += int((t["off_road"] & ev).sum())
            stats.red_lights += int((t["ran_red"] & ev).sum())
            stats.goals += int((t["reached_goal"] & ev).sum())
            stats.ended += int(((t["collided"] | t["off_road"] | t["reached_goal"]) & ev).sum())
            still = alive & same & (np.abs(t["speed"]) < STOPPED_SPEED) & ~t["held_red"]
            standing[i] = np.where(still, standing[i] + dt, 0.0)
            flagged[i] &= same
            over = (standing[i] > STOPPED_LIMIT_S) & ~flagged[i] & calm
            stats.stuck += int(over.sum())
            flagged[i] |= over
            prev_id[i] = np.where(present, ids, -1)
            prev_x[i], prev_y[i] = t["x"], t["y"]
        done = np.flatnonzero(engine.terminated | engine.truncated)
        for i in done:
            batch.reset_one(int(i))
            prev_id[i] = -1
            standing[i] = 0.0
            flagged[i] = False
    stats.seconds = time.perf_counter() - start
    return stats


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m trackfield.driving.traffic_stats", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--maps", nargs="*", default=["generated", "Town01", "Town03"],
                   help="map names or .xodr paths; 'generated' for the generated town")
    p.add_argument("--km", type=float, default=100.0, help="km the built-in vehicles drive per map")
    p.add_argument("--worlds", type=int, default=8, help="worlds stepped together")
    p.add_argument("--vehicles", type=int, default=0, help="vehicles per world (0: town_drive's default density)")
    p.add_argument("--ego", default="ai", choices=["ai", "lane_keeper"],
                   help="who drives the ego: the built-in driver (env.ai_action()) or the scripted lane keeper")
    p.add_argument("--seed", type=int, default=0, help="seed of the first world")
    args = p.parse_args(argv)
    print(HEADER)
    for name in args.maps:
        extra = dict(slots=args.vehicles, agents=args.vehicles) if args.vehicles else {}
        try:
            stats = measure_traffic(None if name == "generated" else name, km=args.km, worlds=args.worlds,
                                    seed=args.seed, ego=args.ego, **extra)
        except Exception as exc:  # a map that does not load
            print(f"| {name} | failed: {exc} |")
            continue
        print(stats.row(), flush=True)


if __name__ == "__main__":
    main()
