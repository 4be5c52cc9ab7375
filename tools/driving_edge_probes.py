"""How much of the road's edge has a boundary point beside it, inside junctions and outside.

    python tools/driving_edge_probes.py Town01 Town03

Probes: at every centre point of every lane, the points 0.3 m beyond its left and right
edges; a probe that is off every lane (the engine's on-road test) marks a road edge there.
It counts as covered when some boundary point lies within 1.5 m of the edge point.
"""
import sys
import warnings

import numpy as np
from scipy.spatial import cKDTree

from trackfield.driving.engine_map import build_engine_map
from trackfield.driving.maps import load_map

warnings.simplefilter("ignore")
for name in sys.argv[1:] or ["Town01", "Town03"]:
    roadmap = load_map(name)
    engine_map = build_engine_map(roadmap)
    tree = cKDTree(np.concatenate([b.points[:, :2] for b in roadmap.boundaries]))
    counts = {True: [0, 0], False: [0, 0]}   # in junction -> [edges, covered]
    for lane in roadmap.lanes:
        c = lane.centre
        d = np.gradient(c[:, :2], axis=0)
        d /= np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-9)
        left = np.column_stack([-d[:, 1], d[:, 0]])
        for side in (1.0, -1.0):
            edge = c[:, :2] + side * left * (lane.width[:, None] / 2)
            probe = edge + side * left * 0.3
            for e, p, z in zip(edge, probe, c[:, 2]):
                if engine_map.is_on_road(p[0], p[1], z):
                    continue
                k = counts[lane.junction >= 0]
                k[0] += 1
                k[1] += bool(tree.query_ball_point(e, 1.5))
    inside, outside = counts[True], counts[False]
    print(f"{name}: road-edge probes with a boundary point within 1.5 m: inside junctions "
          f"{100 * inside[1] / max(inside[0], 1):.0f}% of {inside[0]}, outside {100 * outside[1] / max(outside[0], 1):.0f}% of {outside[0]}")
