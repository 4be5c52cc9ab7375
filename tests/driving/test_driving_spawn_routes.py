"""Where agents start and where their routes go: spawn headings (lane or random) and
GIGAFLOW's route order (first point anywhere on the map, the rest chained 20-200 m)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import trackfield

SELF_PLAY = dict(num_envs=2, agents=80, lights=False, erratic=False)


def engine_and_map(env):
    eng = env._engine
    return eng, eng.drive_config.maps[0].map


def present_vehicles(eng, world, slots):
    v = eng.batch.vehicles(world)[:slots]
    return [(k, row) for k, row in enumerate(v) if row[6] == 1]


def heading_errors(eng, drive_map, world, slots):
    """Each present vehicle's heading minus its lane's (rad, wrapped)."""
    out = []
    for _, (x, y, h, _, _, _, _, _, z) in present_vehicles(eng, world, slots):
        out.append(math.remainder(h - drive_map.localise(x, y, z).heading, 2 * math.pi))
    return np.array(out)


def routes(env, slots, worlds):
    """Per present agent: its spawn's (lane, s) and its goals [(lane, s, x, y, heading), ...]."""
    eng, drive_map = engine_and_map(env)
    out = []
    for i in range(worlds):
        for k, (x, y, _, _, _, _, _, _, z) in present_vehicles(eng, i, slots):
            pos = drive_map.localise(x, y, z)
            goals, index = eng.batch.goals(i, k)
            assert index == 0
            out.append(((pos.lane, pos.s), goals))
    return out, drive_map


def test_random_spawn_headings_spread_over_the_circle_on_road_and_clear():
    env = trackfield.vector.make("town_self_play", spawn_heading="random", **SELF_PLAY)
    env.reset(seed=3)
    eng, drive_map = engine_and_map(env)
    errors = []
    for i in range(2):
        present = np.array([row for _, row in present_vehicles(eng, i, 80)])
        assert len(present) >= 70  # rejection sampling still places (nearly) every agent
        for x, y, h, _, length, width, _, _, z in present:
            assert not drive_map.is_off_road(x, y, z, h, length, width)
        radius = 0.5 * np.hypot(present[:, 4], present[:, 5])
        d = np.hypot(present[:, None, 0] - present[None, :, 0], present[:, None, 1] - present[None, :, 1])
        np.fill_diagonal(d, np.inf)
        assert (d > radius[:, None] + radius[None, :]).all()
        errors.extend(heading_errors(eng, drive_map, i, 80))
    errors = np.array(errors)
    counts, _ = np.histogram(errors, bins=4, range=(-math.pi, math.pi))
    assert (counts > 0.15 * len(errors)).all(), counts  # each quarter of the circle gets its share
    assert (np.abs(errors) > math.pi / 2).mean() > 0.3  # many face against their lane


def test_spawn_headings_follow_the_lane_by_default_and_for_built_in_drivers():
    env = trackfield.vector.make("town_self_play", **SELF_PLAY)
    env.reset(seed=3)
    eng, drive_map = engine_and_map(env)
    errors = np.concatenate([heading_errors(eng, drive_map, i, 80) for i in range(2)])
    assert len(errors) >= 140 and np.abs(errors).max() < 1e-3
    # town_drive: only the ego is an agent; its built-in drivers keep their lane's heading.
    drive = trackfield.vector.make("town_drive", num_envs=40, agents=6, spawn_heading="random", lights=False)
    drive.reset(seed=1)
    eng, drive_map = engine_and_map(drive)
    ego, others = [], []
    for i in range(40):
        errs = heading_errors(eng, drive_map, i, 6)
        ego.append(errs[0])
        others.extend(errs[1:])
    assert len(others) >= 150 and np.abs(others).max() < 1e-3
    assert np.abs(ego).max() > math.pi / 2


def test_a_car_facing_against_its_lane_observes_the_heading_error_and_a_finite_route():
    env = trackfield.vector.make("town_drive", num_envs=60, agents=1, spawn_heading="random", lights=False)
    obs, info = env.reset(seed=4)
    eng, drive_map = engine_and_map(env)
    expected = np.array([heading_errors(eng, drive_map, i, 1)[0] for i in range(60)]) / math.pi
    np.testing.assert_allclose(obs[:, 1], expected, atol=1e-4)  # ego field: heading error (/pi)
    assert (np.abs(expected) > 0.75).any()
    assert np.isfinite(info["goal_distance"]).all()
    for _ in range(5):
        obs, _, _, _, info = env.step(np.zeros(60, np.int64))
        assert np.isfinite(obs).all() and np.isfinite(info["goal_distance"]).all()


def test_bad_spawn_heading_raises_naming_it():
    for bad in ("backwards", None, 1.0):
        with pytest.raises(ValueError, match="spawn_heading"):
            trackfield.make("town_drive", spawn_heading=bad)


def test_routes_start_anywhere_on_the_map_then_chain_20_to_200_m_within_60_degrees():
    env = trackfield.vector.make("town_self_play", waypoints=3, **SELF_PLAY)
    env.reset(seed=5)
    agents, drive_map = routes(env, 80, 2)
    first, steps, turns = [], [], []
    for (lane, s), goals in agents:
        assert 1 <= len(goals) <= 4
        first.append(drive_map.route_distance(lane, s, goals[0][0], goals[0][1]))
        for a, b in zip(goals, goals[1:]):
            steps.append(drive_map.route_distance(a[0], a[1], b[0], b[1]))
            turns.append(abs(math.remainder(b[4] - a[4], 2 * math.pi)))
    first, steps, turns = np.array(first), np.array(steps), np.array(turns)
    # Every route reaches its first point, which is not bounded by the 200 m of a waypoint
    # step: its distance spans the map (a generated town about 1.4 km across by route).
    assert np.isfinite(first).all()
    assert np.median(first) > 400 and first.max() > 800 and (first > 200).mean() > 0.6
    # Consecutive points: 20-200 m by route, heading within 60 degrees (relaxed where no
    # draw meets it: a road curving away).
    assert len(steps) > 100
    assert (steps <= 200 + 1e-3).all() and (steps >= 20 - 1e-3).all()
    assert (turns <= math.radians(60) + 1e-4).mean() > 0.8


def test_waypoint_chains_stop_at_dead_ends():
    env = trackfield.vector.make("town_self_play", waypoints=3, map="Town03", **SELF_PLAY)
    env.reset(seed=3)
    agents, drive_map = routes(env, 80, 2)
    steps = [drive_map.route_distance(a[0], a[1], b[0], b[1]) for _, goals in agents for a, b in zip(goals, goals[1:])]
    assert len(steps) > 100 and min(steps) >= 20 - 1e-3  # no waypoint stacked on a dead end


def test_goal_distance_keeps_the_goal_that_far_along_the_lanes_from_the_last_waypoint():
    low, high = 30.0, 50.0
    env = trackfield.vector.make("town_self_play", waypoints=3, goal_distance=(low, high), **SELF_PLAY)
    env.reset(seed=6)
    agents, drive_map = routes(env, 80, 2)
    first, last = [], []
    for (lane, s), goals in agents:
        first.append(drive_map.route_distance(lane, s, goals[0][0], goals[0][1]))
        start = (lane, s) if len(goals) == 1 else goals[-2][:2]
        last.append(drive_map.route_distance(*start, goals[-1][0], goals[-1][1]))
    first, last = np.array(first), np.array(last)
    assert (first <= 200 + 1e-3).all()  # waypoints (or the goal) chained from the spawn
    assert ((last >= low - 1e-3) & (last <= high + 1e-3)).mean() >= 0.95
