"""Long-run evaluation of a driving policy in the manner of GIGAFLOW: many worlds of
``town_self_play`` under the ``eval_long`` preset, with goal, collision, off-road and
red-light rates, km driven, km per incident, and an incident recorder that keeps the last
10 s of every world so each incident can be replayed.

    from trackfield.driving import evaluate
    metrics = evaluate(None, worlds=8, km=200)        # None: the scripted lane keeper
    print(metrics)                                    # rates beside the reference figures
    metrics.incidents[0].states.shape                 # (<= 150, 50, 8): 10 s before it

or ``python -m trackfield.driving.evaluation --km 200``.

Definitions (every count is over the controlled agents):

- agent-episode: one agent's life, from its spawn to its goal, collision, leaving the
  road or the evaluation's end (respawns are new agent-episodes; an agent still driving
  when the evaluation stops counts as one).
- goal rate: final goals reached / agent-episodes. collision, off-road rates: agents that
  collided / left the road, per agent-episode and per km. A collision of two agents is two
  incidents, one per agent, as the km are summed over agents. red-light rate: stop lines
  crossed on red (several per agent-episode possible).
- km: for each agent and step, |v_before + v_after| / 2 * dt (the distance the bicycle
  model moves along its arc, with the step's mean speed).
- incident: a collision or off-road of an agent; km per incident = km / incidents
  (inf without any).

Reference figures printed beside (not comparable one to one: simulated towns, not real
roads): GIGAFLOW's policy drove about 3 million km between incidents in its long-run
evaluation; US drivers average about 829,000 km (515,000 miles) per police-reported crash.

The incident recorder (``IncidentRecorder``) keeps a ring buffer of the last
``seconds`` (10 s: 150 steps at 1/15 s) of vehicle states of every world, written by the
engine straight into a (steps, worlds, vehicles, 8) float32 array (columns
``VEHICLE_STATE_COLUMNS``: x, y, heading, speed, length, width, slot state, agent id);
on each incident it copies that world's window, which is shorter when the world's
episode is younger (its reset state plus every step since).
"""
from __future__ import annotations

import dataclasses
import math
import time

import numpy as np

from trackfield import _engine

GIGAFLOW_KM_PER_INCIDENT = 3_000_000
US_KM_PER_POLICE_REPORTED_CRASH = 829_000
VEHICLE_STATE_COLUMNS = tuple(_engine.driving.VEHICLE_STATE_COLUMNS)


@dataclasses.dataclass
class Incident:
    """One agent's collision or off-road, with the world's states before it."""

    world: int
    step: int            # steps since the world's episode began
    agent: int           # slot
    agent_id: int        # identity in the episode
    kind: str            # "collision" or "off_road"
    dt: float
    states: np.ndarray = dataclasses.field(repr=False)  # (T, vehicles, 8) float32, oldest first; last: the incident step

    @property
    def seconds(self) -> float:
        return (len(self.states) - 1) * self.dt


class IncidentRecorder:
    """The last ``seconds`` of vehicle states of every world of a driving engine (see the
    module docstring). ``record()`` after every reset and step (one C++ call writing every
    world's states into the ring, no allocation); ``restart(worlds)`` after resetting
    some worlds; ``check(collided, off_road, steps)`` stores an ``Incident`` per flagged agent."""

    def __init__(self, engine, seconds: float = 10.0, max_records: int = 256):
        self.engine = engine
        self.dt = float(engine.drive_config.dt)
        self.length = max(1, int(round(seconds / self.dt)))
        n = engine.num_envs
        rows = engine.drive_config.slots + engine.drive_config.static_obstacles
        self.ring = np.zeros((self.length, n, rows, len(VEHICLE_STATE_COLUMNS)), np.float32)
        self._scratch = np.zeros((n, rows, len(VEHICLE_STATE_COLUMNS)), np.float32)
        self.latest = -1
        self.filled = np.zeros(n, np.int64)   # states of each world's current episode in the ring
        self.max_records = max_records
        self.records: list[Incident] = []
        self.dropped = 0                      # incidents past max_records (counted, not stored)

    def record(self) -> None:
        self.latest = (self.latest + 1) % self.length
        self.engine.batch.vehicle_states(self.ring[self.latest])
        np.minimum(self.filled + 1, self.length, out=self.filled)

    def restart(self, worlds) -> None:
        """Worlds just reset: their window restarts at their (new) current state."""
        self.engine.batch.vehicle_states(self._scratch)
        self.ring[self.latest, worlds] = self._scratch[worlds]
        self.filled[worlds] = 1

    def window(self, world: int) -> np.ndarray:
        count = int(self.filled[world])
        index = (self.latest - np.arange(count - 1, -1, -1)) % self.length
        return self.ring[index, world].copy()

    def check(self, collided: np.ndarray, off_road: np.ndarray, steps: np.ndarray, agent_ids: np.ndarray) -> None:
        incident = collided | off_road
        if not incident.any():
            return
        for world, agent in np.argwhere(incident):   # incidents only: rare next to agent-steps
            if len(self.records) >= self.max_records:
                self.dropped += 1
                continue
            kind = "collision" if collided[world, agent] else "off_road"
            self.records.append(Incident(int(world), int(steps[world]), int(agent), int(agent_ids[world, agent]),
                                         kind, self.dt, self.window(world)))


@dataclasses.dataclass
class DrivingMetrics:
    """What ``evaluate`` measured; rates are properties, ``str()`` prints a table."""

    map: str
    worlds: int
    steps: int                # batch steps (each steps every world)
    agent_steps: int
    agent_episodes: int
    goals: int
    collisions: int
    off_road: int
    red_lights: int
    km: float
    seconds: float            # wall time
    incidents: list = dataclasses.field(default_factory=list, repr=False)   # Incident records
    incidents_dropped: int = 0

    @property
    def incident_count(self) -> int:
        return self.collisions + self.off_road

    def per_episode(self, count: int) -> float:
        return count / self.agent_episodes if self.agent_episodes else math.nan

    def per_km(self, count: int) -> float:
        return count / self.km if self.km > 0 else math.nan

    @property
    def goal_rate(self) -> float:
        return self.per_episode(self.goals)

    @property
    def collision_rate(self) -> float:
        return self.per_episode(self.collisions)

    @property
    def off_road_rate(self) -> float:
        return self.per_episode(self.off_road)

    @property
    def red_light_rate(self) -> float:
        return self.per_episode(self.red_lights)

    @property
    def km_per_incident(self) -> float:
        return self.km / self.incident_count if self.incident_count else math.inf

    def as_dict(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "incidents"}
        out.update(goal_rate=self.goal_rate, collision_rate=self.collision_rate, off_road_rate=self.off_road_rate,
                   red_light_rate=self.red_light_rate, km_per_incident=self.km_per_incident,
                   incidents_recorded=len(self.incidents))
        return out

    def __str__(self) -> str:
        rows = [("goal", self.goals), ("collision", self.collisions), ("off-road", self.off_road),
                ("red light", self.red_lights)]
        lines = [f"driving evaluation on {self.map}: {self.worlds} worlds x {self.steps} steps, "
                 f"{self.agent_steps:,} agent-steps, {self.agent_episodes:,} agent-episodes, "
                 f"{self.km:,.1f} km in {self.seconds:.1f} s",
                 f"  {'event':<10} {'count':>8} {'per agent-episode':>18} {'per km':>10}"]
        for name, count in rows:
            lines.append(f"  {name:<10} {count:>8} {self.per_episode(count):>18.4f} {self.per_km(count):>10.4f}")
        kpi = self.km_per_incident
        lines.append(f"  km per incident (collision or off-road): {kpi:,.1f}" if math.isfinite(kpi) else
                     f"  km per incident (collision or off-road): no incident in {self.km:,.1f} km")
        lines.append(f"    reference: GIGAFLOW ~{GIGAFLOW_KM_PER_INCIDENT:,} km; US drivers ~"
                     f"{US_KM_PER_POLICE_REPORTED_CRASH:,} km per police-reported crash")
        if self.incidents or self.incidents_dropped:
            lines.append(f"  incidents recorded: {len(self.incidents)} (10 s windows)"
                         + (f", {self.incidents_dropped} more not stored" if self.incidents_dropped else ""))
        return "\n".join(lines)


def lane_keeping_policy(obs: np.ndarray) -> np.ndarray:
    """A scripted driver for every slot at once (``trackfield.demo.lane_keeping_action``,
    vectorised): pure pursuit on the route's lane points, a speed target under the limit,
    stopping for red lights and a vehicle close ahead. obs (..., 336) flat -> actions (...,)."""
    speed, limit = obs[..., 3] * 30.0, obs[..., 4] * 30.0
    a_long, a_lat = obs[..., 6] * 5.0, obs[..., 7] * 4.0
    points = obs[..., 200:320].reshape(obs.shape[:-1] + (20, 6))
    ahead = (points[..., 0] > 0) & (points[..., 1] * 100.0 > np.maximum(4.0, 0.8 * speed)[..., None])
    first = np.argmax(ahead, axis=-1)[..., None]
    x = np.take_along_axis(points[..., 1], first, -1)[..., 0] * 100.0
    y = np.take_along_axis(points[..., 2], first, -1)[..., 0] * 100.0
    with np.errstate(divide="ignore", invalid="ignore"):
        pursuit = 2.0 * np.maximum(speed + 0.3 * a_long, 0.5) ** 2 * y / (x * x + y * y)
    target_lat = np.where(ahead.any(axis=-1), pursuit, 0.0)
    target_speed = np.minimum(0.7 * limit, 8.0)
    vehicles = obs[..., 20:200].reshape(obs.shape[:-1] + (20, 9))
    close = (vehicles[..., 0] > 0) & (vehicles[..., 1] > 0) & (np.abs(vehicles[..., 2] * 200.0) < 2.5)
    nearest = np.where(close, vehicles[..., 1] * 200.0, np.inf).min(axis=-1)
    target_speed = np.where(nearest < 8.0 + 1.5 * speed, 0.0, target_speed)
    light = obs[..., 320:325]
    red = (light[..., 0] > 0) & (light[..., 4] > 0) & (light[..., 1] * 100.0 < 5.0 + 2.0 * speed)
    target_speed = np.where(red, 0.0, target_speed)
    diff = np.clip(0.6 * (target_speed - speed), -4.0, 2.0) - a_long
    i_long = np.where(diff > 0.6, 3, np.where(diff < -1.5, 1, np.where(np.abs(diff) < 0.6, 2, 1)))
    band = 0.05 + 0.03 * speed
    dlat = target_lat - a_lat
    i_lat = np.where(dlat > band, 2, np.where(dlat < -band, 0, 1))
    return (3 * i_long + i_lat).astype(np.int32)


def evaluate(policy=None, map=None, worlds: int = 8, km: float | None = None, steps: int | None = None,
             seed: int = 0, num_threads: int | None = None, record_incidents: bool = True,
             incident_seconds: float = 10.0, max_incidents: int = 256, preset: str | None = "eval_long",
             **config) -> DrivingMetrics:
    """Runs ``policy`` on ``worlds`` worlds of ``town_self_play`` (``preset="eval_long"``
    by default: dt 1/15 s, 50 agents, no noise, safe conditioning; see DrivingConfig) until
    ``km`` km have been driven in all, or for ``steps`` batch steps (give one; ``steps``
    wins if both are given). Worlds that end start a new episode from their own generator,
    so the whole run is determined by ``seed``.

    ``policy(obs) -> actions``: obs (worlds, slots, 336) float32, read-only; actions
    (worlds, slots) ints in [0, 12) (or (worlds, slots, 2) jerks with ``action="box"``);
    actions of slots not in play are ignored. ``None``: ``lane_keeping_policy``.
    Other keywords are DrivingConfig's (``map`` too; ``town_seed``, ``max_steps`` ...).
    """
    from trackfield.core.config import check_float, check_int, config_from_kwargs
    from trackfield.core.engine import default_threads
    from trackfield.driving.config import DrivingConfig
    from trackfield.driving.engine import make_engine
    from trackfield.driving.scenarios import load_driving_scenario

    check_int("worlds", worlds, 1, 100_000)
    if steps is None and km is None:
        raise ValueError("evaluate: give km= (distance to drive in all) or steps= (batch steps)")
    if steps is not None:
        check_int("steps", steps, 1)
    if km is not None:
        check_float("km", km, 1e-9, 1e12)
    check_int("seed", seed, 0)
    check_float("incident_seconds", incident_seconds, 1e-3, 3600.0)
    check_int("max_incidents", max_incidents, 0)
    if policy is not None and not callable(policy):
        raise TypeError(f"policy must be a callable obs -> actions or None, got {type(policy).__name__}")
    threads = min(default_threads() if num_threads is None else check_int("num_threads", num_threads, 1, 1024), worlds)
    cfg = config_from_kwargs(DrivingConfig, dict(config, map=map, preset=preset), "evaluate")
    if policy is None and cfg.observation != "flat":
        raise ValueError("evaluate: the built-in scripted policy reads the flat observation; pass observation='flat'")
    if policy is None and cfg.action != "discrete":
        raise ValueError("evaluate: the built-in scripted policy gives discrete actions; pass action='discrete'")
    engine = make_engine(load_driving_scenario("town_self_play"), cfg, num_envs=worlds, num_threads=threads,
                         autoreset=False)
    act = lane_keeping_policy if policy is None else policy
    names = engine.agent_info_fields.names
    col = {name: names.index(name) for name in ("agent_id", "speed", "collided", "off_road", "reached_goal", "ran_red")}
    world_steps = engine.world_info_fields.names.index("steps")
    dt = float(engine.drive_config.dt)
    recorder = IncidentRecorder(engine, incident_seconds, max_incidents) if record_incidents else None

    engine.batch.reset_all(seed)
    if recorder:
        recorder.record()
    obs_view = engine.obs.view()
    obs_view.flags.writeable = False
    info = engine.agent_info
    live_before = engine.live.copy()
    speed_before = info[..., col["speed"]].copy()
    totals = dict(agent_steps=0, agent_episodes=int(live_before.sum()), goals=0, collisions=0, off_road=0,
                  red_lights=0)
    distance_m = 0.0
    done_steps = 0
    start = time.perf_counter()
    while (done_steps < steps) if steps is not None else (distance_m < km * 1000.0):
        engine.set_batch_actions(act(obs_view), (worlds, engine.num_agents))
        engine.batch.step()
        done_steps += 1
        acted = live_before
        speed = info[..., col["speed"]]
        distance_m += float(np.abs(0.5 * (speed + speed_before))[acted].sum()) * dt
        collided = (info[..., col["collided"]] > 0) & acted
        off_road = (info[..., col["off_road"]] > 0) & acted
        totals["agent_steps"] += int(acted.sum())
        totals["goals"] += int(np.count_nonzero((info[..., col["reached_goal"]] > 0) & acted))
        totals["collisions"] += int(np.count_nonzero(collided))
        totals["off_road"] += int(np.count_nonzero(off_road))
        totals["red_lights"] += int(np.count_nonzero((info[..., col["ran_red"]] > 0) & acted))
        if recorder:
            recorder.record()
            recorder.check(collided, off_road, engine.world_info[:, world_steps], info[..., col["agent_id"]])
        new = engine.live & ~acted
        done = np.flatnonzero(engine.terminated | engine.truncated)
        if len(done):
            for i in done:   # worlds whose episode ended (every max_steps): rare
                engine.batch.reset_one(int(i))
            new[done] = engine.live[done]
            if recorder:
                recorder.restart(done)
        totals["agent_episodes"] += int(np.count_nonzero(new))
        np.copyto(live_before, engine.live)
        np.copyto(speed_before, info[..., col["speed"]])
    seconds = time.perf_counter() - start
    name = cfg.map if isinstance(cfg.map, str) else getattr(cfg.map, "name", None) or \
        f"generated town (seed {cfg.town_seed or 0})"
    return DrivingMetrics(map=str(name), worlds=worlds, steps=done_steps, km=distance_m / 1000.0, seconds=seconds,
                          incidents=recorder.records if recorder else [],
                          incidents_dropped=recorder.dropped if recorder else 0, **totals)


def main(argv=None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m trackfield.driving.evaluation",
                                     description="Long-run evaluation (eval_long) of the scripted lane keeper.")
    parser.add_argument("--map", default=None, help="Town01, Town03, a .xodr/.json path; default: a generated town")
    parser.add_argument("--town-seed", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=8)
    parser.add_argument("--km", type=float, default=None, help="km to drive in all (default 100)")
    parser.add_argument("--steps", type=int, default=None, help="batch steps instead of --km")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--no-recorder", action="store_true", help="run without the incident recorder")
    args = parser.parse_args(argv)
    km = args.km if args.km is not None or args.steps is not None else 100.0
    metrics = evaluate(None, map=args.map, town_seed=args.town_seed, worlds=args.worlds, km=km, steps=args.steps,
                       seed=args.seed, num_threads=args.threads, record_incidents=not args.no_recorder)
    print(metrics)


if __name__ == "__main__":
    main()
