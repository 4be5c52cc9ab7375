"""How much of each town's junction area is drivable, without and with the paved surface.

    python tools/driving_junction_paving.py Town01 Town03

Area of a junction: the convex hull of its lanes' centre points, sampled at the centres of
a 1 m grid's cells (z from the nearest centre point of the junction's lanes). A cell is
off-road when the engine's on-road test (`Map.is_on_road`) fails there. The junction's
centre is the mean of its lanes' centre points. "without" builds the map with its paved
strips removed (only lanes drivable), "with" as loaded. Outside junctions: cells of a 1 m
grid over the whole map, outside every junction's hull, that are on-road with the paved
surface and off-road without it (0 means paving added no drivable area there).
"""
import dataclasses
import sys
import warnings

import numpy as np
from scipy.spatial import Delaunay, cKDTree

from trackfield.driving.engine_map import build_engine_map
from trackfield.driving.maps import load_map

warnings.simplefilter("ignore")


def on_road(engine_map, xy, z):
    return np.array([engine_map.is_on_road(x, y, h) for (x, y), h in zip(xy, z)], bool)


print("| map | junctions | hull cells | off-road without | off-road with | centres off-road without | with "
      "| paved strips | new on-road cells outside junctions |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for name in sys.argv[1:] or ["Town03"]:
    roadmap = load_map(name)
    bare = build_engine_map(dataclasses.replace(roadmap, paved=[]))
    paved = build_engine_map(roadmap)
    cells = off = [0, 0]
    off, centres, hulls, junction_points = [0, 0], [0, 0], [], []
    n_cells = n_junctions = 0
    for junction in roadmap.junctions:
        if not junction.lanes:
            continue
        pts = np.concatenate([roadmap.lanes[i].centre for i in junction.lanes])
        junction_points.append(pts)
        n_junctions += 1
        try:
            hull = Delaunay(pts[:, :2])
        except Exception:   # all points on a line: no area
            continue
        hulls.append(hull)
        lo, hi = np.floor(pts[:, :2].min(0)), np.ceil(pts[:, :2].max(0))
        gx, gy = np.meshgrid(np.arange(lo[0], hi[0]) + 0.5, np.arange(lo[1], hi[1]) + 0.5)
        grid = np.column_stack([gx.ravel(), gy.ravel()])
        grid = grid[hull.find_simplex(grid) >= 0]
        z = pts[cKDTree(pts[:, :2]).query(grid)[1], 2]
        n_cells += len(grid)
        centre = pts.mean(0)
        for k, m in enumerate((bare, paved)):
            off[k] += int((~on_road(m, grid, z)).sum())
            centres[k] += int(not m.is_on_road(centre[0], centre[1], centre[2]))
    # New drivable area outside every junction hull.
    allp = np.concatenate([lane.centre for lane in roadmap.lanes])
    lo, hi = np.floor(allp[:, :2].min(0)) - 5, np.ceil(allp[:, :2].max(0)) + 5
    strips = np.concatenate([np.concatenate([p.left, p.right]) for p in roadmap.paved]) if roadmap.paved else np.zeros((0, 3))
    new_outside = 0
    if len(strips):
        gx, gy = np.meshgrid(np.arange(lo[0], hi[0]) + 0.5, np.arange(lo[1], hi[1]) + 0.5)
        grid = np.column_stack([gx.ravel(), gy.ravel()])
        near = cKDTree(strips[:, :2]).query(grid, distance_upper_bound=8.0)[1] < len(strips)
        grid = grid[near]   # only cells near a paved strip can change
        inside = np.zeros(len(grid), bool)
        for hull in hulls:
            inside |= hull.find_simplex(grid) >= 0
        grid = grid[~inside]
        z = allp[cKDTree(allp[:, :2]).query(grid)[1], 2]
        new_outside = int((on_road(paved, grid, z) & ~on_road(bare, grid, z)).sum())
    print(f"| {name} | {n_junctions} | {n_cells} | {off[0]} ({100 * off[0] / max(n_cells, 1):.1f}%) | "
          f"{off[1]} ({100 * off[1] / max(n_cells, 1):.1f}%) | {centres[0]} | {centres[1]} | {len(roadmap.paved)} | "
          f"{new_outside} |")
