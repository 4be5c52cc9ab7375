"""Flattens a `RoadMap` into the arrays `trackfield._engine.driving.Map` is built from.

The engine cuts each lane into quads (one centre-point pair each), hashes them, places
out-of-bounds points beside outer lane edges and precomputes lane-to-lane routing
distances; see `cpp_engine/driving/map.h`. Values are checked there too: a bad array raises
ValueError naming it.
"""
from __future__ import annotations

import numpy as np

from trackfield import _engine
from trackfield.driving.roadmap import RoadMap


def flatten_roadmap(roadmap: RoadMap) -> dict[str, np.ndarray]:
    """The keyword arguments of `_engine.driving.Map` for `roadmap`."""
    lanes = roadmap.lanes
    counts = [len(lane.centre) for lane in lanes]
    lane_offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    succ = [list(lane.successors) for lane in lanes]
    successor_offsets = np.concatenate([[0], np.cumsum([len(s) for s in succ])]).astype(np.int64)
    out = dict(
        lane_offsets=lane_offsets,
        points=np.concatenate([np.asarray(lane.centre, dtype=np.float64).reshape(-1, 3) for lane in lanes]),
        widths=np.concatenate([np.asarray(lane.width, dtype=np.float64).reshape(-1) for lane in lanes]),
        speed_limits=np.array([lane.speed_limit for lane in lanes], dtype=np.float64),
        successor_offsets=successor_offsets,
        successors=np.array([j for s in succ for j in s], dtype=np.int64),
        left=np.array([lane.left for lane in lanes], dtype=np.int64),
        right=np.array([lane.right for lane in lanes], dtype=np.int64),
        junction=np.array([lane.junction for lane in lanes], dtype=np.int64),
    )
    if roadmap.boundaries:
        pts = [np.asarray(b.points, dtype=np.float64).reshape(-1, 3) for b in roadmap.boundaries]
        out["boundary_offsets"] = np.concatenate([[0], np.cumsum([len(p) for p in pts])]).astype(np.int64)
        out["boundary_points"] = np.concatenate(pts)
    return out


def build_engine_map(roadmap: RoadMap) -> "_engine.driving.Map":
    """The engine's map of `roadmap` (validated first: MapError names the lane)."""
    roadmap.validate()
    return _engine.driving.Map(**flatten_roadmap(roadmap))
