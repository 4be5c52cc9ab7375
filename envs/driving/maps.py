"""Named maps: `load_map("Town01")`, or any .xodr / .xodr.gz / .json path."""
from __future__ import annotations

import copy
import importlib
from pathlib import Path

from trackfield.driving.roadmap import MapError, RoadMap

MAPS_DIR = Path(__file__).resolve().parent / "maps"
PACKAGED = {"Town01": "Town01.xodr.gz", "Town03": "Town03.xodr.gz"}

_cache: dict[str, RoadMap] = {}


def load_map(name_or_path) -> RoadMap:
    """A packaged map by name (parsed once per process), or a map file by path.

    Names: see `PACKAGED`. Paths ending in .xodr or .xodr.gz are read as OpenDRIVE, .json
    as trackfield's JSON map format. Each call returns its own copy, so callers may edit it.
    """
    key = str(name_or_path)
    if key in PACKAGED:
        if key not in _cache:
            from trackfield.driving.opendrive import load_opendrive
            _cache[key] = load_opendrive(MAPS_DIR / PACKAGED[key], name=key)
        return copy.deepcopy(_cache[key])
    if key.endswith((".xodr", ".xodr.gz")):
        from trackfield.driving.opendrive import load_opendrive
        return load_opendrive(key)
    if key.endswith(".json"):
        try:
            module = importlib.import_module("trackfield.driving.map_json")
        except ModuleNotFoundError as e:
            if e.name != "trackfield.driving.map_json":
                raise
            raise MapError(f"{key}: JSON maps need trackfield.driving.map_json, which is not installed") from None
        return module.load_map_json(key)
    raise MapError(f"unknown map {key!r}: choose one of {', '.join(sorted(PACKAGED))}, "
                   "or give a path ending in .xodr, .xodr.gz or .json")
