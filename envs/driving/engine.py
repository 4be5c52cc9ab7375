"""Driving's engine config: a DrivingConfig and a scenario -> the C++ DriveConfig, with the
engine maps (lanes, lights, spawn buffer) built once per (map, variant) and shared."""
from __future__ import annotations

import functools
import os

import numpy as np

from trackfield import _engine
from trackfield.core.engine import BatchEngine
from trackfield.driving.config import DrivingConfig
from trackfield.driving.roadmap import MapError, RoadMap
from trackfield.driving.scenarios import DriveScenario

_dr = _engine.driving


def light_arrays(roadmap: RoadMap) -> dict:
    """The DriveMap keyword arrays of a map's lights: groups and junctions renumbered
    0.., each light's stop line and the heading of the lanes it stops."""
    from trackfield.driving.signals import end_direction

    signals = roadmap.signals
    groups, junctions = {}, {}
    light_group, group_junction = [], []
    for sig in signals:
        if sig.group not in groups:
            groups[sig.group] = len(groups)
            group_junction.append(junctions.setdefault(sig.junction, len(junctions)))
        light_group.append(groups[sig.group])
    lane_light = np.full(len(roadmap.lanes), -1, np.int32)
    heading = []
    for k, sig in enumerate(signals):
        for lane in sig.lanes:
            if lane_light[lane] < 0:
                lane_light[lane] = k
        d = end_direction(roadmap.lanes[sig.lanes[0]]) if sig.lanes else np.array([1.0, 0.0])
        heading.append(float(np.arctan2(d[1], d[0])))
    stop_lines = np.array([np.asarray(s.stop_line, np.float64)[:, :2] for s in signals]).reshape(-1, 2, 2)
    return dict(lane_light=lane_light, light_group=np.array(light_group, np.int32),
                group_junction=np.array(group_junction, np.int32), stop_lines=stop_lines,
                light_heading=np.array(heading, np.float64))


def build_drive_map(roadmap: RoadMap, seed: int = 0):
    """The engine's DriveMap of ``roadmap`` (lanes, lights, spawn buffer)."""
    from trackfield.driving.engine_map import build_engine_map

    return _dr.DriveMap(map=build_engine_map(roadmap), seed=seed, **light_arrays(roadmap))


@functools.lru_cache(maxsize=16)
def _cached_drive_map(key: str, town_seed: int):
    return build_drive_map(resolve_roadmap(key, town_seed))


def resolve_roadmap(key, town_seed: int) -> RoadMap:
    """A RoadMap from a name or path (``None``: the generated small town of ``town_seed``)."""
    from trackfield.driving import generate_signals, generate_town, load_map

    if key is None:
        roadmap = generate_town(seed=town_seed, size="small")
    else:
        try:
            roadmap = load_map(key)
        except MapError as e:
            raise ValueError(f"map: {e}") from None
        except FileNotFoundError as e:
            raise ValueError(f"map: no such file {key!r}") from e
    if not roadmap.signals:
        generate_signals(roadmap)
    return roadmap


def drive_map_for(config: DrivingConfig, item=None):
    """The (cached) DriveMap of the config's map (or of ``item``, one of several)."""
    item = config.map if item is None else item
    if isinstance(item, RoadMap):
        return build_drive_map(item)
    key = None if item is None else os.fspath(item)
    return _cached_drive_map(key, config.town_seed or 0)


def augmented_roadmaps(roadmap: RoadMap, count: int, seed: int) -> list[RoadMap]:
    """``count`` variants of ``roadmap`` (rescale, shear, mirror: ``augment.variants``),
    each with lights (a variant that lost its signals gets generated ones)."""
    from trackfield.driving import generate_signals
    from trackfield.driving.augment import variants

    out = variants(roadmap, count, seed)
    for variant in out:
        if not variant.signals:
            generate_signals(variant)
    return out


def _build_variants(roadmap: RoadMap, count: int, seed: int) -> tuple:
    # The routing tables are built with the GIL released: a few threads overlap them.
    from concurrent.futures import ThreadPoolExecutor

    roadmaps = augmented_roadmaps(roadmap, count, seed)
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        return tuple(pool.map(build_drive_map, roadmaps))


@functools.lru_cache(maxsize=4)
def _cached_variants(key: str, town_seed: int, count: int, seed: int) -> tuple:
    return _build_variants(resolve_roadmap(key, town_seed), count, seed)


def drive_maps_for(config: DrivingConfig) -> list:
    """The engine maps a config's worlds draw from at each reset: the map itself (or each of
    several), or with ``augment`` ``augment_variants`` variants of each (built once, cached
    per map and seed); map k's variants are ids [k * variants, (k + 1) * variants)."""
    items = config.map if isinstance(config.map, tuple) else (config.map,)
    if not config.augment:
        return [drive_map_for(config, item) for item in items]
    out = []
    for item in items:
        if isinstance(item, RoadMap):
            out += _build_variants(item, config.augment_variants, config.augment_seed)
        else:
            key = None if item is None else os.fspath(item)
            out += _cached_variants(key, config.town_seed or 0, config.augment_variants, config.augment_seed)
    return out


def engine_config(scenario: DriveScenario, config: DrivingConfig):
    """The C++ DriveConfig for ``scenario`` with the user's ``config``."""
    cfg = _dr.Config()
    maps = drive_maps_for(config)
    if config.observation == "pixels":
        for drive_map in maps:  # once per map: the maps are cached and shared
            drive_map.build_raster()
    cfg.maps = maps
    slots = config.slots if config.slots is not None else scenario.slots
    if config.agents is not None and config.agents > slots:
        raise ValueError(f"agents={config.agents} is more than slots={slots} (agent slots per world)")
    low, high = config.agent_range(slots)
    cfg.slots = slots
    cfg.agents_min, cfg.agents_max = low, high
    cfg.controlled = -1 if scenario.controlled == "all" else 1
    cfg.static_obstacles = config.static_obstacles
    cfg.dt = float(config.dt)
    cfg.episode_steps = config.max_steps
    cfg.respawn = scenario.respawn if config.respawn is None else config.respawn
    cfg.goal_radius, cfg.goal_speed = float(config.goal_radius), float(config.goal_speed)
    cfg.waypoints_max = config.waypoints
    cfg.goal_distance_min, cfg.goal_distance_max = config.goal_distance or (0.0, 0.0)
    cfg.spawn_speed_max = float(config.spawn_speed)
    cfg.jerk_noise = float(config.dynamics_noise)
    cfg.obs_noise_pos, cfg.obs_noise_heading, cfg.obs_noise_speed = config.obs_noise_stds()
    cfg.obs_inflate = float(config.obs_inflate)
    cfg.spawn_clearance = float(config.spawn_clearance)
    cfg.random_spawn_heading = config.spawn_heading == "random"
    cfg.safe_conditioning = config.conditioning == "safe"
    cfg.lights_enabled, cfg.erratic_enabled = config.lights, config.erratic
    cfg.lights_randomised = config.light_timings_randomised
    cfg.box_actions = config.action == "box"
    cfg.observation = config.observation
    cfg.feature_dropout = config.feature_dropout
    return cfg


def make_engine(scenario: DriveScenario, config: DrivingConfig, num_envs: int = 1, num_threads: int = 1,
                autoreset: bool = False) -> BatchEngine:
    """A C++ driving batch of ``num_envs`` worlds and its buffers."""
    cfg = engine_config(scenario, config)
    # "sets" is a Dict of Boxes (one per field, masks explicit) for permutation-invariant
    # encoders; "flat" one Box. Both are views of the same float32 rows the engine writes.
    # "pixels" is a uint8 Box(0, 255, (64, 64, 6)) (the layout says so).
    fields = _dr.sets_fields() if config.observation == "sets" else None
    engine = BatchEngine(_dr, cfg, num_envs=num_envs, num_threads=num_threads, autoreset=autoreset,
                         obs_fields=fields, obs_bounds=(-1.0, 1.0))
    engine.agent_name = lambda k: f"agent slot {k}"
    engine.constant_info = {"scenario": scenario.name}
    engine.drive_config = cfg
    return engine
