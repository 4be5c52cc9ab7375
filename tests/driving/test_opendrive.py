"""OpenDRIVE import: geometry, lanes, links, junctions, signals and errors.

Hand-built tiny files check exact numbers; real files check that maps load consistently:
CARLA's eight towns from the package data, and esmini's sample maps where ../shared/maps
holds them (they are not shipped).
"""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from trackfield.driving.maps import MAPS_DIR, TOWNS, load_map
from trackfield.driving.opendrive import MapWarning, load_opendrive, reference_pieces, section_shape
from trackfield.driving.opendrive_geometry import Piece
from trackfield.driving.opendrive_xml import Source, read_roads
from trackfield.driving.roadmap import MAX_POINT_SPACING, SEAM_TOLERANCE, MapError

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "maps"
# CARLA's eight towns ship with the package; esmini's sample maps (MPL-2.0) are only in ../shared.
PACKAGED_TOWNS = [MAPS_DIR / f"{name}.xodr.xz" for name in TOWNS]
ESMINI_MAPS = sorted(p for p in SHARED.glob("*.xodr") if not p.stem.startswith("Town")) if SHARED.is_dir() else []
MAP_FILES = PACKAGED_TOWNS + ESMINI_MAPS
needs_esmini = pytest.mark.skipif(not ESMINI_MAPS, reason="esmini's sample maps (../shared/maps) not present")

_loaded: dict[str, object] = {}


def map_name(path: Path) -> str:
    return path.name.split(".")[0]


def map_file(name: str) -> Path:
    return MAPS_DIR / f"{name}.xodr.xz" if name in TOWNS else SHARED / f"{name}.xodr"


def parsed(name: str):
    """Each sample map is parsed once for the whole file."""
    if name not in _loaded:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MapWarning)  # Town07's link to a missing lane (tested below)
            _loaded[name] = load_opendrive(map_file(name))
    return _loaded[name]


# -- tiny hand-built files ----------------------------------------------------------------

def lane_xml(lid, kind="driving", width=3.5, extra=""):
    return (f'<lane id="{lid}" type="{kind}" level="false">{extra}'
            f'<width sOffset="0" a="{width}" b="0" c="0" d="0"/></lane>')


def road_xml(rid="1", length=100.0, shape="<line/>", left=(lane_xml(1),), right=(lane_xml(-1),),
             centre_type="none", offset="", link="", junction="-1", extra="", x=0.0, y=0.0, hdg=0.0,
             geometry=None):
    geometry = geometry or f'<geometry s="0" x="{x}" y="{y}" hdg="{hdg}" length="{length}">{shape}</geometry>'
    return (f'<road name="" length="{length}" id="{rid}" junction="{junction}">{link}{extra}'
            f'<planView>{geometry}</planView><lanes>{offset}<laneSection s="0">'
            f'<left>{"".join(left)}</left><center><lane id="0" type="{centre_type}"/></center>'
            f'<right>{"".join(right)}</right></laneSection></lanes></road>')


def xodr(*parts):
    return '<?xml version="1.0"?>\n<OpenDRIVE>\n<header revMajor="1" revMinor="4"/>\n' + "\n".join(parts) + "\n</OpenDRIVE>\n"


def test_a_straight_road_gives_two_lanes_of_its_length_in_opposite_directions():
    m = load_opendrive(xodr(road_xml(left=(lane_xml(1, width=3.0),), right=(lane_xml(-1, width=4.0),))))
    assert len(m.lanes) == 2
    by_source = {lane.source.split()[-1]: lane for lane in m.lanes}
    right, left = by_source["-1"], by_source["1"]
    for lane in (right, left):
        assert lane.length == pytest.approx(100.0)
        assert np.max(np.linalg.norm(np.diff(lane.centre[:, :2], axis=0), axis=1)) <= MAX_POINT_SPACING + 1e-9
    np.testing.assert_allclose(right.width, 4.0)
    np.testing.assert_allclose(left.width, 3.0)
    # Right-hand traffic: the right lane (y < 0) runs along +x, the left lane back.
    np.testing.assert_allclose(right.centre[[0, -1]], [[0, -2, 0], [100, -2, 0]], atol=1e-9)
    np.testing.assert_allclose(left.centre[[0, -1]], [[100, 1.5, 0], [0, 1.5, 0]], atol=1e-9)
    assert right.speed_limit == pytest.approx(13.9)  # no speed in the file: 50 km/h
    assert right.left == -1 and left.left == -1      # opposite directions are not neighbours
    assert not m.signals and m.junctions == []


def test_left_hand_traffic_swaps_the_directions():
    text = xodr(road_xml()).replace('junction="-1"', 'junction="-1" rule="LHT"')
    by_source = {lane.source.split()[-1]: lane for lane in load_opendrive(text).lanes}
    assert by_source["1"].centre[-1, 0] == pytest.approx(100.0)
    assert by_source["-1"].centre[-1, 0] == pytest.approx(0.0)


def test_neighbours_are_same_direction_lanes_side_by_side():
    m = load_opendrive(xodr(road_xml(right=(lane_xml(-1), lane_xml(-2), lane_xml(-3, "sidewalk"), lane_xml(-4)))))
    lanes = {lane.source.split()[-1]: i for i, lane in enumerate(m.lanes)}
    inner, outer, beyond = m.lanes[lanes["-1"]], m.lanes[lanes["-2"]], m.lanes[lanes["-4"]]
    assert (inner.left, inner.right) == (-1, lanes["-2"])
    assert (outer.left, outer.right) == (lanes["-1"], -1)
    assert beyond.left == -1  # a sidewalk lies between


def test_lane_zero_typed_driving_is_never_a_lane():
    text = xodr(road_xml(centre_type="driving", left=(), right=(lane_xml(-1),)))
    text = text.replace('<lane id="0" type="driving"/>',
                        '<lane id="0" type="driving"><width sOffset="0" a="3" b="0" c="0" d="0"/></lane>')
    m = load_opendrive(text)
    assert [lane.source.split()[-1] for lane in m.lanes] == ["-1"]


def test_an_arc_gives_lanes_of_the_right_radius():
    radius, angle = 50.0, np.pi / 2
    m = load_opendrive(xodr(road_xml(length=radius * angle, shape=f'<arc curvature="{1 / radius}"/>')))
    centre = np.array([0.0, radius])  # curving left from the origin heading +x
    for lane in m.lanes:
        r = np.linalg.norm(lane.centre[:, :2] - centre, axis=1)
        expected = radius + 1.75 if lane.source.endswith("-1") else radius - 1.75
        # exact at the samples; points added between them to keep spacing <= 1 m lie on
        # chords, which sag c^2 / 8r (2.6 mm for the outer lane here)
        np.testing.assert_allclose(r, expected, atol=3e-3)


def test_param_poly3_ends_where_its_polynomials_say():
    # u = 100 p, v = 20 p^2 - 10 p^3 on p in [0, 1]: ends at (100, 10) heading atan2(10, 100).
    shape = '<paramPoly3 aU="0" bU="100" cU="0" dU="0" aV="0" bV="0" cV="20" dV="-10" pRange="normalized"/>'
    length = float(np.trapezoid(np.hypot(100.0, 40 * (p := np.linspace(0, 1, 200001)) - 30 * p**2), p))
    (start, end), = reference_pieces(xodr(road_xml(length=length, shape=shape)))["1"]
    assert end[:2] == pytest.approx((100.0, 10.0), abs=1e-6)
    assert end[2] == pytest.approx(np.arctan2(10.0, 100.0), abs=1e-9)
    m = load_opendrive(xodr(road_xml(length=length, shape=shape, left=())))
    h = end[2]
    expected = np.array([100.0 + 1.75 * np.sin(h), 10.0 - 1.75 * np.cos(h)])  # 1.75 m to the right
    np.testing.assert_allclose(m.lanes[0].centre[-1, :2], expected, atol=1e-6)


def test_spiral_matches_a_fine_numeric_integration_to_a_millimetre():
    k0, k1, length = 0.0, 0.05, 100.0
    piece = Piece(0.0, 3.0, 4.0, 0.3, length, "spiral", {"curvStart": k0, "curvEnd": k1})
    s = np.linspace(0.0, length, 2_000_001)
    heading = 0.3 + k0 * s + 0.5 * (k1 - k0) / length * s**2
    x = 3.0 + np.trapezoid(np.cos(heading), s)
    y = 4.0 + np.trapezoid(np.sin(heading), s)
    ex, ey, eh = piece.end_pose()
    assert np.hypot(ex - x, ey - y) < 1e-3
    assert eh == pytest.approx(heading[-1], abs=1e-12)


def test_lane_offset_shifts_the_lanes():
    offset = '<laneOffset s="0" a="2.0" b="0" c="0" d="0"/>'
    by_source = {lane.source.split()[-1]: lane for lane in load_opendrive(xodr(road_xml(offset=offset))).lanes}
    np.testing.assert_allclose(by_source["-1"].centre[:, 1], 2.0 - 1.75, atol=1e-9)
    np.testing.assert_allclose(by_source["1"].centre[:, 1], 2.0 + 1.75, atol=1e-9)


def test_speed_limits_come_from_the_road_type_or_the_lane():
    road_speed = '<type s="0" type="town"><speed max="25" unit="mph"/></type>'
    lane_speed = '<speed sOffset="0" max="72" unit="km/h"/>'
    m = load_opendrive(xodr(road_xml(extra=road_speed, left=(lane_xml(1, extra=lane_speed),))))
    by_source = {lane.source.split()[-1]: lane for lane in m.lanes}
    assert by_source["-1"].speed_limit == pytest.approx(25 * 0.44704)
    assert by_source["1"].speed_limit == pytest.approx(20.0)


def test_boundaries_follow_road_edges_and_sidewalks():
    right = (lane_xml(-1), lane_xml(-2, "sidewalk", 2.0))
    m = load_opendrive(xodr(road_xml(right=right, left=(lane_xml(1),))))
    found = sorted((b.kind, round(float(np.mean(b.points[:, 1])), 3)) for b in m.boundaries)
    assert found == [("edge", 3.5), ("sidewalk", -3.5)]


def test_a_road_chain_links_lanes_in_the_direction_of_travel():
    link_a = '<link><successor elementType="road" elementId="2" contactPoint="start"/></link>'
    link_b = '<link><predecessor elementType="road" elementId="1" contactPoint="end"/></link>'
    linked = '<link><predecessor id="{0}"/><successor id="{0}"/></link>'
    a = road_xml("1", link=link_a, left=(lane_xml(1, extra=linked.format(1)),), right=(lane_xml(-1, extra=linked.format(-1)),))
    b = road_xml("2", x=100.0, link=link_b, left=(lane_xml(1, extra=linked.format(1)),),
                 right=(lane_xml(-1, extra=linked.format(-1)),))
    m = load_opendrive(xodr(a, b))
    index = {" ".join(lane.source.split()[2:]): i for i, lane in enumerate(m.lanes)}
    assert m.lanes[index["1 section 0 lane -1"]].successors == [index["2 section 0 lane -1"]]
    assert m.lanes[index["2 section 0 lane 1"]].successors == [index["1 section 0 lane 1"]]
    assert m.lanes[index["2 section 0 lane -1"]].predecessors == [index["1 section 0 lane -1"]]


def test_poly3_follows_its_cubic():
    # v = 0.01 u^2 from the origin heading +x; the piece ends where the arc length runs out.
    u = np.linspace(0.0, 60.0, 600001)
    arc = np.concatenate([[0.0], np.cumsum(np.hypot(np.diff(u), np.diff(0.01 * u**2)))])
    length = 50.0
    u_end = float(np.interp(length, arc, u))
    (_, end), = reference_pieces(xodr(road_xml(length=length, shape='<poly3 a="0" b="0" c="0.01" d="0"/>')))["1"]
    assert end[:2] == pytest.approx((u_end, 0.01 * u_end**2), abs=1e-3)
    assert end[2] == pytest.approx(np.arctan(0.02 * u_end), abs=1e-5)


def tiny_junction(signal=""):
    """Road 1 (x 0..100) into junction 10 through connecting road 2 (x 100..110) onto road 3."""
    linked = '<link><predecessor id="{0}"/><successor id="{0}"/></link>'
    lanes = dict(left=(lane_xml(1, extra=linked.format(1)),), right=(lane_xml(-1, extra=linked.format(-1)),))
    road1 = road_xml("1", link='<link><successor elementType="junction" elementId="10"/></link>',
                     extra=f"<signals>{signal}</signals>" if signal else "", **lanes)
    road2 = road_xml("2", length=10.0, x=100.0, junction="10", left=(), right=(lane_xml(-1, extra=linked.format(-1)),),
                     link='<link><predecessor elementType="road" elementId="1" contactPoint="end"/>'
                          '<successor elementType="road" elementId="3" contactPoint="start"/></link>')
    road3 = road_xml("3", x=110.0, link='<link><predecessor elementType="junction" elementId="10"/></link>', **lanes)
    junction = ('<junction id="10" name=""><connection id="0" incomingRoad="1" connectingRoad="2" '
                'contactPoint="start"><laneLink from="-1" to="-1"/></connection></junction>')
    return xodr(road1, road2, road3, junction)


def test_junction_lanes_link_through_and_a_light_stops_the_lane_entering():
    light = '<signal id="5" s="98" t="-4" orientation="+" dynamic="yes" type="1000001" zOffset="3"/>'
    m = load_opendrive(tiny_junction(light))
    index = {" ".join(lane.source.split()[2:]): i for i, lane in enumerate(m.lanes)}
    entering, inside, leaving = index["1 section 0 lane -1"], index["2 section 0 lane -1"], index["3 section 0 lane -1"]
    assert m.lanes[entering].successors == [inside] and m.lanes[inside].successors == [leaving]
    assert m.lanes[inside].junction == 0 and m.junctions[0].lanes == [inside] and m.junctions[0].legs == 1
    (signal,) = m.signals
    assert signal.lanes == [entering] and signal.junction == 0
    np.testing.assert_allclose(signal.position, [98.0, -4.0, 3.0])
    np.testing.assert_allclose(signal.stop_line, [[100.0, -3.5], [100.0, 0.0]], atol=1e-9)
    # a one-leg junction gets no generated light
    assert load_opendrive(tiny_junction(), signals="generate").signals == []


# -- bad input ----------------------------------------------------------------------------

def test_malformed_xml_names_the_line():
    with pytest.raises(MapError, match=r":4: malformed XML"):
        load_opendrive(xodr(road_xml()).replace("</planView>", "</planVew>"))


def test_unknown_geometry_names_the_line_and_road():
    text = xodr(road_xml(rid="7", shape='<bezier a="1"/>'))
    with pytest.raises(MapError, match=r":4: road 7: unsupported geometry <bezier>"):
        load_opendrive(text)


def test_negative_width_names_road_and_lane():
    with pytest.raises(MapError, match=r"road 3: lane -1: width -2.000 m is negative"):
        load_opendrive(xodr(road_xml(rid="3", right=(lane_xml(-1, width=-2.0),))))


def test_a_link_to_an_unknown_road_names_it():
    link = '<link><successor elementType="road" elementId="99" contactPoint="start"/></link>'
    linked = '<link><successor id="-1"/></link>'
    text = xodr(road_xml(link=link, right=(lane_xml(-1, extra=linked),)))
    with pytest.raises(MapError, match=r":4: link to unknown road 99"):
        load_opendrive(text)


def test_a_link_to_an_unknown_junction_names_it():
    with pytest.raises(MapError, match=r"road 1: link to unknown junction 11"):
        load_opendrive(tiny_junction().replace('elementType="junction" elementId="10"/></link>',
                                               'elementType="junction" elementId="11"/></link>', 1))


def test_a_link_to_an_unknown_lane_warns_and_is_dropped():
    # As CARLA does: the rest of the map loads, only that link is missing.
    whole = load_opendrive(tiny_junction())
    with pytest.warns(MapWarning, match=r"link to unknown lane -4 of road 2"):
        m = load_opendrive(tiny_junction().replace('<laneLink from="-1" to="-1"/>', '<laneLink from="-1" to="-4"/>'))
    assert len(m.lanes) == len(whole.lanes)


def test_missing_attributes_and_files_raise_map_errors():
    with pytest.raises(MapError, match=r"lacks attribute 'length'"):
        load_opendrive(xodr(road_xml()).replace('<road name="" length="100.0"', '<road name=""'))
    with pytest.raises(MapError, match=r"border"):
        load_opendrive(xodr(road_xml(right=('<lane id="-1" type="driving"><border sOffset="0" a="3" b="0" c="0" d="0"/></lane>',))))
    with pytest.raises(MapError, match=r"cannot read"):
        load_opendrive("/nonexistent/map.xodr")


# -- real maps: CARLA's towns (packaged) and esmini's samples --------------------------

@pytest.mark.parametrize("path", MAP_FILES, ids=map_name)
def test_every_geometry_piece_ends_where_the_next_begins(path):
    # esmini's files state each piece's start exactly, so the evaluator must meet it to 1e-6; CARLA's
    # exporter rounds the stated starts, leaving kinks in the file itself (up to 3.2e-4 rad in Town07).
    carla = map_name(path) in TOWNS
    metres, radians = (0.01, 1e-3) if carla else (1e-4, 1e-6)
    for rid, pieces in reference_pieces(path).items():
        for (_, end), (start, _) in zip(pieces, pieces[1:]):
            assert np.hypot(end[0] - start[0], end[1] - start[1]) < metres, f"road {rid}"
            assert abs((end[2] - start[2] + np.pi) % (2 * np.pi) - np.pi) < radians, f"road {rid}"


@pytest.mark.parametrize("path", MAP_FILES, ids=map_name)
def test_every_lane_ends_where_its_successors_begin(path):
    m = parsed(map_name(path))
    worst = max((np.linalg.norm(lane.centre[-1, :2] - m.lanes[j].centre[0, :2]), lane.source)
                for lane in m.lanes for j in lane.successors) if any(lane.successors for lane in m.lanes) else (0.0, "")
    assert worst[0] < SEAM_TOLERANCE, worst
    for i, lane in enumerate(m.lanes):
        assert all(i in m.lanes[j].predecessors for j in lane.successors)
        for j in (lane.left, lane.right):
            assert j == -1 or m.lanes[j].junction == lane.junction


def test_town01_has_12_junctions_and_36_lights():
    m = parsed("Town01")
    assert len(m.junctions) == 12 and all(j.legs == 3 for j in m.junctions)
    assert len(m.signals) == 36 and not m.signals_generated
    for signal in m.signals:
        assert signal.lanes
        for i in signal.lanes:
            lane = m.lanes[i]
            assert any(m.lanes[j].junction == signal.junction for j in lane.successors)
            # the stop line crosses the lane's end
            a, b = signal.stop_line
            (ux, uy), (vx, vy) = b - a, lane.centre[-1, :2] - a
            d = (ux * vy - uy * vx) / np.linalg.norm(b - a)
            assert abs(d) < 0.1
    # three controllers per junction take turns
    groups = {}
    for s in m.signals:
        groups.setdefault(s.junction, set()).add(s.group)
    assert all(len(g) == 3 for g in groups.values())


@needs_esmini
def test_multi_intersections_lights_stop_lanes_entering_their_junction():
    m = parsed("multi_intersections")
    assert len(m.junctions) == 5 and len(m.signals) == 34
    for signal in m.signals:
        assert all(any(m.lanes[j].junction == signal.junction for j in m.lanes[i].successors) for i in signal.lanes)


def test_town03_has_no_lights_so_they_are_generated():
    m = parsed("Town03")
    assert m.signals_generated and m.signals
    three_way = {j for j, junction in enumerate(m.junctions) if junction.legs >= 3}
    assert {s.junction for s in m.signals} == three_way
    assert len(m.junctions) == 34
    kept = load_opendrive(map_file("Town03"), signals="file")
    assert kept.signals == [] and not kept.signals_generated


def test_town03_roundabout_lanes_are_concentric_with_its_ring():
    src = Source(map_file("Town03"))
    radii, ring_pieces = [], 0
    for road in read_roads(src).values():
        for piece in road.reference.pieces:
            k = piece.params.get("curvature", 0.0)
            if piece.kind != "arc" or abs(abs(k) - 1 / 21) > 1e-3:
                continue
            centre = np.array([piece.x - np.sin(piece.hdg) / k, piece.y + np.cos(piece.hdg) / k])
            if np.linalg.norm(centre) > 1.5:
                continue  # a bend of the same radius elsewhere
            # The ring is drawn as arcs about four centres within 1.3 m of the origin
            # (as exported); each lane must keep its distance from its own arc's centre.
            ring_pieces += 1
            for section in road.sections:
                lo, hi = max(section.s0, piece.s), min(section.s1, piece.s + piece.length)
                if hi - lo < 0.05:
                    continue
                shape = section_shape(src, road, section)
                on_arc = (shape.s >= lo) & (shape.s <= hi)
                for lid, lane in section.lanes.items():
                    if lane.type == "driving":
                        inner, outer = shape.edges[lid]
                        points = shape.points_at((inner + outer) / 2)[on_arc]
                        r = np.linalg.norm(points[:, :2] - centre, axis=1)
                        assert np.ptp(r) < 0.03, f"road {road.id} lane {lid}"
                        radii.append(r.mean())
    assert ring_pieces >= 25 and len(radii) > 20


@pytest.mark.parametrize("name, low, high", [pytest.param("e6mini", -3.1, 2.4, marks=needs_esmini), ("Town03", -0.8, 8.5)])
def test_lanes_follow_the_elevation_profile(name, low, high):
    z = np.concatenate([lane.centre[:, 2] for lane in parsed(name).lanes])
    assert z.min() == pytest.approx(low, abs=0.1) and z.max() == pytest.approx(high, abs=0.1)


def test_the_packaged_towns_load_quickly_enough():
    import time
    start = time.perf_counter()
    load_opendrive(map_file("Town03"))
    assert time.perf_counter() - start < 10.0  # ~1 s on a 2-core machine; generous for CI


# -- packaged maps ------------------------------------------------------------------------

def test_load_map_reads_the_packaged_towns_and_lists_choices():
    m = load_map("Town01")
    assert len(m.junctions) == 12 and len(m.signals) == 36
    m.lanes.clear()
    assert len(load_map("Town01").lanes) > 0  # callers get their own copy
    with pytest.raises(MapError, match="Town01, Town02, Town03, Town04, Town05, Town06, Town07, Town10HD"):
        load_map("nope")


@pytest.mark.statistical  # parses all eight towns: ~15 s
def test_every_carla_town_loads_by_name_into_an_engine_map():
    from trackfield.driving.engine_map import build_engine_map
    assert TOWNS == ("Town01", "Town02", "Town03", "Town04", "Town05", "Town06", "Town07", "Town10HD")
    for name in TOWNS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MapWarning)  # Town07's (tested below)
            m = load_map(name)
        assert m.name == name and len(m.lanes) > 50 and len(m.junctions) >= 8, name
        assert m.signals, name  # lights from the file, or generated where it has none
        build_engine_map(m)


def test_town07_warns_about_its_link_to_a_missing_lane_and_loads():
    from trackfield.driving import maps
    maps._cache.pop("Town07", None)  # the warning comes with the parse, once per process
    with pytest.warns(MapWarning, match=r"link to unknown lane 2 of road 716"):
        m = load_map("Town07")
    assert len(m.lanes) > 200 and len(m.junctions) == 31


def test_the_packaged_towns_are_small_and_credit_carla():
    from trackfield.driving.maps import MAPS_DIR, PACKAGED
    assert sum((MAPS_DIR / f).stat().st_size for f in PACKAGED.values()) < 1_200_000
    assert "Computer Vision Center (CVC)" in (MAPS_DIR / "LICENSE-carla").read_text()
    assert "CARLA" in (MAPS_DIR / "README.md").read_text()


def test_junction_curbs_are_boundaries_and_the_open_junction_is_not():
    from trackfield.driving.engine_map import build_engine_map
    m = load_map("Town01")
    engine_map = build_engine_map(m)
    points = np.concatenate([b.points for b in m.boundaries])
    curbs = np.concatenate([b.points for b in m.boundaries if "junction curb" in b.source])

    def near(p, pts, r):
        return bool(np.any(np.sum((pts[:, :2] - p[:2]) ** 2, axis=1) < r * r))

    edges = covered = 0
    for lane in (lane for lane in m.lanes if lane.junction >= 0):
        d = np.gradient(lane.centre[:, :2], axis=0)
        d /= np.linalg.norm(d, axis=1, keepdims=True)
        left = np.column_stack([-d[:, 1], d[:, 0]])
        for i in range(0, len(lane.centre), 2):
            c, w = lane.centre[i], lane.width[i]
            assert not near(c, curbs, w / 2 - 0.5), lane.source  # no curb across a lane's path
            for side in (1.0, -1.0):
                edge = c[:2] + side * left[i] * w / 2
                probe = edge + side * left[i] * 0.3
                if not engine_map.is_on_road(probe[0], probe[1], c[2]):  # the road ends here: a curb
                    edges += 1
                    covered += near(edge, points, 1.5)
    assert edges > 300 and covered >= 0.95 * edges  # 27% before junction curbs were read
