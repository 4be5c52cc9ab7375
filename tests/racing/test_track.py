"""Racing tracks: every shared TUM file loads with the README's lengths, bad files fail
with file and line, projection round trips, the Suzuka bridge, sections, the generator,
JSON round trips and the shipped circuits' claimed features."""
import math
import re
from pathlib import Path

import numpy as np
import pytest

from trackfield import _engine
from trackfield.racing import (
    TrackFileError, generate_track, list_tracks, load_raceline, load_track, save_track_json,
)
from trackfield.racing.track_files import TUM_DIR, find_crossings

SHARED = TUM_DIR  # TUM's circuits and racing lines, shipped with the package
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="TUM's tracks not installed")
TRACK_FILES = sorted(SHARED.glob("*.csv")) if SHARED.is_dir() else []


def readme_lengths():
    text = (SHARED / "README.md").read_text()
    return {m.group(1): float(m.group(2).replace(",", ""))
            for m in re.finditer(r"^\| (\w+)\.csv \|[^|]*\| \d+ \| ([\d,]+) \|", text, flags=re.M)}


@needs_shared
def test_every_shared_track_and_raceline_loads_with_the_readme_length():
    lengths = readme_lengths()
    assert len(lengths) == 25 and len(TRACK_FILES) == 25
    for path in TRACK_FILES:
        track = load_track(path, crossings="bridge" if path.stem == "Suzuka" else "error")
        assert track.bridge == (path.stem == "Suzuka")
        assert abs(track.length - lengths[path.stem]) < 0.01 * lengths[path.stem], path.stem
        assert np.all(np.diff(track.s) > 1.9) and np.all(np.diff(track.s) < 2.1)
        line = load_raceline(SHARED / "racelines" / path.name, track)
        assert line.ndim == 2 and line.shape[1] == 2 and len(line) > 400


@needs_shared
def test_suzuka_without_bridge_names_both_segments():
    with pytest.raises(TrackFileError, match=r"Suzuka\.csv.*segments 509 and 984 cross near \(-72\d\.\d, -12\d\.\d\).*crossings=\"bridge\""):
        load_track(SHARED / "Suzuka.csv")
    xy = np.loadtxt(SHARED / "Suzuka.csv", delimiter=",")[:, :2]
    assert [(i, j) for i, j, _ in find_crossings(xy)] == [(509, 984)]


@needs_shared
def test_no_other_shared_track_crosses_itself():
    for path in TRACK_FILES:
        if path.stem != "Suzuka":
            assert find_crossings(np.loadtxt(path, delimiter=",")[:, :2]) == [], path.stem


def write(tmp_path, text, name="bad.csv"):
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


def ring_rows(n=12, radius=100.0):
    return [f"{radius * math.cos(2 * math.pi * k / n):.3f},{radius * math.sin(2 * math.pi * k / n):.3f},5,5"
            for k in range(n)]


@pytest.mark.parametrize("edit, message", [
    (lambda rows: rows.__setitem__(3, "1.0,abc,5,5"), r"line 5: y_m 'abc' is not a number"),
    (lambda rows: rows.__setitem__(6, "1.0,2.0,5"), r"line 8: expected 4 columns .* got 3"),
    (lambda rows: rows.__setitem__(2, rows[2].rsplit(",", 1)[0] + ",-1.5"), r"line 4: w_tr_left_m must be > 0"),
    (lambda rows: rows.__setitem__(4, rows[4].split(",", 1)[0] + ",nan,5,5"), r"line 6: y_m is nan, not a finite"),
    (lambda rows: rows.__delitem__(slice(5, None)), r"line 6: only 5 points, a closed line needs at least 10"),
])
def test_bad_csv_files_name_file_and_line(tmp_path, edit, message):
    rows = ring_rows()
    edit(rows)
    path = write(tmp_path, "# x_m,y_m,w_tr_right_m,w_tr_left_m\n" + "\n".join(rows) + "\n")
    with pytest.raises(TrackFileError, match=re.escape(str(path)) + ", " + message):
        load_track(path)


def test_crossing_csv_names_segments(tmp_path):
    # A bow tie: the closing leg crosses the middle one.
    pts = [(0, 0), (50, 0), (100, 0), (150, 0), (150, 50), (100, 50), (75, 25), (50, -25), (25, -40),
           (0, -50), (-25, -25), (-20, -5)]
    path = write(tmp_path, "\n".join(f"{x},{y},3,3" for x, y in pts) + "\n")
    with pytest.raises(TrackFileError, match=r"bad\.csv: the centre line crosses itself: segments 1 and 6"):
        load_track(path)


@needs_shared
def test_crlf_spaces_closing_point_and_uneven_spacing_give_the_same_track(tmp_path):
    clean_text = (SHARED / "Monza.csv").read_text()
    clean = load_track(SHARED / "Monza.csv")
    lines = clean_text.splitlines()
    variants = {
        "crlf.csv": "\r\n".join(lines) + "\r\n",
        "spaces.csv": "\n".join(" " + ", ".join(line.split(",")) + "  " if not line.startswith("#") else line
                                for line in lines) + "\n\n",
        "closed.csv": "\n".join(lines + [lines[1]]) + "\n",
    }
    for name, text in variants.items():
        track = load_track(write(tmp_path, text, name))
        assert track.n == clean.n and np.array_equal(track.x, clean.x), name
        assert np.array_equal(track.width_left, clean.width_left), name
    # Uneven spacing: points of the resampled line itself (2 m apart), with runs of up to
    # two dropped at random, so gaps are 2, 4 or 6 m; the track must come back.
    rng = np.random.default_rng(0)
    keep = [0]
    while keep[-1] + 3 < clean.n:
        keep.append(keep[-1] + int(rng.integers(1, 4)))
    rows = [f"{clean.x[k]:.4f},{clean.y[k]:.4f},{clean.width_right[k]:.4f},{clean.width_left[k]:.4f}" for k in keep]
    uneven = load_track(write(tmp_path, "\n".join(rows) + "\n", "uneven.csv"))
    assert np.max(np.diff(clean.s[keep])) > 5.9 and np.min(np.diff(clean.s[keep])) < 2.1
    assert abs(uneven.length - clean.length) < 0.001 * clean.length
    pos = clean.to_engine().project_many(uneven.xy.astype(np.float32), -1)
    # Within 20 cm everywhere (the worst in 12 m chicanes, where 6 m gaps lose shape).
    assert np.max(np.abs(pos["d"])) < 0.2 and np.percentile(np.abs(pos["d"]), 99) < 0.05
    # Widths are linear between file points, so a dropped point's width kink is lost.
    assert np.max(np.abs(pos["width_left"] - uneven.width_left)) < 0.5

@needs_shared
def test_point_at_and_project_round_trip_on_monza():
    track = load_track(SHARED / "Monza.csv")
    engine = track.to_engine()
    assert engine.n == track.n and abs(engine.length - track.length) < 0.01
    checked = 0
    for s in np.arange(0.0, track.length, 7.3):
        k = track.segment_at(s)
        for d in (-0.9 * track.width_right[k], 0.0, 0.9 * track.width_left[k]):
            x, y = engine.point_at(s, d)
            pos = engine.project(x, y)
            assert abs(engine.wrap_ds(pos.s, s)) < 0.02 and abs(pos.d - d) < 0.02, (s, d)
            hinted = engine.project(x, y, hint=(pos.segment + 5) % track.n)
            assert hinted.segment == pos.segment
            checked += 1
    assert checked > 2000


@needs_shared
def test_hint_keeps_the_level_at_suzukas_bridge():
    track = load_track(SHARED / "Suzuka.csv", crossings="bridge")
    engine = track.to_engine()
    near = np.flatnonzero(np.hypot(track.x + 729.7, track.y + 123.9) < 3.0)
    levels = [track.s[near[0]], track.s[near[-1]]]
    assert abs(engine.wrap_ds(levels[0], levels[1])) > 1000  # two branches, far apart along the lap
    for level in levels:
        path = np.array([engine.point_at(level + ds, 1.5) for ds in np.arange(-60.0, 60.0, 0.5)])
        start = track.segment_at(level - 60.0)
        pos = engine.project_many(path.astype(np.float32), start)
        along = np.array([engine.wrap_ds(s, level) for s in pos["s"]])
        assert np.allclose(along, np.arange(-60.0, 60.0, 0.5), atol=0.05)
        assert np.allclose(pos["d"], 1.5, atol=0.02)


@needs_shared
def test_monza_sections():
    track = load_track(SHARED / "Monza.csv")
    assert track.kind_at(0.0) == "straight" and track.kind_at(track.length - 300) == "straight"
    assert track.kind_at(950.0) == "curve"  # Variante del Rettifilo, the first chicane
    first = track.kind_runs[0]
    assert first.kind == "curve" and 850 < first.start_m < 950 and first.end_m - first.start_m < 150
    main = [r for r in track.kind_runs if r.kind == "straight" and r.start_m > r.end_m]
    assert len(main) == 1 and (track.length - main[0].start_m) + main[0].end_m > 1000


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 7])
def test_generator_is_deterministic_and_never_crosses(seed):
    a, b = generate_track(seed), generate_track(seed)
    for key in ("x", "y", "z", "width_left", "banking", "curvature"):
        assert np.array_equal(getattr(a, key), getattr(b, key))
    assert find_crossings(a.xy) == []
    assert abs(a.length - 4000) < 40 and np.allclose(a.width_left + a.width_right, 12)
    kinds = {r.kind for r in a.kind_runs}
    assert kinds == {"straight", "curve"} and np.ptp(a.z) > 5
    assert not np.array_equal(a.x, generate_track(seed + 100).x)
    a.to_engine()  # the engine accepts it


def test_generator_rejects_bad_arguments():
    with pytest.raises(ValueError, match="length_m"):
        generate_track(0, length_m=-5)
    with pytest.raises(ValueError, match="seed"):
        generate_track(-1)


def test_json_round_trip(tmp_path):
    track = load_track("speedway")
    path = tmp_path / "copy.json"
    save_track_json(track, path)
    again = load_track(path)
    assert again.name == "speedway" and again.n == track.n
    assert abs(again.length - track.length) < 0.5
    pos = track.to_engine().project_many(again.xy.astype(np.float32), -1)
    assert np.max(np.abs(pos["d"])) < 0.02
    assert np.max(np.abs(again.z - track.z)) < 0.05 and np.max(np.abs(again.banking - track.banking)) < 1e-3
    assert [s.name for s in again.sections] == ["final_chicane"]
    assert abs(again.sections[0].start_m - track.sections[0].start_m) < 1.0
    assert (again.kerb_width, again.wall_distance) == (track.kerb_width, track.wall_distance)


def test_bad_json_names_the_json_path(tmp_path):
    import json
    doc = json.loads((Path(__file__).resolve().parents[2] / "envs/racing/tracks/technical.json").read_text())
    doc["points"][12]["w_left"] = -2
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(TrackFileError, match=r"t\.json: points\[12\]\.w_left: must be > 0"):
        load_track(path)
    doc["points"][12]["w_left"] = 5
    doc["sections"] = [{"name": "x", "start_m": "a", "end_m": 3}]
    path.write_text(json.dumps(doc))
    with pytest.raises(TrackFileError, match=r"sections\[0\]\.start_m"):
        load_track(path)
    path.write_text("{\n  \"name\": 3,\n")
    with pytest.raises(TrackFileError, match=r"t\.json, line \d: not valid JSON"):
        load_track(path)


def radius_corners(track, below_m):
    """Distinct corners (separated by 30 m of straighter line) tighter than below_m."""
    tight = np.abs(track.curvature) > 1.0 / below_m
    starts = np.flatnonzero(tight & ~np.roll(tight, 1))
    return len(starts)


def test_shipped_circuits_have_their_claimed_features():
    assert list_tracks() == ["gt", "speedway", "technical"]
    tracks = {name: load_track(name) for name in list_tracks()}
    for name, track in tracks.items():
        total = track.width_left + track.width_right
        assert 10 <= total.min() and total.max() <= 15, name
        assert find_crossings(track.xy) == [], name
        assert np.ptp(track.z) > 10 and track.description, name
    technical, gt, speedway = tracks["technical"], tracks["gt"], tracks["speedway"]
    assert 2800 < technical.length < 3500 and radius_corners(technical, 20.0) >= 2
    assert 4200 < gt.length < 4800 and np.ptp(gt.z) > 30 and np.degrees(np.abs(gt.banking).max()) > 4
    assert np.abs(gt.curvature).min() < 1e-3 and 1 / np.abs(gt.curvature).max() > 80  # no slow corner
    assert 5200 < speedway.length < 5800
    straights = [(r.end_m - r.start_m) % speedway.length for r in speedway.kind_runs if r.kind == "straight"]
    assert max(straights) > 1000
    chicane = speedway.sections[0]
    assert chicane.name == "final_chicane" and chicane.kind == "curve"
    assert speedway.section_at(0.5 * (chicane.start_m + chicane.end_m)) == "final_chicane"
    assert speedway.section_at(100.0) is None


def test_names_resolve_through_trackfield_track_path(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match=r"unknown track 'Nowhere'.*\['gt', 'speedway', 'technical'\].*TRACKFIELD_TRACK_PATH"):
        load_track("Nowhere")
    path = write(tmp_path, "# ring\n" + "\n".join(ring_rows(40, 300.0)) + "\n", "Ring.csv")
    monkeypatch.setenv("TRACKFIELD_TRACK_PATH", str(tmp_path))
    track = load_track("Ring", kerb_width=0.5, wall_distance=4.0)
    assert track.source == str(path) and abs(track.length - 2 * math.pi * 300) < 5
    assert (track.kerb_width, track.wall_distance) == (0.5, 4.0)
    assert track.curvature.mean() > 0  # anticlockwise: turning left


def test_engine_track_rejects_bad_arrays_naming_them():
    x = np.cos(np.linspace(0, 6, 20)) * 50
    y = np.sin(np.linspace(0, 6, 20)) * 50
    w = np.full(20, 4.0)
    with pytest.raises(ValueError, match="width_right has 19 entries"):
        _engine.racing.Track(name="t", x=x, y=y, width_left=w, width_right=w[:19])
    with pytest.raises(ValueError, match="xy: expected shape"):
        _engine.racing.Track(name="t", x=x, y=y, width_left=w, width_right=w).project_many(np.zeros(4), -1)
    with pytest.raises(ValueError, match=r"section_kind\[0\]"):
        _engine.racing.Track(name="t", x=x, y=y, width_left=w, width_right=w, section_kind=np.full(20, 3))
