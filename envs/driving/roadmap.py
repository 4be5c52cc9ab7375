"""The road map every driving source produces and the C++ map is built from.

OpenDRIVE import (`opendrive.py`), the JSON format (`map_json.py`) and the town generator
(`town_generator.py`) all return a `RoadMap`; the engine cuts its lanes into quads, hashes
them and precomputes observation sets. Keeping one plain model in between means each
reader is tested on its own and the engine never parses a file.

Conventions (SI, right-handed, z up):
- A `Lane` is one drivable lane in its direction of travel: `centre[i]` is (x, y, z) in
  metres, points at most `MAX_POINT_SPACING` apart, first point where traffic enters.
  `width[i]` is the lane's full width at that point. Lanes that carry traffic both ways
  are two lanes.
- `successors` / `predecessors` are indices into `RoadMap.lanes`. A lane ends where each
  successor begins (within `SEAM_TOLERANCE`).
- `left` / `right` are adjacent lanes of the same direction (-1 if none): a lane change
  target. Left is to the left of the direction of travel.
- A `Boundary` is a polyline a vehicle must not cross: road edges, medians, kerbs
  (OpenDRIVE: the outer side of the outermost driving lane, and borders / sidewalks /
  shoulders / medians next to driving lanes).
- A `Signal` is one traffic light controlling the lanes in `lanes` (lanes that enter a
  junction); its stop line is the segment `stop_line` ((x0, y0), (x1, y1)) across the end of
  those lanes. Signals with the same `group` show the same colour; groups of one junction
  take turns.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

MAX_POINT_SPACING = 1.0  # m; the engine's quads are one point pair each
SEAM_TOLERANCE = 0.15    # m; the off-road test forgives gaps this wide between quads


class MapError(ValueError):
    """A map that cannot be used: names the file and line or the road / lane id."""


@dataclass
class Lane:
    centre: np.ndarray            # (n, 3) float64, x y z
    width: np.ndarray             # (n,) float64, > 0
    speed_limit: float            # m/s
    successors: list[int] = field(default_factory=list)
    predecessors: list[int] = field(default_factory=list)
    left: int = -1
    right: int = -1
    junction: int = -1            # index into RoadMap.junctions, -1 outside junctions
    source: str = ""              # where it came from, for messages: "road 12 lane -1 section 0"

    @property
    def length(self) -> float:
        return float(np.sum(np.linalg.norm(np.diff(self.centre[:, :2], axis=0), axis=1)))


@dataclass
class Boundary:
    points: np.ndarray            # (n, 3) float64
    kind: str = "edge"            # edge | median | sidewalk | shoulder | border
    source: str = ""


@dataclass
class Signal:
    position: np.ndarray          # (3,) float64, where the light stands
    stop_line: np.ndarray         # (2, 2) float64, endpoints of the stop line
    lanes: list[int]              # lanes whose end this light controls
    group: int                    # lights of one group switch together
    junction: int                 # index into RoadMap.junctions
    source: str = ""


@dataclass
class Junction:
    lanes: list[int]              # connecting lanes inside the junction
    legs: int                     # roads meeting here
    source: str = ""
    kind: str = "junction"        # junction | roundabout (roundabouts get no generated lights)


@dataclass
class Paved:
    """A strip of paved surface that is not a lane (a junction's floor between lanes).

    Vehicles may drive on it (it is road for the off-road test and the pictures), but it
    is never a lane: no routing, lane observations, localisation or spawning. Point k of
    `left` and of `right` are the two ends of one cross-section; consecutive sections
    bound one quad.
    """
    left: np.ndarray              # (n, 3) float64
    right: np.ndarray             # (n, 3) float64, same n
    junction: int = -1            # the junction it paves, -1 for none
    source: str = ""


@dataclass
class RoadMap:
    name: str
    lanes: list[Lane]
    boundaries: list[Boundary] = field(default_factory=list)
    signals: list[Signal] = field(default_factory=list)
    junctions: list[Junction] = field(default_factory=list)
    signals_generated: bool = False   # True when lights were placed by `generate_signals`
    paved: list[Paved] = field(default_factory=list)   # drivable surface that is not a lane

    @property
    def lane_length(self) -> float:
        return sum(lane.length for lane in self.lanes)

    def validate(self) -> None:
        """Raise MapError naming the lane (its `source`) for anything the engine cannot use."""
        n = len(self.lanes)
        if n == 0:
            raise MapError(f"map {self.name!r} has no driving lanes")
        for i, lane in enumerate(self.lanes):
            where = f"map {self.name!r} lane {i} ({lane.source or 'no source'})"
            c = np.asarray(lane.centre)
            w = np.asarray(lane.width)
            if c.ndim != 2 or c.shape[1] != 3 or len(c) < 2:
                raise MapError(f"{where}: centre must be (n>=2, 3), got {c.shape}")
            if w.shape != (len(c),):
                raise MapError(f"{where}: width must be ({len(c)},), got {w.shape}")
            if not (np.all(np.isfinite(c)) and np.all(np.isfinite(w))):
                raise MapError(f"{where}: non-finite coordinates or widths")
            if np.any(w <= 0):
                raise MapError(f"{where}: width {w.min():.3f} m is not positive")
            spacing = np.linalg.norm(np.diff(c[:, :2], axis=0), axis=1)
            if spacing.max() > MAX_POINT_SPACING + 1e-6:
                raise MapError(f"{where}: points {spacing.max():.2f} m apart (at most {MAX_POINT_SPACING})")
            if not (lane.speed_limit > 0 and np.isfinite(lane.speed_limit)):
                raise MapError(f"{where}: speed limit {lane.speed_limit} is not positive")
            for name in ("successors", "predecessors"):
                for j in getattr(lane, name):
                    if not 0 <= j < n:
                        raise MapError(f"{where}: {name} names lane {j}, map has {n}")
            for name in ("left", "right"):
                j = getattr(lane, name)
                if not -1 <= j < n:
                    raise MapError(f"{where}: {name} names lane {j}, map has {n}")
            if not -1 <= lane.junction < len(self.junctions):
                raise MapError(f"{where}: junction {lane.junction}, map has {len(self.junctions)}")
        for k, p in enumerate(self.paved):
            where = f"map {self.name!r} paved {k} ({p.source or 'no source'})"
            left, right = np.asarray(p.left), np.asarray(p.right)
            if left.ndim != 2 or left.shape[1] != 3 or len(left) < 2 or right.shape != left.shape:
                raise MapError(f"{where}: left and right must both be (n>=2, 3), got {left.shape} and {right.shape}")
            if not (np.all(np.isfinite(left)) and np.all(np.isfinite(right))):
                raise MapError(f"{where}: non-finite coordinates")
            if not -1 <= p.junction < len(self.junctions):
                raise MapError(f"{where}: junction {p.junction}, map has {len(self.junctions)}")
        for k, s in enumerate(self.signals):
            for j in s.lanes:
                if not 0 <= j < n:
                    raise MapError(f"map {self.name!r} signal {k} ({s.source}): lane {j}, map has {n}")


def resample_polyline(points: np.ndarray, spacing: float = MAX_POINT_SPACING) -> np.ndarray:
    """Points along `points` (n, d) at most `spacing` apart, keeping both ends and corners."""
    points = np.asarray(points, dtype=np.float64)
    seg = np.linalg.norm(np.diff(points[:, :2], axis=0), axis=1)
    out = [points[:1]]
    for i, length in enumerate(seg):
        k = max(1, int(np.ceil(length / spacing - 1e-9)))
        t = np.arange(1, k + 1)[:, None] / k
        out.append(points[i] + t * (points[i + 1] - points[i]))
    return np.concatenate(out)
