"""Per-episode map augmentation in the manner of GIGAFLOW (a few towns, many variants):
a random affine map of the plane, x' = M x, built from a stretch along x and y, a shear
and, half the time, a mirror.

    from trackfield.driving.augment import augment_map, variants
    rng = np.random.default_rng(0)
    town_today = augment_map(town, rng)              # a new RoadMap; `town` is untouched
    eight_towns = [v for t in towns for v in variants(t, 128, seed=1)]

Choices:
- Widths follow the geometry. A lane's width is multiplied, point by point, by how much
  M stretches the direction across it (|det M| / |M t| for the unit tangent t), so lanes
  still tile their road and boundaries stay on the lanes' edges. With the default ranges
  (scale 0.8-1.2, shear +-0.1) widths change by at most about a quarter: 3.0-3.7 m lanes
  stay within about 2.3-4.6 m. No clipping (it would open gaps between lanes).
- Points are re-spaced (at most 1 m apart again after a stretch); z is unchanged.
- A mirror turns a right-hand-traffic town into a left-hand-traffic one, as GIGAFLOW's
  flips did. `left` / `right` are swapped so they still name the lane on the geometric
  left / right of the direction of travel, and signals move with their lanes.
  With `keep_right_hand=True` every lane is reversed as well (points, successors <->
  predecessors): mirror plus reversal gives a right-hand town again, with `left` / `right`
  unchanged, right turns still from the rightmost lane. Signals cannot follow (the lanes
  they controlled now leave the junction), so a mirrored right-hand variant has none and
  `signals_generated` False: run `generate_signals` on it.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from trackfield.driving.roadmap import MAX_POINT_SPACING, Boundary, Lane, Paved, RoadMap, Signal


def augment_map(roadmap: RoadMap, rng: np.random.Generator, scale=(0.8, 1.2), shear=(-0.1, 0.1),
                flip: bool = True, keep_right_hand: bool = False) -> RoadMap:
    """A randomly stretched, sheared and (if `flip`, half the time) mirrored copy."""
    sx, sy = rng.uniform(scale[0], scale[1], size=2)
    k = rng.uniform(shear[0], shear[1])
    mirror = bool(flip and rng.random() < 0.5)
    matrix = np.array([[sx, sx * k], [0.0, sy]])
    if mirror:
        matrix = np.diag([-1.0, 1.0]) @ matrix
    label = f"scale {sx:.3f} x {sy:.3f}, shear {k:+.3f}{', mirrored' if mirror else ''}"
    return transform_map(roadmap, matrix, keep_right_hand, name=f"{roadmap.name} ({label})")


def variants(roadmap: RoadMap, count: int, seed: int, **kwargs) -> list[RoadMap]:
    """`count` augmented copies of `roadmap`, the same for the same seed."""
    rng = np.random.Generator(np.random.PCG64(seed))
    return [augment_map(roadmap, rng, **kwargs) for _ in range(count)]


def transform_map(roadmap: RoadMap, matrix, keep_right_hand: bool = False,
                  name: str | None = None) -> RoadMap:
    """`roadmap` with x, y mapped by the 2x2 `matrix` (see the module docstring)."""
    matrix = np.asarray(matrix, dtype=np.float64)
    det = float(np.linalg.det(matrix))
    if abs(det) < 1e-9:
        raise ValueError(f"matrix {matrix.tolist()} is singular")
    mirrored = det < 0
    reverse = mirrored and keep_right_hand
    counts = np.array([len(lane.centre) for lane in roadmap.lanes])
    points = np.concatenate([lane.centre for lane in roadmap.lanes])
    widths = np.concatenate([lane.width for lane in roadmap.lanes])
    widths = widths * abs(det) / np.linalg.norm(unit_tangents(points[:, :2], counts) @ matrix.T, axis=1)
    points = np.column_stack([points[:, :2] @ matrix.T, points[:, 2]])
    dense, counts = respace(np.column_stack([points, widths]), counts, MAX_POINT_SPACING)
    lanes = []
    for lane, part in zip(roadmap.lanes, np.split(dense, np.cumsum(counts)[:-1])):
        if reverse:
            part = part[::-1]
        left, right = lane.left, lane.right
        if mirrored and not keep_right_hand:
            left, right = right, left
        successors, predecessors = lane.successors, lane.predecessors
        if reverse:
            successors, predecessors = predecessors, successors
        lanes.append(Lane(np.ascontiguousarray(part[:, :3]), np.ascontiguousarray(part[:, 3]),
                          lane.speed_limit, list(successors), list(predecessors), left, right,
                          lane.junction, lane.source))
    boundaries = [Boundary(np.column_stack([b.points[:, :2] @ matrix.T, b.points[:, 2]]), b.kind, b.source)
                  for b in roadmap.boundaries]
    signals = [] if reverse else [
        Signal(np.concatenate([matrix @ np.asarray(s.position)[:2], np.asarray(s.position)[2:]]),
               np.asarray(s.stop_line)[:, :2] @ matrix.T, list(s.lanes), s.group, s.junction, s.source)
        for s in roadmap.signals]
    junctions = [dataclasses.replace(j, lanes=list(j.lanes)) for j in roadmap.junctions]

    def moved(points):
        p = np.asarray(points)
        return np.column_stack([p[:, :2] @ matrix.T, p[:, 2]])
    paved = [Paved(moved(p.left), moved(p.right), p.junction, p.source) for p in roadmap.paved]
    return RoadMap(name or roadmap.name, lanes, boundaries, signals, junctions,
                   roadmap.signals_generated and not reverse, paved)


def unit_tangents(xy: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Unit direction of travel at every point of lanes stored one after another
    (`counts` points each): the mean of the segments before and after the point."""
    seg = np.diff(xy, axis=0)
    seg /= np.maximum(np.linalg.norm(seg, axis=1, keepdims=True), 1e-12)
    last = np.cumsum(counts) - 1
    first = last - counts + 1
    ahead = np.zeros_like(xy)
    behind = np.zeros_like(xy)
    ahead[:-1] = seg
    behind[1:] = seg
    ahead[last] = 0.0          # the segment after a lane's last point belongs to the next lane
    behind[first] = 0.0
    t = ahead + behind
    return t / np.maximum(np.linalg.norm(t, axis=1, keepdims=True), 1e-12)


def respace(values: np.ndarray, counts: np.ndarray, spacing: float) -> tuple[np.ndarray, np.ndarray]:
    """Insert evenly spaced points into every segment longer than `spacing` (measured on
    columns 0-1; all columns interpolated) of polylines stored one after another.
    Returns the new rows and the new point count of each polyline."""
    n = len(values)
    first = np.zeros(n, dtype=bool)
    first[np.cumsum(counts)[:-1]] = True
    first[0] = True
    length = np.zeros(n)
    length[1:] = np.hypot(*np.diff(values[:, :2], axis=0).T)
    # point i stands for the segment that ends at it: split into `pieces` equal parts
    pieces = np.where(first, 1, np.maximum(1, np.ceil(length / spacing - 1e-9))).astype(np.int64)
    if np.all(pieces == 1):
        return values, counts
    end = np.repeat(np.arange(n), pieces)
    rank = np.arange(len(end)) - np.repeat(np.cumsum(pieces) - pieces, pieces) + 1
    t = (rank / pieces[end])[:, None]
    start = np.where(first[end], end, end - 1)
    out = values[start] + t * (values[end] - values[start])
    lane_of_point = np.repeat(np.arange(len(counts)), counts)
    new_counts = np.bincount(lane_of_point, weights=pieces, minlength=len(counts)).astype(np.int64)
    return out, new_counts
