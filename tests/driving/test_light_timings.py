"""Traffic-light timings: GIGAFLOW's training draws (per junction phase, red capped at 10 s),
crossing approaches never green together, and the fixed default timings of `eval_long`.

Colours come from `DriveMap.light_timeline`, which runs the engine's own light cycle.
"""
from __future__ import annotations

import numpy as np
import pytest

from trackfield.driving.config import DrivingConfig
from trackfield.driving.engine import build_drive_map, engine_config, light_arrays, resolve_roadmap
from trackfield.driving.scenarios import load_driving_scenario

NONE, GREEN, YELLOW, RED = 0, 1, 2, 3
DT = 0.1

_maps: dict[str, tuple] = {}


def town(name):
    if name not in _maps:
        roadmap = resolve_roadmap(name, 0)
        _maps[name] = build_drive_map(roadmap), light_arrays(roadmap)
    return _maps[name]


def runs(colours: np.ndarray, colour: int) -> list[float]:
    """Lengths (s) of the complete runs of `colour` in one light's colour series."""
    change = np.flatnonzero(np.diff(colours.astype(np.int16))) + 1
    bounds = np.concatenate([[0], change, [len(colours)]])
    return [(b - a) * DT for a, b in zip(bounds[1:-2], bounds[2:-1]) if colours[a] == colour]


def light_junctions(arrays) -> np.ndarray:
    return arrays["group_junction"][arrays["light_group"]]


@pytest.mark.parametrize("name", ["Town01", "Town03"])
def test_training_reds_never_exceed_10_s(name):
    drive_map, _ = town(name)
    colours = drive_map.light_timeline(20, 600, DT, seed=5)   # 20 episodes of 60 s
    reds = [r for e in range(colours.shape[0]) for k in range(colours.shape[2]) for r in runs(colours[e, :, k], RED)]
    assert len(reds) > 500
    assert max(reds) <= 10.0 + 1e-6
    assert 3.0 < np.median(reds) < 10.0


def test_lights_at_two_junctions_have_their_own_timings():
    drive_map, arrays = town("Town01")
    junction = light_junctions(arrays)
    a = int(np.flatnonzero(junction == 0)[0])
    b = int(np.flatnonzero(junction == 1)[0])
    colours = drive_map.light_timeline(100, 600, DT, seed=2)
    both = differ = 0
    for e in range(colours.shape[0]):
        green_a, green_b = runs(colours[e, :, a], GREEN), runs(colours[e, :, b], GREEN)
        if green_a and green_b:
            both += 1
            differ += abs(np.median(green_a) - np.median(green_b)) > 0.15
    assert both >= 15 and differ >= 0.8 * both  # one draw shared by every junction: differ = 0


@pytest.mark.parametrize("name", ["Town01", "Town03"])
def test_crossing_approaches_are_never_green_together(name):
    drive_map, arrays = town(name)
    junction, heading = light_junctions(arrays), arrays["light_heading"]
    pairs = [(i, j) for i in range(len(junction)) for j in range(i + 1, len(junction))
             if junction[i] == junction[j] and abs(np.sin(heading[i] - heading[j])) > 0.5]
    assert len(pairs) >= 2 * len(set(junction))
    for randomised in (True, False):
        colours = drive_map.light_timeline(30, 600, DT, seed=9, randomised=randomised)
        active = (colours == GREEN) | (colours == YELLOW)
        stuck = np.all(colours == GREEN, axis=1)   # (episodes, lights): a stuck green is a fault on purpose
        for i, j in pairs:
            together = active[:, :, i] & active[:, :, j] & ~stuck[:, None, i] & ~stuck[:, None, j]
            assert not together.any(), (name, i, j)


def test_eval_long_has_carlas_default_timings_and_no_removals():
    config = DrivingConfig(map="Town01", preset="eval_long")
    assert engine_config(load_driving_scenario("town_self_play"), config).lights_randomised is False
    assert engine_config(load_driving_scenario("town_self_play"), DrivingConfig(map="Town01")).lights_randomised
    drive_map, _ = town("Town01")
    colours = drive_map.light_timeline(50, 400, DT, seed=4, randomised=False)
    assert not (colours == NONE).any()                      # nothing removed, every episode lit
    assert (colours == colours[:1]).all()                   # no randomisation between episodes
    for k in range(colours.shape[2]):
        assert np.allclose(runs(colours[0, :, k], GREEN), 10.0, atol=0.11)
        assert np.allclose(runs(colours[0, :, k], YELLOW), 3.0, atol=0.11)
    training = drive_map.light_timeline(50, 400, DT, seed=4)
    assert (training == NONE).any()                         # the training preset does remove lights
