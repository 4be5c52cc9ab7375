"""Map augmentation: variants stay valid and seamless, lengths and widths scale as the
matrix says, and a mirror keeps left / right neighbours on their geometric side."""
import math
import time

import numpy as np
import pytest

from trackfield.driving.augment import augment_map, respace, transform_map, variants
from trackfield.driving.roadmap import SEAM_TOLERANCE, Junction, Lane, RoadMap, Signal
from trackfield.driving.town_generator import generate_town


@pytest.fixture(scope="module")
def town():
    return generate_town(8, "medium")


def max_seam_gap(roadmap):
    return max(float(np.hypot(*(roadmap.lanes[j].centre[0, :2] - lane.centre[-1, :2])))
               for lane in roadmap.lanes for j in lane.successors)


def side_of_neighbour(roadmap, i, side):
    """+1 when lane `side` of lane i lies to its geometric left, -1 to its right."""
    lane = roadmap.lanes[i]
    mid = len(lane.centre) // 2
    p = lane.centre[mid, :2]
    d = lane.centre[mid + 1, :2] - lane.centre[mid - 1, :2]
    q = roadmap.lanes[getattr(lane, side)].centre[:, :2]
    nearest = q[np.argmin(np.hypot(*(q - p).T))] - p
    return math.copysign(1.0, d[0] * nearest[1] - d[1] * nearest[0])


def test_variants_valid_seamless_and_reproducible(town):
    maps = variants(town, 6, seed=3)
    again = variants(town, 6, seed=3)
    for a, b in zip(maps, again):
        a.validate()
        assert max_seam_gap(a) <= SEAM_TOLERANCE
        assert a.name == b.name and all(np.array_equal(x.centre, y.centre) for x, y in zip(a.lanes, b.lanes))
        assert 0.75 < a.lane_length / town.lane_length < 1.25
    assert len({m.name for m in maps}) == 6
    assert any("mirrored" in m.name for m in maps) and any("mirrored" not in m.name for m in maps)
    assert town.lanes[0].centre is not maps[0].lanes[0].centre   # the original is untouched


def test_uniform_scale_scales_lengths_and_widths(town):
    for s in (0.8, 1.2):
        scaled = transform_map(town, np.eye(2) * s)
        scaled.validate()
        assert scaled.lane_length == pytest.approx(s * town.lane_length, rel=1e-9)
        for a, b in zip(town.lanes[::17], scaled.lanes[::17]):
            assert b.length == pytest.approx(s * a.length, rel=1e-9)
            assert np.allclose(np.interp(0.5, np.linspace(0, 1, len(b.width)), b.width),
                               s * np.interp(0.5, np.linspace(0, 1, len(a.width)), a.width))
        assert max_seam_gap(scaled) <= SEAM_TOLERANCE


def test_stretch_widens_lanes_across_the_stretch():
    # a lane along x: stretching y widens it, stretching x lengthens it
    lane = Lane(np.column_stack([np.arange(11.0), np.zeros(11), np.zeros(11)]), np.full(11, 3.0), 10.0)
    out = transform_map(RoadMap("one", [lane]), np.diag([1.2, 0.9])).lanes[0]
    assert out.length == pytest.approx(12.0) and np.allclose(out.width, 2.7)
    assert np.all(np.hypot(*np.diff(out.centre[:, :2], axis=0).T) <= 1.0 + 1e-9)


def test_shear_keeps_heading_continuity(town):
    sheared = transform_map(town, [[1.2, 0.12], [0.0, 0.8]])
    for lane in sheared.lanes:
        d0 = lane.centre[-1, :2] - lane.centre[-2, :2]
        for j in lane.successors:
            d1 = sheared.lanes[j].centre[1, :2] - sheared.lanes[j].centre[0, :2]
            assert abs(math.atan2(d0[0] * d1[1] - d0[1] * d1[0], d0 @ d1)) < math.radians(10)


@pytest.mark.parametrize("keep_right_hand", [False, True])
def test_mirror_keeps_neighbours_on_their_geometric_side(town, keep_right_hand):
    mirrored = transform_map(town, np.diag([-1.0, 1.0]), keep_right_hand=keep_right_hand)
    mirrored.validate()
    assert max_seam_gap(mirrored) <= SEAM_TOLERANCE
    checked = 0
    for i, lane in enumerate(mirrored.lanes):
        for side, sign in (("left", 1.0), ("right", -1.0)):
            if getattr(lane, side) >= 0:
                assert side_of_neighbour(mirrored, i, side) == sign
                checked += 1
    assert checked > 50
    for i, lane in enumerate(mirrored.lanes):
        for j in lane.successors:
            assert i in mirrored.lanes[j].predecessors


def test_mirror_right_hand_reverses_lanes_left_hand_keeps_them(town):
    lht = transform_map(town, np.diag([-1.0, 1.0]))
    rht = transform_map(town, np.diag([-1.0, 1.0]), keep_right_hand=True)
    a, b, c = town.lanes[0], lht.lanes[0], rht.lanes[0]
    assert np.allclose(b.centre[0, :2], [-a.centre[0, 0], a.centre[0, 1]])
    assert np.allclose(c.centre[-1, :2], [-a.centre[0, 0], a.centre[0, 1]])
    assert (b.successors, b.left, b.right) == (a.successors, a.right, a.left)
    assert (c.successors, c.predecessors, c.left, c.right) == (a.predecessors, a.successors, a.left, a.right)
    # traffic keeps right on the right-hand mirror: a two-way road's lanes in a
    # direction lie to the right of the other direction's
    road = [i for i, lane in enumerate(rht.lanes) if lane.source.startswith("road 0 ")]
    ab = [i for i in road if " a-b " in rht.lanes[i].source]
    ba = [i for i in road if " b-a " in rht.lanes[i].source]
    if ab and ba:
        p = rht.lanes[ab[0]].centre
        q = rht.lanes[ba[0]].centre[:, :2]
        mid = len(p) // 2
        d = p[mid + 1, :2] - p[mid - 1, :2]
        other = q[np.argmin(np.hypot(*(q - p[mid, :2]).T))] - p[mid, :2]
        assert d[0] * other[1] - d[1] * other[0] > 0   # the opposite direction is on the left


def test_signals_follow_a_left_hand_mirror_and_are_dropped_by_a_right_hand_one():
    lane = Lane(np.column_stack([np.arange(11.0), np.full(11, -1.75), np.zeros(11)]), np.full(11, 3.5), 10.0)
    signal = Signal(np.array([10.0, -4.0, 0.0]), np.array([[10.0, 0.0], [10.0, -3.5]]), [0], 0, 0)
    roadmap = RoadMap("s", [lane], signals=[signal], junctions=[Junction([], 3)], signals_generated=True)
    lht = transform_map(roadmap, np.diag([-2.0, 1.0]))
    assert np.allclose(lht.signals[0].position, [-20.0, -4.0, 0.0])
    assert np.allclose(lht.signals[0].stop_line, [[-20.0, 0.0], [-20.0, -3.5]])
    rht = transform_map(roadmap, np.diag([-2.0, 1.0]), keep_right_hand=True)
    assert rht.signals == [] and not rht.signals_generated


def test_respace_inserts_points_only_where_needed():
    values = np.array([[0.0, 0, 1], [0.5, 0, 2], [3.0, 0, 7], [10.0, 0, 0], [12.5, 0, 5]])
    out, counts = respace(values, np.array([3, 2]), 1.0)
    assert counts.tolist() == [5, 4]
    assert np.allclose(out[:5, 0], [0, 0.5, 4 / 3, 13 / 6, 3])
    assert np.allclose(out[5:, 0], [10, 10 + 2.5 / 3, 10 + 5 / 3, 12.5])
    assert np.allclose(out[:5, 2], [1, 2, 2 + 5 / 3, 2 + 10 / 3, 7])


def test_augmentation_is_fast(town):
    rng = np.random.default_rng(0)
    augment_map(town, rng)
    start = time.perf_counter()
    for _ in range(10):
        augment_map(town, rng)
    assert (time.perf_counter() - start) / 10 < 0.25   # about 15 ms; generous for loaded CI
