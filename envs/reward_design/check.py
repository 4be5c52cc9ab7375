"""Whether a reward file can run: ``check_runnable`` and the state pairs it runs on."""
from __future__ import annotations

import ast
import dataclasses
import math
import os
import threading
import traceback
from dataclasses import dataclass

import numpy as np

from trackfield.reward_design.program import exec_reward_source, program_from_namespace
from trackfield.reward_design.state import CarState, Course

# Documented ranges of sampled states (sample_state_pairs).
SPEED_RANGE_KMH = (-30.0, 320.0)
OFFSET_RANGE_M = (-15.0, 15.0)
HEADING_RANGE_RAD = (-np.pi, np.pi)


@dataclass(frozen=True)
class CheckResult:
    ok: bool
    message: str  # "" when ok; else what failed, with the traceback's file and line, ready for a prompt

    def __bool__(self):
        return self.ok


def sample_course() -> Course:
    """A small oval Course (400 m) for checks without an env."""
    t = np.linspace(0, 2 * np.pi, 200, endpoint=False)
    centre = np.stack([80 * np.cos(t), 40 * np.sin(t), np.zeros_like(t)], axis=1).astype(np.float32)
    normal = np.stack([np.cos(t), 2 * np.sin(t), np.zeros_like(t)], axis=1)
    normal /= np.linalg.norm(normal, axis=1, keepdims=True)
    left, right = (centre - 6 * normal).astype(np.float32), (centre + 6 * normal).astype(np.float32)
    length = float(np.linalg.norm(np.diff(np.vstack([centre, centre[:1]]), axis=0), axis=1).sum())
    return Course("oval", length, centre, left, right, (("hairpin", "curve", 100.0, 150.0),),
                  np.stack([left[0], right[0]]), 2, 150.0)


def _random_state(rng, course, cars, previous=None, dt=0.1, kind="plain"):
    n = cars
    f = {}
    speed = rng.uniform(0, 250, n)
    if kind == "standstill":
        speed = np.zeros(n)
    elif kind == "reverse":
        speed = -rng.uniform(0, 25, n)
    f["controlled"] = np.arange(n) < max(1, n // 4)
    f["world"] = np.zeros(n, np.int64)
    f["car"] = np.arange(n)
    f["group"] = np.zeros(n, np.int32)
    prev_progress = previous.progress if previous is not None else rng.uniform(0, 3 * course.length, n).astype(np.float32)
    progress = (prev_progress + speed / 3.6 * dt).astype(np.float32)
    f["progress"] = progress
    f["lap"] = (progress // course.length).astype(np.int32)
    f["course_v"] = (progress % course.length).astype(np.float32)
    order = np.argsort(-progress, kind="stable")
    rank = np.empty(n, np.int32)
    rank[order] = np.arange(n)
    f["rank"] = rank
    lead = progress.max()
    ahead = np.zeros(n, np.float32)
    ahead[order[1:]] = progress[order[:-1]] - progress[order[1:]]
    f["gap_ahead"], f["gap_leader"] = ahead, (lead - progress).astype(np.float32)
    f["lateral_offset"] = rng.uniform(*OFFSET_RANGE_M, n).astype(np.float32)
    if kind == "tyres_out":
        f["lateral_offset"] = rng.choice([-9.0, 9.0], n).astype(np.float32)
    f["heading"] = rng.uniform(-0.3, 0.3, n).astype(np.float32)
    if kind == "reverse":
        f["heading"] = rng.uniform(*HEADING_RANGE_RAD, n).astype(np.float32)
    f["speed_kmh"] = speed.astype(np.float32)
    yaw = rng.uniform(-np.pi, np.pi, n)
    f["yaw"] = yaw.astype(np.float32)
    f["position"] = np.stack([rng.uniform(-300, 300, n), rng.uniform(-300, 300, n), rng.uniform(0, 10, n)], 1).astype(np.float32)
    f["velocity_kmh"] = np.stack([speed * np.cos(yaw), speed * np.sin(yaw), np.zeros(n)], 1).astype(np.float32)
    f["local_velocity_kmh"] = np.stack([speed, rng.normal(0, 3, n)], 1).astype(np.float32)
    f["acceleration"] = rng.normal(0, 8, (n, 2)).astype(np.float32)
    f["yaw_rate"] = rng.normal(0, 0.5, n).astype(np.float32)
    out = rng.random((n, 4)) < (0.8 if kind == "tyres_out" else 0.05)
    f["tyre_off"] = out
    base = previous.tyre_off_s if previous is not None else rng.uniform(0, 5, (n, 4)).astype(np.float32)
    f["tyre_off_s"] = (base + out * rng.uniform(0, dt, (n, 4))).astype(np.float32)
    count = out.sum(1)
    f["off_course_three_tyres"], f["off_course_any_tyre"] = count >= 3, count >= 1
    f["off_course"] = count >= 3
    base = previous.off_course_s if previous is not None else rng.uniform(0, 5, n).astype(np.float32)
    f["off_course_s"] = (base + f["off_course"] * dt).astype(np.float32)
    wall = rng.random(n) < (0.3 if kind == "contacts" else 0.03)
    f["wall_contact"] = wall
    base = previous.wall_s if previous is not None else rng.uniform(0, 2, n).astype(np.float32)
    f["wall_s"] = (base + wall * rng.uniform(0, dt, n)).astype(np.float32)
    f["wall_impact_kmh"] = (wall * rng.uniform(0, 50, n)).astype(np.float32)
    contact = np.zeros((n, n), np.int32)
    if n > 1:
        p = 0.3 if kind == "contacts" else 0.02
        touch = np.triu(rng.random((n, n)) < p, 1)
        cls = rng.integers(1, 4, (n, n))
        contact = np.where(touch, cls, 0)
        mirror = np.where(contact.T == 1, 2, np.where(contact.T == 2, 1, contact.T))
        contact = np.where(touch, contact, mirror).astype(np.int32)
    f["contact"] = contact
    f["car_contact"] = (contact != 0).any(1)
    base = previous.contact_s if previous is not None else rng.uniform(0, 2, n).astype(np.float32)
    f["contact_s"] = (base + f["car_contact"] * dt).astype(np.float32)
    f["distance"] = (progress[None, :] - progress[:, None]).astype(np.float32)
    f["others"] = np.broadcast_to(np.arange(n), (n, n)).copy()
    steer = rng.uniform(-1, 1, n).astype(np.float32)
    hist = previous.steering_history if previous is not None else rng.uniform(-1, 1, (n, 10)).astype(np.float32)
    f["steering"] = steer
    f["steering_history"] = np.concatenate([steer[:, None], hist[:, :-1]], 1).astype(np.float32)
    pedal = rng.uniform(-1, 1, n)
    f["throttle"], f["brake"] = np.maximum(pedal, 0).astype(np.float32), np.maximum(-pedal, 0).astype(np.float32)
    f["slip_angle"] = rng.normal(0, 0.05, (n, 4)).astype(np.float32)
    f["slip_ratio"] = np.clip(rng.normal(0, 0.1, (n, 4)), -1, 1).astype(np.float32)
    f["tyre_load"] = rng.uniform(1000, 9000, (n, 4)).astype(np.float32)
    f["slipstream"] = rng.uniform(0, 1, n).astype(np.float32) * (rng.random(n) < 0.3)
    f["section"] = rng.integers(-1, len(course.sections), n).astype(np.int32)
    f["section_kind"] = rng.integers(0, 2, n).astype(np.int32)
    t0 = previous.time_s[0] + dt if previous is not None else rng.uniform(0, 100)
    f["time_s"] = np.full(n, t0, np.float32)
    f["finished"] = rng.random(n) < 0.05
    f["gear"] = np.where(speed < 0, -1, rng.integers(1, 7, n)).astype(np.int32)
    f["penalty_s"] = np.zeros(n, np.float32)
    f["start_offset"] = np.zeros(n, np.float32)
    return CarState(**f)


def sample_state_pairs(course: Course | None = None, n_cars: int = 8, n: int = 16, seed: int = 0):
    """``n`` plausible (previous, current) CarState pairs of ``n_cars`` cars on
    ``course`` (default: a 400 m oval), deterministic per ``seed``. Ranges: speed
    SPEED_RANGE_KMH, lateral offset OFFSET_RANGE_M, headings within 0.3 rad of the
    line except when reversing, cumulative times that only grow by at most one step
    (0.1 s). Edge cases come first: 1 car, 20 cars, standstill, reverse, tyres out,
    contacts; then recorded transitions bundled with trackfield (race_1v7 on oval)."""
    course = course if course is not None else sample_course()
    rng = np.random.default_rng(seed)
    kinds = [(1, "plain"), (20, "plain"), (n_cars, "standstill"), (n_cars, "reverse"), (n_cars, "tyres_out"),
             (n_cars, "contacts")]
    pairs = []
    recorded = _bundled_pairs()
    for k in range(n):
        cars, kind = kinds[k] if k < len(kinds) else (n_cars, "plain")
        if k >= len(kinds) and recorded and k % 4 == 0:
            pairs.append(recorded[(k // 4) % len(recorded)])
            continue
        prev = _random_state(rng, course, cars, kind=kind)
        pairs.append((prev, _random_state(rng, course, cars, previous=prev, kind=kind)))
    return pairs


_BUNDLED = None


def _bundled_pairs():
    """Recorded transitions shipped in presets/transitions.npz, if present."""
    global _BUNDLED
    if _BUNDLED is None:
        path = os.path.join(os.path.dirname(__file__), "presets", "transitions.npz")
        _BUNDLED = []
        if os.path.isfile(path):
            from trackfield.reward_design.trajectory import load_state_pairs

            _BUNDLED = load_state_pairs(path)
    return _BUNDLED


def _where(exc, path):
    """The traceback's frames inside the reward file, formatted for a prompt."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
    lines = [f'  File "{f.filename}", line {f.lineno}, in {f.name}\n    {f.line}' for f in frames]
    return ("\n".join(lines) + "\n" if lines else "") + f"{type(exc).__name__}: {exc}"


def _call_with_limit(fn, args, limit_s):
    result = {}

    def run():
        try:
            result["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - reported to the user, never raised
            result["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(limit_s)
    if thread.is_alive():
        raise TimeoutError(f"the call took longer than the limit of {limit_s:g} s")
    if "error" in result:
        raise result["error"]
    return result["value"]


def _snapshot(state: CarState):
    return {f.name: getattr(state, f.name).copy() for f in dataclasses.fields(state)}


def check_runnable(path_or_source, *, allow_helpers: bool = False, time_limit_s: float = 1.0,
                   course: Course | None = None, pairs=None, seed: int = 0) -> CheckResult:
    """Whether a reward file (path or source text) runs: it imports; ``weights`` and the
    component functions match one to one (helpers starting with ``_`` are allowed; with
    ``allow_helpers`` any); every weight is finite; every call on ``pairs`` (default:
    ``sample_state_pairs``) returns finite floats of shape (N,) or (N, 1) within
    ``time_limit_s``, leaves its arguments unchanged, and gives the same values when
    repeated. Never raises on bad user code: failures come back as ``ok=False`` with a
    message holding the file line."""
    try:
        if isinstance(path_or_source, os.PathLike) or (isinstance(path_or_source, str) and "\n" not in path_or_source
                                                       and path_or_source.endswith(".py")):
            path = os.fspath(path_or_source)
            if not os.path.isfile(path):
                return CheckResult(False, f"reward file {path!r} does not exist")
            with open(path, encoding="utf-8") as f:
                source = f.read()
        elif isinstance(path_or_source, str):
            path, source = "<reward>", path_or_source
        else:
            return CheckResult(False, f"expected a reward file path or source text, got {type(path_or_source).__name__}")
        return _check(source, path, allow_helpers, time_limit_s, course, pairs, seed)
    except BaseException as exc:  # noqa: BLE001 - a check never raises on the user's code
        if isinstance(exc, KeyboardInterrupt):
            raise
        return CheckResult(False, f"the check itself failed: {type(exc).__name__}: {exc}")


def _check(source, path, allow_helpers, time_limit_s, course, pairs, seed):
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        return CheckResult(False, f'  File "{path}", line {exc.lineno}\n    {(exc.text or "").rstrip()}\n'
                                  f"SyntaxError: {exc.msg} (line {exc.lineno})")
    try:
        namespace = _call_with_limit(exec_reward_source, (source, path), max(time_limit_s, 5.0))
    except BaseException as exc:  # noqa: BLE001
        return CheckResult(False, "importing the reward file failed:\n" + _where(exc, path))
    weights = namespace.get("weights")
    if not isinstance(weights, dict) or not weights:
        return CheckResult(False, f"{path}: the file must define a non-empty dict `weights = {{\"component\": weight}}`")
    defined = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    for name in weights:
        if name not in defined or not callable(namespace.get(name)):
            return CheckResult(False, f"{path}: weights names {name!r} but the file defines no function "
                                      f"{name}(current, previous, course)")
    extra = [name for name in defined if name not in weights and not name.startswith("_")]
    if extra and not allow_helpers:
        line = {node.name: node.lineno for node in tree.body if isinstance(node, ast.FunctionDef)}[extra[0]]
        return CheckResult(False, f"{path}, line {line}: function {extra[0]!r} has no weight; every function must be a "
                                  f"weighted component (no helper functions): add it to `weights` or inline it")
    for name, w in weights.items():
        if isinstance(w, bool) or not isinstance(w, (int, float, np.integer, np.floating)) or not math.isfinite(float(w)):
            return CheckResult(False, f"{path}: weights[{name!r}] must be a finite number, got {w!r}")
    program = program_from_namespace(namespace, path, source)
    pairs = pairs if pairs is not None else sample_state_pairs(course, n=12, seed=seed)
    course = course if course is not None else sample_course()
    for p, (prev, cur) in enumerate(pairs):
        before = (_snapshot(prev), _snapshot(cur))
        for name, fn in zip(program.names, program.functions):
            results = []
            for _ in range(2):
                try:
                    value = _call_with_limit(fn, (cur, prev, course), time_limit_s)
                except BaseException as exc:  # noqa: BLE001
                    return CheckResult(False, f"component {name!r} failed on state pair {p} ({len(cur)} cars):\n"
                                              + _where(exc, path))
                try:
                    arr = np.asarray(value, dtype=np.float64)
                except (TypeError, ValueError):
                    return CheckResult(False, f"component {name!r} returned {type(value).__name__}, not an array of floats")
                if arr.shape not in ((len(cur),), (len(cur), 1)):
                    return CheckResult(False, f"component {name!r} returned shape {arr.shape} for {len(cur)} cars; it "
                                              f"must return one float per car, shape ({len(cur)},) or ({len(cur)}, 1)")
                if not np.all(np.isfinite(arr)):
                    bad = int(np.flatnonzero(~np.isfinite(arr.ravel()))[0])
                    return CheckResult(False, f"component {name!r} returned a non-finite value ({arr.ravel()[bad]}) "
                                              f"for car {bad} on state pair {p}")
                results.append(arr)
            if not np.array_equal(results[0], results[1]):
                return CheckResult(False, f"component {name!r} gave different values when called twice on the same "
                                          f"states: it keeps state between calls (globals, attributes, random "
                                          f"numbers); a reward must depend only on its arguments")
        for which, snap, state in (("previous", before[0], prev), ("current", before[1], cur)):
            for field, value in snap.items():
                if not np.array_equal(value, getattr(state, field)):
                    return CheckResult(False, f"the reward changed {which}.{field} in place; copy arrays before "
                                              f"modifying them")
    return CheckResult(True, "")
