"""The built-in driver of town_drive's traffic and env.ai_action()."""
from __future__ import annotations

import numpy as np
import pytest

import trackfield

QUIET = dict(lights=False, erratic=False)
FIELDS = ("id", "x", "y", "speed", "alive", "collided", "off_road", "ran_red", "reached_goal", "erratic", "held_red",
          "spawned")


def test_info_traffic_holds_one_entry_per_built_in_slot():
    env = trackfield.make("town_drive", slots=12, agents=12)
    _, info = env.reset(seed=0)
    for step in range(3):
        traffic = info["traffic"]
        assert set(FIELDS) <= set(traffic)
        for name in FIELDS:
            assert traffic[name].shape == (11,), name
        assert traffic["alive"].sum() >= 1
        vehicles = env.unwrapped_engine.batch.vehicles(0)[1:12]
        alive = traffic["alive"]
        np.testing.assert_allclose(traffic["x"][alive], vehicles[alive, 0])
        np.testing.assert_allclose(traffic["speed"][alive], vehicles[alive, 3])
        _, _, _, _, info = env.step(env.unwrapped.ai_action())


def heading_rates(env, steps):
    """Lateral accelerations v * dheading / dt of the built-in vehicles over `steps` steps."""
    batch = env.unwrapped_engine.batch
    dt = env.unwrapped_engine.drive_config.dt
    out = []
    _, info = env.reset(seed=1)
    prev = batch.vehicles(0).copy()
    prev_ids = info["traffic"]["id"].copy()
    for _ in range(steps):
        _, _, term, trunc, info = env.step(env.unwrapped.ai_action())
        now = batch.vehicles(0)
        t = info["traffic"]
        same = t["alive"] & (t["id"] == prev_ids) & ~t["spawned"] & ~t["erratic"]
        n = len(same)
        dh = np.remainder(now[1:n + 1, 2] - prev[1:n + 1, 2] + np.pi, 2 * np.pi) - np.pi
        out.extend(np.abs(0.5 * (now[1:n + 1, 3] + prev[1:n + 1, 3]) * dh / dt)[same])
        prev, prev_ids = now.copy(), t["id"].copy()
        if term or trunc:
            _, info = env.reset()
            prev, prev_ids = batch.vehicles(0).copy(), info["traffic"]["id"].copy()
    return np.array(out)


def test_built_in_drivers_slow_for_curves_to_the_lateral_limit():
    # Junction connectors turn on radii of a few metres: at the lane's limit the lateral
    # acceleration would exceed 10 m/s^2.
    env = trackfield.make("town_drive", map="Town01", slots=32, agents=32, action="box", max_steps=1000, **QUIET)
    a_lat = heading_rates(env, 120)
    assert len(a_lat) > 1000
    assert np.percentile(a_lat, 99) < 3.5
    assert a_lat.max() < 5.0


def test_ai_action_stops_the_ego_at_its_goal_below_the_goal_speed():
    env = trackfield.make("town_drive", agents=1, action="box", max_steps=1000, **QUIET)
    env.reset(seed=4)
    batch = env.unwrapped_engine.batch
    for _ in range(20):
        env.step(env.unwrapped.ai_action())
    goal = batch.vehicles(0)[0, :2].copy()   # a point its route passes, 20 steps on (not in a junction)
    lane = int(batch.vehicles(0)[0, 7])
    env.reset(seed=4)
    batch.set_goal(0, 0, *goal)
    assert batch.goals(0, 0)[0][0][0] == lane
    speeds = []
    for _ in range(200):
        _, _, terminated, truncated, info = env.step(env.unwrapped.ai_action())
        speeds.append(info["speed"])
        if terminated or truncated:
            break
    assert terminated and info["reached_goal"]
    assert abs(speeds[-1]) < 2.0


def test_spawn_clearance_grows_with_the_speed_of_the_traffic():
    env = trackfield.make("town_drive", slots=60, agents=60, action="box", max_steps=2000, **QUIET)
    _, info = env.reset(seed=2)
    checked = fast = 0
    for _ in range(150):
        before = env.unwrapped_engine.batch.vehicles(0).copy()
        _, _, term, trunc, info = env.step(env.unwrapped.ai_action())
        t = info["traffic"]
        now = env.unwrapped_engine.batch.vehicles(0)
        for k in np.flatnonzero(t["spawned"]):
            s = k + 1
            others = np.flatnonzero((before[:, 6] == 1) & (np.arange(len(before)) != s))
            radius = 0.5 * np.hypot(now[s, 4], now[s, 5])
            r_other = 0.5 * np.hypot(before[others, 4], before[others, 5])
            # The others stood where `before` has them when the new vehicle was placed.
            gap = np.hypot(before[others, 0] - now[s, 0], before[others, 1] - now[s, 1]) - radius - r_other
            need = 1.0 + 1.5 * np.maximum(np.abs(before[others, 3]), abs(now[s, 3]))
            assert (gap > need - 1e-6).all()
            checked += 1
            fast += int((np.abs(before[others, 3]) > 5).any())
        if term or trunc:
            break
    assert checked >= 5 and fast >= 1


@pytest.mark.statistical
def test_built_in_traffic_drives_without_many_incidents():
    from trackfield.driving.traffic_stats import measure_traffic
    stats = measure_traffic(None, km=60, worlds=4, seed=0)
    assert stats.km >= 60
    assert stats.per_100km(stats.collisions) <= 15
    assert stats.per_100km(stats.off_road) <= 60
    assert stats.per_100km(stats.red_lights) <= 15
    assert stats.goal_share >= 0.5


def run_traffic(steps, seed=0, **config):
    env = trackfield.make("town_drive", action="box", max_steps=2000, **config)
    _, info = env.reset(seed=seed)
    totals = dict(collided=0, ran_red=0, held_stopped=0, steps=0)
    for _ in range(steps):
        _, _, term, trunc, info = env.step(env.unwrapped.ai_action())
        t = info["traffic"]
        calm = ~t["erratic"] & ~t["spawned"]
        totals["collided"] += int((t["collided"] & calm).sum())
        totals["ran_red"] += int((t["ran_red"] & calm).sum())
        totals["held_stopped"] += int((t["held_red"] & t["alive"] & (np.abs(t["speed"]) < 0.1)).sum())
        totals["steps"] += 1
        if term or trunc:
            _, info = env.reset()
    return totals


def test_built_in_drivers_stop_and_wait_at_red_lights():
    totals = run_traffic(200, map="Town01", slots=32, agents=32, erratic=False)
    assert totals["held_stopped"] > 50      # vehicle-steps standing in a red-light queue
    assert totals["ran_red"] <= 1


def test_built_in_drivers_give_way_at_junctions_without_lights():
    # No lights: every junction is uncontrolled, so only the right of way keeps crossing
    # traffic apart.
    totals = run_traffic(300, map="Town01", slots=32, agents=32, erratic=False, lights=False)
    assert totals["collided"] <= 2
