"""The driving engine through its binding: maps built from RoadMaps, localisation,
off-road and routing queries, the bicycle and collision hooks, and input checks."""
import math

import numpy as np
import pytest

from trackfield import _engine
from trackfield.driving.engine_map import build_engine_map, flatten_roadmap
from trackfield.driving.roadmap import Boundary, Lane, RoadMap, resample_polyline

D = _engine.driving


def lane(points, width=3.5, **kw):
    c = resample_polyline(np.array([(x, y, z) for x, y, z in points], dtype=np.float64))
    return Lane(centre=c, width=np.full(len(c), width), speed_limit=13.9, **kw)


def two_lane_road():
    return RoadMap("two_lane", [lane([(0, 0, 0), (50, 0, 0)], left=1), lane([(0, 3.5, 0), (50, 3.5, 0)], right=0)],
                   boundaries=[Boundary(np.array([[0, -1.75, 0], [50, -1.75, 0]], dtype=np.float64))])


def chain():
    # 0 -> 1 -> 2 (10 m each), 3 unreachable
    return RoadMap("chain", [lane([(0, 0, 0), (10, 0, 0)], successors=[1]),
                             lane([(10, 0, 0), (20, 0, 0)], successors=[2], predecessors=[0]),
                             lane([(20, 0, 0), (30, 0, 0)], predecessors=[1]),
                             lane([(0, 40, 0), (10, 40, 0)])])


def test_map_from_roadmap_and_localise():
    m = build_engine_map(two_lane_road())
    assert m.lane_count == 2 and m.quad_count == 100
    np.testing.assert_allclose(m.lane_lengths, [50, 50])
    p = m.localise(10.3, 0.5)
    assert p.on_road and p.lane == 0
    assert p.s == pytest.approx(10.3, abs=1e-4) and p.d == pytest.approx(0.5, abs=1e-4)
    assert m.localise(10.0, 1.8).lane == 1  # overlapping quads: smallest |d|
    assert not m.localise(10.0, -4.0).on_road


def test_l_shape_localise():
    m = build_engine_map(RoadMap("L", [lane([(0, 0, 0), (20, 0, 0)], successors=[1]),
                                      lane([(20, 0, 0), (20, 20, 0)], predecessors=[0])]))
    p = m.localise(20.3, 10.0)
    assert (p.lane, round(p.s, 4), round(p.d, 4)) == (1, 10.0, -0.3)
    assert p.heading == pytest.approx(math.pi / 2)
    assert m.localise(19.8, 0.3).lane == 1


def test_seam_tolerance_and_out_of_bounds():
    m = build_engine_map(RoadMap("seam", [lane([(0, 0, 0), (20, 0, 0)], successors=[1]),
                                         lane([(20, 0, 0), (40, 0, 0)], predecessors=[0])]))
    assert m.is_on_road(20.0, -1.85) and not m.is_on_road(20.0, -2.05)
    gap = build_engine_map(RoadMap("gap", [lane([(0, 0, 0), (30, 0, 0)], width=3.0),
                                          lane([(30, 4, 0), (0, 4, 0)], width=3.0)]))
    assert gap.out_of_bounds_count > 0
    assert gap.is_off_road(10.2, 1.0, 0.0, math.pi / 2, 5.0, 1.0)  # straddles the 1 m gap
    assert not gap.is_off_road(10.2, 0.0, 0.0, 0.0, 4.5, 1.8)


def test_routing_distance_falls_along_route():
    m = build_engine_map(chain())
    d = [m.route_distance(0, s, 2, 5.0) for s in np.arange(0, 10, 1.0)]
    assert d[0] == pytest.approx(25.0)
    assert all(a > b for a, b in zip(d, d[1:]))
    assert math.isinf(m.route_distance(0, 0.0, 3, 1.0))
    with pytest.raises(ValueError, match="lane_b"):
        m.route_distance(0, 0.0, 9, 1.0)


def test_bicycle_worked_case():
    state = np.zeros((1, 10))
    state[0, 3] = 2.0
    state[0, 7:] = 1.0
    vehicle = np.array([[5.0, 2.0, 1, 1, 1, 1]])
    out = D.step_bicycle(state, vehicle, np.array([11]))
    x, y, heading, v, a_long, a_lat, phi = out[0, :7]
    assert a_long == pytest.approx(1.2, abs=1e-4) and v == pytest.approx(2.18, abs=1e-4)
    assert phi == pytest.approx(0.18, abs=1e-4) and a_lat == pytest.approx(0.2883, abs=1e-4)
    assert x == pytest.approx(0.62685, abs=1e-4) and y == pytest.approx(0.01192, abs=1e-4)
    assert heading == pytest.approx(0.03803, abs=1e-4)
    box = D.step_bicycle(state, vehicle, np.array([[4.0, 4.0]]))  # the Box form
    np.testing.assert_array_equal(box, out)


def test_collision_hook():
    start = np.array([[-3.0, 0, 0], [3.0, 0, math.pi], [0, 20, 0], [0, 22.3, 0]])
    end = np.array([[3.0, 0, 0], [-3.0, 0, math.pi], [6, 20, 0], [6, 22.3, 0]])
    n = len(start)
    collided, partner = D.detect_collisions(start, end, np.zeros(n), np.full(n, 4.5), np.full(n, 1.8))
    assert collided.tolist() == [True, True, False, False]
    assert partner.tolist() == [1, 0, -1, -1]
    collided, _ = D.detect_collisions(start, end, np.array([0, 6.0, 0, 0]), np.full(n, 4.5), np.full(n, 1.8))
    assert not collided.any()  # overpass


def base_args():
    return flatten_roadmap(chain())


@pytest.mark.parametrize("key,value,match", [
    ("points", np.zeros((5, 2)), "points"),
    ("widths", np.zeros(3), "widths"),
    ("successors", np.array([1, 7]), "successors"),
    ("left", np.array([0, 0, 0]), "left"),
    ("lane_offsets", np.array([0, 11, 5, 33, 44]), "lane_offsets"),
    ("lane_offsets", np.array([0, 11, 22, 33, 40]), "lane_offsets"),
    ("successor_offsets", np.array([0, 1, 2]), "successor_offsets"),
    ("speed_limits", np.zeros(4), "speed_limits"),
])
def test_bad_map_input_names_argument(key, value, match):
    args = base_args()
    args[key] = value
    with pytest.raises(ValueError, match=match):
        D.Map(**args)


def test_bad_values_name_argument():
    args = base_args()
    args["widths"] = args["widths"].copy()
    args["widths"][4] = -1.0
    with pytest.raises(ValueError, match=r"widths\[4\]"):
        D.Map(**args)
    args = base_args()
    args["points"] = args["points"].copy()
    args["points"][2, 1] = np.nan
    with pytest.raises(ValueError, match="points"):
        D.Map(**args)
    with pytest.raises(ValueError, match="actions"):
        D.step_bicycle(np.zeros((1, 10)), np.ones((1, 6)), np.array([12]))
    with pytest.raises(ValueError, match="actions"):
        D.step_bicycle(np.zeros((1, 10)), np.ones((1, 6)), np.array([[np.nan, 0.0]]))
    with pytest.raises(ValueError, match="vehicle"):
        D.step_bicycle(np.zeros((2, 10)), np.ones((1, 6)), np.array([0, 0]))
    with pytest.raises(ValueError, match="end"):
        D.detect_collisions(np.zeros((2, 3)), np.zeros((3, 3)), np.zeros(2), np.ones(2), np.ones(2))
