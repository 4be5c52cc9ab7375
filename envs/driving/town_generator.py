"""Generated towns: a seeded road network returned as a `RoadMap`.

    from trackfield.driving.town_generator import generate_town
    town = generate_town(7, size="medium")          # or generate_town(7, target_km=12.0)

How a town is made (each step is one function below):
1. `plan_town` (all the randomness): a jittered grid of nodes; whole grid lines become
   arterials, collectors or local streets; some local edges are removed (the graph stays
   connected), a few short stubs leave the border (dead ends), some local edges become
   one-way, some edges bend (a single bow or an S, tangent to the chord at both ends, so
   roads still meet junctions straight); one or two interior nodes become roundabouts.
2. `TownBuilder` (pure geometry, no randomness): each road's centre curve is trimmed
   back from its end nodes by a setback that leaves room for the junction, and its lanes
   are offsets of it. Each node then gets the lanes that join its legs:
   - degree 3 / 4: a junction ("T junction" / "4-way junction" in `Junction.source`) of
     cubic Bezier connecting lanes: straight on from every lane, right turns from the
     rightmost lane, left turns from the leftmost, no U-turns. A lane that would have no
     way out (the middle lane of a three-lane road ending at a T) may turn both ways, and
     an outgoing lane nobody feeds gets the nearest turn, so every lane has a successor
     and a predecessor.
   - a roundabout ("roundabout" in `Junction.source`): one counter-clockwise ring lane cut
     into arcs at every entry and exit, entry and exit connectors for every lane of every
     leg; all of it is one junction. The ring's central island is a "border" Boundary.
   - degree 2: the two roads are joined lane by lane (a bend, not a junction).
   - degree 1, a dead end: a cul-de-sac. The incoming lane continues into a turning loop
     (radius 9 m round a central island) that comes back as the outgoing lane, so an
     agent meets a U-turn there, never a lane without a successor. The loop's outer and
     inner edges are Boundaries; dead-end roads are always two-way local streets.
3. The town is scaled (the grid spacing) so that the total lane length meets the target.

Road classes (`ROAD_CLASSES`): local streets 1 lane each way, 30 km/h (8.3 m/s); collectors
2 lanes each way, 50 km/h (13.9 m/s); arterials 3 lanes each way with a 1.5 m median,
70 km/h (19.4 m/s); one-way streets are local with 2 lanes. Lane widths are 3.0-3.7 m
(one draw per road). Connecting lanes take the lower limit of the two roads they join,
lowered further so that their tightest curve needs at most 2.5 m/s^2 sideways (never
under 4 m/s). The ring is 4.5 m wide.

Boundaries: each road's two outer edges and, on arterials, its median line; the turning
loops' edges and the roundabout island. Nothing inside junctions (corners are open), and
the line between opposite directions of an undivided road is no boundary (it is the left
edge of the leftmost lane). Lights come from `generate_signals` (one per approach at
T and 4-way junctions, none at roundabouts); `Junction.legs` is the number of roads meeting there.

The same seed and arguments give bit-identical arrays (numpy PCG64, no other source of
randomness). Sizes: small about 6 km of lanes, medium about 15 km, large about 32 km.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from trackfield.driving.signals import generate_signals
from trackfield.driving.roadmap import (MAX_POINT_SPACING, Boundary, Junction, Lane, RoadMap,
                                        resample_polyline)


@dataclass(frozen=True)
class RoadClass:
    name: str
    lanes: int                    # per direction
    width: tuple[float, float]    # range of lane widths, m
    speed: float                  # m/s
    median: float                 # m between the two directions (a Boundary when > 0)


ROAD_CLASSES = {
    "local": RoadClass("local", 1, (3.0, 3.3), 8.3, 0.0),
    "collector": RoadClass("collector", 2, (3.2, 3.5), 13.9, 0.0),
    "arterial": RoadClass("arterial", 3, (3.4, 3.7), 19.4, 1.5),
}
ONE_WAY_LANES = 2


@dataclass(frozen=True)
class TownSize:
    grid: tuple[int, int]         # nodes along x, along y
    target_km: float              # total lane length aimed at
    arterials: int                # grid lines that become arterials
    collectors: int
    roundabouts: int
    stubs: int                    # dead-end stubs leaving the border


SIZES = {
    "small": TownSize((4, 3), 6.0, 0, 1, 0, 2),
    "medium": TownSize((5, 5), 15.0, 1, 2, 1, 3),
    "large": TownSize((7, 7), 32.0, 2, 3, 2, 4),
}

JITTER = 0.12            # node jitter, fraction of the grid spacing
REMOVE_FRACTION = 0.12   # share of local edges removed
ONE_WAY_FRACTION = 0.12  # share of eligible local edges made one-way
BEND_FRACTION = 0.35     # share of edges that bend
RING_RADIUS = 18.0       # m, roundabout ring lane centre
RING_WIDTH = 4.5         # m
TURN_RADIUS = 8.0        # m, about the least radius of a right turn at a junction
LOOP_RADIUS = 9.0        # m, dead-end turning loop lane centre
LOOP_NECK = 10.0         # m from the road's end to where the loop reaches its widest
TURN_SPEED_MIN = 4.0     # m/s
LATERAL_ACCEL = 2.5      # m/s^2 that sets connecting lanes' speed limits
SAMPLE_STEP = 0.9        # m between centre-line samples (offset lanes stretch on curves)


@dataclass
class Road:
    a: int
    b: int
    kind: str                     # key of ROAD_CLASSES
    one_way: bool = False         # lanes only from a to b
    bend: float = 0.0             # peak sideways offset, fraction of the chord
    s_bend: bool = False          # an S instead of a single bow
    width: float = 3.3            # lane width, m

    @property
    def lanes_each_way(self) -> tuple[int, int]:
        """(lanes a->b, lanes b->a)."""
        if self.one_way:
            return ONE_WAY_LANES, 0
        k = ROAD_CLASSES[self.kind].lanes
        return k, k

    @property
    def half_width(self) -> float:
        forward, backward = self.lanes_each_way
        if self.one_way:
            return forward * self.width / 2
        return ROAD_CLASSES[self.kind].median / 2 + forward * self.width


@dataclass
class TownPlan:
    nodes: np.ndarray             # (N, 2) in grid units
    roads: list[Road]
    roundabouts: set[int] = field(default_factory=set)

    def degree(self) -> np.ndarray:
        deg = np.zeros(len(self.nodes), dtype=int)
        for r in self.roads:
            deg[r.a] += 1
            deg[r.b] += 1
        return deg


# ---------------------------------------------------------------------------------------
# Public entry point

def generate_town(seed: int, size: str = "small", *, target_km: float | None = None,
                  roundabout: bool | None = None, name: str | None = None, signals: bool = True) -> RoadMap:
    """A town of about `target_km` km of lanes (default: the size's, see `SIZES`).

    `roundabout` forces at least one roundabout on (True) or none (False); by default
    medium and large towns have them and small ones do not. `signals` places lights with
    `generate_signals` (junctions of 3 or more legs, roundabouts excepted).
    """
    town = _generate_town(seed, size, target_km, roundabout, name)
    if signals:
        generate_signals(town)
    return town


def _generate_town(seed, size, target_km, roundabout, name) -> RoadMap:
    if not (isinstance(seed, (int, np.integer)) and seed >= 0):
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    if size not in SIZES:
        raise ValueError(f"size must be one of {sorted(SIZES)}, got {size!r}")
    spec = SIZES[size]
    if target_km is not None:
        if not 3.0 <= target_km <= 60.0:
            raise ValueError(f"target_km must be in [3, 60], got {target_km!r}")
        spec = size_for_target(target_km)
    roundabouts = spec.roundabouts
    if roundabout is not None:
        roundabouts = max(1, roundabouts) if roundabout else 0
    rng = np.random.Generator(np.random.PCG64(int(seed)))
    plan = plan_town(rng, spec, roundabouts)
    name = name or f"town_{size if target_km is None else f'{target_km:g}km'}_{seed}"
    # Road lanes grow linearly with the grid spacing while junctions do not: build once,
    # then solve for the spacing that meets the target and build again.
    trial_spacing = 150.0
    trial = TownBuilder(plan, trial_spacing).build(name)
    road_length = sum(ln.length for ln in trial.lanes if ln.source.startswith("road"))
    road_per_metre = plan_lane_chord_sum(plan, trial_spacing) / trial_spacing
    spacing = trial_spacing + (spec.target_km * 1000.0 - trial.lane_length) / road_per_metre
    spacing = float(np.clip(spacing, 95.0, 260.0))
    if road_length <= 0 or abs(spacing - trial_spacing) < 1e-9:
        return trial
    return TownBuilder(plan, spacing).build(name)


def size_for_target(target_km: float) -> TownSize:
    """Grid and feature counts for a town of `target_km` km of lanes."""
    # about 0.6 km of lanes per grid node in small towns; bigger towns have more
    # multi-lane roads, so more lane-km per node
    nodes = max(9.0, target_km / (0.55 + 0.006 * target_km))
    nx = max(3, int(round(math.sqrt(nodes))))
    ny = max(3, int(math.ceil(nodes / nx)))
    interior = (nx - 2) + (ny - 2)
    arterials = min(2, int(target_km // 12))
    collectors = min(max(0, interior - arterials - 1), 1 + int(target_km // 10))
    roundabouts = 0 if target_km < 9 else (1 if target_km < 25 else 2)
    return TownSize((nx, ny), target_km, arterials, collectors, roundabouts, 2 + int(target_km // 12))


def plan_lane_chord_sum(plan: TownPlan, spacing: float) -> float:
    """Sum over roads of (lanes both ways) x (centre curve length) at this spacing, m."""
    total = 0.0
    for road in plan.roads:
        curve = road_curve(plan.nodes[road.a] * spacing, plan.nodes[road.b] * spacing, road)
        total += sum(road.lanes_each_way) * float(np.sum(np.hypot(*np.diff(curve, axis=0).T)))
    return total


# ---------------------------------------------------------------------------------------
# Planning: every random draw happens here

def plan_town(rng: np.random.Generator, spec: TownSize, roundabouts: int) -> TownPlan:
    nx, ny = spec.grid
    cols, rows = np.meshgrid(np.arange(nx), np.arange(ny))
    nodes = np.column_stack([cols.ravel(), rows.ravel()]).astype(np.float64)
    nodes += rng.uniform(-JITTER, JITTER, nodes.shape)
    rings = choose_roundabouts(rng, nx, ny, roundabouts)
    row_kind, col_kind = classify_lines(rng, nx, ny, spec, rings)
    roads = []
    for r in range(ny):
        for c in range(nx - 1):
            roads.append(Road(r * nx + c, r * nx + c + 1, row_kind[r]))
    for c in range(nx):
        for r in range(ny - 1):
            roads.append(Road(r * nx + c, (r + 1) * nx + c, col_kind[c]))
    plan = TownPlan(nodes, roads, {r * nx + c for r, c in rings})
    remove_local_edges(rng, plan)
    add_stubs(rng, plan, nx, ny, spec.stubs)
    make_one_way(rng, plan)
    for road in plan.roads:
        if rng.random() < BEND_FRACTION:
            road.s_bend = bool(rng.random() < 0.35)
            road.bend = float(rng.uniform(0.05, 0.09) if road.s_bend else rng.uniform(0.07, 0.14))
            road.bend *= 1.0 if rng.random() < 0.5 else -1.0
        lo, hi = ROAD_CLASSES[road.kind].width
        road.width = round(float(rng.uniform(lo, hi)), 2)
    return plan


def choose_roundabouts(rng, nx: int, ny: int, count: int) -> list[tuple[int, int]]:
    """Interior nodes (row, col) on distinct rows and columns."""
    interior = [(r, c) for r in range(1, ny - 1) for c in range(1, nx - 1)]
    order = rng.permutation(len(interior))
    chosen: list[tuple[int, int]] = []
    for i in order:
        r, c = interior[i]
        if len(chosen) < count and all(r != r2 and c != c2 for r2, c2 in chosen):
            chosen.append((r, c))
    return chosen


def classify_lines(rng, nx, ny, spec: TownSize, rings) -> tuple[list[str], list[str]]:
    """Road class of each grid row and column; border lines and lines through
    roundabouts stay local (a single ring lane would choke an arterial)."""
    row_kind, col_kind = ["local"] * ny, ["local"] * nx
    free = [("row", r) for r in range(1, ny - 1) if all(r != rr for rr, _ in rings)]
    free += [("col", c) for c in range(1, nx - 1) if all(c != cc for _, cc in rings)]
    order = rng.permutation(len(free))
    kinds = ["arterial"] * spec.arterials + ["collector"] * spec.collectors
    for kind, i in zip(kinds, order):
        axis, k = free[i]
        (row_kind if axis == "row" else col_kind)[k] = kind
    return row_kind, col_kind


def connected(n_nodes: int, roads: list[Road]) -> bool:
    adjacency = [[] for _ in range(n_nodes)]
    for r in roads:
        adjacency[r.a].append(r.b)
        adjacency[r.b].append(r.a)
    seen = {0}
    queue = deque([0])
    while queue:
        for w in adjacency[queue.popleft()]:
            if w not in seen:
                seen.add(w)
                queue.append(w)
    return len(seen) == n_nodes


def node_roads(plan: TownPlan, v: int) -> list[Road]:
    return [r for r in plan.roads if v in (r.a, r.b)]


def remove_local_edges(rng, plan: TownPlan) -> None:
    """Drop some local edges, keeping the graph connected, roundabouts whole, dead ends
    local and two-road nodes joining roads of one class (so they join lane by lane)."""
    candidates = [r for r in plan.roads if r.kind == "local"
                  and r.a not in plan.roundabouts and r.b not in plan.roundabouts]
    target = int(round(REMOVE_FRACTION * len(candidates)))
    removed = 0
    for i in rng.permutation(len(candidates)):
        if removed >= target:
            break
        road = candidates[i]
        rest = [r for r in plan.roads if r is not road]
        ok = True
        for v in (road.a, road.b):
            left = [r for r in rest if v in (r.a, r.b)]
            if len(left) == 1 and left[0].kind != "local":
                ok = False
            if len(left) == 2 and left[0].kind != left[1].kind:
                ok = False
        if ok and connected(len(plan.nodes), rest):
            plan.roads = rest
            removed += 1


def add_stubs(rng, plan: TownPlan, nx: int, ny: int, count: int) -> None:
    """Short local roads leaving border nodes outwards and ending: dead ends."""
    border = []
    for c in range(1, nx - 1):
        border += [(c, (0.0, -1.0)), ((ny - 1) * nx + c, (0.0, 1.0))]
    for r in range(1, ny - 1):
        border += [(r * nx, (-1.0, 0.0)), (r * nx + nx - 1, (1.0, 0.0))]
    deg = plan.degree()
    border = [(v, d) for v, d in border if deg[v] <= 3]
    nodes = [plan.nodes]
    n = len(plan.nodes)
    for i in rng.permutation(len(border))[:count]:
        v, (dx, dy) = border[i]
        angle = math.atan2(dy, dx) + rng.uniform(-0.3, 0.3)
        length = rng.uniform(0.45, 0.6)
        tip = plan.nodes[v] + length * np.array([math.cos(angle), math.sin(angle)])
        nodes.append(tip[None])
        plan.roads.append(Road(v, n, "local"))
        n += 1
    plan.nodes = np.concatenate(nodes)


def make_one_way(rng, plan: TownPlan) -> None:
    """Some local edges between junctions carry traffic one way. The two-way roads alone
    stay connected, so every node can still reach every other."""
    deg = plan.degree()
    eligible = [r for r in plan.roads if r.kind == "local" and deg[r.a] >= 3 and deg[r.b] >= 3
                and r.a not in plan.roundabouts and r.b not in plan.roundabouts]
    target = int(round(ONE_WAY_FRACTION * len(eligible)))
    made = 0
    for i in rng.permutation(len(eligible)):
        if made >= target:
            break
        road = eligible[i]
        if rng.random() < 0.5:
            road.a, road.b = road.b, road.a
        two_way = [r for r in plan.roads if not r.one_way and r is not road]
        if connected(len(plan.nodes), two_way) and ways_in_and_out(plan, road):
            road.one_way = True
            made += 1


def ways_in_and_out(plan: TownPlan, candidate: Road) -> bool:
    """Whether, with `candidate` one-way from a to b, both its nodes keep two roads to
    leave by and two to arrive by (else a lane arriving there could only turn back)."""
    for v in (candidate.a, candidate.b):
        ways_out = ways_in = 0
        for r in plan.roads:
            if v not in (r.a, r.b):
                continue
            one_way = r.one_way or r is candidate
            ways_out += (not one_way) or r.a == v
            ways_in += (not one_way) or r.b == v
        if ways_out < 2 or ways_in < 2:
            return False
    return True


# ---------------------------------------------------------------------------------------
# Geometry helpers

def road_curve(pa: np.ndarray, pb: np.ndarray, road: Road) -> np.ndarray:
    """Dense centre curve from pa to pb (about 4 samples a metre): a bow sin^2(pi t) or an
    S sin^2(pi t) cos(pi t), both tangent to the chord at the ends."""
    chord = pb - pa
    length = float(np.hypot(*chord))
    t = np.linspace(0.0, 1.0, max(8, int(length * 4)))
    normal = np.array([-chord[1], chord[0]]) / length
    if road.s_bend:
        shape = np.sin(np.pi * t) ** 2 * np.cos(np.pi * t) * 2.6   # peak of sin^2 cos is 0.385
    else:
        shape = np.sin(np.pi * t) ** 2
    return pa + t[:, None] * chord + (road.bend * length * shape)[:, None] * normal


def cumulative_length(points: np.ndarray) -> np.ndarray:
    return np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(points[:, :2], axis=0).T))])


def sample_between(curve: np.ndarray, start: float, end: float) -> tuple[np.ndarray, np.ndarray]:
    """Points and unit tangents at even arc length from `start` to `end` m along `curve`."""
    s = cumulative_length(curve)
    n = max(2, int(math.ceil((end - start) / SAMPLE_STEP)) + 1)
    at = np.linspace(start, end, n)
    xy = np.column_stack([np.interp(at, s, curve[:, 0]), np.interp(at, s, curve[:, 1])])
    tangent = np.gradient(curve, s, axis=0)
    tangent = np.column_stack([np.interp(at, s, tangent[:, 0]), np.interp(at, s, tangent[:, 1])])
    return xy, tangent / np.linalg.norm(tangent, axis=1, keepdims=True)


def left_normal(tangent: np.ndarray) -> np.ndarray:
    return np.stack([-tangent[..., 1], tangent[..., 0]], axis=-1)


def offset_polyline(xy: np.ndarray, lateral: float) -> np.ndarray:
    """`xy` moved `lateral` m to its left (negative: right), normals from its own shape."""
    tangent = np.gradient(xy, axis=0)
    tangent /= np.linalg.norm(tangent, axis=1, keepdims=True)
    return xy + lateral * left_normal(tangent)


def bezier(p0, d0, p3, d3) -> np.ndarray:
    """Cubic Bezier from p0 heading d0 to p3 heading d3, about 3 samples a metre; handles
    0.4 x chord long (close to a circular arc for turns up to 90 degrees)."""
    chord = float(np.hypot(*(p3 - p0)))
    h = 0.4 * chord
    p1, p2 = p0 + h * d0, p3 - h * d3
    t = np.linspace(0.0, 1.0, max(6, int(chord * 3) + 2))[:, None]
    u = 1.0 - t
    return u ** 3 * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t ** 3 * p3


def arc(centre, radius: float, a0: float, a1: float) -> np.ndarray:
    """Counter-clockwise circular arc from angle a0 to a1 (a1 > a0)."""
    n = max(3, int(math.ceil(radius * (a1 - a0) / 0.5)) + 1)
    a = np.linspace(a0, a1, n)
    return centre + radius * np.column_stack([np.cos(a), np.sin(a)])


def ccw_tangent(angle: float) -> np.ndarray:
    return np.array([-math.sin(angle), math.cos(angle)])


def join(*pieces: np.ndarray) -> np.ndarray:
    """Concatenate polylines whose ends coincide, dropping the repeated joints."""
    return np.concatenate([pieces[0]] + [p[1:] for p in pieces[1:]])


def curve_speed(xy: np.ndarray, cap: float) -> float:
    """Speed limit of a connecting lane: at most `cap`, at most LATERAL_ACCEL sideways on
    its tightest curve, never under TURN_SPEED_MIN."""
    d = np.diff(xy, axis=0)
    heading = np.unwrap(np.arctan2(d[:, 1], d[:, 0]))
    ds = np.hypot(d[:, 0], d[:, 1])
    if len(heading) < 2:
        return cap
    # curvature over ~3 m windows so that sampling noise does not set the limit
    k = max(1, int(3.0 / max(float(ds.mean()), 1e-6)))
    if len(heading) <= k:
        return cap
    turn = np.abs(heading[k:] - heading[:-k])
    dist = np.convolve(ds, np.ones(k), mode="valid")[: len(turn)]
    curvature = float(np.max(turn / np.maximum(dist, 1e-6)))
    v = math.sqrt(LATERAL_ACCEL / curvature) if curvature > 1e-9 else cap
    return round(float(np.clip(v, TURN_SPEED_MIN, cap)), 1)


def classify_turn(heading_in: np.ndarray, heading_out: np.ndarray) -> str | None:
    """"straight" / "left" / "right", or None for a U-turn."""
    angle = math.degrees(math.atan2(heading_in[0] * heading_out[1] - heading_in[1] * heading_out[0],
                                    float(heading_in @ heading_out)))
    if abs(angle) <= 40.0:
        return "straight"
    if abs(angle) >= 155.0:
        return None
    return "left" if angle > 0 else "right"


def covering_pairs(n_in: int, n_out: int) -> list[tuple[int, int]]:
    """Lane pairs (left-to-right indices) that use every lane on both sides, aligned on the
    right: the rightmost lanes meet, surplus lanes on the left split or merge."""
    m = max(n_in, n_out)
    pairs = [(n_in - 1 - min(r, n_in - 1), n_out - 1 - min(r, n_out - 1)) for r in range(m)]
    return sorted(set(pairs))


# ---------------------------------------------------------------------------------------
# Building: a plan and a grid spacing in, a RoadMap out

@dataclass
class Leg:
    """One road at one node, as seen from the node."""
    road: int
    point: np.ndarray             # road centre where the road is trimmed
    out_dir: np.ndarray           # unit heading from the node along the road
    half_width: float
    incoming: list[int]           # lanes ending here, left to right in their travel direction
    outgoing: list[int]           # lanes starting here, left to right


class TownBuilder:
    def __init__(self, plan: TownPlan, spacing: float):
        self.plan = plan
        self.nodes = plan.nodes * spacing
        self.lanes: list[Lane] = []
        self.boundaries: list[Boundary] = []
        self.junctions: list[Junction] = []
        self.start_dir: dict[int, np.ndarray] = {}
        self.end_dir: dict[int, np.ndarray] = {}
        self.legs: list[list[Leg]] = [[] for _ in range(len(self.nodes))]

    def build(self, name: str) -> RoadMap:
        setbacks = self.setbacks()
        for i, road in enumerate(self.plan.roads):
            self.build_road(i, road, setbacks[(i, road.a)], setbacks[(i, road.b)])
        for v, legs in enumerate(self.legs):
            if v in self.plan.roundabouts:
                self.build_roundabout(v, legs)
            elif len(legs) == 1:
                self.build_dead_end(v, legs[0])
            elif len(legs) == 2:
                self.build_bend(v, legs)
            elif len(legs) >= 3:
                self.build_junction(v, legs)
        for i, lane in enumerate(self.lanes):
            for j in lane.successors:
                self.lanes[j].predecessors.append(i)
        return RoadMap(name, self.lanes, self.boundaries, [], self.junctions)

    # -- setbacks ----------------------------------------------------------------------

    def chord_dir(self, road: Road, v: int) -> np.ndarray:
        other = road.b if v == road.a else road.a
        d = self.nodes[other] - self.nodes[v]
        return d / np.hypot(*d)

    def setbacks(self) -> dict[tuple[int, int], float]:
        """Distance (m) from each node to where each of its roads starts."""
        out = {}
        for v in range(len(self.nodes)):
            ids = [i for i, r in enumerate(self.plan.roads) if v in (r.a, r.b)]
            roads = [self.plan.roads[i] for i in ids]
            if v in self.plan.roundabouts:
                for i in ids:
                    out[(i, v)] = RING_RADIUS + RING_WIDTH / 2 + 11.0
                continue
            if len(ids) == 1:
                out[(ids[0], v)] = LOOP_NECK + LOOP_RADIUS / 2 + LOOP_RADIUS + roads[0].width / 2
                continue
            dirs = [self.chord_dir(r, v) for r in roads]
            angles = [math.atan2(d[1], d[0]) for d in dirs]
            # room for a turn radius of about 10 m at two-road bends, open corners at junctions
            margin = 10.0 if len(ids) == 2 else 4.0
            for k, i in enumerate(ids):
                need = 3.0
                for m in range(len(ids)):
                    if m == k:
                        continue
                    theta = abs((angles[m] - angles[k] + math.pi) % (2 * math.pi) - math.pi)
                    if theta > math.radians(150):
                        continue
                    h_self, h_other = roads[k].half_width, roads[m].half_width
                    if len(ids) == 2:
                        need = max(need, (max(h_self, h_other) + margin) / math.tan(theta / 2))
                        continue
                    corner = (h_other + h_self * math.cos(theta)) / math.sin(theta)
                    # a right turn between these legs has a radius of about TURN_RADIUS
                    fillet = (TURN_RADIUS + max(h_self, h_other) - 1.5) / math.tan(theta / 2)
                    need = max(need, corner + margin, fillet)
                out[(i, v)] = need
        return out

    # -- lanes -------------------------------------------------------------------------

    def add_lane(self, xy: np.ndarray, width, speed: float, source: str, junction: int = -1,
                 start_dir=None, end_dir=None) -> int:
        width = np.broadcast_to(np.asarray(width, dtype=np.float64), (len(xy),))
        xyzw = np.column_stack([xy, np.zeros(len(xy)), width])
        spacing = np.hypot(*np.diff(xy, axis=0).T)
        if spacing.max() > MAX_POINT_SPACING:
            xyzw = resample_polyline(xyzw, MAX_POINT_SPACING)
        i = len(self.lanes)
        self.lanes.append(Lane(np.ascontiguousarray(xyzw[:, :3]), np.ascontiguousarray(xyzw[:, 3]),
                               float(speed), junction=junction, source=source))
        d = np.diff(xy, axis=0)
        self.start_dir[i] = start_dir if start_dir is not None else d[0] / np.hypot(*d[0])
        self.end_dir[i] = end_dir if end_dir is not None else d[-1] / np.hypot(*d[-1])
        return i

    def build_road(self, i: int, road: Road, back_a: float, back_b: float) -> None:
        curve = road_curve(self.nodes[road.a], self.nodes[road.b], road)
        total = cumulative_length(curve)[-1]
        if back_a + back_b > total - 5.0:
            raise RuntimeError(f"road {i} too short for its junctions ({total:.0f} m)")
        xy, tangent = sample_between(curve, back_a, total - back_b)
        cls = ROAD_CLASSES[road.kind]
        forward, backward = road.lanes_each_way
        half_median = 0.0 if road.one_way else cls.median / 2
        # lateral position of lane k (0 = leftmost) to the left of its own travel direction
        if road.one_way:
            lateral = [(forward / 2 - k - 0.5) * road.width for k in range(forward)]
        else:
            lateral = [-(half_median + (k + 0.5) * road.width) for k in range(forward)]
        ahead = []
        for k, y in enumerate(lateral):
            ahead.append(self.add_lane(xy + y * left_normal(tangent), road.width, cls.speed,
                                       f"road {i} ({road.kind}) a-b lane {k}",
                                       start_dir=tangent[0], end_dir=tangent[-1]))
        back = []
        rxy, rtan = xy[::-1], -tangent[::-1]
        for k in range(backward):
            y = -(half_median + (k + 0.5) * road.width)
            back.append(self.add_lane(rxy + y * left_normal(rtan), road.width, cls.speed,
                                      f"road {i} ({road.kind}) b-a lane {k}",
                                      start_dir=rtan[0], end_dir=rtan[-1]))
        for group in (ahead, back):
            for left, right in zip(group, group[1:]):
                self.lanes[left].right = right
                self.lanes[right].left = left
        for y in (road.half_width, -road.half_width):
            self.add_boundary(xy + y * left_normal(tangent), "edge", f"road {i} edge")
        if half_median > 0:
            self.add_boundary(xy, "median", f"road {i} median")
        self.legs[road.a].append(Leg(i, xy[0], tangent[0], road.half_width, back, ahead))
        self.legs[road.b].append(Leg(i, xy[-1], -tangent[-1], road.half_width, ahead, back))

    def add_boundary(self, xy: np.ndarray, kind: str, source: str) -> None:
        self.boundaries.append(Boundary(np.column_stack([xy, np.zeros(len(xy))]), kind, source))

    def connect(self, a: int, b: int, speed: float, source: str, junction: int) -> int:
        """A connecting lane from the end of lane a to the start of lane b."""
        p0, p3 = self.lanes[a].centre[-1, :2], self.lanes[b].centre[0, :2]
        xy = bezier(p0, self.end_dir[a], p3, self.start_dir[b])
        return self.connect_along(xy, a, b, speed, source, junction)

    def connect_along(self, xy, a: int, b: int, speed: float, source: str, junction: int) -> int:
        s = cumulative_length(xy)
        w0, w1 = self.lanes[a].width[-1], self.lanes[b].width[0]
        width = w0 + (w1 - w0) * s / max(s[-1], 1e-9)
        c = self.add_lane(xy, width, curve_speed(xy, speed), source, junction,
                          start_dir=self.end_dir[a], end_dir=self.start_dir[b])
        self.lanes[a].successors.append(c)
        self.lanes[c].successors.append(b)
        return c

    def speed_of(self, *lanes: int) -> float:
        return min(self.lanes[i].speed_limit for i in lanes)

    # -- nodes -------------------------------------------------------------------------

    def build_bend(self, v: int, legs: list[Leg]) -> None:
        """Two roads of one class joined lane by lane (no junction)."""
        for a, b in ((legs[0], legs[1]), (legs[1], legs[0])):
            made = []
            for i, j in covering_pairs(len(a.incoming), len(b.outgoing)) if a.incoming and b.outgoing else []:
                la, lb = a.incoming[i], b.outgoing[j]
                made.append(self.connect(la, lb, self.speed_of(la, lb), f"node {v} bend", -1))
            if len(a.incoming) == len(b.outgoing):
                for left, right in zip(made, made[1:]):
                    self.lanes[left].right = right
                    self.lanes[right].left = left

    def build_junction(self, v: int, legs: list[Leg]) -> None:
        j = len(self.junctions)
        kind = "T junction" if len(legs) == 3 else f"{len(legs)}-way junction"
        junction = Junction([], len(legs), f"{kind} at node {v}")
        self.junctions.append(junction)
        made: dict[tuple[int, int], int] = {}

        def link(a: int, b: int) -> None:
            if (a, b) not in made:
                made[(a, b)] = self.connect(a, b, self.speed_of(a, b), f"{kind} {j} at node {v}", j)

        turns = {}
        for p, a in enumerate(legs):
            for q, b in enumerate(legs):
                if p != q and a.incoming and b.outgoing:
                    turns[(p, q)] = classify_turn(-a.out_dir, b.out_dir)
        for (p, q), turn in turns.items():
            a, b = legs[p], legs[q]
            if turn == "straight":
                straight = []
                for i, k in covering_pairs(len(a.incoming), len(b.outgoing)):
                    link(a.incoming[i], b.outgoing[k])
                    straight.append(made[(a.incoming[i], b.outgoing[k])])
                if len(a.incoming) == len(b.outgoing):
                    for left, right in zip(straight, straight[1:]):
                        self.lanes[left].right = right
                        self.lanes[right].left = left
            elif turn == "left":
                link(a.incoming[0], b.outgoing[0])
            elif turn == "right":
                link(a.incoming[-1], b.outgoing[-1])
        # lanes the rules leave without a way out may turn either way
        for p, a in enumerate(legs):
            for lane in a.incoming:
                if any(key[0] == lane for key in made):
                    continue
                for (p2, q), turn in turns.items():
                    if p2 == p and turn in ("left", "right"):
                        b = legs[q]
                        link(lane, b.outgoing[0] if turn == "left" else b.outgoing[-1])
        # outgoing lanes nobody feeds take the nearest turn's lane
        for q, b in enumerate(legs):
            for k, lane in enumerate(b.outgoing):
                if any(key[1] == lane for key in made):
                    continue
                for want in ("straight", "right", "left"):
                    sources = [legs[p] for (p, q2), turn in turns.items() if q2 == q and turn == want]
                    if sources:
                        a = sources[0]
                        link(a.incoming[-1] if want != "left" else a.incoming[0], lane)
                        break
        junction.lanes = sorted(made.values())

    def build_roundabout(self, v: int, legs: list[Leg]) -> None:
        """One counter-clockwise ring lane, split into arcs where lanes enter and leave."""
        j = len(self.junctions)
        junction = Junction([], len(legs), f"roundabout at node {v}", kind="roundabout")
        self.junctions.append(junction)
        centre = self.nodes[v]
        marks = []   # (angle, "exit" | "entry", leg)
        for k, leg in enumerate(legs):
            theta = math.atan2(leg.out_dir[1], leg.out_dir[0])
            delta = math.asin(min(0.8, (0.5 * leg.half_width + 2.5) / RING_RADIUS))
            marks += [(theta - delta, "exit", k), (theta + delta, "entry", k)]
        marks = sorted(((a % (2 * math.pi), what, k) for a, what, k in marks))
        speed = curve_speed(arc(centre, RING_RADIUS, 0.0, 1.0), 8.3)
        source = f"roundabout {j} at node {v}"
        arcs = []
        for m, (a0, _, _) in enumerate(marks):
            a1 = marks[(m + 1) % len(marks)][0] + (2 * math.pi if m + 1 == len(marks) else 0.0)
            arcs.append(self.add_lane(arc(centre, RING_RADIUS, a0, a1), RING_WIDTH, speed, source, j,
                                      start_dir=ccw_tangent(a0), end_dir=ccw_tangent(a1)))
        made = list(arcs)
        for m, (angle, what, k) in enumerate(marks):
            before, after = arcs[m - 1], arcs[m]   # arcs ending and starting at this mark
            self.lanes[before].successors.append(after)
            point = centre + RING_RADIUS * np.array([math.cos(angle), math.sin(angle)])
            if what == "entry":
                for lane in legs[k].incoming:
                    xy = bezier(self.lanes[lane].centre[-1, :2], self.end_dir[lane], point, ccw_tangent(angle))
                    made.append(self.connect_along(xy, lane, after, self.speed_of(lane), source, j))
            else:
                for lane in legs[k].outgoing:
                    xy = bezier(point, ccw_tangent(angle), self.lanes[lane].centre[0, :2], self.start_dir[lane])
                    made.append(self.connect_along(xy, before, lane, self.speed_of(lane), source, j))
        island = arc(centre, RING_RADIUS - RING_WIDTH / 2 - 0.3, 0.0, 2 * math.pi)
        self.add_boundary(island, "border", f"{source} island")
        junction.lanes = sorted(made)

    def build_dead_end(self, v: int, leg: Leg) -> None:
        """A cul-de-sac: the incoming lane runs into a turning loop round a central island
        and comes back as the outgoing lane."""
        (lane_in,), (lane_out,) = leg.incoming, leg.outgoing
        u = -leg.out_dir                               # towards the end of the road
        n = left_normal(u)
        frame = lambda x, y: leg.point + x * u + y * n  # noqa: E731  (road-end coordinates)
        centre = frame(LOOP_NECK + LOOP_RADIUS / 2, 0.0)
        a_in, a_out = math.atan2(u[1], u[0]) - 2 * math.pi / 3, math.atan2(u[1], u[0]) + 2 * math.pi / 3
        entry = centre + LOOP_RADIUS * np.array([math.cos(a_in), math.sin(a_in)])
        leave = centre + LOOP_RADIUS * np.array([math.cos(a_out), math.sin(a_out)])
        p0, p3 = self.lanes[lane_in].centre[-1, :2], self.lanes[lane_out].centre[0, :2]
        xy = join(bezier(p0, self.end_dir[lane_in], entry, ccw_tangent(a_in)),
                  arc(centre, LOOP_RADIUS, a_in, a_out),
                  bezier(leave, ccw_tangent(a_out), p3, self.start_dir[lane_out]))
        self.connect_along(xy, lane_in, lane_out, self.speed_of(lane_in),
                           f"node {v} dead end turning loop", -1)
        width = self.lanes[lane_in].width[-1]
        self.add_boundary(offset_polyline(xy, -width / 2), "edge", f"node {v} dead end")
        self.add_boundary(offset_polyline(xy, width / 2), "border", f"node {v} dead end island")
