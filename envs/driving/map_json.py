"""# Driving maps as JSON

A map file holds one `RoadMap` (see `trackfield/driving/roadmap.py`): lanes in their
direction of travel, the boundaries vehicles must not cross, junctions and traffic lights.
`load_map_json(path_or_dict)` reads one, `save_map_json(roadmap, path)` writes one.

    from trackfield.driving.map_json import load_map_json, save_map_json
    town = load_map_json("maps/crossing.json")
    save_map_json(town, "/tmp/copy.json")

Units are SI: metres, metres per second; x east, y north, z up; traffic keeps right
(`left` / `right` name the lanes beside a lane, seen in its direction of travel).

## Top level

| key | required | meaning |
|---|---|---|
| `format` | yes | always `"trackfield-map"` |
| `version` | yes | `1` (a reader refuses versions newer than its own) |
| `name` | no | defaults to the file name without `.json` |
| `lanes` | yes | list of lanes, at least one; a lane's index in this list is its id |
| `boundaries` | no | list of boundaries |
| `junctions` | no | list of junctions; a junction's index is its id |
| `signals` | no | list of traffic lights |
| `signals_generated` | no | `true` when the lights were placed by `generate_signals` |
| `paved` | no | list of paved strips: drivable surface that is not a lane (written only when there are some) |

## Lanes

| key | required | meaning |
|---|---|---|
| `centre` | yes | points `[[x, y, z], ...]` or `[[x, y], ...]` (z = 0), at least 2, first where traffic enters |
| `width` | yes | full lane width: one number, or one per point |
| `speed_limit` | yes | m/s, > 0 |
| `successors` | no | ids of the lanes this one leads into (default none); each starts where this one ends |
| `predecessors` | no | ids of the lanes leading into this one; derived from `successors` when left out, and must agree with them when given |
| `left`, `right` | no | id of the adjacent lane of the same direction on that side, -1 (default) for none |
| `junction` | no | id of the junction this lane crosses, -1 (default) outside junctions |
| `source` | no | free text naming where the lane came from, used in messages |

Points may lie any distance apart: the reader inserts points so that none are more than
1 m apart (`resample_polyline`), interpolating widths linearly. Two equal consecutive
points are an error.

## Boundaries, junctions, signals

- boundary: `{"points": [[x, y(, z)], ...], "kind": "edge"}`; `kind` is one of `edge`,
  `median`, `sidewalk`, `shoulder`, `border` (default `edge`); optional `source`.
- junction: `{"lanes": [ids of the connecting lanes inside it], "legs": roads meeting
  there}`; optional `source` and `kind` (`junction`, default, or `roundabout`:
  generated lights skip roundabouts).
- signal: `{"position": [x, y(, z)], "stop_line": [[x0, y0], [x1, y1]], "lanes": [ids of
  the lanes whose end it controls], "group": 0, "junction": 0}`; lights of one group show
  the same colour; optional `source`.

- paved strip: `{"left": [[x, y(, z)], ...], "right": [[x, y(, z)], ...], "junction": 0}`;
  `left` and `right` have the same number of points (at least 2), point k of each being the
  two ends of one cross-section, and consecutive cross-sections bound one quad; optional
  `junction` (the junction it paves, default -1) and `source`. Vehicles may drive on it:
  it is road for the off-road test, the out-of-bounds points and the pictures, but never a
  lane (no routing, lane observations, localisation onto it or spawning). The engine
  leaves out quads that enclose no area or fold over (not convex), and refuses corner
  arrays that are not convex and anticlockwise (`paved_corners[k]` named).

Unknown keys are errors (a misspelt optional key would otherwise be ignored silently).

## Errors

Anything wrong raises `MapError` (a `ValueError`) naming the file and what is wrong:
JSON syntax errors give the line and column (`crossing.json, line 7, column 12:
Expecting ',' delimiter`), content errors the path of the key
(`crossing.json: lanes[3].width: -1 is not positive`,
`crossing.json: lanes[2].successors: lane 99 does not exist (4 lanes)`).

## Example

Two lanes of a two-way street and the one lane that turns the eastbound traffic back
into the westbound lane at the east end (a turning loop written with few points; the
reader fills in the rest):

```json
{
  "format": "trackfield-map",
  "version": 1,
  "name": "street with a turning loop",
  "lanes": [
    {"centre": [[0, -1.6], [60, -1.6]], "width": 3.2, "speed_limit": 8.3,
     "successors": [2], "source": "eastbound"},
    {"centre": [[60, 1.6], [0, 1.6]], "width": 3.2, "speed_limit": 8.3,
     "source": "westbound"},
    {"centre": [[60, -1.6], [64, -2.5], [68, -1.6], [70, 0], [68, 1.6], [64, 2.5], [60, 1.6]],
     "width": [3.2, 3.5, 3.8, 3.8, 3.8, 3.5, 3.2], "speed_limit": 4.0,
     "successors": [1], "source": "turning loop"}
  ],
  "boundaries": [
    {"points": [[0, -3.2], [60, -3.2]], "kind": "edge"},
    {"points": [[0, 3.2], [60, 3.2]], "kind": "edge"}
  ],
  "junctions": [],
  "signals": []
}
```
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np

from trackfield.driving.roadmap import (MAX_POINT_SPACING, Boundary, Junction, Lane, MapError,
                                        Paved, RoadMap, Signal, resample_polyline)

FORMAT = "trackfield-map"
VERSION = 1
BOUNDARY_KINDS = ("edge", "median", "sidewalk", "shoulder", "border")
TOP_KEYS = {"format", "version", "name", "lanes", "boundaries", "junctions", "signals",
            "signals_generated", "paved"}
LANE_KEYS = {"centre", "width", "speed_limit", "successors", "predecessors", "left", "right",
             "junction", "source"}
BOUNDARY_KEYS = {"points", "kind", "source"}
JUNCTION_KEYS = {"lanes", "legs", "source", "kind"}
JUNCTION_KINDS = ("junction", "roundabout")
PAVED_KEYS = {"left", "right", "junction", "source"}
SIGNAL_KEYS = {"position", "stop_line", "lanes", "group", "junction", "source"}


# ---------------------------------------------------------------------------------------
# Reading

def load_map_json(source) -> RoadMap:
    """A RoadMap from a JSON file (str or Path) or from the already parsed dict."""
    if isinstance(source, dict):
        where, data, default_name = "<dict>", source, "map"
    else:
        where = os.fspath(source)
        default_name = Path(where).stem
        try:
            text = Path(where).read_text(encoding="utf-8")
        except OSError as e:
            raise MapError(f"{where}: cannot read: {e.strerror or e}") from None
        except UnicodeDecodeError as e:
            raise MapError(f"{where}: not UTF-8 text ({e.reason} at byte {e.start})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise MapError(f"{where}, line {e.lineno}, column {e.colno}: {e.msg}") from None
    try:
        roadmap = MapReader(data, default_name).read()
    except _ContentError as e:
        raise MapError(f"{where}: {e}") from None
    try:
        roadmap.validate()
    except MapError as e:
        raise MapError(f"{where}: {e}") from None
    return roadmap


class _ContentError(Exception):
    """A problem at one key of the parsed document; load_map_json adds the file name."""


def _fail(key: str, problem: str):
    raise _ContentError(f"{key}: {problem}")


class MapReader:
    """Checks the parsed document key by key and builds the RoadMap."""

    def __init__(self, data, default_name: str):
        self.data = data
        self.default_name = default_name

    def read(self) -> RoadMap:
        data = self.data
        if not isinstance(data, dict):
            _fail("top level", f"must be an object, got {_kind(data)}")
        self.check_keys(data, TOP_KEYS, "top level")
        if data.get("format") != FORMAT:
            _fail("format", f"must be {FORMAT!r}, got {data.get('format')!r}")
        version = data.get("version")
        if not _is_int(version) or version < 1:
            _fail("version", f"must be a positive integer, got {version!r}")
        if version > VERSION:
            _fail("version", f"{version} is newer than this reader ({VERSION})")
        name = data.get("name", self.default_name)
        if not isinstance(name, str):
            _fail("name", f"must be a string, got {_kind(name)}")
        raw_lanes = self.list_of(data, "lanes", "lanes", required=True)
        if not raw_lanes:
            _fail("lanes", "is empty (a map needs at least one lane)")
        self.n_lanes = len(raw_lanes)
        raw_junctions = self.list_of(data, "junctions", "junctions")
        self.n_junctions = len(raw_junctions)
        lanes = [self.lane(raw, f"lanes[{i}]") for i, raw in enumerate(raw_lanes)]
        self.link_predecessors(lanes, raw_lanes)
        boundaries = [self.boundary(raw, f"boundaries[{i}]")
                      for i, raw in enumerate(self.list_of(data, "boundaries", "boundaries"))]
        junctions = [self.junction(raw, f"junctions[{i}]") for i, raw in enumerate(raw_junctions)]
        signals = [self.signal(raw, f"signals[{i}]")
                   for i, raw in enumerate(self.list_of(data, "signals", "signals"))]
        generated = data.get("signals_generated", False)
        if not isinstance(generated, bool):
            _fail("signals_generated", f"must be true or false, got {generated!r}")
        paved = [self.paved(raw, f"paved[{i}]") for i, raw in enumerate(self.list_of(data, "paved", "paved"))]
        return RoadMap(name, lanes, boundaries, signals, junctions, generated, paved)

    # -- the parts ---------------------------------------------------------------------

    def lane(self, raw, key: str) -> Lane:
        self.check_object(raw, key, LANE_KEYS, required=("centre", "width", "speed_limit"))
        centre = self.points(raw["centre"], f"{key}.centre")
        step = np.hypot(*np.diff(centre[:, :2], axis=0).T)
        if np.any(step == 0):
            k = int(np.argmax(step == 0)) + 1
            _fail(f"{key}.centre[{k}]", "repeats the previous point")
        width = self.widths(raw["width"], len(centre), f"{key}.width")
        speed = self.positive(raw["speed_limit"], f"{key}.speed_limit")
        if step.max() > MAX_POINT_SPACING:
            dense = resample_polyline(np.column_stack([centre, width]), MAX_POINT_SPACING)
            centre, width = dense[:, :3], dense[:, 3]
        return Lane(np.ascontiguousarray(centre), np.ascontiguousarray(width), speed,
                    successors=self.lane_ids(raw.get("successors", []), f"{key}.successors"),
                    left=self.lane_or_none(raw.get("left", -1), f"{key}.left"),
                    right=self.lane_or_none(raw.get("right", -1), f"{key}.right"),
                    junction=self.junction_or_none(raw.get("junction", -1), f"{key}.junction"),
                    source=self.text(raw.get("source", ""), f"{key}.source"))

    def link_predecessors(self, lanes: list[Lane], raw_lanes) -> None:
        """Predecessors from successors; where the file lists them, they must agree."""
        derived = [[] for _ in lanes]
        for i, lane in enumerate(lanes):
            for j in lane.successors:
                derived[j].append(i)
        for i, (lane, raw) in enumerate(zip(lanes, raw_lanes)):
            if "predecessors" in raw:
                given = self.lane_ids(raw["predecessors"], f"lanes[{i}].predecessors")
                if sorted(given) != sorted(derived[i]):
                    _fail(f"lanes[{i}].predecessors", f"{given} does not match the lanes whose "
                          f"successors name lane {i}: {sorted(derived[i])}")
                lane.predecessors = given
            else:
                lane.predecessors = derived[i]

    def boundary(self, raw, key: str) -> Boundary:
        self.check_object(raw, key, BOUNDARY_KEYS, required=("points",))
        kind = raw.get("kind", "edge")
        if kind not in BOUNDARY_KINDS:
            _fail(f"{key}.kind", f"{kind!r} is not one of {', '.join(BOUNDARY_KINDS)}")
        return Boundary(self.points(raw["points"], f"{key}.points"), kind,
                        self.text(raw.get("source", ""), f"{key}.source"))

    def paved(self, raw, key: str) -> Paved:
        self.check_object(raw, key, PAVED_KEYS, required=("left", "right"))
        left = self.points(raw["left"], f"{key}.left")
        right = self.points(raw["right"], f"{key}.right")
        if len(left) != len(right):
            _fail(key, f"left has {len(left)} points and right {len(right)}: they must pair up")
        return Paved(left, right, self.junction_or_none(raw.get("junction", -1), f"{key}.junction"),
                     self.text(raw.get("source", ""), f"{key}.source"))

    def junction(self, raw, key: str) -> Junction:
        self.check_object(raw, key, JUNCTION_KEYS, required=("lanes", "legs"))
        legs = raw["legs"]
        if not _is_int(legs) or legs < 1:
            _fail(f"{key}.legs", f"must be a positive integer, got {legs!r}")
        kind = raw.get("kind", "junction")
        if kind not in JUNCTION_KINDS:
            _fail(f"{key}.kind", f"{kind!r} is not one of {', '.join(JUNCTION_KINDS)}")
        return Junction(self.lane_ids(raw["lanes"], f"{key}.lanes"), legs,
                        self.text(raw.get("source", ""), f"{key}.source"), kind)

    def signal(self, raw, key: str) -> Signal:
        self.check_object(raw, key, SIGNAL_KEYS,
                          required=("position", "stop_line", "lanes", "group", "junction"))
        position = self.points([raw["position"]], f"{key}.position", least=1)[0]
        stop_line = self.points(raw["stop_line"], f"{key}.stop_line")
        if len(stop_line) != 2:
            _fail(f"{key}.stop_line", f"must be 2 points, got {len(stop_line)}")
        group = raw["group"]
        if not _is_int(group) or group < 0:
            _fail(f"{key}.group", f"must be a non-negative integer, got {group!r}")
        junction = self.junction_or_none(raw["junction"], f"{key}.junction")
        if junction < 0:
            _fail(f"{key}.junction", "a signal must belong to a junction")
        return Signal(position, stop_line[:, :2].copy(), self.lane_ids(raw["lanes"], f"{key}.lanes"),
                      group, junction, self.text(raw.get("source", ""), f"{key}.source"))

    # -- values ------------------------------------------------------------------------

    @staticmethod
    def check_keys(raw: dict, allowed: set, key: str) -> None:
        unknown = sorted(set(raw) - allowed)
        if unknown:
            _fail(key, f"unknown key {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})")

    def check_object(self, raw, key: str, allowed: set, required: tuple) -> None:
        if not isinstance(raw, dict):
            _fail(key, f"must be an object, got {_kind(raw)}")
        self.check_keys(raw, allowed, key)
        for name in required:
            if name not in raw:
                _fail(key, f"missing key {name!r}")

    @staticmethod
    def list_of(raw: dict, name: str, key: str, required: bool = False) -> list:
        if name not in raw:
            if required:
                _fail(key, "missing")
            return []
        value = raw[name]
        if not isinstance(value, list):
            _fail(key, f"must be a list, got {_kind(value)}")
        return value

    @staticmethod
    def points(raw, key: str, least: int = 2) -> np.ndarray:
        """(n, 3) from [[x, y], ...] or [[x, y, z], ...] (z defaults to 0)."""
        if not isinstance(raw, list) or len(raw) < least:
            _fail(key, f"must be a list of at least {least} points, got {_describe(raw)}")
        out = np.zeros((len(raw), 3))
        for k, p in enumerate(raw):
            if not (isinstance(p, list) and len(p) in (2, 3) and all(_is_number(x) for x in p)):
                _fail(f"{key}[{k}]", f"must be [x, y] or [x, y, z] numbers, got {_describe(p)}")
            if not all(math.isfinite(x) for x in p):
                _fail(f"{key}[{k}]", f"{p} is not finite")
            out[k, :len(p)] = p
        return out

    @staticmethod
    def positive(value, key: str) -> float:
        if not _is_number(value):
            _fail(key, f"must be a number, got {_describe(value)}")
        if not (math.isfinite(value) and value > 0):
            _fail(key, f"{value} is not positive")
        return float(value)

    def widths(self, raw, n: int, key: str) -> np.ndarray:
        if isinstance(raw, list):
            if len(raw) != n:
                _fail(key, f"has {len(raw)} values for {n} points")
            return np.array([self.positive(w, f"{key}[{k}]") for k, w in enumerate(raw)])
        return np.full(n, self.positive(raw, key))

    def lane_ids(self, raw, key: str) -> list[int]:
        if not isinstance(raw, list):
            _fail(key, f"must be a list of lane ids, got {_describe(raw)}")
        for j in raw:
            if not _is_int(j):
                _fail(key, f"{j!r} is not a lane id")
            if not 0 <= j < self.n_lanes:
                _fail(key, f"lane {j} does not exist ({self.n_lanes} lanes)")
        return list(raw)

    def lane_or_none(self, raw, key: str) -> int:
        if not _is_int(raw):
            _fail(key, f"{raw!r} is not a lane id or -1")
        if not -1 <= raw < self.n_lanes:
            _fail(key, f"lane {raw} does not exist ({self.n_lanes} lanes)")
        return raw

    def junction_or_none(self, raw, key: str) -> int:
        if not _is_int(raw):
            _fail(key, f"{raw!r} is not a junction id or -1")
        if not -1 <= raw < self.n_junctions:
            _fail(key, f"junction {raw} does not exist ({self.n_junctions} junctions)")
        return raw

    @staticmethod
    def text(raw, key: str) -> str:
        if not isinstance(raw, str):
            _fail(key, f"must be a string, got {_describe(raw)}")
        return raw


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _kind(x) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(x), "a number")


def _describe(x) -> str:
    text = json.dumps(x) if not isinstance(x, (dict, list)) else _kind(x)
    return text if len(text) <= 40 else text[:37] + "..."


# ---------------------------------------------------------------------------------------
# Writing

def map_to_dict(roadmap: RoadMap) -> dict:
    """The JSON document of `roadmap` as plain Python values (floats keep every digit)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": roadmap.name,
        "lanes": [_lane_dict(lane) for lane in roadmap.lanes],
        "boundaries": [{"points": _points(b.points), "kind": b.kind, "source": b.source}
                       for b in roadmap.boundaries],
        "junctions": [{"lanes": list(j.lanes), "legs": j.legs, "source": j.source, "kind": j.kind}
                      for j in roadmap.junctions],
        "signals": [{"position": np.asarray(s.position, dtype=float).tolist(),
                     "stop_line": np.asarray(s.stop_line, dtype=float)[:, :2].tolist(),
                     "lanes": list(s.lanes), "group": s.group, "junction": s.junction,
                     "source": s.source} for s in roadmap.signals],
        "signals_generated": roadmap.signals_generated,
        **({"paved": [{"left": _points(p.left), "right": _points(p.right), "junction": p.junction,
                       "source": p.source} for p in roadmap.paved]} if roadmap.paved else {}),
    }


def _lane_dict(lane: Lane) -> dict:
    width = np.asarray(lane.width, dtype=float)
    out = {"centre": _points(lane.centre),
           "width": float(width[0]) if np.all(width == width[0]) else width.tolist(),
           "speed_limit": float(lane.speed_limit),
           "successors": list(lane.successors), "predecessors": list(lane.predecessors)}
    for name, default in (("left", -1), ("right", -1), ("junction", -1), ("source", "")):
        if getattr(lane, name) != default:
            out[name] = getattr(lane, name)
    return out


def _points(points) -> list:
    """[[x, y], ...] when every z is 0, else [[x, y, z], ...]."""
    p = np.asarray(points, dtype=float)
    return (p[:, :2] if np.all(p[:, 2] == 0) else p).tolist()


def save_map_json(roadmap: RoadMap, path) -> None:
    """Write `roadmap` to `path`: one lane, boundary, junction or signal a line."""
    doc = map_to_dict(roadmap)
    lines = ["{"]
    for key, value in doc.items():
        if isinstance(value, list):
            if not value:
                lines.append(f'  "{key}": [],')
                continue
            lines.append(f'  "{key}": [')
            lines += [f"    {json.dumps(item, separators=(',', ':'))}," for item in value]
            lines[-1] = lines[-1].rstrip(",")
            lines.append("  ],")
        else:
            lines.append(f'  "{key}": {json.dumps(value)},')
    lines[-1] = lines[-1].rstrip(",")
    lines.append("}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
