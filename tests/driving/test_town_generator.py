"""generate_town: deterministic, the size asked for, valid, seamless, connected, and with
every kind of junction and dead end the driving tasks need."""
import math
import time

import numpy as np
import pytest

from trackfield.driving.roadmap import MAX_POINT_SPACING, SEAM_TOLERANCE
from trackfield.driving.town_generator import generate_town

SIZE_KM = {"small": (4.0, 8.0), "medium": (10.0, 20.0), "large": (25.0, 40.0)}


@pytest.fixture(scope="module")
def towns():
    return {size: generate_town(3, size) for size in SIZE_KM}


def seam_gaps_and_turns(town):
    """(gap m, heading change degrees) for every lane -> successor seam."""
    out = []
    for lane in town.lanes:
        d0 = lane.centre[-1, :2] - lane.centre[-2, :2]
        for j in lane.successors:
            nxt = town.lanes[j]
            d1 = nxt.centre[1, :2] - nxt.centre[0, :2]
            turn = math.degrees(abs(math.atan2(d0[0] * d1[1] - d0[1] * d1[0], d0 @ d1)))
            out.append((float(np.hypot(*(nxt.centre[0, :2] - lane.centre[-1, :2]))), turn))
    return np.array(out)


def reachable(town, start, forward=True):
    seen, stack = {start}, [start]
    while stack:
        lane = town.lanes[stack.pop()]
        for j in (lane.successors if forward else lane.predecessors):
            if j not in seen:
                seen.add(j)
                stack.append(j)
    return seen


def test_same_seed_same_arrays_and_other_seeds_differ():
    a, b, c = generate_town(11, "small"), generate_town(11, "small"), generate_town(12, "small")
    assert len(a.lanes) == len(b.lanes)
    for la, lb in zip(a.lanes, b.lanes):
        assert np.array_equal(la.centre, lb.centre) and np.array_equal(la.width, lb.width)
        assert (la.successors, la.left, la.right, la.junction) == (lb.successors, lb.left, lb.right, lb.junction)
    assert all(np.array_equal(x.points, y.points) for x, y in zip(a.boundaries, b.boundaries))
    assert len(a.lanes) != len(c.lanes) or any(
        la.centre.shape != lc.centre.shape or not np.array_equal(la.centre, lc.centre)
        for la, lc in zip(a.lanes, c.lanes))


@pytest.mark.parametrize("size", list(SIZE_KM))
def test_lane_length_in_range_and_valid(towns, size):
    town = towns[size]
    lo, hi = SIZE_KM[size]
    assert lo <= town.lane_length / 1000 <= hi
    town.validate()
    for lane in town.lanes:
        assert 2.9 <= lane.width.min() and lane.width.max() <= 4.6
        assert np.all(np.hypot(*np.diff(lane.centre[:, :2], axis=0).T) <= MAX_POINT_SPACING + 1e-9)


@pytest.mark.parametrize("target", [5.0, 12.0, 30.0])
def test_target_km(target):
    assert generate_town(2, target_km=target).lane_length / 1000 == pytest.approx(target, rel=0.1)


@pytest.mark.parametrize("size", list(SIZE_KM))
def test_seams_close_and_smooth(towns, size):
    seams = seam_gaps_and_turns(towns[size])
    assert seams[:, 0].max() <= SEAM_TOLERANCE
    # the polyline turns at a seam as much as it does between any two points of a tight
    # turn (an 8 m radius over 0.3-0.9 m segments): a few degrees, never a kink
    assert seams[:, 1].max() < 8.0
    assert np.percentile(seams[:, 1], 95) < 3.0


@pytest.mark.parametrize("size", list(SIZE_KM))
def test_links_are_consistent(towns, size):
    town = towns[size]
    for i, lane in enumerate(town.lanes):
        assert lane.successors and lane.predecessors, lane.source
        for j in lane.successors:
            assert i in town.lanes[j].predecessors
        for side, other in (("left", "right"), ("right", "left")):
            j = getattr(lane, side)
            if j >= 0:
                assert getattr(town.lanes[j], other) == i
                assert town.lanes[j].junction == lane.junction
    for k, junction in enumerate(town.junctions):
        assert junction.lanes and all(town.lanes[i].junction == k for i in junction.lanes)
    in_junctions = sorted(i for j in town.junctions for i in j.lanes)
    assert in_junctions == [i for i, lane in enumerate(town.lanes) if lane.junction >= 0]


@pytest.mark.parametrize("size", list(SIZE_KM))
def test_neighbours_lie_on_their_side(towns, size):
    town = towns[size]
    for lane in town.lanes:
        mid = len(lane.centre) // 2
        p = lane.centre[mid, :2]
        d = lane.centre[mid + 1, :2] - lane.centre[mid - 1, :2]
        for side, sign in (("left", 1.0), ("right", -1.0)):
            j = getattr(lane, side)
            if j >= 0:
                q = town.lanes[j].centre[:, :2]
                nearest = q[np.argmin(np.hypot(*(q - p).T))]
                cross = d[0] * (nearest - p)[1] - d[1] * (nearest - p)[0]
                assert sign * cross > 0, (lane.source, side)


@pytest.mark.parametrize("size", list(SIZE_KM))
def test_lanes_strongly_connected(towns, size):
    town = towns[size]
    start = int(np.argmax([lane.length for lane in town.lanes]))
    component = reachable(town, start) & reachable(town, start, forward=False)
    assert sum(town.lanes[i].length for i in component) >= 0.9 * town.lane_length


def test_junction_kinds_dead_ends_and_lane_counts(towns):
    for size, town in towns.items():
        kinds = [j.source.split(" at ")[0] for j in town.junctions]
        assert "T junction" in kinds and "4-way junction" in kinds
        if size != "small":
            assert "roundabout" in kinds
        for j in town.junctions:
            assert j.legs == {"T junction": 3, "4-way junction": 4}.get(j.source.split(" at ")[0], j.legs)
        loops = [lane for lane in town.lanes if "dead end" in lane.source]
        assert len(loops) >= 2
        for loop in loops:   # a cul-de-sac turns the traffic round
            (a,), (b,) = loop.predecessors, loop.successors
            heading = lambda c: math.atan2(c[-1, 1] - c[0, 1], c[-1, 0] - c[0, 0])  # noqa: E731
            turn = abs((heading(town.lanes[a].centre[-3:]) - heading(town.lanes[b].centre[:3]) + math.pi)
                       % (2 * math.pi) - math.pi)
            assert turn > math.radians(150)
        per_road = {}
        for lane in town.lanes:
            if lane.source.startswith("road"):
                key = lane.source.split(" lane")[0]
                per_road[key] = per_road.get(key, 0) + 1
        assert set(per_road.values()) <= {1, 2, 3}
        assert {s.split(" (")[1].split(")")[0] for s in per_road} >= ({"local", "collector"} | (
            {"arterial"} if size != "small" else set()))
        lit = {s.junction for s in town.signals}
        assert lit == {j for j, junction in enumerate(town.junctions)
                       if junction.legs >= 3 and junction.kind != "roundabout"}
        assert town.signals_generated


def test_small_town_roundabout_flag_and_curved_roads():
    town = generate_town(4, "small", roundabout=True)
    assert any(j.source.startswith("roundabout") for j in town.junctions)
    assert not any(j.source.startswith("roundabout") for j in generate_town(4, "small").junctions)
    curved = 0
    for lane in town.lanes:
        if lane.source.startswith("road") and len(lane.centre) > 20:
            d = np.diff(lane.centre[:, :2], axis=0)
            h = np.unwrap(np.arctan2(d[:, 1], d[:, 0]))
            curved += np.ptp(h) > math.radians(15)
    assert curved >= 2


def test_boundaries_follow_road_edges(towns):
    town = towns["medium"]
    kinds = {b.kind for b in town.boundaries}
    assert {"edge", "median", "border"} <= kinds
    # no boundary point lies inside a non-junction lane (it would cut the lane)
    points = np.concatenate([b.points[:, :2] for b in town.boundaries])
    for lane in town.lanes[::7]:
        if lane.junction >= 0 or "dead end" in lane.source:
            continue
        c = lane.centre[:, :2]
        near = points[(np.abs(points[:, 0] - c[:, 0].mean()) < lane.length + 20)
                      & (np.abs(points[:, 1] - c[:, 1].mean()) < lane.length + 20)]
        for p in c[1:-1:5]:
            dist = np.hypot(*(near - p).T).min()
            assert dist >= lane.width[0] / 2 - 0.05, lane.source


def test_generation_is_fast():
    start = time.perf_counter()
    generate_town(5, "large")
    assert time.perf_counter() - start < 4.0   # about 0.7 s; generous for loaded CI machines
