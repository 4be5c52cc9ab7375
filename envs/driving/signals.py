"""Traffic lights for maps that have none, and the stop-line geometry all lights share."""
from __future__ import annotations

import numpy as np

from trackfield.driving.roadmap import Lane, RoadMap, Signal

APPROACH_HEADING = np.radians(30.0)  # lanes ending this parallel ...
APPROACH_DISTANCE = 15.0             # ... and this close (m) come from one road


def end_direction(lane: Lane) -> np.ndarray:
    """Unit xy direction of travel at the lane's end (its last non-degenerate segment)."""
    steps = np.diff(lane.centre[:, :2], axis=0)
    norms = np.linalg.norm(steps, axis=1)
    good = np.nonzero(norms > 1e-6)[0]
    if good.size == 0:
        return np.array([1.0, 0.0])
    return steps[good[-1]] / norms[good[-1]]


def stop_line_across(lanes: list[Lane]) -> np.ndarray:
    """(2, 2) stop line perpendicular to travel through the lanes' ends, spanning their widths.

    The first point is on the right of the direction of travel, where a light stands.
    """
    direction = np.mean([end_direction(lane) for lane in lanes], axis=0)
    direction /= max(np.linalg.norm(direction), 1e-9)
    left = np.array([-direction[1], direction[0]])
    origin = np.mean([lane.centre[-1, :2] for lane in lanes], axis=0)
    across = [float((lane.centre[-1, :2] - origin) @ left) for lane in lanes]
    low = min(a - lane.width[-1] / 2 for a, lane in zip(across, lanes))
    high = max(a + lane.width[-1] / 2 for a, lane in zip(across, lanes))
    return np.array([origin + low * left, origin + high * left])


def approaches(roadmap: RoadMap, lanes: list[int]) -> list[list[int]]:
    """Split lanes entering a junction by the road they come from: ends parallel and close."""
    groups: list[list[int]] = []
    for i in lanes:
        d = end_direction(roadmap.lanes[i])
        p = roadmap.lanes[i].centre[-1, :2]
        for group in groups:
            j = group[0]
            cos = float(np.clip(d @ end_direction(roadmap.lanes[j]), -1.0, 1.0))
            near = np.linalg.norm(p - roadmap.lanes[j].centre[-1, :2]) < APPROACH_DISTANCE
            if np.arccos(cos) < APPROACH_HEADING and near:
                group.append(i)
                break
        else:
            groups.append([i])
    return groups


def entering_lanes(roadmap: RoadMap, junction: int) -> list[int]:
    """Lanes outside the junction whose successors are inside it."""
    return sorted({p for i in roadmap.junctions[junction].lanes for p in roadmap.lanes[i].predecessors
                   if roadmap.lanes[p].junction != junction})


def generate_signals(roadmap: RoadMap) -> None:
    """Place traffic lights on a map that has none (replacing any it has).

    Rule: at every junction with at least 3 legs, the lanes entering it are grouped by
    the road they come from (lane ends parallel within 30 degrees and within 15 m); each
    group gets one light whose stop line spans the group's lane ends, in a group of its
    own, so the approaches of one junction take turns. Junctions with 1 or 2 legs (bends,
    merges) and roundabouts (`Junction.kind`) get no lights. Sets `roadmap.signals_generated`.
    """
    signals = []
    for j, junction in enumerate(roadmap.junctions):
        if junction.legs < 3 or junction.kind == "roundabout":
            continue
        for lanes in approaches(roadmap, entering_lanes(roadmap, j)):
            members = [roadmap.lanes[i] for i in lanes]
            line = stop_line_across(members)
            z = float(np.mean([lane.centre[-1, 2] for lane in members]))
            signals.append(Signal(np.array([line[0, 0], line[0, 1], z]), line, lanes, len(signals), j,
                                  f"generated at {junction.source or f'junction {j}'}"))
    roadmap.signals = signals
    roadmap.signals_generated = True
