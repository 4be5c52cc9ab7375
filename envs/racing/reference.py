"""The reference lap: how fast the built-in AI at full skill laps a track alone.

>>> from trackfield.racing import reference_lap
>>> 60 < reference_lap("technical", car="gt3") < 150
True

Published lap times make it a realism check: with ``car="gt3"`` the AI laps Monza
(``track="Monza"``, TUM's circuit shipped with its racing line) within 5% of a real GT3 race lap
(about 1:47) and reaches 270-290 km/h on the main straight (``tests/racing/test_physics.py``,
``python -m trackfield.bench racing``).
"""
from __future__ import annotations

import os

import numpy as np

from trackfield import _engine
from trackfield.racing.config import RacingConfig


def _track_of(track, crossings: str = "error"):
    from trackfield.racing.engine import load_track_cached

    if hasattr(track, "to_engine"):
        return track
    return load_track_cached(os.fspath(track), crossings)


def racing_line(track, car: str = "gt3", raceline=None):
    """The engine's racing line for ``car`` on ``track``: through ``raceline`` (a path or an
    (M, 2) array) if given, else the file beside a TUM track, else the minimum-curvature line."""
    from trackfield.racing.engine import resolve_raceline

    track = _track_of(track)
    xy = resolve_raceline(RacingConfig(car=car, raceline=raceline), track)
    return _engine.racing.build_racing_line(track.to_engine(), car, np.ascontiguousarray(xy, dtype=np.float32))


def reference_lap_details(track, car: str = "gt3", raceline=None, *, physics_hz: int = 100,
                          control_hz: int = 10) -> dict:
    """The full-skill AI's flying lap: a dict of ``completed``, ``lap_time_s``, ``top_speed_kmh``,
    ``min_speed_kmh``, ``off_course_s`` (three tyres or more out) and ``wall_s``."""
    track = _track_of(track)
    line = racing_line(track, car, raceline)
    return _engine.racing.reference_lap(track.to_engine(), car, line, physics_hz, control_hz)


def reference_lap(track, car: str = "gt3", raceline=None) -> float:
    """Seconds of the full-skill AI's flying lap of ``track`` (a name, a path or a Track) in
    ``car``; the racing line from ``raceline`` if given, else its own. Raises RuntimeError
    if the AI does not complete the lap within ten minutes."""
    details = reference_lap_details(track, car, raceline)
    if not details["completed"]:
        raise RuntimeError(f"the AI did not complete a lap of {getattr(track, 'name', track)!r} in {car!r}")
    return details["lap_time_s"]


def car_names() -> list:
    """The car classes: road, gt3, prototype."""
    return list(_engine.racing.car_names())


def car_params(car: str) -> dict:
    """A car class's parameters in SI units (see docs/racing_cars.md)."""
    return dict(_engine.racing.car_params(car))
