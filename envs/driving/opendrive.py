"""OpenDRIVE 1.4 (.xodr) import: `load_opendrive(path_or_text) -> RoadMap`.

What becomes what:
- Each driving lane (types in `DRIVING_TYPES`) of each laneSection becomes one `Lane` in
  its direction of travel. With right-hand traffic (the default; rule="LHT" flips it)
  right lanes (negative ids) run along increasing s and left lanes against it. Lane 0 is
  the reference line and never a lane, even where a file types it "driving".
- Lane centres are the reference line shifted by laneOffset and the widths of the lanes
  inside; z is the elevation profile (superelevation and crossfall are ignored).
- Speed limit: the lane's first <speed>, else the road <type><speed> in force at the
  section start, else `DEFAULT_SPEED` (13.9 m/s = 50 km/h).
- Links join lane ends that the file says touch (lane links across sections, road links,
  junction laneLinks); each touching pair becomes successor / predecessor in whichever
  direction traffic flows through it.
- Boundaries: per road section, the edges where a driving lane meets a non-driving lane
  or the road's outside. Inside junctions the connecting roads overlap, so there only the
  stretches of those edges with road on one side alone are kept (`junction_curbs`): the
  junction's curbs, not its connecting lanes' edges across the open junction.
- Paved surface (`RoadMap.paved`): inside junctions, the `none` lanes of a connecting road
  that lie between its reference line and one of its driving lanes (Town03's RoadRunner
  export has up to 4.5 m of them) are paved, as CARLA's junction surface covers them:
  drivable, never a lane (`_Builder._paved_strips`).
- A link naming a lane that does not exist is dropped with one `MapWarning` per file (as
  CARLA tolerates it: Town07 has some); a link naming a road that does not exist is an error.
- Signals: traffic lights from the file (see `opendrive_signals`), or generated ones.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from trackfield.driving.opendrive_geometry import resample, sample_positions
from trackfield.driving.opendrive_signals import read_file_signals
from trackfield.driving.opendrive_xml import (
    DEFAULT_SPEED, JunctionRecord, RoadRecord, SectionRecord, Source, read_junctions, read_roads,
)
from trackfield.driving.roadmap import MAX_POINT_SPACING, Boundary, Junction, Lane, MapError, Paved, RoadMap
from trackfield.driving.roundabouts import mark_roundabouts
from trackfield.driving.signals import generate_signals

DRIVING_TYPES = frozenset({"driving", "entry", "exit", "onRamp", "offRamp", "bidirectional"})
BOUNDARY_KINDS = {"sidewalk": "sidewalk", "shoulder": "shoulder", "border": "border", "median": "median",
                  "curb": "border", "restricted": "border", "stop": "shoulder"}
REFERENCE_STEP = 1.0       # m between reference-line samples; lanes are resampled after offsetting
MIN_WIDTH = 0.05           # m; lanes that taper to nothing keep this much so widths stay positive
MIN_USEFUL_WIDTH = 1.0     # m; a driving lane never wider than this is a placeholder, not a lane
MIN_LANE_LENGTH = 0.5      # m; shorter lane pieces are glued onto the lane before or after
GROSS_SEAM = 1.0           # m; linked lanes further apart than this mean the file is wrong
PAVED_TYPES = frozenset({"none"})  # lane types paved inside junctions when a driving lane lies beyond them
CURB_PROBE = 0.3           # m; a junction edge is a curb where a point this far to one side is off every lane


class MapWarning(UserWarning):
    """Something in a map file that was skipped so the rest of the map could load."""


def load_opendrive(path_or_text, name: str | None = None, signals: str = "auto") -> RoadMap:
    """Read an OpenDRIVE file (path, .xodr.gz / .xodr.xz path, or XML text) into a validated RoadMap.

    signals: "file" keeps the file's traffic lights, "generate" places lights with
    `signals.generate_signals`, "auto" uses the file's if it has any, else generates.
    Junctions on a ring of lanes get `kind = "roundabout"` (`roundabouts.mark_roundabouts`),
    so generated lights skip them.
    """
    if signals not in ("file", "generate", "auto"):
        raise MapError(f"signals must be 'file', 'generate' or 'auto', got {signals!r}")
    src = Source(path_or_text, name)
    roads = read_roads(src)
    junctions = read_junctions(src)
    builder = _Builder(src, roads, junctions)
    roadmap = builder.build()
    mark_roundabouts(roadmap)  # OpenDRIVE cannot say which junctions are roundabouts
    if signals in ("file", "auto"):
        roadmap.signals = read_file_signals(builder)
    if signals == "generate" or (signals == "auto" and not roadmap.signals):
        generate_signals(roadmap)
    roadmap.validate()
    return roadmap


def reference_pieces(path_or_text) -> dict[str, list[tuple[tuple[float, float, float], tuple[float, float, float]]]]:
    """Per road, each plan-view piece's declared start pose and computed end pose (x, y, hdg).

    A file is consistent when every piece ends where the next one is declared to start;
    the tests use this to check the geometry evaluation (spirals and cubics included).
    """
    src = Source(path_or_text)
    return {rid: [((p.x, p.y, p.hdg), p.end_pose()) for p in road.reference.pieces]
            for rid, road in read_roads(src).items()}


@dataclass
class SectionShape:
    """Samples of one laneSection: reference poses and each lane's edge offsets t."""
    s: np.ndarray
    x: np.ndarray
    y: np.ndarray
    hdg: np.ndarray
    z: np.ndarray
    edges: dict[int, tuple[np.ndarray, np.ndarray]]   # lane id -> (inner t, outer t)
    widths: dict[int, np.ndarray]

    def points_at(self, t: np.ndarray) -> np.ndarray:
        """(n, 3) points at lateral offset t (left positive) from the reference line."""
        return np.column_stack([self.x - np.sin(self.hdg) * t, self.y + np.cos(self.hdg) * t, self.z])


def section_shape(src: Source, road: RoadRecord, section: SectionRecord) -> SectionShape:
    width_starts = [section.s0 + w for lane in section.lanes.values() for w in lane.widths.starts]
    breaks = np.concatenate([road.reference.breakpoints(), np.array(width_starts)])
    s = sample_positions(section.s0, section.s1, breaks, REFERENCE_STEP)
    x, y, hdg = road.reference.poses(s)
    offset = road.lane_offset(s, end=section.s1)
    edges, widths = {}, {}
    for side in (1, -1):
        inner = offset
        for lid in sorted((i for i in section.lanes if i * side > 0), key=abs):
            lane = section.lanes[lid]
            width = lane.widths(s - section.s0, end=section.s1 - section.s0) if len(lane.widths.starts) else np.zeros_like(s)
            if width.min() < -1e-6:
                raise src.error(lane.element, f"lane {lid}: width {width.min():.3f} m is negative "
                                f"at s={s[np.argmin(width)]:.2f}", road.id)
            width = np.maximum(width, 0.0)
            outer = inner + side * width
            edges[lid], widths[lid] = (inner, outer), width
            inner = outer
    return SectionShape(s, x, y, hdg, road.elevation(s, end=section.s1), edges, widths)


class _Builder:
    """Turns the file's records into lanes, links, junctions and boundaries."""

    def __init__(self, src: Source, roads: dict[str, RoadRecord], junctions: list[JunctionRecord]):
        self.src, self.roads, self.junction_records = src, roads, junctions
        self.junction_index = {j.id: i for i, j in enumerate(junctions)}
        self.lanes: list[Lane] = []
        self.lane_index: dict[tuple[str, int, int], int] = {}   # (road, section, lane id) -> lane
        self.forward: list[bool] = []                             # lane runs along increasing s
        self.home: list[tuple[str, int, int]] = []                # the key each lane was made from
        self.shapes: dict[tuple[str, int], SectionShape] = {}
        self.dropped_links: list[str] = []                        # links to lanes that do not exist

    def build(self) -> RoadMap:
        for road in self.roads.values():
            if road.junction != "-1" and road.junction not in self.junction_index:
                raise self.src.error(road.element, f"junction {road.junction} is not defined", road.id)
            for link in (road.predecessor, road.successor):
                if link is not None and link.kind == "junction" and link.target not in self.junction_index:
                    raise self.src.error(link.element, f"link to unknown junction {link.target}", road.id)
                if link is not None and link.kind == "road":
                    self._road(link.target, link.element)
            for k, section in enumerate(road.sections):
                self.shapes[road.id, k] = shape = section_shape(self.src, road, section)
                self._add_lanes(road, k, section, shape)
        self._link_lanes()
        if self.dropped_links:
            # CARLA loads such files (Town07 links to lanes its roads do not have): so do we.
            first = self.dropped_links[0]
            warnings.warn(f"{len(self.dropped_links)} lane link(s) name lanes that do not exist and were dropped; "
                          f"first: {first}", MapWarning, stacklevel=3)
        self._absorb_short_lanes()
        self._set_neighbours()
        junctions = self._junctions()
        self.paved = self._paved()
        roadmap = RoadMap(self.src.name, self.lanes, self._boundaries(), [], junctions, paved=self.paved)
        return roadmap

    def is_forward(self, road: RoadRecord, lane_id: int) -> bool:
        return (lane_id < 0) != road.left_hand

    # -- lanes ----------------------------------------------------------------------------

    def _add_lanes(self, road: RoadRecord, k: int, section: SectionRecord, shape: SectionShape) -> None:
        for lid in sorted(section.lanes, reverse=True):
            record = section.lanes[lid]
            if record.type not in DRIVING_TYPES or shape.widths[lid].max() < MIN_USEFUL_WIDTH:
                continue
            inner, outer = shape.edges[lid]
            centre = shape.points_at((inner + outer) / 2.0)
            width = np.maximum(shape.widths[lid], MIN_WIDTH)
            forward = self.is_forward(road, lid)
            samples = np.column_stack([centre, width])
            if not forward:
                samples = samples[::-1]
            samples = resample(samples, MAX_POINT_SPACING)
            speed = record.speed or road.speed_at(section.s0) or DEFAULT_SPEED
            junction = self.junction_index.get(road.junction, -1)
            self.lane_index[road.id, k, lid] = len(self.lanes)
            self.forward.append(forward)
            self.home.append((road.id, k, lid))
            self.lanes.append(Lane(samples[:, :3].copy(), samples[:, 3].copy(), speed, junction=junction,
                                   source=f"{self.src.name} road {road.id} section {k} lane {lid}"))

    # -- links ----------------------------------------------------------------------------

    def _link_lanes(self) -> None:
        """Successors / predecessors from every pair of lane ends the file says touch."""
        for a, b in self._touching_ends():
            if a is None or b is None:
                continue  # a link to a lane the file does not have (dropped, with a warning)
            ia, ib = self.lane_index.get(a[:3]), self.lane_index.get(b[:3])
            if ia is None or ib is None:
                continue  # one side is not a driving lane
            if self._exits_at(ia, a[3]) and not self._exits_at(ib, b[3]):
                self._join(ia, ib)
            elif self._exits_at(ib, b[3]) and not self._exits_at(ia, a[3]):
                self._join(ib, ia)
        for lane in self.lanes:
            lane.successors.sort()
            lane.predecessors.sort()

    def _absorb_short_lanes(self) -> None:
        """Glue lane pieces shorter than MIN_LANE_LENGTH onto their one-to-one neighbour.

        RoadRunner exports (Town03) cut connecting roads into laneSections a few
        centimetres long; 313 of Town03's lanes would be slivers under 0.5 m. A sliver joins
        its predecessor (or else its successor) when that link is the only one both ways
        and both lie in the same junction (or both outside), so lengths, seams and junction
        membership stay right. Slivers with branching links are kept as they are.
        """
        lanes, alias = self.lanes, {}
        for i, lane in enumerate(lanes):
            if lane.length >= MIN_LANE_LENGTH:
                continue
            before = lane.predecessors[0] if len(lane.predecessors) == 1 else -1
            after = lane.successors[0] if len(lane.successors) == 1 else -1
            if before not in (-1, i) and lanes[before].successors == [i] and lanes[before].junction == lane.junction:
                host = lanes[before]
                host.centre = np.concatenate([host.centre, lane.centre[1:]])
                host.width = np.concatenate([host.width, lane.width[1:]])
                host.successors = lane.successors
                for j in lane.successors:
                    lanes[j].predecessors = sorted(before if k == i else k for k in lanes[j].predecessors)
                alias[i] = before
            elif after not in (-1, i) and lanes[after].predecessors == [i] and lanes[after].junction == lane.junction:
                host = lanes[after]
                host.centre = np.concatenate([lane.centre[:-1], host.centre])
                host.width = np.concatenate([lane.width[:-1], host.width])
                host.predecessors = lane.predecessors
                for j in lane.predecessors:
                    lanes[j].successors = sorted(after if k == i else k for k in lanes[j].successors)
                alias[i] = after
        if alias:
            self._renumber(alias)

    def _renumber(self, alias: dict[int, int]) -> None:
        """Drop absorbed lanes; every reference to one now names the lane that took it in."""
        def host(i):
            while i in alias:
                i = alias[i]
            return i
        kept = [i for i in range(len(self.lanes)) if i not in alias]
        new = {old: n for n, old in enumerate(kept)}
        for i in kept:
            lane = self.lanes[i]
            lane.successors = sorted({new[host(j)] for j in lane.successors})
            lane.predecessors = sorted({new[host(j)] for j in lane.predecessors})
        self.lane_index = {key: new[host(i)] for key, i in self.lane_index.items()}
        self.forward = [self.forward[i] for i in kept]
        self.home = [self.home[i] for i in kept]
        self.lanes = [self.lanes[i] for i in kept]

    def _exits_at(self, lane: int, end: str) -> bool:
        return (end == "end") == self.forward[lane]

    def _join(self, i: int, j: int) -> None:
        if j in self.lanes[i].successors:
            return
        gap = float(np.linalg.norm(self.lanes[i].centre[-1, :2] - self.lanes[j].centre[0, :2]))
        if gap > GROSS_SEAM:
            raise MapError(f"{self.src.filename}: {self.lanes[i].source} ends {gap:.2f} m from the start "
                           f"of its successor {self.lanes[j].source}")
        self.lanes[i].successors.append(j)
        self.lanes[j].predecessors.append(i)

    def _touching_ends(self):
        """Pairs of lane ends ((road, section, lane id, "start"|"end"), ...) that touch."""
        for road in self.roads.values():
            last = len(road.sections) - 1
            for k, section in enumerate(road.sections):
                for lid, lane in section.lanes.items():
                    for target in lane.successors:
                        if k < last:
                            yield (road.id, k, lid, "end"), self._lane_end(road, k + 1, target, "start", lane.element)
                        elif road.successor is not None and road.successor.kind == "road":
                            # (into a junction the lane's own link is ambiguous: laneLinks say)
                            yield (road.id, k, lid, "end"), self._linked_end(road.successor, target, road)
                    for target in lane.predecessors:
                        if k > 0:
                            yield (road.id, k, lid, "start"), self._lane_end(road, k - 1, target, "end", lane.element)
                        elif road.predecessor is not None and road.predecessor.kind == "road":
                            yield (road.id, k, lid, "start"), self._linked_end(road.predecessor, target, road)
        for junction in self.junction_records:
            for c in junction.connections:
                incoming, connecting = self._road(c.incoming, c.element), self._road(c.connecting, c.element)
                if connecting.junction != junction.id:
                    raise self.src.error(c.element, f"junction {junction.id}: connecting road {connecting.id} "
                                         f"belongs to junction {connecting.junction}")
                side = self._incoming_side(incoming, junction.id, connecting, c.contact)
                k_in = 0 if side == "start" else len(incoming.sections) - 1
                k_conn = 0 if c.contact == "start" else len(connecting.sections) - 1
                for f, t, element in c.lane_links:
                    yield (self._lane_end(incoming, k_in, f, side, element),
                           self._lane_end(connecting, k_conn, t, c.contact, element))

    def _road(self, rid: str, element) -> RoadRecord:
        if rid not in self.roads:
            raise self.src.error(element, f"link to unknown road {rid}")
        return self.roads[rid]

    def _lane_end(self, road: RoadRecord, k: int, lid: int, end: str, element):
        """The lane end a link names, or None (noted in `dropped_links`) if that lane does not exist."""
        if lid != 0 and lid not in road.sections[k].lanes:
            self.dropped_links.append(str(self.src.error(element, f"link to unknown lane {lid} of road {road.id} section {k}")))
            return None
        return road.id, k, lid, end

    def _linked_end(self, link, lid: int, road: RoadRecord):
        other = self._road(link.target, link.element)
        k = 0 if link.contact == "start" else len(other.sections) - 1
        return self._lane_end(other, k, lid, link.contact, link.element)

    def _incoming_side(self, incoming: RoadRecord, jid: str, connecting: RoadRecord, contact: str) -> str:
        """Which end of an incoming road meets the junction: its link says, else geometry."""
        at_end = incoming.successor is not None and incoming.successor.kind == "junction" and incoming.successor.target == jid
        at_start = incoming.predecessor is not None and incoming.predecessor.kind == "junction" and incoming.predecessor.target == jid
        if at_end != at_start:
            return "end" if at_end else "start"
        # Both ends (a loop) or neither (linked road to road): the nearer end.
        cs = np.array([0.0 if contact == "start" else connecting.length])
        cx, cy, _ = connecting.reference.poses(cs)
        ends = np.array([0.0, incoming.length])
        x, y, _ = incoming.reference.poses(ends)
        d = np.hypot(x - cx[0], y - cy[0])
        return "start" if d[0] <= d[1] else "end"

    # -- neighbours, junctions, boundaries -------------------------------------------------

    def _set_neighbours(self) -> None:
        for i, (rid, k, lid) in enumerate(self.home):
            # Left of travel is +t when running along s, so towards higher ids.
            step = 1 if self.forward[i] else -1
            for attr, direction in (("left", step), ("right", -step)):
                other = lid + direction
                if other == 0:
                    other += direction  # lane 0 has no width: lanes 1 and -1 touch
                j = self.lane_index.get((rid, k, other))
                if j is not None and j != i and self.forward[j] == self.forward[i]:
                    setattr(self.lanes[i], attr, j)

    def _junctions(self) -> list[Junction]:
        inside: dict[int, list[int]] = {i: [] for i in range(len(self.junction_records))}
        for i, lane in enumerate(self.lanes):
            if lane.junction >= 0:
                inside[lane.junction].append(i)
        return [Junction(inside[n], len({c.incoming for c in j.connections}), f"{self.src.name} junction {j.id}")
                for n, j in enumerate(self.junction_records)]

    def _paved(self) -> list[Paved]:
        on_lane = lane_probe(self.lanes)
        out = []
        for road in self.roads.values():
            if road.junction == "-1":
                continue
            for k, section in enumerate(road.sections):
                out.extend(self._paved_strips(road, k, section, self.shapes[road.id, k], on_lane))
        return out

    def _paved_strips(self, road: RoadRecord, k: int, section: SectionRecord, shape: SectionShape, on_lane):
        """Paved strips of one junction section: the `PAVED_TYPES` lanes that are holes in
        the junction's surface, with road on both sides.

        On each side of the reference line, a paved-type lane lying between two driving
        lanes is paved whole. Those between the reference line and the side's first driving
        lane are paved where the road continues beyond the reference line: the lane across
        it is such a lane of the other side (one hole across the line), or a point
        `CURB_PROBE` beyond the innermost lane's inner edge is on some lane. (A ring's
        `none` lanes between its reference line and the island stay unpaved.)
        """
        junction = self.junction_index[road.junction]
        sides = {}
        for side in (1, -1):
            ids = sorted((i for i in section.lanes if i * side > 0), key=abs)
            drives = [self.lane_index.get((road.id, k, lid)) is not None for lid in ids]
            paved = [section.lanes[lid].type in PAVED_TYPES for lid in ids]
            first = drives.index(True) if any(drives) else len(ids)
            sides[side] = (ids, drives, paved, first)
        for side, (ids, drives, paved, first) in sides.items():
            if first == len(ids):
                continue
            last = max(n for n, d in enumerate(drives) if d)
            inner_ok = None
            if first > 0 and all(paved[:first]):
                o_ids, o_drives, o_paved, o_first = sides[-side]
                if 0 < o_first < len(o_ids) and all(o_paved[:o_first]):
                    inner_ok = np.ones(len(shape.s), bool)          # a hole across the reference line
                else:
                    t = shape.edges[ids[0]][0] - side * CURB_PROBE
                    inner_ok = on_lane(shape.points_at(t))
            for n in range(last):
                lid = ids[n]
                if drives[n] or not paved[n] or shape.widths[lid].max() < MIN_WIDTH:
                    continue
                keep = np.ones(len(shape.s), bool) if n > first else inner_ok
                if keep is None:
                    continue
                inner, outer = shape.edges[lid]
                a, b = shape.points_at(inner), shape.points_at(outer)
                left, right = (b, a) if side > 0 else (a, b)
                runs = np.split(np.arange(len(keep)), np.flatnonzero(np.diff(keep.astype(np.int8))) + 1)
                for run in runs:
                    if keep[run[0]] and len(run) >= 2:
                        yield Paved(left[run].copy(), right[run].copy(), junction,
                                    f"{self.src.name} road {road.id} section {k} lane {lid} (paved)")

    def _boundaries(self) -> list[Boundary]:
        out, inside = [], []
        for road in self.roads.values():
            for k, section in enumerate(road.sections):
                found = self._section_boundaries(road, k, section, self.shapes[road.id, k])
                (out if road.junction == "-1" else inside).extend(found)
        if inside:
            out.extend(junction_curbs(inside, self.lanes + [paved_as_lane(p) for p in self.paved], len(self.paved)))
        return out

    def _section_boundaries(self, road: RoadRecord, k: int, section: SectionRecord, shape: SectionShape):
        """Edges where driving meets non-driving, walking across the road from left to right."""
        order = sorted(section.lanes, reverse=True)     # +t side first
        drives = [(lid, self.lane_index.get((road.id, k, lid)) is not None) for lid in order]
        if not any(d for _, d in drives):
            return
        where = f"{self.src.name} road {road.id} section {k}"
        # (t of the edge, kind) for every edge to emit
        found = []
        first, last = drives[0], drives[-1]
        if first[1]:
            found.append((self._left_edge(shape, first[0]), "edge", first[0]))
        for (a, da), (b, db) in zip(drives, drives[1:]):
            if da != db:
                other = b if da else a
                found.append((self._left_edge(shape, b), BOUNDARY_KINDS.get(section.lanes[other].type, "edge"), other))
        if last[1]:
            found.append((self._right_edge(shape, last[0]), "edge", last[0]))
        for t, kind, lid in found:
            points = resample(shape.points_at(t), MAX_POINT_SPACING)
            yield Boundary(points, kind, f"{where} lane {lid}")

    @staticmethod
    def _left_edge(shape: SectionShape, lid: int) -> np.ndarray:
        inner, outer = shape.edges[lid]
        return outer if lid > 0 else inner

    @staticmethod
    def _right_edge(shape: SectionShape, lid: int) -> np.ndarray:
        inner, outer = shape.edges[lid]
        return inner if lid > 0 else outer


def paved_as_lane(paved: Paved) -> Lane:
    """A paved strip as a lane-shaped surface (centre line and width), for on-road probes."""
    left, right = np.asarray(paved.left), np.asarray(paved.right)
    return Lane((left + right) / 2, np.linalg.norm((left - right)[:, :2], axis=1), 1.0, source=paved.source)


def lane_probe(lanes: list[Lane], strips: int = 0):
    """A function (n, 3) points -> (n,) bool: whether each point lies on some lane (within
    its half width, +-2.5 m in height, as the engine's z window).

    The last `strips` of `lanes` are paved strips (`paved_as_lane`): their ends are cut
    square, as the engine's quads are, where a lane's end reaches round (a lane goes on
    into its successor; a paved strip ends where its paving does).
    """
    cut = np.concatenate([np.zeros(len(lane.centre) - 1, np.int8) if n < len(lanes) - strips else
                          np.concatenate([[1], np.zeros(len(lane.centre) - 3, np.int8), [2]])
                          if len(lane.centre) > 2 else np.array([3], np.int8)
                          for n, lane in enumerate(lanes)])
    a = np.concatenate([lane.centre[:-1] for lane in lanes])
    b = np.concatenate([lane.centre[1:] for lane in lanes])
    wa = np.concatenate([lane.width[:-1] for lane in lanes]) / 2
    wb = np.concatenate([lane.width[1:] for lane in lanes]) / 2
    seg = b[:, :2] - a[:, :2]
    seg_len2 = np.maximum(np.einsum("ij,ij->i", seg, seg), 1e-12)
    # A uniform grid of segment midpoints, cells `reach` wide: every segment that can hold a
    # point has its midpoint in the point's cell or one of the 8 around it.
    mid = (a[:, :2] + b[:, :2]) / 2
    reach = float(np.sqrt(seg_len2.max()) / 2 + max(wa.max(), wb.max()) + 0.05)
    origin = mid.min(axis=0) - reach
    cols = int((mid[:, 0].max() - origin[0]) // reach) + 3

    def cell_of(xy):
        ij = np.floor((xy - origin) / reach).astype(np.int64)
        return ij[:, 1] * cols + ij[:, 0]

    order = np.argsort(cell_of(mid), kind="stable")
    sorted_cells = cell_of(mid)[order]

    def on_lane(points: np.ndarray) -> np.ndarray:
        hit_any = np.zeros(len(points), bool)
        base = cell_of(points[:, :2])
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                cell = base + dy * cols + dx
                lo = np.searchsorted(sorted_cells, cell, "left")
                hi = np.searchsorted(sorted_cells, cell, "right")
                counts = hi - lo
                if counts.sum() == 0:
                    continue
                who = np.repeat(np.arange(len(points)), counts)
                k = order[np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())]
                rel = points[who, :2] - a[k, :2]
                t_raw = np.einsum("ij,ij->i", rel, seg[k]) / seg_len2[k]
                t = np.clip(t_raw, 0.0, 1.0)
                dist = np.linalg.norm(rel - t[:, None] * seg[k], axis=1)
                slack = 0.05 / np.sqrt(seg_len2[k])
                capped = ((cut[k] & 1) & (t_raw < -slack)) | ((cut[k] & 2) & (t_raw > 1 + slack))
                half = wa[k] + t * (wb[k] - wa[k])
                z = a[k, 2] + t * (b[k, 2] - a[k, 2])
                hit = (dist <= half + 0.05) & (np.abs(points[who, 2] - z) < 2.5) & (capped == 0)
                hit_any[who[hit]] = True
        return hit_any

    return on_lane


def junction_curbs(edges: list[Boundary], lanes: list[Lane], strips: int = 0) -> list[Boundary]:
    """The stretches of junction lane edges that have road on one side only.

    `lanes` are the surfaces that count as road: the lanes, then `strips` paved strips
    (`paved_as_lane`), so no curb runs along a paved strip's inside.

    Each edge point gets two probes `CURB_PROBE` to either side (across the edge); a point
    whose probes are both on some lane (within its half width, +-2.5 m in height, as the
    engine's z window) lies inside the open junction and is dropped. Runs of at least two
    kept points become boundaries.
    """
    on_lane = lane_probe(lanes, strips)

    curbs = []
    edges = [edge for edge in edges if len(edge.points) >= 2]
    if not edges:
        return curbs
    probes = []
    for edge in edges:
        p = edge.points
        d = np.gradient(p[:, :2], axis=0)
        d /= np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-9)
        across = np.column_stack([-d[:, 1], d[:, 0], np.zeros(len(p))]) * CURB_PROBE
        probes += [p + across, p - across]
    sides = on_lane(np.concatenate(probes))
    start = 0
    for edge in edges:
        p, n = edge.points, len(edge.points)
        keep = ~(sides[start:start + n] & sides[start + n:start + 2 * n])
        start += 2 * n
        runs = np.split(np.arange(n), np.flatnonzero(np.diff(keep.astype(np.int8))) + 1)
        for run in runs:
            if keep[run[0]] and len(run) >= 2:
                curbs.append(Boundary(p[run].copy(), edge.kind, f"{edge.source} (junction curb)"))
    return curbs
