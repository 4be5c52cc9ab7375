"""Paved surface that is not a lane: junction holes of OpenDRIVE maps, the JSON key, the engine."""
from __future__ import annotations

import json

import numpy as np
import pytest

from trackfield import _engine
from trackfield.driving.engine_map import build_engine_map, flatten_roadmap
from trackfield.driving.map_json import load_map_json, map_to_dict, save_map_json
from trackfield.driving.opendrive import load_opendrive
from trackfield.driving.roadmap import MapError

HOLE = 0.9   # m of `none` lane between each road's reference line and its eastbound lane


def lane(lid, kind="driving", width=3.5, link=""):
    return f'<lane id="{lid}" type="{kind}" level="false">{link}<width sOffset="0" a="{width}" b="0" c="0" d="0"/></lane>'


def road(rid, x, length, junction="-1", road_link="", lane_links=False):
    def linked(lid):
        return f'<link><predecessor id="{lid}"/><successor id="{lid}"/></link>' if lane_links else ""
    return (f'<road name="" length="{length}" id="{rid}" junction="{junction}">{road_link}'
            f'<planView><geometry s="0" x="{x}" y="0" hdg="0" length="{length}"><line/></geometry></planView>'
            f'<lanes><laneSection s="0"><left>{lane(1, link=linked(1))}</left>'
            f'<center><lane id="0" type="none"/></center>'
            f'<right>{lane(-1, "none", HOLE)}{lane(-2, link=linked(-2))}</right></laneSection></lanes></road>')


def holed_junction() -> str:
    """Roads 1 (x 0..100) and 3 (x 120..220) joined through junction 10 by connecting road 2:
    each has a westbound lane left of its reference line (y 0..3.5) and, right of it, a
    0.9 m `none` lane, then the eastbound lane (y -0.9..-4.4)."""
    r1 = road("1", 0.0, 100.0, road_link='<link><successor elementType="junction" elementId="10"/></link>')
    r2 = road("2", 100.0, 20.0, junction="10", lane_links=True,
              road_link='<link><predecessor elementType="road" elementId="1" contactPoint="end"/>'
                        '<successor elementType="road" elementId="3" contactPoint="start"/></link>')
    r3 = road("3", 120.0, 100.0, road_link='<link><predecessor elementType="junction" elementId="10"/></link>')
    junction = ('<junction id="10" name="">'
                '<connection id="0" incomingRoad="1" connectingRoad="2" contactPoint="start">'
                '<laneLink from="-2" to="-2"/></connection>'
                '<connection id="1" incomingRoad="3" connectingRoad="2" contactPoint="end">'
                '<laneLink from="1" to="1"/></connection></junction>')
    return ('<?xml version="1.0"?>\n<OpenDRIVE>\n<header revMajor="1" revMinor="4"/>\n'
            + "\n".join([r1, r2, r3, junction]) + "\n</OpenDRIVE>\n")


@pytest.fixture(scope="module")
def holed():
    return load_opendrive(holed_junction())


def unpaved(roadmap):
    args = flatten_roadmap(roadmap)
    args.pop("paved_corners", None)
    return _engine.driving.Map(**args)


def test_a_junction_hole_between_the_reference_line_and_a_driving_lane_is_paved(holed):
    assert len(holed.lanes) == 6 and len(holed.paved) == 1
    (strip,) = holed.paved
    assert strip.junction == 0 and "road 2" in strip.source
    paved, bare = build_engine_map(holed), unpaved(holed)
    assert paved.lane_count == bare.lane_count and paved.quad_count == bare.quad_count
    hole = (110.0, -HOLE / 2, 0.0)
    assert paved.is_on_road(*hole) and not bare.is_on_road(*hole)
    # a car across the hole's middle: off-road before, on-road now
    assert bare.is_off_road(*hole, 0.0, 4.5, 1.8) and not paved.is_off_road(*hole, 0.0, 4.5, 1.8)
    # never a lane: localisation does not put the point on a quad
    assert not paved.localise(*hole).on_road
    # the same hole on the ordinary roads outside the junction stays off-road
    for x in (50.0, 170.0):
        assert not paved.is_on_road(x, -HOLE / 2, 0.0)
        assert paved.is_off_road(x, -HOLE / 2, 0.0, 0.0, 4.5, 1.8)
    # beyond the eastbound lane's outer edge is still off-road
    assert not paved.is_on_road(110.0, -4.8, 0.0)


def test_no_curb_runs_along_a_paved_strip(holed):
    inside = [b for b in holed.boundaries if "road 2" in b.source]
    pts = np.concatenate([b.points for b in inside]) if inside else np.zeros((0, 3))
    along_hole = pts[(pts[:, 0] > 101) & (pts[:, 0] < 119) & (np.abs(pts[:, 1] + HOLE) < 0.3)]
    assert len(along_hole) == 0
    # the junction's outer curb (the eastbound lane's right edge) is still there
    assert np.any((np.abs(pts[:, 1] + HOLE + 3.5) < 0.05) & (pts[:, 0] > 101) & (pts[:, 0] < 119))


def test_the_json_round_trip_keeps_the_paved_surface(holed, tmp_path):
    path = tmp_path / "holed.json"
    save_map_json(holed, path)
    again = load_map_json(path)
    assert len(again.paved) == 1
    np.testing.assert_array_equal(again.paved[0].left, holed.paved[0].left)
    np.testing.assert_array_equal(again.paved[0].right, holed.paved[0].right)
    assert again.paved[0].junction == 0 and again.paved[0].source == holed.paved[0].source
    assert build_engine_map(again).is_on_road(110.0, -HOLE / 2, 0.0)
    # a map without paved surface writes no "paved" key (files stay as they were)
    holed_free = map_to_dict(holed)
    holed_free.pop("paved")
    assert "paved" not in map_to_dict(load_map_json(holed_free))


@pytest.mark.parametrize("change, message", [
    (lambda p: p.update(right=p["right"][:-1]), "paved[0]: left has"),
    (lambda p: p.update(left=[[0, 0]]), "paved[0].left"),
    (lambda p: p.update(junction=7), "paved[0].junction"),
    (lambda p: p.update(width=2.0), "paved[0]: unknown key 'width'"),
])
def test_a_malformed_paved_entry_names_it(holed, change, message):
    doc = json.loads(json.dumps(map_to_dict(holed)))
    change(doc["paved"][0])
    with pytest.raises(MapError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_map_json(doc)


def test_the_engine_refuses_paved_quads_that_are_not_convex_and_anticlockwise(holed):
    args = flatten_roadmap(holed)
    bad = args["paved_corners"].copy()
    bad[3] = bad[3].reshape(4, 3)[::-1].reshape(12)   # clockwise
    with pytest.raises(ValueError, match=r"paved_corners\[3\]"):
        _engine.driving.Map(**dict(args, paved_corners=bad))
    with pytest.raises(ValueError, match="paved_corners"):
        _engine.driving.Map(**dict(args, paved_corners=np.zeros((2, 9))))


def test_augmented_copies_keep_the_paved_surface_mirrored_or_not(holed):
    from trackfield.driving.augment import augment_map
    quads = build_engine_map(holed).paved_count
    for seed in range(4):   # about half of them mirrored: the engine turns the corners anticlockwise
        copy = augment_map(holed, np.random.default_rng(seed))
        assert len(copy.paved) == 1 and build_engine_map(copy).paved_count == quads
