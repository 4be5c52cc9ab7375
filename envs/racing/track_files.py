"""Track files: TUM's CSV centre lines and racing lines, trackfield's JSON, name
resolution (shipped circuits, paths, ``TRACKFIELD_TRACK_PATH``) and the self-crossing
check. Every reader error is a :class:`TrackFileError` naming the file and the line,
JSON path or segments."""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np

from trackfield.racing.track import KINDS, Track, build_track, resample_closed

TRACKS_DIR = Path(__file__).resolve().parent / "tracks"
# TUM's racetrack database (LGPL-3.0, tum/LICENSE and tum/README.md): 25 real circuits and
# their racing lines (tum/racelines/), loaded by name ("Monza").
TUM_DIR = TRACKS_DIR / "tum"
TRACK_PATH_ENV = "TRACKFIELD_TRACK_PATH"
MIN_POINTS = 10
CSV_COLUMNS = ("x_m", "y_m", "w_tr_right_m", "w_tr_left_m")
RACELINE_COLUMNS = ("x_m", "y_m")
CROSSINGS = ("error", "bridge")


class TrackFileError(ValueError):
    """A track or racing-line file that cannot be read; the message names file and place."""


def list_tracks() -> list:
    """Names of trackfield's own circuits (``load_track`` takes them)."""
    return sorted(p.stem for p in TRACKS_DIR.glob("*.json"))


def list_tum_tracks() -> list:
    """Names of the 25 real circuits of TUM's racetrack database shipped with trackfield
    (``load_track("Monza")``; their racing lines drive the AI)."""
    return sorted(p.stem for p in TUM_DIR.glob("*.csv"))


def load_track(name_or_path, crossings: str = "error", spacing: float = 2.0, kerb_width=None,
               wall_distance=None) -> Track:
    """Loads a circuit as a :class:`~trackfield.racing.track.Track`.

    ``name_or_path``: a shipped name (``list_tracks()``, ``list_tum_tracks()``), a path to a ``.csv`` (TUM
    format) or ``.json`` (trackfield's) file, or a bare file name such as ``"Monza"``
    found in a folder of the ``TRACKFIELD_TRACK_PATH`` environment variable
    (``os.pathsep``-separated). ``crossings="bridge"`` accepts a centre line that
    crosses itself (Suzuka); the default raises. The line is resampled at ``spacing``
    metres. ``kerb_width`` / ``wall_distance`` override the file's (defaults 1 m / 8 m).
    """
    if crossings not in CROSSINGS:
        raise ValueError(f"crossings must be one of {CROSSINGS}, got {crossings!r}")
    if not (isinstance(spacing, (int, float)) and 0.25 <= spacing <= 20):
        raise ValueError(f"spacing must be a number of metres in [0.25, 20], got {spacing!r}")
    path = resolve_track(name_or_path)
    if path.suffix.lower() == ".csv":
        return read_csv_track(path, crossings, spacing, kerb_width, wall_distance)
    return read_json_track(path, crossings, spacing, kerb_width, wall_distance)


def resolve_track(name_or_path) -> Path:
    """The file a track name or path stands for (see :func:`load_track`)."""
    text = os.fspath(name_or_path)
    path = Path(text)
    if path.suffix.lower() in (".csv", ".json") or os.sep in text or "/" in text:
        if not path.is_file():
            raise ValueError(f"track file {text!r} does not exist")
        if path.suffix.lower() not in (".csv", ".json"):
            raise ValueError(f"track file {text!r}: expected a .csv or .json file")
        return path
    for shipped in (TRACKS_DIR / f"{text}.json", TUM_DIR / f"{text}.csv"):
        if shipped.is_file():
            return shipped
    for folder in filter(None, os.environ.get(TRACK_PATH_ENV, "").split(os.pathsep)):
        for suffix in (".json", ".csv"):
            candidate = Path(folder) / f"{text}{suffix}"
            if candidate.is_file():
                return candidate
    raise ValueError(f"unknown track {text!r}: shipped tracks are {list_tracks()} and TUM's "
                     f"{list_tum_tracks()}; a path to a .csv "
                     f"or .json file also works, and bare names are looked up in the folders of "
                     f"${TRACK_PATH_ENV} (now {os.environ.get(TRACK_PATH_ENV, 'unset')!r})")


# ----------------------------------------------------------------------------- CSV


def read_csv_rows(path, columns) -> np.ndarray:
    """Numeric rows of a TUM-style CSV: ``#`` lines and blank lines skipped, CRLF and
    spaces around fields accepted, a repeated closing point dropped."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise TrackFileError(f"{path}: cannot read: {e}") from None
    rows, lines = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != len(columns):
            raise TrackFileError(f"{path}, line {number}: expected {len(columns)} columns "
                                 f"({','.join(columns)}), got {len(fields)}")
        values = []
        for name, field in zip(columns, fields):
            try:
                value = float(field)
            except ValueError:
                raise TrackFileError(f"{path}, line {number}: {name} {field!r} is not a number") from None
            if not math.isfinite(value):
                raise TrackFileError(f"{path}, line {number}: {name} is {field}, not a finite number")
            if name.startswith("w_") and value <= 0:
                raise TrackFileError(f"{path}, line {number}: {name} must be > 0, got {field}")
            values.append(value)
        rows.append(values)
        lines.append(number)
    if len(rows) > 1 and math.dist(rows[0][:2], rows[-1][:2]) < 1e-3:
        rows.pop(), lines.pop()  # the closing point repeated: the line is closed anyway
    if len(rows) < MIN_POINTS:
        raise TrackFileError(f"{path}, line {lines[-1] if lines else 1}: only {len(rows)} points, "
                             f"a closed line needs at least {MIN_POINTS}")
    data = np.asarray(rows, dtype=np.float64)
    gaps = np.hypot(*(np.roll(data[:, :2], -1, axis=0) - data[:, :2]).T)
    if np.any(gaps[:-1] < 1e-6):
        k = int(np.flatnonzero(gaps[:-1] < 1e-6)[0])
        raise TrackFileError(f"{path}, line {lines[k + 1]}: repeats the point of line {lines[k]}")
    return data


def read_csv_track(path, crossings="error", spacing=2.0, kerb_width=None, wall_distance=None) -> Track:
    """A TUM CSV (``x_m,y_m,w_tr_right_m,w_tr_left_m``) as a resampled Track."""
    data = read_csv_rows(path, CSV_COLUMNS)
    bridge = check_crossings(path, data[:, :2], crossings)
    xyz = np.column_stack([data[:, :2], np.zeros(len(data))])
    xyz, extra = resample_closed(xyz, data[:, [3, 2]], spacing)  # left, right widths
    return build_track(Path(path).stem, xyz[:, 0], xyz[:, 1], extra[:, 0], extra[:, 1], xyz[:, 2],
                       kerb_width=kerb_width, wall_distance=wall_distance, bridge=bridge,
                       source=str(path))


def load_raceline(path, track: Track | None = None) -> np.ndarray:
    """A racing line file (``x_m,y_m``, the CSV rules of :func:`load_track`) as an
    (M, 2) float array. With ``track``, every point must lie within the track's
    painted edges plus kerb (else TrackFileError naming the line's point)."""
    points = read_csv_rows(path, RACELINE_COLUMNS)
    if track is not None:
        engine = track.to_engine()
        pos = engine.project_many(points.astype(np.float32), -1)
        over = (pos["d"] > pos["width_left"] + track.kerb_width) | (pos["d"] < -(pos["width_right"] + track.kerb_width))
        if np.any(over):
            k = int(np.flatnonzero(over)[0])
            raise TrackFileError(f"{path}: point {k} ({points[k, 0]:.1f}, {points[k, 1]:.1f}) lies "
                                 f"{abs(pos['d'][k]):.1f} m off the centre line of {track.name!r}, outside its edges")
    return points


# ----------------------------------------------------------------------------- crossings


def find_crossings(xy: np.ndarray) -> list:
    """Pairs (i, j, point) of non-adjacent segments of the closed line ``xy`` that cross,
    i < j. Bounding boxes are compared in blocks (numpy), exact tests only on overlaps."""
    a, b = xy, np.roll(xy, -1, axis=0)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    n = len(xy)
    found = []
    block = 512
    for start in range(0, n, block):
        rows = np.arange(start, min(start + block, n))
        overlap = ((lo[rows, None, 0] <= hi[None, :, 0]) & (lo[None, :, 0] <= hi[rows, None, 0])
                   & (lo[rows, None, 1] <= hi[None, :, 1]) & (lo[None, :, 1] <= hi[rows, None, 1]))
        i, j = np.nonzero(overlap)
        i = rows[i]
        keep = (j > i + 1) & ~((i == 0) & (j == n - 1))
        i, j = i[keep], j[keep]
        if len(i) == 0:
            continue
        cross = lambda o, p, q: (p[:, 0] - o[:, 0]) * (q[:, 1] - o[:, 1]) - (p[:, 1] - o[:, 1]) * (q[:, 0] - o[:, 0])
        d1, d2 = cross(a[i], b[i], a[j]), cross(a[i], b[i], b[j])
        d3, d4 = cross(a[j], b[j], a[i]), cross(a[j], b[j], b[i])
        hit = (d1 * d2 < 0) & (d3 * d4 < 0)
        for ii, jj, w1, w2 in zip(i[hit], j[hit], d1[hit], d2[hit]):
            u = w1 / (w1 - w2)  # where segment jj meets segment ii's line
            found.append((int(ii), int(jj), a[jj] + u * (b[jj] - a[jj])))
    return found


def check_crossings(path, xy: np.ndarray, crossings: str) -> bool:
    """True (a bridge) if the line crosses itself and ``crossings="bridge"``; raises otherwise."""
    found = find_crossings(xy)
    if found and crossings != "bridge":
        i, j, p = found[0]
        more = f" (and {len(found) - 1} more crossings)" if len(found) > 1 else ""
        raise TrackFileError(f"{path}: the centre line crosses itself: segments {i} and {j} cross near "
                             f"({p[0]:.1f}, {p[1]:.1f}){more}; if the track has a bridge there, "
                             f"pass crossings=\"bridge\"")
    return bool(found)


# ----------------------------------------------------------------------------- JSON


def read_json_track(path, crossings="error", spacing=2.0, kerb_width=None, wall_distance=None) -> Track:
    """trackfield's JSON track format (docs/racing_tracks.md) as a resampled Track."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise TrackFileError(f"{path}: cannot read: {e}") from None
    except json.JSONDecodeError as e:
        raise TrackFileError(f"{path}, line {e.lineno}: not valid JSON: {e.msg}") from None

    def fail(key, what):
        raise TrackFileError(f"{path}: {key}: {what}")

    def number(obj, key, label, default=None, positive=False, required=True):
        if key not in obj:
            if required and default is None:
                fail(label, "missing")
            return default
        value = obj[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            fail(label, f"expected a finite number, got {value!r}")
        if positive and value <= 0:
            fail(label, f"must be > 0, got {value!r}")
        return float(value)

    if not isinstance(doc, dict):
        fail("(top level)", "expected an object")
    known = {"name", "description", "direction", "points", "kerb_width", "wall_distance", "sections",
             "kinds", "bridge", "format"}
    for key in doc:
        if key not in known:
            fail(key, f"unknown key; known keys are {sorted(known)}")
    name = doc.get("name", path.stem)
    if not isinstance(name, str) or not name:
        fail("name", "expected a non-empty string")
    direction = doc.get("direction", "forward")
    if direction not in ("forward", "reverse"):
        fail("direction", f"must be 'forward' or 'reverse', got {direction!r}")
    points = doc.get("points")
    if not isinstance(points, list) or len(points) < MIN_POINTS:
        fail("points", f"expected a list of at least {MIN_POINTS} points")
    rows = []
    for k, p in enumerate(points):
        label = f"points[{k}]"
        if not isinstance(p, dict):
            fail(label, "expected an object with x, y, w_left, w_right")
        for key in p:
            if key not in ("x", "y", "z", "w_left", "w_right", "banking_deg"):
                fail(f"{label}.{key}", "unknown key (x, y, z, w_left, w_right, banking_deg)")
        bank = number(p, "banking_deg", f"{label}.banking_deg", 0.0)
        if abs(bank) >= 45:
            fail(f"{label}.banking_deg", f"must be within (-45, 45), got {bank}")
        rows.append([number(p, "x", f"{label}.x"), number(p, "y", f"{label}.y"),
                     number(p, "z", f"{label}.z", 0.0), number(p, "w_left", f"{label}.w_left", positive=True),
                     number(p, "w_right", f"{label}.w_right", positive=True), math.radians(bank)])
    data = np.asarray(rows)
    if math.dist(data[0, :2], data[-1, :2]) < 1e-3:
        data = data[:-1]
    if direction == "reverse":  # travel the other way: left and right swap, banking flips
        data = data[::-1].copy()
        data[:, [3, 4]] = data[:, [4, 3]]
        data[:, 5] *= -1
    gaps = np.hypot(*(np.roll(data[:, :2], -1, axis=0) - data[:, :2]).T)
    if np.any(gaps < 1e-6):
        fail(f"points[{int(np.argmin(gaps))}]", "repeats the next point")
    bridge = check_crossings(path, data[:, :2], "bridge" if doc.get("bridge") is True else crossings)
    kerb = number(doc, "kerb_width", "kerb_width", required=False)
    wall = number(doc, "wall_distance", "wall_distance", required=False)
    sections = [section_entry(s, f"sections[{k}]", fail, number)
                for k, s in enumerate(list_of(doc, "sections", fail))]
    kinds = []
    for k, entry in enumerate(list_of(doc, "kinds", fail)):
        label = f"kinds[{k}]"
        if not isinstance(entry, dict) or entry.get("kind") not in KINDS:
            fail(f"{label}.kind", f"must be one of {KINDS}")
        kinds.append((entry["kind"], number(entry, "start_m", f"{label}.start_m"),
                      number(entry, "end_m", f"{label}.end_m")))
    xyz, extra = resample_closed(data[:, :3], data[:, 3:], spacing)
    try:
        return build_track(name, xyz[:, 0], xyz[:, 1], extra[:, 0], extra[:, 1], xyz[:, 2], extra[:, 2],
                           kerb_width=kerb if kerb_width is None else kerb_width,
                           wall_distance=wall if wall_distance is None else wall_distance,
                           bridge=bridge, sections=sections, kind_overrides=kinds,
                           description=str(doc.get("description", "")), source=str(path))
    except ValueError as e:
        raise TrackFileError(f"{path}: {e}") from None


def list_of(doc, key, fail) -> list:
    value = doc.get(key, [])
    if not isinstance(value, list):
        fail(key, "expected a list")
    return value


def section_entry(entry, label, fail, number):
    if not isinstance(entry, dict):
        fail(label, "expected an object with name, start_m, end_m")
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        fail(f"{label}.name", "expected a non-empty string")
    kind = entry.get("kind")
    if kind is not None and kind not in KINDS:
        fail(f"{label}.kind", f"must be one of {KINDS}")
    return (name, kind, number(entry, "start_m", f"{label}.start_m"), number(entry, "end_m", f"{label}.end_m"))


def save_track_json(track: Track, path, digits: int = 3) -> None:
    """Writes ``track`` in trackfield's JSON format (its resampled points, widths,
    elevation, banking, named sections, kerb and wall), readable by :func:`load_track`."""
    r = lambda v: round(float(v), digits)
    doc = {
        "name": track.name,
        "description": track.description,
        "direction": "forward",
        "kerb_width": r(track.kerb_width),
        "wall_distance": r(track.wall_distance),
        "bridge": bool(track.bridge),
        "sections": [{"name": s.name, "kind": s.kind, "start_m": r(s.start_m), "end_m": r(s.end_m)}
                     for s in track.sections],
        "points": [{"x": r(x), "y": r(y), "z": r(z), "w_left": r(wl), "w_right": r(wr),
                    "banking_deg": r(math.degrees(b))}
                   for x, y, z, wl, wr, b in zip(track.x, track.y, track.z, track.width_left,
                                                 track.width_right, track.banking)],
    }
    text = json.dumps(doc, indent=1)
    Path(path).write_text(text + "\n", encoding="utf-8")
