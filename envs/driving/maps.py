"""Named maps: `load_map("Town05")`, or any .xodr / .xodr.gz / .xodr.xz / .json path.

The packaged maps are CARLA's eight towns (Town01-07 and Town10HD, the towns GIGAFLOW
trained on), xz-compressed copies of CARLA's OpenDRIVE files; credit CARLA / CVC (UAB)
when you redistribute them (see `maps/README.md` and `maps/LICENSE-carla`)."""
from __future__ import annotations

import copy
import importlib
from pathlib import Path

from trackfield.driving.roadmap import MapError, RoadMap

MAPS_DIR = Path(__file__).resolve().parent / "maps"
TOWNS = ("Town01", "Town02", "Town03", "Town04", "Town05", "Town06", "Town07", "Town10HD")
PACKAGED = {name: f"{name}.xodr.xz" for name in TOWNS}

_cache: dict[str, RoadMap] = {}


def load_map(name_or_path) -> RoadMap:
    """A packaged map by name (parsed once per process), or a map file by path.

    Names: see `PACKAGED`. Paths ending in .xodr, .xodr.gz or .xodr.xz are read as OpenDRIVE, .json
    as trackfield's JSON map format. Each call returns its own copy, so callers may edit it.
    """
    key = str(name_or_path)
    if key in PACKAGED:
        if key not in _cache:
            from trackfield.driving.opendrive import load_opendrive
            _cache[key] = load_opendrive(MAPS_DIR / PACKAGED[key], name=key)
        return copy.deepcopy(_cache[key])
    if key.endswith((".xodr", ".xodr.gz", ".xodr.xz")):
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
                   "or give a path ending in .xodr, .xodr.gz, .xodr.xz or .json")
