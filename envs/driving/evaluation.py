"""Long-run evaluation of a driving policy in the manner of GIGAFLOW: many worlds of
``town_self_play`` under the ``eval_long`` preset, with goal, collision, off-road and
red-light rates, km driven, km per incident, and an incident recorder that keeps the last
10 s of every world so each incident can be replayed.

    from trackfield.driving import evaluate
    metrics = evaluate(None, worlds=8, km=200)        # None: the scripted lane keeper
    print(metrics)                                    # rates beside the reference figures
    metrics.incidents[0].states.shape                 # (<= 150, 50, 8): the 10 s up to it

or ``python -m trackfield.driving.evaluation --km 200``.

Definitions (every count is over the controlled agents):

- agent-episode: one agent's life, from its spawn to its goal, collision, leaving the
  road or the evaluation's end (respawns are new agent-episodes; an agent still driving
  when the evaluation stops counts as one).
- goal rate: final goals reached / agent-episodes. collision, off-road rates: agents that
  collided / left the road, per agent-episode and per km (a two-car crash flags both).
  red-light rate: stop lines crossed on red (several per agent-episode possible).
- km: for each agent and step, |v_before + v_after| / 2 * dt (the distance the bicycle
  model moves along its arc, with the step's mean speed).
- incident: a collision or an off-road event: the agents of one world flagged at one step
  make one event per kind (a two-car crash is one incident, as it is one police-reported
  crash). km per incident = km / incidents (inf without any).

Reference figures printed beside (not comparable one to one: simulated towns, not real
roads): GIGAFLOW's policy drove about 3 million km between incidents in its long-run
evaluation; US drivers average about 829,000 km (515,000 miles) per police-reported crash.

The incident recorder (``IncidentRecorder``) keeps a ring buffer of the last
``seconds`` (10 s: 150 steps at 1/15 s) of vehicle states of every world, written by the
engine straight into a (steps, worlds, vehicles, 8) float32 array (columns
``VEHICLE_STATE_COLUMNS``: x, y, heading, speed, length, width, slot state, agent id);
on each incident it copies that world's window (up to and including the incident's step),
which is shorter when the world's episode is younger (its reset state plus every step since).
It is on by default: for 8 worlds x 50 agents it costs about 0.04 ms a step (recording
0.02 ms, checking 0.015 ms) against about 8 ms for the engine's step, and a 1.9 MB ring.
"""
from __future__ import annotations

import dataclasses
import math
import os
import time

import numpy as np

from trackfield import _engine

GIGAFLOW_KM_PER_INCIDENT = 3_000_000
US_KM_PER_POLICE_REPORTED_CRASH = 829_000
VEHICLE_STATE_COLUMNS = tuple(_engine.driving.VEHICLE_STATE_COLUMNS)


@dataclasses.dataclass
class Incident:
    """A collision or an off-road in one world at one step, with the world's states before it."""

    world: int
    step: int            # steps since the world's episode began
    kind: str            # "collision" or "off_road"
    agents: tuple        # the slots flagged (a two-car crash names both)
    agent_ids: tuple     # their identities in the episode
    dt: float
    states: np.ndarray = dataclasses.field(repr=False)  # (T, vehicles, 8) float32, oldest first; last: this step

    @property
    def seconds(self) -> float:
        """Time the window spans, s."""
        return (len(self.states) - 1) * self.dt


class IncidentRecorder:
    """The last ``seconds`` of vehicle states of every world of a driving engine (see the
    module docstring). ``record()`` after every reset and step (one C++ call writes every
    world's states into the ring; no allocation, no Python loop over worlds or agents);
    ``restart(worlds)`` after resetting some worlds; ``check(...)`` stores an ``Incident``
    per world and kind with a flagged agent (at most ``max_records``; later ones are counted
    in ``dropped``)."""

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
        self.dropped = 0

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
        """World ``world``'s recorded states, oldest first (a copy)."""
        count = int(self.filled[world])
        index = (self.latest - np.arange(count - 1, -1, -1)) % self.length
        return self.ring[index, world].copy()

    def check(self, flags: dict, steps: np.ndarray, agent_ids: np.ndarray) -> None:
        """``flags``: {kind: (worlds, slots) bool} of this step."""
        for kind, flagged in flags.items():
            if not flagged.any():
                continue
            for world in np.flatnonzero(flagged.any(axis=1)):   # worlds with an incident: rare
                if len(self.records) >= self.max_records:
                    self.dropped += 1
                    continue
                agents = np.flatnonzero(flagged[world])
                self.records.append(Incident(int(world), int(steps[world]), kind, tuple(int(a) for a in agents),
                                             tuple(int(agent_ids[world, a]) for a in agents), self.dt,
                                             self.window(world)))


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
    incident_count: int       # collision and off-road events (a world's agents flagged at one step: one event per kind)
    km: float
    seconds: float            # wall time
    incidents: list = dataclasses.field(default_factory=list, repr=False)   # Incident records
    incidents_dropped: int = 0

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
    """A scripted driver for every slot at once (numpy over all rows; ``trackfield.demo``'s
    ``lane_keeping_action`` extended): pure pursuit on the route's lane points; a speed
    target under the limit and slow enough for the curvature ahead (2 m/s^2 lateral); a
    braking profile to a red or yellow stop line, to the final goal (reached only below
    2 m/s) and behind a vehicle close ahead. Jerk actions change accelerations, so each
    axis steers its acceleration towards a target. obs (..., 337) flat -> actions (...,)."""
    speed, limit = obs[..., 3] * 30.0, obs[..., 4] * 30.0
    a_long, a_lat = obs[..., 6] * 5.0, obs[..., 7] * 4.0
    half_length = obs[..., 12] * 3.5
    points = obs[..., 200:320].reshape(obs.shape[:-1] + (20, 6))
    present = points[..., 0] > 0
    ahead = present & (points[..., 1] * 100.0 > np.maximum(4.0, 0.8 * speed)[..., None])
    first = np.argmax(ahead, axis=-1)[..., None]
    x = np.take_along_axis(points[..., 1], first, -1)[..., 0] * 100.0
    y = np.take_along_axis(points[..., 2], first, -1)[..., 0] * 100.0
    with np.errstate(divide="ignore", invalid="ignore"):
        pursuit = 2.0 * np.maximum(speed + 0.3 * a_long, 0.5) ** 2 * y / (x * x + y * y)
    target_lat = np.where(ahead.any(axis=-1), pursuit, 0.0)
    target_speed = np.minimum(0.7 * limit, 8.0)
    # Curvature of the route over the next 40 m (points 5 m apart).
    angle = np.unwrap(np.arctan2(points[..., 4], points[..., 3]), axis=-1)
    bend = np.abs(np.diff(angle[..., :9], axis=-1)) * (present[..., 1:9] & present[..., :8])
    target_speed = np.minimum(target_speed, np.sqrt(2.0 * 5.0 / np.maximum(bend.max(axis=-1), 1e-3)))

    # Where to stop: behind a vehicle close ahead, at a red (or stoppable yellow) stop line,
    # at the final goal (reached only below 2 m/s). None: inf.
    vehicles = obs[..., 20:200].reshape(obs.shape[:-1] + (20, 9))
    close = (vehicles[..., 0] > 0) & (vehicles[..., 1] > 0) & (np.abs(vehicles[..., 2] * 200.0) < 2.5)
    gap = vehicles[..., 1] * 200.0 - 3.5 * vehicles[..., 6]   # to the other's rear (length / 7)
    stop_m = np.where(close, gap, np.inf).min(axis=-1) - half_length - 3.0
    light = obs[..., 320:325]
    light_m = light[..., 1] * 100.0 - half_length - 1.0
    red, yellow = (light[..., 0] > 0) & (light[..., 4] > 0), (light[..., 0] > 0) & (light[..., 3] > 0)
    stop_m = np.where(red | (yellow & (light_m > speed * speed / 6.0)), np.minimum(stop_m, light_m), stop_m)
    stop_m = np.where(obs[..., 19] <= 0.0, np.minimum(stop_m, obs[..., 18] * 1000.0 - 1.0), stop_m)
    target_speed = np.minimum(target_speed, np.sqrt(4.0 * np.maximum(stop_m, 0.0)))   # 2 m/s^2 to the stop
    target_long = np.clip(0.8 * (target_speed - speed), -4.0, 2.0)
    with np.errstate(divide="ignore"):
        need = np.where(speed > 0, speed * speed / (2.0 * np.maximum(stop_m, 0.05)), 0.0)  # to stop in time
    target_long = np.where(need > 0.5, np.minimum(target_long, -np.minimum(need, 8.0)), target_long)
    # Standing (or nearly): bring the acceleration to exactly 0 (the sign snap) so as not to roll back.
    standing = (target_speed < 0.3) & (np.abs(speed) < 0.3)
    target_long = np.where(standing, np.clip(-2.0 * speed, -0.5, 0.5), target_long)
    diff = target_long - a_long
    dead = np.where(standing, 0.15, 0.6)
    i_long = np.where(diff > dead, 3, np.where(diff < -3.0, 0, np.where(diff < -dead, 1, 2)))
    band = 0.05 + 0.03 * speed
    dlat = target_lat - a_lat
    i_lat = np.where(dlat > band, 2, np.where(dlat < -band, 0, 1))
    return (3 * i_long + i_lat).astype(np.int32)


class EvaluationRun:
    """The evaluation loop over an engine built with ``autoreset=False`` (``evaluate`` builds
    one; tests build their own to stage a scene). ``step()`` asks the policy for every
    slot's action, steps every world once in C++, adds this step's events with numpy over
    all slots, records the states and resets the worlds whose episode ended from their own
    generators. ``sync()`` re-reads the live mask and speeds after the world was edited
    (``place_vehicle``)."""

    def __init__(self, engine, policy, seed: int = 0, record_incidents: bool = True, incident_seconds: float = 10.0,
                 max_incidents: int = 256):
        self.engine = engine
        self.policy = lane_keeping_policy if policy is None else policy
        names = engine.agent_info_fields.names
        wanted = ("agent_id", "speed", "collided", "off_road", "reached_goal", "ran_red")
        self._col = {n: names.index(n) for n in wanted}
        self._world_steps = engine.world_info_fields.names.index("steps")
        self.dt = float(engine.drive_config.dt)
        self.recorder = IncidentRecorder(engine, incident_seconds, max_incidents) if record_incidents else None
        self.steps = self.agent_steps = self.goals = self.collisions = self.off_road = self.red_lights = 0
        self.incidents = 0
        self.distance_m = 0.0
        engine.batch.reset_all(seed)
        if self.recorder:
            self.recorder.record()
        self._obs = engine.obs.view()
        self._obs.flags.writeable = False
        self._live = engine.live.copy()
        self._speed = engine.agent_info[..., self._col["speed"]].copy()
        self.agent_episodes = int(self._live.sum())

    @property
    def km(self) -> float:
        return self.distance_m / 1000.0

    def sync(self) -> None:
        np.copyto(self._live, self.engine.live)
        np.copyto(self._speed, self.engine.agent_info[..., self._col["speed"]])

    def step(self) -> None:
        engine, col, info = self.engine, self._col, self.engine.agent_info
        engine.set_batch_actions(self.policy(self._obs), (engine.num_envs, engine.num_agents))
        engine.batch.step()
        self.steps += 1
        acted = self._live   # the slots in play in the observation the policy acted on
        speed = info[..., col["speed"]]
        self.distance_m += float(np.abs(0.5 * (speed + self._speed))[acted].sum()) * self.dt
        collided = (info[..., col["collided"]] > 0) & acted
        off_road = (info[..., col["off_road"]] > 0) & acted
        self.agent_steps += int(np.count_nonzero(acted))
        self.goals += int(np.count_nonzero((info[..., col["reached_goal"]] > 0) & acted))
        self.collisions += int(np.count_nonzero(collided))
        self.off_road += int(np.count_nonzero(off_road))
        self.red_lights += int(np.count_nonzero((info[..., col["ran_red"]] > 0) & acted))
        self.incidents += int(np.count_nonzero(collided.any(axis=1))) + int(np.count_nonzero(off_road.any(axis=1)))
        if self.recorder:
            self.recorder.record()
            self.recorder.check({"collision": collided, "off_road": off_road},
                                engine.world_info[:, self._world_steps], info[..., col["agent_id"]])
        new = engine.live & ~acted
        done = np.flatnonzero(engine.terminated | engine.truncated)
        if len(done):
            for i in done:   # worlds whose episode ended (every max_steps): rare
                engine.batch.reset_one(int(i))
            new[done] = engine.live[done]
            if self.recorder:
                self.recorder.restart(done)
        self.agent_episodes += int(np.count_nonzero(new))
        self.sync()

    def metrics(self, map_name: str, seconds: float = 0.0) -> DrivingMetrics:
        rec = self.recorder
        return DrivingMetrics(map=map_name, worlds=self.engine.num_envs, steps=self.steps, agent_steps=self.agent_steps,
                              agent_episodes=self.agent_episodes, goals=self.goals, collisions=self.collisions,
                              off_road=self.off_road, red_lights=self.red_lights, incident_count=self.incidents,
                              km=self.km, seconds=seconds, incidents=rec.records if rec else [],
                              incidents_dropped=rec.dropped if rec else 0)


def evaluate(policy=None, map=None, worlds: int = 8, km: float | None = None, steps: int | None = None,
             seed: int = 0, num_threads: int | None = None, record_incidents: bool = True,
             incident_seconds: float = 10.0, max_incidents: int = 256, preset: str | None = "eval_long",
             **config) -> DrivingMetrics:
    """Runs ``policy`` on ``worlds`` worlds of ``town_self_play`` (``preset="eval_long"``
    by default: dt 1/15 s, 50 agents, no noise, safe conditioning; see DrivingConfig) until
    ``km`` km have been driven in all, or for ``steps`` batch steps (give one; ``steps``
    wins if both are given). Worlds whose episode ends (``max_steps``, 4500 under the
    preset) start a new one from their own generator, so the run is determined by ``seed``.

    ``policy(obs) -> actions``: obs (worlds, slots, 337) float32, read-only; actions
    (worlds, slots) ints in [0, 12) for every slot (or (worlds, slots, 2) jerks with
    ``action="box"``); actions of slots not in play are ignored. ``None``:
    ``lane_keeping_policy``. Other keywords are DrivingConfig's (``town_seed``,
    ``max_steps``, ``augment`` ...; the preset's fixed keys only with its own values).
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
    if policy is None and (cfg.observation != "flat" or cfg.action != "discrete"):
        raise ValueError("evaluate: the built-in scripted policy reads the flat observation and gives discrete "
                         "actions; pass observation='flat', action='discrete' or a policy")
    engine = make_engine(load_driving_scenario("town_self_play"), cfg, num_envs=worlds, num_threads=threads,
                         autoreset=False)
    run = EvaluationRun(engine, policy, seed, record_incidents, incident_seconds, max_incidents)
    start = time.perf_counter()
    while (run.steps < steps) if steps is not None else (run.distance_m < km * 1000.0):
        run.step()
    seconds = time.perf_counter() - start
    items = cfg.map if isinstance(cfg.map, tuple) else (cfg.map,)
    name = ", ".join(os.fspath(m) if isinstance(m, (str, os.PathLike)) else getattr(m, "name", "a RoadMap")
                     if m is not None else f"generated town (seed {cfg.town_seed or 0})" for m in items)
    if cfg.augment:
        name += f", {cfg.augment_variants} augmented variants"
    return run.metrics(name, seconds)


def main(argv=None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m trackfield.driving.evaluation", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="From the command line it evaluates the scripted lane keeper.")
    parser.add_argument("--map", default=None, help="a packaged town (Town01-07, Town10HD), a .xodr/.json path; default: a generated town")
    parser.add_argument("--town-seed", type=int, default=0, help="seed of the generated town (without --map)")
    parser.add_argument("--worlds", type=int, default=8, help="worlds stepped together in one batch")
    parser.add_argument("--km", type=float, default=None, help="km to drive in all (default 100)")
    parser.add_argument("--steps", type=int, default=None, help="batch steps instead of --km")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run: the worlds and their episodes follow from it")
    parser.add_argument("--threads", type=int, default=None, help="engine threads (default: the CPUs this process may use)")
    parser.add_argument("--no-recorder", action="store_true", help="run without the incident recorder")
    args = parser.parse_args(argv)
    km = args.km if args.km is not None or args.steps is not None else 100.0
    metrics = evaluate(None, map=args.map, town_seed=args.town_seed, worlds=args.worlds, km=km, steps=args.steps,
                       seed=args.seed, num_threads=args.threads, record_incidents=not args.no_recorder)
    print(metrics)


if __name__ == "__main__":
    main()
