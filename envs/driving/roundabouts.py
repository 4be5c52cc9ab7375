"""Roundabouts found from the lane geometry, for maps whose files do not say which junctions
are roundabouts (OpenDRIVE has no such attribute; CARLA's Town03 splits its ring over six
junctions, one per entry or exit).

Rule (`mark_roundabouts`):
1. An arc lane is a lane at least `MIN_ARC_LENGTH` long whose centre line (x, y) fits a
   circle (least squares) of radius `RADIUS_RANGE` with every point within
   `FIT_TOLERANCE` of it.
2. Arc lanes whose circle centres lie within `CENTRE_TOLERANCE` of one another (grouped
   greedily: each joins the first group whose first lane's centre is that close) and that
   turn the same way round it form a candidate ring.
3. A candidate is a ring when its lanes, seen from the mean of their centres, cover at
   least `MIN_COVERAGE_DEG` of the full turn (one-degree bins): a roundabout's lanes go
   all the way round, while turn lanes at ordinary junctions that happen to share a centre
   cover a quarter or so.
4. Every junction holding a lane of a ring gets `kind = "roundabout"` (so
   `generate_signals` places no light there); other junctions are left as they are.
Town03's ring (lane centres 19.2 m and 22.7 m from points within 1.5 m of the origin,
drawn as arcs about four nearby centres) is found this way; its approach bends (arcs of
other centres) are not.
"""
from __future__ import annotations

import numpy as np

from trackfield.driving.roadmap import RoadMap

MIN_ARC_LENGTH = 2.0          # m
RADIUS_RANGE = (10.0, 80.0)   # m: cul-de-sac turning loops (9 m) and gentle bends are not rings
FIT_TOLERANCE = 0.25          # m, largest distance of a centre point from the fitted circle
CENTRE_TOLERANCE = 3.0        # m, between the centres of the arcs of one ring
MIN_COVERAGE_DEG = 300        # of 360 one-degree bins


def fit_circle(xy: np.ndarray) -> tuple[np.ndarray, float, float]:
    """Least-squares circle through points (algebraic fit): centre, radius, largest residual."""
    a = np.c_[2.0 * xy, np.ones(len(xy))]
    b = (xy ** 2).sum(axis=1)
    (cx, cy, c), *_ = np.linalg.lstsq(a, b, rcond=None)
    centre = np.array([cx, cy])
    radius = float(np.sqrt(max(c + cx * cx + cy * cy, 0.0)))
    residual = float(np.abs(np.linalg.norm(xy - centre, axis=1) - radius).max())
    return centre, radius, residual


def arc_lanes(roadmap: RoadMap) -> list[tuple[int, np.ndarray, int]]:
    """(lane, circle centre, turn sign: +1 anticlockwise) of every arc lane (rule 1)."""
    out = []
    for i, lane in enumerate(roadmap.lanes):
        xy = lane.centre[:, :2]
        if len(xy) < 3 or lane.length < MIN_ARC_LENGTH:
            continue
        centre, radius, residual = fit_circle(xy)
        if not (RADIUS_RANGE[0] <= radius <= RADIUS_RANGE[1]) or residual > FIT_TOLERANCE:
            continue
        rel, chord = xy[0] - centre, xy[-1] - xy[0]
        turn = rel[0] * chord[1] - rel[1] * chord[0]  # travel direction against the radius
        out.append((i, centre, 1 if turn > 0 else -1))
    return out


def coverage_deg(roadmap: RoadMap, lanes: list[int], centre: np.ndarray) -> int:
    """One-degree bins round `centre` that the lanes' centre lines pass through."""
    bins = np.zeros(360, dtype=bool)
    for i in lanes:
        rel = roadmap.lanes[i].centre[:, :2] - centre
        angle = np.unwrap(np.arctan2(rel[:, 1], rel[:, 0]))
        # Sample densely enough that no bin between two points is skipped.
        fine = np.linspace(angle[0], angle[-1], max(2, int(np.degrees(np.ptp(angle))) * 2 + 2))
        bins[np.floor(np.degrees(fine) % 360.0).astype(int) % 360] = True
    return int(bins.sum())


def find_rings(roadmap: RoadMap) -> list[list[int]]:
    """Lane lists of the rings (rules 2 and 3)."""
    groups: list[tuple[np.ndarray, int, list[tuple[int, np.ndarray]]]] = []
    for i, centre, turn in arc_lanes(roadmap):
        for first, sign, members in groups:
            if sign == turn and np.linalg.norm(centre - first) <= CENTRE_TOLERANCE:
                members.append((i, centre))
                break
        else:
            groups.append((centre, turn, [(i, centre)]))
    rings = []
    for _, _, members in groups:
        lanes = [i for i, _ in members]
        centre = np.mean([c for _, c in members], axis=0)
        if coverage_deg(roadmap, lanes, centre) >= MIN_COVERAGE_DEG:
            rings.append(lanes)
    return rings


def mark_roundabouts(roadmap: RoadMap) -> list[int]:
    """Sets `kind = "roundabout"` on every junction holding a ring lane (rule 4); returns
    their indices, ascending."""
    marked = sorted({roadmap.lanes[i].junction for ring in find_rings(roadmap) for i in ring
                     if roadmap.lanes[i].junction >= 0})
    for j in marked:
        roadmap.junctions[j].kind = "roundabout"
    return marked
