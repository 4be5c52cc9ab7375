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
    quads = paved_quads(roadmap)
    if len(quads):
        out["paved_corners"] = quads.reshape(-1, 12)
    return out


def paved_quads(roadmap: RoadMap) -> np.ndarray:
    """(P, 4, 3) quads of `roadmap.paved`, corners anticlockwise; quads that enclose no
    area or are not convex (a strip folding over itself) are left out."""
    parts = []
    for strip in roadmap.paved:
        left = np.asarray(strip.left, dtype=np.float64).reshape(-1, 3)
        right = np.asarray(strip.right, dtype=np.float64).reshape(-1, 3)
        parts.append(np.stack([right[:-1], right[1:], left[1:], left[:-1]], axis=1))
    if not parts:
        return np.zeros((0, 4, 3))
    q = np.concatenate(parts)
    x, y = q[:, :, 0], q[:, :, 1]
    area = 0.5 * np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y, axis=1)
    q[area < 0] = q[area < 0][:, ::-1]
    e = np.roll(q[:, :, :2], -1, axis=1) - q[:, :, :2]          # edge k: corner k -> k + 1
    e1 = np.roll(e, -1, axis=1)
    turn = e[:, :, 0] * e1[:, :, 1] - e[:, :, 1] * e1[:, :, 0]
    keep = (np.abs(area) > 1e-4) & np.all(turn >= -1e-9, axis=1)
    return np.ascontiguousarray(q[keep])


def build_engine_map(roadmap: RoadMap) -> "_engine.driving.Map":
    """The engine's map of `roadmap` (validated first: MapError names the lane)."""
    roadmap.validate()
    return _engine.driving.Map(**flatten_roadmap(roadmap))
