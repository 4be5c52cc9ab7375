"""Traffic lights from an OpenDRIVE file: which lanes each light stops, and its groups.

A light is a `<signal dynamic="yes">` or a type 1000001 (vehicle traffic light) signal;
pedestrian lights (type 1000002) and static signs are skipped, and so are `<object>`s.

Controlled lanes, first rule that finds any:
1. `<signalReference>`s to the light on connecting roads name junction lanes (by
   validity, else orientation); the light stops the lanes that feed them.
2. The light's own placement (or a reference on an ordinary road): the lanes of that
   road running in the direction of its `orientation` ("+": along s, "-": against s,
   "none": both), limited by `<validity>`, that enter a junction at their end.
3. CARLA's towns orient some lights backwards ("-" on a light beside a right lane at
   the road's end); when the orientation picks no lane entering a junction, the other
   direction is tried.
A validity of lane 0 to lane 0 (CARLA) names only the reference line and is read as no
restriction.

Groups: lights listed in one top-level `<controller>` switch together; lights without a
controller are grouped by the junction and the road they come from.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from trackfield.driving.roadmap import Signal
from trackfield.driving.signals import stop_line_across

VEHICLE_LIGHT = "1000001"
PEDESTRIAN_LIGHTS = frozenset({"1000002", "1000007"})


def is_vehicle_light(signal) -> bool:
    kind = signal.get("type", "")
    if kind == VEHICLE_LIGHT:
        return True
    return signal.get("dynamic", "no") == "yes" and kind not in PEDESTRIAN_LIGHTS


def read_file_signals(builder) -> list[Signal]:
    src, roads = builder.src, builder.roads
    references: dict[str, list] = {}
    for road in roads.values():
        for ref in road.signal_references:
            references.setdefault(src.text(ref, "id", road.id), []).append((road, ref))
    controller_of = {}
    for controller in src.root.findall("controller"):
        for control in controller.findall("control"):
            controller_of.setdefault(src.text(control, "signalId"), src.text(controller, "id"))
    signals, groups = [], {}
    for road in roads.values():
        for element in road.signals:
            if not is_vehicle_light(element):
                continue
            sid = src.text(element, "id", road.id)
            lanes = _lanes_from_references(builder, references.get(sid, []))
            if not lanes:
                lanes = _lanes_from_placement(builder, road, element)
            if not lanes:
                continue  # a light that stops no driving lane (e.g. on a sidewalk-only road)
            junction = _junction_entered(builder, lanes)
            key = ("controller", controller_of[sid]) if sid in controller_of else ("approach", junction, road.id)
            group = groups.setdefault(key, len(groups))
            members = [builder.lanes[i] for i in lanes]
            signals.append(Signal(_position(src, road, element), stop_line_across(members), lanes, group,
                                  junction, f"{src.name} road {road.id} signal {sid}"))
    return signals


def _position(src, road, element) -> np.ndarray:
    s = np.array([min(max(src.number(element, "s", road.id), 0.0), road.length)])
    t = src.number(element, "t", road.id, 0.0)
    x, y, h = road.reference.poses(s)
    z = road.elevation(s)[0] + src.number(element, "zOffset", road.id, 0.0)
    return np.array([x[0] - np.sin(h[0]) * t, y[0] + np.cos(h[0]) * t, z])


def _valid_ids(src, element, road) -> tuple[int, int] | None:
    ranges = [(int(src.number(v, "fromLane", road.id)), int(src.number(v, "toLane", road.id)))
              for v in element.findall("validity")]
    ranges = [r for r in ranges if r != (0, 0)]
    if not ranges:
        return None
    return min(min(r) for r in ranges), max(max(r) for r in ranges)


def _directions(orientation: str) -> tuple[bool, ...]:
    """Which travel directions (True: along s) an orientation names."""
    return {"+": (True,), "-": (False,)}.get(orientation, (True, False))


def _road_lanes(builder, road, element, forward_wanted) -> list[int]:
    """Driving lanes of the road, any section, in the wanted directions and validity range."""
    valid = _valid_ids(builder.src, element, road)
    out = set()
    for k in range(len(road.sections)):
        for lid in road.sections[k].lanes:
            i = builder.lane_index.get((road.id, k, lid))
            if i is None or builder.forward[i] not in forward_wanted:
                continue
            if valid is None or valid[0] <= lid <= valid[1]:
                out.add(i)
    return sorted(out)


def _enters_junction(builder, i: int) -> bool:
    lanes = builder.lanes
    return lanes[i].junction < 0 and any(lanes[j].junction >= 0 for j in lanes[i].successors)


def _lanes_from_placement(builder, road, element) -> list[int]:
    wanted = _directions(element.get("orientation", "none"))
    for directions in (wanted, tuple(not d for d in wanted)):
        lanes = [i for i in _road_lanes(builder, road, element, directions) if _enters_junction(builder, i)]
        if lanes:
            return sorted(lanes)
    return []


def _feeders(builder, i: int) -> set[int]:
    """Lanes outside the junction that lead into junction lane i (through its sections)."""
    lanes, seen, out, todo = builder.lanes, {i}, set(), [i]
    while todo:
        for p in lanes[todo.pop()].predecessors:
            if lanes[p].junction < 0:
                out.add(p)
            elif p not in seen:
                seen.add(p)
                todo.append(p)
    return out


def _lanes_from_references(builder, refs) -> list[int]:
    out: set[int] = set()
    for road, ref in refs:
        directions = _directions(ref.get("orientation", "none"))
        if _valid_ids(builder.src, ref, road) is not None:
            directions = (True, False)  # the lanes are named; CARLA's orientations contradict them
        if road.junction == "-1":
            out.update(_lanes_from_placement(builder, road, ref))
            continue
        for i in _road_lanes(builder, road, ref, directions):
            out.update(_feeders(builder, i))
    return sorted(out)


def _junction_entered(builder, lanes: list[int]) -> int:
    entered = Counter(builder.lanes[j].junction for i in lanes for j in builder.lanes[i].successors
                      if builder.lanes[j].junction >= 0)
    return entered.most_common(1)[0][0] if entered else -1
