"""The typed race state reward code is written against: :class:`CarState` (every car
of every world, one row per car) and :class:`Course` (the circuit).

The engine writes each car's state as one flat row (``race_state=True``, world_info
``race_state``); :func:`car_state_from_raw` turns the rows of many worlds into one
``CarState`` with numpy views, no loop over cars.
"""
from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass

import numpy as np

from trackfield import _engine

# (name, width, dtype) of the engine's row per car, in cpp_engine/racing/race_state.cpp's order.
RAW_FIELDS = (
    ("controlled", 1, np.bool_), ("lap", 1, np.int32), ("course_v", 1, np.float32),
    ("progress", 1, np.float32), ("rank", 1, np.int32), ("gap_ahead", 1, np.float32),
    ("gap_leader", 1, np.float32), ("lateral_offset", 1, np.float32), ("heading", 1, np.float32),
    ("speed_kmh", 1, np.float32), ("position", 3, np.float32), ("velocity_kmh", 3, np.float32),
    ("acceleration", 2, np.float32), ("yaw_rate", 1, np.float32), ("yaw", 1, np.float32),
    ("tyre_off", 4, np.bool_), ("tyre_off_s", 4, np.float32), ("off_course", 1, np.bool_),
    ("off_course_s", 1, np.float32), ("wall_contact", 1, np.bool_), ("wall_s", 1, np.float32),
    ("car_contact", 1, np.bool_), ("contact_s", 1, np.float32), ("steering", 1, np.float32),
    ("throttle", 1, np.float32), ("brake", 1, np.float32), ("steering_history", 10, np.float32),
    ("slip_angle", 4, np.float32), ("slip_ratio", 4, np.float32), ("tyre_load", 4, np.float32),
    ("slipstream", 1, np.float32), ("section", 1, np.int32), ("section_kind", 1, np.int32),
    ("time_s", 1, np.float32), ("finished", 1, np.bool_), ("gear", 1, np.int32),
    ("wall_impact_kmh", 1, np.float32), ("penalty_s", 1, np.float32), ("start_offset", 1, np.float32),
    ("group", 1, np.int32), ("local_velocity_kmh", 2, np.float32),
)
RAW_SCALARS = sum(width for _, width, _ in RAW_FIELDS)
assert RAW_SCALARS == _engine.racing.RACE_STATE_SCALARS, "RAW_FIELDS is out of step with race_state.cpp"


@dataclass(frozen=True, eq=False)
class CarState:
    """Every car of every world at one control step (10 Hz). Each field is a numpy array
    whose first axis is the car (N cars: all cars of all worlds, world by world); C is
    the number of cars in one world. ``state[i]`` is car i alone, as a CarState of one
    car. Units: m, s, km/h, rad; tyres are ordered FL, FR, RL, RR.
    """

    controlled: np.ndarray          # (N,) bool: driven by the agent being trained (False: built-in AI)
    world: np.ndarray               # (N,) int: index of the car's world (0 in a single env)
    car: np.ndarray                 # (N,) int: car slot in its world, 0..C-1
    group: np.ndarray               # (N,) int: independent race group in its world (cars of other groups never meet)
    lap: np.ndarray                 # (N,) int: start-line crossings since the start
    course_v: np.ndarray            # (N,) float m: position along the centre line from the start line, [0, course.length)
    progress: np.ndarray            # (N,) float m: centre-line distance covered since the start (goes down when driving backwards)
    rank: np.ndarray                # (N,) int: place in its group now, 0 = leading
    gap_ahead: np.ndarray           # (N,) float m: centre-line distance to the car one place ahead, 0 when leading
    gap_leader: np.ndarray          # (N,) float m: centre-line distance to the leader, 0 when leading
    lateral_offset: np.ndarray      # (N,) float m: offset from the centre line, + left
    heading: np.ndarray             # (N,) float rad: car heading minus the centre line's, + pointing left, in [-pi, pi)
    speed_kmh: np.ndarray           # (N,) float km/h: speed along the car's heading, negative when reversing
    position: np.ndarray            # (N, 3) float m: x, y, z in the world
    velocity_kmh: np.ndarray        # (N, 3) float km/h: velocity in the world frame
    local_velocity_kmh: np.ndarray  # (N, 2) float km/h: velocity in the car's frame (forward, left)
    acceleration: np.ndarray        # (N, 2) float m/s^2: acceleration in the car's frame (forward, left)
    yaw_rate: np.ndarray            # (N,) float rad/s: + turning left
    yaw: np.ndarray                 # (N,) float rad: heading in the world
    tyre_off: np.ndarray            # (N, 4) bool: each tyre beyond the painted edge plus kerb now
    tyre_off_s: np.ndarray          # (N, 4) float s: each tyre's cumulative time off course this episode
    off_course: np.ndarray          # (N,) bool: off course under the env's off_course_rule now
    off_course_three_tyres: np.ndarray  # (N,) bool: at least three tyres off (GT Sophy's rule)
    off_course_any_tyre: np.ndarray     # (N,) bool: at least one tyre off
    off_course_s: np.ndarray        # (N,) float s: cumulative off-course time under the env's rule
    wall_contact: np.ndarray        # (N,) bool: touched a wall during the last control step
    wall_s: np.ndarray              # (N,) float s: cumulative wall-contact time
    wall_impact_kmh: np.ndarray     # (N,) float km/h: speed into the wall at the last physics step's touch, 0 without
    car_contact: np.ndarray         # (N,) bool: touched another car during the last control step
    contact_s: np.ndarray           # (N,) float s: cumulative time touching another car
    contact: np.ndarray             # (N, C) int: class of contact with car j of its world during the last step:
                                    #   0 none, 1 this car ran into j from behind, 2 j ran into this car from behind, 3 side/other
    distance: np.ndarray            # (N, C) float m: signed centre-line distance to car j of its world, + when j is ahead;
                                    #   0 to itself and to cars of other groups
    others: np.ndarray              # (N, C) int: index of car j of the same world on this state's car axis
                                    #   (x[others] gathers a field of every car of the world per row)
    steering: np.ndarray            # (N,) float: steering command applied, -1..1, + left
    throttle: np.ndarray            # (N,) float: throttle pedal applied, 0..1
    brake: np.ndarray               # (N,) float: brake pedal applied, 0..1
    steering_history: np.ndarray    # (N, 10) float: steering applied in the last 10 control steps, newest first
                                    #   ([:, 0] == steering); zeros before the episode's first steps
    slip_angle: np.ndarray          # (N, 4) float rad: tyre slip angle
    slip_ratio: np.ndarray          # (N, 4) float: tyre slip ratio, -1..1
    tyre_load: np.ndarray           # (N, 4) float N: vertical load per tyre
    slipstream: np.ndarray          # (N,) float: slipstream strength 0..1 (drag cut behind another car)
    section: np.ndarray             # (N,) int: named course section the car is in (course.sections), -1 none
    section_kind: np.ndarray        # (N,) int: 0 straight, 1 curve
    time_s: np.ndarray              # (N,) float s: race time
    finished: np.ndarray            # (N,) bool: completed the race distance
    gear: np.ndarray                # (N,) int: gear, -1 reverse
    penalty_s: np.ndarray           # (N,) float s: slow-down penalty still to serve
    start_offset: np.ndarray        # (N,) float m: start position relative to the race's reference point

    def __len__(self) -> int:
        return len(self.controlled)

    def __eq__(self, other) -> bool:
        return isinstance(other, CarState) and all(
            np.array_equal(getattr(self, f.name), getattr(other, f.name)) for f in dataclasses.fields(self))

    __hash__ = None

    def __getitem__(self, index) -> "CarState":
        if isinstance(index, (int, np.integer)):
            if not -len(self) <= index < len(self):
                raise IndexError(f"car index {index} out of range for {len(self)} cars")
            index = slice(int(index) % len(self), int(index) % len(self) + 1)
        return CarState(**{f.name: getattr(self, f.name)[index] for f in dataclasses.fields(self)})


@dataclass(frozen=True, eq=False)
class Course:
    """The circuit the cars race on (one per env)."""

    name: str                       # circuit name
    length: float                   # m: centre-line length of one lap
    centre_line: np.ndarray         # (M, 3) float m: centre-line points x, y, z, evenly spaced, closed
    left_edge: np.ndarray           # (M, 3) float m: left painted edge
    right_edge: np.ndarray          # (M, 3) float m: right painted edge
    sections: tuple                 # ((name, kind, start_m, end_m), ...): named sections; CarState.section indexes it
    start_finish: np.ndarray        # (2, 3) float m: the start/finish line's left and right end points
    max_laps: int                   # laps of the race distance (0: none, the time limit ends it)
    max_episode_duration_s: float   # s: time limit of an episode


FIELD_NAMES = tuple(f.name for f in dataclasses.fields(CarState))


def car_state_from_raw(raw: np.ndarray, cars: int) -> CarState:
    """The CarState of every car of every world from engine rows, ``raw`` of shape
    (worlds, cars * (RAW_SCALARS + 2 * cars)) or one world's flat row."""
    raw = np.asarray(raw)
    row = RAW_SCALARS + 2 * cars
    # One transposed copy: every field is then a contiguous row (or block of rows) of it,
    # the layout column-wise reward code reads fastest; (N, k) fields are its transposes.
    return car_state_from_columns(np.ascontiguousarray(raw.reshape(-1, row).T, dtype=np.float32), cars)


def car_state_from_columns(cols: np.ndarray, cars: int) -> CarState:
    """The CarState of engine rows already transposed: ``cols`` (row length, N)."""
    n = cols.shape[1]
    out, col = {}, 0
    for name, width, dtype in RAW_FIELDS:
        block = cols[col] if width == 1 else cols[col:col + width].T
        out[name] = block if dtype is np.float32 else block.astype(dtype)
        col += width
    out["contact"] = cols[RAW_SCALARS:RAW_SCALARS + cars].T.astype(np.int32)
    out["distance"] = cols[RAW_SCALARS + cars:].T
    index = np.arange(n)
    out["world"] = index // cars
    out["car"] = index % cars
    out["others"] = (out["world"] * cars)[:, None] + np.arange(cars)[None, :]
    tyres_off = out["tyre_off"].sum(axis=1)
    out["off_course_three_tyres"] = tyres_off >= 3
    out["off_course_any_tyre"] = tyres_off >= 1
    return CarState(**out)


def course_of(track, max_laps: int = 0, max_episode_duration_s: float = 0.0) -> Course:
    """The Course of a racing Track (``env.track``)."""
    centre = np.stack([track.x, track.y, track.z], axis=1).astype(np.float32)
    sections = tuple((s.name, s.kind, float(s.start_m), float(s.end_m)) for s in track.sections)
    start = np.stack([track.left_edge[0], track.right_edge[0]]).astype(np.float32)
    return Course(name=track.name, length=float(track.length), centre_line=centre,
                  left_edge=np.asarray(track.left_edge, np.float32), right_edge=np.asarray(track.right_edge, np.float32),
                  sections=sections, start_finish=start, max_laps=int(max_laps),
                  max_episode_duration_s=float(max_episode_duration_s))


def course_of_env(env) -> Course:
    """The Course of a racing env (single, vector or parallel)."""
    base = getattr(env, "unwrapped", env)
    cfg = base.config
    laps = cfg.laps if cfg.laps is not None else base.scenario.laps
    limit = cfg.max_time_s if cfg.max_time_s is not None else base.scenario.max_time_s
    return course_of(base.track, laps or 0, limit)


def api_source() -> str:
    """The source of CarState and Course with their comments: the API a reward-writing
    model is shown."""
    return inspect.getsource(CarState).split("    def __len__")[0].rstrip() + "\n\n\n" + inspect.getsource(Course)


def _field_comments():
    rows, last = [], None
    for line in inspect.getsource(CarState).splitlines():
        text = line.strip()
        if ":" in text and "#" in text and text.split(":")[0].isidentifier() and "np.ndarray" in text:
            name, comment = text.split("#", 1)[0].split(":")[0], text.split("#", 1)[1].strip()
            rows.append([name, comment])
            last = rows[-1]
        elif text.startswith("#") and last is not None:
            last[1] += " " + text[1:].strip()
    return rows


def api_doc() -> str:
    """A markdown table of CarState's variables (name, shape and unit, meaning): the
    names clip state rows use, for a model comparing clips."""
    lines = ["| variable | shape, unit | meaning |", "|---|---|---|"]
    for name, comment in _field_comments():
        shape, _, meaning = comment.partition(":")
        lines.append(f"| {name} | {shape.strip()} | {meaning.strip()} |")
    return "\n".join(lines)
