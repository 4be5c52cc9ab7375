"""Roundabouts found from lane geometry (trackfield.driving.roundabouts), so that maps
whose files do not mark them (OpenDRIVE) get no generated lights on their rings."""
from __future__ import annotations

import numpy as np
import pytest

from trackfield.driving.maps import load_map
from trackfield.driving.roadmap import Junction, Lane, RoadMap
from trackfield.driving.roundabouts import find_rings, mark_roundabouts
from trackfield.driving.signals import generate_signals
from trackfield.driving.town_generator import generate_town

TOWN03_RING = {"524", "584", "594", "678", "685", "831"}  # CARLA's junction ids on the ring


def test_town03_ring_junctions_are_roundabouts_without_lights():
    m = load_map("Town03")
    ring = {j for j, junction in enumerate(m.junctions) if junction.kind == "roundabout"}
    assert {m.junctions[j].source.split()[-1] for j in ring} == TOWN03_RING
    # Every lane of those junctions runs within the ring's annulus round the origin.
    for j in ring:
        for i in m.junctions[j].lanes:
            r = np.linalg.norm(m.lanes[i].centre[:, :2], axis=1)
            assert r.min() > 15.0 and r.max() < 32.0, m.lanes[i].source
    assert m.signals_generated
    assert not {s.junction for s in m.signals} & ring
    assert min(np.linalg.norm(s.position[:2]) for s in m.signals) > 35.0  # none on the ring (21 m)
    # The other junctions of three or more legs still get their lights.
    others = {j for j, junction in enumerate(m.junctions) if junction.legs >= 3 and j not in ring}
    assert len(others) >= 20 and {s.junction for s in m.signals} == others


@pytest.mark.parametrize("seed", [0, 3])
def test_generated_roundabouts_are_recovered_from_geometry_alone(seed):
    town = generate_town(seed, size="small", roundabout=True)
    truth = [j for j, junction in enumerate(town.junctions) if junction.kind == "roundabout"]
    assert truth
    for junction in town.junctions:
        junction.kind = "junction"
    generate_signals(town)
    assert {s.junction for s in town.signals} & set(truth)  # unmarked, a ring would get lights
    assert mark_roundabouts(town) == truth
    generate_signals(town)
    assert not {s.junction for s in town.signals} & set(truth)
    assert {s.junction for s in town.signals}  # the T and 4-way junctions keep theirs


def arc_lane(centre, radius, a0, a1, junction=-1):
    angle = np.linspace(a0, a1, max(3, int(abs(a1 - a0) * radius)))
    xy = np.asarray(centre) + radius * np.c_[np.cos(angle), np.sin(angle)]
    return Lane(np.c_[xy, np.zeros(len(xy))], np.full(len(xy), 3.5), 8.0, junction=junction)


def test_only_a_closed_ring_of_concentric_arcs_is_a_roundabout():
    quarter = np.pi / 2
    # Three quarters of a circle (turns sharing a centre) are no ring; the fourth closes it.
    lanes = [arc_lane((5.0, -3.0), 20.0, k * quarter, (k + 1) * quarter, junction=0 if k == 0 else -1)
             for k in range(3)]
    m = RoadMap("test", lanes, junctions=[Junction([0], 3)])
    assert find_rings(m) == [] and mark_roundabouts(m) == [] and m.junctions[0].kind == "junction"
    m.lanes.append(arc_lane((5.4, -3.2), 20.0, 3 * quarter, 4 * quarter))  # centre 0.45 m off
    assert mark_roundabouts(m) == [0] and m.junctions[0].kind == "roundabout"
    # Arcs that turn the other way round the same centre do not close a clockwise ring,
    # and a turning loop tighter than 10 m is no roundabout.
    m.lanes[3] = arc_lane((5.0, -3.0), 20.0, 4 * quarter, 3 * quarter)
    assert find_rings(m) == []
    small = RoadMap("loop", [arc_lane((0.0, 0.0), 9.0, 0.0, 2 * np.pi, junction=0)], junctions=[Junction([0], 1)])
    assert mark_roundabouts(small) == []
