"""Racing's engine config: a scenario plus the user's settings -> the C++ RaceConfig."""
from __future__ import annotations

import functools
import os

import numpy as np

from trackfield import _engine
from trackfield.core.engine import BatchEngine
from trackfield.racing.config import COMPONENTS, RacingConfig
from trackfield.racing.scenarios import RaceScenario

_rc = _engine.racing

START_KINDS = {"rolling": 0, "grid": 1, "slipstream": 2, "section": 3}


@functools.lru_cache(maxsize=32)
def load_track_cached(track, crossings):
    """One Track object per (name or path, crossings): its engine track and computed
    racing line are built once and shared by every env and reference lap on it."""
    from trackfield.racing import load_track

    return load_track(track, crossings=crossings)


def resolve_track(config: RacingConfig, scenario: RaceScenario):
    """The Python Track of the config (a loaded one, a name or a path) or the scenario's default."""
    track = config.track if config.track is not None else scenario.track
    if hasattr(track, "to_engine"):
        return track
    return load_track_cached(os.fspath(track), config.crossings)


def resolve_raceline(config: RacingConfig, track) -> np.ndarray:
    """The AI's racing line: the config's (path or array), a file beside a TUM track, or a computed one."""
    from trackfield.racing import load_raceline

    if config.raceline is not None:
        if isinstance(config.raceline, (str, os.PathLike)):
            return load_raceline(config.raceline)
        line = np.asarray(config.raceline, dtype=np.float64)
        if line.ndim != 2 or line.shape[1] != 2 or len(line) < 10 or not np.isfinite(line).all():
            raise ValueError(f"raceline must be an (M, 2) array of finite x, y with M >= 10, got shape {line.shape}")
        return line
    source = getattr(track, "source", None)
    if source:
        beside = os.path.join(os.path.dirname(source), "racelines", os.path.basename(source))
        if os.path.isfile(beside):
            return load_raceline(beside)
    return _computed_line(track)


def _computed_line(track):
    """The minimum-curvature line of a track, computed once per Track object."""
    from trackfield.racing.raceline import minimum_curvature_line

    line = getattr(track, "_computed_raceline", None)
    if line is None:
        line = minimum_curvature_line(track)
        object.__setattr__(track, "_computed_raceline", line)
    return line


def _section_span(track, name):
    for section in track.sections:
        if section.name == name:
            return section.start_m, section.end_m
    names = sorted({s.name for s in track.sections if s.name not in ("straight", "curve")})
    raise ValueError(f"track {track.name!r} has no section {name!r}; its named sections: "
                     f"{', '.join(names) or 'none'}")


def _longest_straight(track):
    best, best_len = (0.0, 0.0), -1.0
    for section in track.kind_runs:
        if section.kind != "straight":
            continue
        length = (section.end_m - section.start_m) % track.length
        if length > best_len:
            best, best_len = (section.start_m, section.end_m), length
    return best


def engine_config(scenario: RaceScenario, config: RacingConfig):
    """The C++ RaceConfig for ``scenario`` with the user's ``config``."""
    track = resolve_track(config, scenario)
    engine_track = track.to_engine()
    cfg = _rc.Config()
    cfg.track = engine_track
    cfg.car = config.car
    cfg.line = _rc.build_racing_line(engine_track, config.car, np.ascontiguousarray(resolve_raceline(config, track),
                                                                                    dtype=np.float32))
    cfg.groups = config.groups
    cfg.cars_per_group = scenario.cars
    if config.agents > scenario.cars:
        raise ValueError(f"agents={config.agents} but scenario {scenario.name!r} has {scenario.cars} cars")
    if config.groups * scenario.cars > 20:
        raise ValueError(f"groups={config.groups} of {scenario.cars} cars is {config.groups * scenario.cars} cars; "
                         "a world holds at most 20")
    cfg.agents_per_group = config.agents
    cfg.physics_hz, cfg.control_hz = config.physics_hz, config.control_hz
    cfg.max_time_s = config.max_time_s if config.max_time_s is not None else scenario.max_time_s
    cfg.laps = config.laps if config.laps is not None else scenario.laps
    cfg.max_off_course_s = -1.0 if config.max_off_course_s is None else config.max_off_course_s
    cfg.start = START_KINDS[scenario.start]
    slot = config.start_slot if config.start_slot is not None else scenario.start_slot
    if slot >= scenario.cars:
        raise ValueError(f"start_slot={slot} is outside the field: scenario {scenario.name!r} has slots "
                         f"0-{scenario.cars - 1}")
    cfg.start_slot = slot
    cfg.speed_min_kmh, cfg.speed_max_kmh = scenario.speed_kmh
    cfg.gap_min_m, cfg.gap_max_m = scenario.gap_m
    cfg.grid_speed_kmh = scenario.grid_speed_kmh
    cfg.skill_min, cfg.skill_max = scenario.skill
    cfg.ai_aggression = config.ai_aggression
    section_name = config.section or scenario.section
    if scenario.start == "section":
        start, end = _section_span(track, section_name)
        cfg.start_s_m = (start - scenario.section_lead_m) % track.length
        cfg.finish_distance_m = scenario.section_lead_m + (end - start) % track.length + scenario.section_exit_m
    elif scenario.start == "slipstream":
        start, _ = _longest_straight(track)
        cfg.start_s_m = (start + 20.0) % track.length
    cfg.allow_reverse = config.allow_reverse
    cfg.penalties = config.penalties if config.penalties is not None else scenario.penalties
    cfg.off_course_rule = 0 if config.off_course_rule == "three_tyres" else 1
    dt = 1.0 / config.physics_hz
    cfg.action_delay_steps = int(round(config.action_delay_s / dt))
    cfg.observation_delay_steps = int(round(config.observation_delay_s / dt))
    cfg.observation = 1 if config.observation == "pixels" else 0
    cfg.pixel_width, cfg.pixel_height = config.pixel_size
    weights = config.weights(scenario.reward)
    cfg.set_weights([float(weights.get(c, 0.0)) for c in COMPONENTS])
    section_ids = {name: k for k, name in enumerate(track.section_names)}
    for name, scales in config.section_modifiers.items():
        if name not in section_ids:
            raise ValueError(f"section_modifiers: track {track.name!r} has no section {name!r}; its named "
                             f"sections: {', '.join(track.section_names) or 'none'}")
        row = [float(scales.get(c, 1.0)) for c in COMPONENTS]
        cfg.set_section_scale(section_ids[name], row)
    cfg.passing_behind_m, cfg.passing_ahead_m = config.passing_window
    cfg.race_state = config.race_state or config.reward_file is not None
    return cfg, track


def make_engine(scenario: RaceScenario, config: RacingConfig, num_envs: int = 1, num_threads: int = 1,
                autoreset: bool = False) -> BatchEngine:
    """A C++ racing batch of ``num_envs`` worlds and its buffers."""
    cfg, track = engine_config(scenario, config)
    obs_fields = _rc.feature_fields() if config.observation == "track_points" else None
    engine = BatchEngine(_rc, cfg, num_envs=num_envs, num_threads=num_threads, autoreset=autoreset,
                         obs_fields=obs_fields)
    engine.track = track
    per_group, cars = config.agents, scenario.cars
    engine.agent_name = lambda k: f"car_{(k // per_group) * cars + k % per_group}"
    engine.constant_info = {"scenario": scenario.name}
    return engine
