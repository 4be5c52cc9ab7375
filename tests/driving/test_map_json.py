"""The JSON map format: the documented example loads, maps survive a round trip, and
every kind of mistake is reported with the file and where in it."""
import copy
import json
import re
from pathlib import Path

import numpy as np
import pytest

import trackfield.driving.map_json as map_json
from trackfield.driving.map_json import load_map_json, map_to_dict, save_map_json
from trackfield.driving.roadmap import Boundary, Junction, Lane, MapError, RoadMap, Signal
from trackfield.driving.town_generator import generate_town

DOCS = Path(__file__).resolve().parents[2] / "docs" / "driving_maps.md"


def example() -> dict:
    return json.loads(re.search(r"```json\n(.*?)```", map_json.__doc__, re.S).group(1))


def assert_same_map(a: RoadMap, b: RoadMap):
    assert a.name == b.name and len(a.lanes) == len(b.lanes)
    for x, y in zip(a.lanes, b.lanes):
        assert np.allclose(x.centre, y.centre) and np.allclose(x.width, y.width)
        assert (x.successors, x.predecessors, x.left, x.right, x.junction, x.source, x.speed_limit) == \
               (y.successors, y.predecessors, y.left, y.right, y.junction, y.source, y.speed_limit)
    assert [(b.kind, b.source) for b in a.boundaries] == [(b.kind, b.source) for b in b.boundaries]
    assert all(np.allclose(p.points, q.points) for p, q in zip(a.boundaries, b.boundaries))
    assert [(j.lanes, j.legs, j.source) for j in a.junctions] == [(j.lanes, j.legs, j.source) for j in b.junctions]
    assert len(a.signals) == len(b.signals)
    for s, t in zip(a.signals, b.signals):
        assert np.allclose(s.position, t.position) and np.allclose(s.stop_line, t.stop_line)
        assert (s.lanes, s.group, s.junction, s.source) == (t.lanes, t.group, t.junction, t.source)
    assert a.signals_generated == b.signals_generated


def test_docs_page_carries_the_module_docstring():
    assert map_json.__doc__.strip() in DOCS.read_text()


def test_documented_example_loads_and_is_resampled():
    town = load_map_json(example())
    town.validate()
    assert town.name == "street with a turning loop"
    assert [lane.predecessors for lane in town.lanes] == [[], [2], [0]]
    loop = town.lanes[2]
    assert np.all(np.hypot(*np.diff(loop.centre[:, :2], axis=0).T) <= 1.0 + 1e-9)
    assert loop.width.min() == pytest.approx(3.2) and loop.width.max() == pytest.approx(3.8)
    assert np.all(loop.centre[:, 2] == 0)
    assert town.lanes[0].length == pytest.approx(60.0)


def test_generated_town_round_trip(tmp_path):
    town = generate_town(5, "medium")
    path = tmp_path / "town.json"
    save_map_json(town, path)
    assert_same_map(town, load_map_json(path))
    assert_same_map(town, load_map_json(str(path)))
    assert_same_map(town, load_map_json(map_to_dict(town)))


def test_round_trip_with_z_signals_and_per_point_widths(tmp_path):
    centre = np.column_stack([np.linspace(0, 10, 11), np.zeros(11), np.linspace(0, 1, 11)])
    lanes = [Lane(centre, np.linspace(3.0, 3.5, 11), 10.0, [1], [], junction=-1, source="in"),
             Lane(centre + [10, 0, 1], np.full(11, 3.5), 5.0, [], [0], junction=0, source="through")]
    signal = Signal(np.array([10.0, -3.0, 0.0]), np.array([[10.0, -1.75], [10.0, 1.75]]), [0], 0, 0, "s")
    town = RoadMap("ramp", lanes, [Boundary(centre + [0, 2, 0], "shoulder")], [signal],
                   [Junction([1], 3, "j")], signals_generated=True)
    save_map_json(town, tmp_path / "ramp.json")
    assert_same_map(town, load_map_json(tmp_path / "ramp.json"))


def test_points_two_or_three_numbers_and_widths_one_or_per_point():
    doc = example()
    doc["lanes"][0]["centre"] = [[0, -1.6, 2.0], [60, -1.6, 2.0]]
    doc["lanes"][0]["width"] = [3.0, 3.4]
    lane = load_map_json(doc).lanes[0]
    assert np.all(lane.centre[:, 2] == 2.0)
    assert lane.width[0] == 3.0 and lane.width[-1] == 3.4 and lane.width[30] == pytest.approx(3.2)


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "bad.json"
    path.write_text(text)
    return path


def test_syntax_error_names_file_line_and_column(tmp_path):
    text = json.dumps(example(), indent=2).splitlines()
    line = next(i for i, t in enumerate(text) if '"speed_limit"' in t)
    text[line] = text[line].replace(",", "", 1)          # a missing comma
    path = write(tmp_path, "\n".join(text))
    with pytest.raises(MapError, match=rf"bad\.json, line {line + 2}, column \d+: Expecting"):
        load_map_json(path)


def test_missing_file_and_top_level_mistakes(tmp_path):
    with pytest.raises(MapError, match="nowhere.json: cannot read"):
        load_map_json(tmp_path / "nowhere.json")
    with pytest.raises(MapError, match=r"bad\.json: top level: must be an object"):
        load_map_json(write(tmp_path, "[1, 2]"))
    for change, pattern in [
        ({"format": "opendrive"}, "format: must be 'trackfield-map'"),
        ({"version": 2}, r"version: 2 is newer than this reader \(1\)"),
        ({"version": "1"}, "version: must be a positive integer"),
        ({"lanes": []}, "lanes: is empty"),
        ({"lane": []}, "top level: unknown key 'lane'"),
        ({"signals_generated": "yes"}, "signals_generated: must be true or false"),
    ]:
        doc = {**example(), **change}
        with pytest.raises(MapError, match=r"bad\.json: " + pattern):
            load_map_json(write(tmp_path, json.dumps(doc)))


@pytest.mark.parametrize("path, value, message", [
    (("lanes", 1, "width"), -1, r"lanes\[1\]\.width: -1 is not positive"),
    (("lanes", 2, "width"), [3.2, 3.5], r"lanes\[2\]\.width: has 2 values for 7 points"),
    (("lanes", 2, "successors"), [99], r"lanes\[2\]\.successors: lane 99 does not exist \(3 lanes\)"),
    (("lanes", 0, "left"), 3, r"lanes\[0\]\.left: lane 3 does not exist"),
    (("lanes", 0, "junction"), 0, r"lanes\[0\]\.junction: junction 0 does not exist \(0 junctions\)"),
    (("lanes", 0, "speed_limit"), "fast", r"lanes\[0\]\.speed_limit: must be a number"),
    (("lanes", 0, "speed_limit"), 0, r"lanes\[0\]\.speed_limit: 0 is not positive"),
    (("lanes", 0, "centre"), [[0, 0]], r"lanes\[0\]\.centre: must be a list of at least 2 points"),
    (("lanes", 0, "centre"), [[0, 0], [1, "a"]], r"lanes\[0\]\.centre\[1\]: must be \[x, y\] or \[x, y, z\]"),
    (("lanes", 0, "centre"), [[0, 0], [0, 0], [5, 0]], r"lanes\[0\]\.centre\[1\]: repeats the previous point"),
    (("lanes", 0, "widht"), 3, r"lanes\[0\]: unknown key 'widht'"),
    (("lanes", 1, "predecessors"), [0], r"lanes\[1\]\.predecessors: \[0\] does not match .* lane 1: \[2\]"),
    (("boundaries", 0, "kind"), "wall", r"boundaries\[0\]\.kind: 'wall' is not one of"),
    (("junctions",), [{"lanes": [5], "legs": 3}], r"junctions\[0\]\.lanes: lane 5 does not exist"),
    (("signals",), [{"position": [0, 0], "stop_line": [[0, 0]], "lanes": [0], "group": 0, "junction": -1}],
     r"signals\[0\]\.stop_line: must be a list of at least 2 points"),
])
def test_content_errors_name_the_key(tmp_path, path, value, message):
    doc = copy.deepcopy(example())
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(MapError, match=r"bad\.json: " + message):
        load_map_json(write(tmp_path, json.dumps(doc)))


def test_missing_lane_key_and_dict_source():
    doc = example()
    del doc["lanes"][1]["speed_limit"]
    with pytest.raises(MapError, match=r"<dict>: lanes\[1\]: missing key 'speed_limit'"):
        load_map_json(doc)
