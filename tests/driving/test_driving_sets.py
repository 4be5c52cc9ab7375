"""The "sets" observation: the map's precomputed lane and boundary sets seen from a known
pose on a constructed road, agreement with flat on the fields they share, feature
dropout, determinism over threads, and bad config."""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from trackfield import _engine
from trackfield.driving.roadmap import Boundary, Lane, RoadMap, resample_polyline

QUIET = dict(lights=False, erratic=False)
LANE_COLS = ("mask", "x", "y", "z", "cos", "sin", "half_width", "route", "route_rel")


def lane(x0, y, x1, width=3.5, **kw):
    c = resample_polyline(np.array([(x0, y, 0.0), (x1, y, 0.0)]))
    return Lane(centre=c, width=np.full(len(c), width), speed_limit=13.9, **kw)


def straight_road(length=400.0):
    """Two same-direction lanes along +x (lane 0 on y = 0, lane 1 its left on y = 3.5) between
    boundaries at y = -1.75 and y = 5.25."""
    edges = [Boundary(np.array([[0, -1.75, 0], [length, -1.75, 0]], np.float64)),
             Boundary(np.array([[0, 5.25, 0], [length, 5.25, 0]], np.float64))]
    return RoadMap("straight", [lane(0, 0, length, left=1), lane(0, 3.5, length, right=0)], boundaries=edges)


def observe_at(x, y, goal_x, **config):
    env = trackfield.make("town_drive", map=straight_road(), agents=1, observation="sets", **QUIET, **config)
    env.reset(seed=0)
    batch = env.unwrapped_engine.batch
    batch.place_vehicle(0, 0, x, y, 0.0, 0.0)
    batch.set_goal(0, 0, goal_x, 0.0)
    obs, *_ = env.step(7)  # no jerk: the vehicle stands still
    return obs


def test_lane_points_are_the_40_m_samples_within_200_m_in_the_ego_frame():
    obs = observe_at(100.5, 0.0, goal_x=390.0)
    lp = obs["lane_points"]
    present = lp[lp[:, 0] == 1]
    assert not lp[len(present):].any()           # masks and values zero beyond the set
    # Each 400 m lane is sampled at the middles of ten 40 m pieces: 20, 60, ..., 380. The
    # quad group's centre is at x = 102, so the samples within 200 m are 20 ... 300.
    xs = np.arange(20.0, 301.0, 40.0)
    expected = sorted([(x - 100.5, 0.0) for x in xs] + [(x - 100.5, 3.5) for x in xs])
    got = sorted(zip(np.round(present[:, 1] * 200, 3), np.round(present[:, 2] * 200, 3)))
    np.testing.assert_allclose(got, expected, atol=1e-3)
    d = np.hypot(present[:, 1] * 200 + 100.5 - 102.0, present[:, 2] * 200)
    assert np.all(np.diff(d) >= -1e-3)          # nearest (to the group's centre) first
    np.testing.assert_allclose(present[:, 4], 1.0, atol=1e-6)  # same heading as ours
    np.testing.assert_allclose(present[:, 6], 1.75 / 5.0, atol=1e-6)
    # Route distance to the goal (lane 0, x = 390): along lane 0, or + 10 m for a lane change
    # from lane 1; relative: minus our own (289.5 m).
    px = present[:, 1] * 200 + 100.5
    change = np.where(present[:, 2] * 200 > 1.0, 10.0, 0.0)
    np.testing.assert_allclose(present[:, 7] * 1000, 390.0 - px + change, atol=0.05)
    np.testing.assert_allclose(present[:, 8] * 200, 390.0 - px + change - 289.5, atol=0.05)


def test_boundary_points_are_1_m_apart_on_both_edges():
    bp = observe_at(100.5, 0.0, goal_x=390.0)["boundary_points"]
    assert bp[:, 0].sum() == 80
    x, y = bp[:, 1] * 50 + 100.5, bp[:, 2] * 50
    right, left = np.abs(y + 1.75) < 1e-3, np.abs(y - 5.25) < 1e-3
    assert (right | left).all() and right.sum() > left.sum() > 0   # the nearer edge gives more
    for edge in (right, left):
        np.testing.assert_allclose(np.diff(np.sort(x[edge])), 1.0, atol=1e-3)
        np.testing.assert_allclose(x[edge], np.round(x[edge]), atol=1e-3)  # samples at whole metres


def test_map_exposes_its_sets_and_their_rules():
    from trackfield.driving.engine_map import build_engine_map

    sets = build_engine_map(straight_road()).sets
    np.testing.assert_allclose(sets["lane_s"][:10], np.arange(20.0, 400.0, 40.0), atol=1e-4)
    assert len(sets["boundary_xyz"][0]) == 2 * 401
    offsets = sets["lane_set_offsets"]
    assert len(offsets) == len(sets["group_xy"][0]) + 1 and np.diff(offsets).max() <= 80
    assert sets["quad_group"].max() == len(sets["group_xy"][0]) - 1
    assert sets["memory_bytes"] > 0


def rollout(observation, steps=25, num_threads=1, seed=3, **config):
    env = trackfield.vector.make("town_self_play", num_envs=3, num_threads=num_threads, agents_max=40,
                                 max_steps=20, observation=observation, **config)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=seed)
    out = [(obs, info["live"], np.zeros((3, 150), np.float32))]
    for _ in range(steps):
        obs, reward, _, _, info = env.step(rng.integers(0, 12, size=(3, 150)))
        out.append((obs, info["live"], reward))
    return out


def test_sets_agree_with_flat_on_the_fields_they_share():
    flat_fields = {name: shape for name, shape, *_ in _engine.driving.flat_fields()}
    offsets = np.cumsum([0] + [int(np.prod(s)) for s in flat_fields.values()])
    where = dict(zip(flat_fields, offsets))
    for (f, live_f, r_f), (s, live_s, r_s) in zip(rollout("flat"), rollout("sets")):
        assert np.array_equal(live_f, live_s) and np.array_equal(r_f, r_s)  # observing changes nothing
        for name in ("ego", "goal", "light", "conditioning"):
            size = int(np.prod(flat_fields[name]))
            assert np.array_equal(f[..., where[name]:where[name] + size], s[name].reshape(f.shape[:2] + (size,)))
        fv = f[..., where["vehicles"]:where["vehicles"] + 180].reshape(f.shape[:2] + (20, 9))
        # mask, x, y, length, width, z: flat columns 0-2, 6-8; sets 0-2, 7-9. cos and sin of
        # the heading difference: sets forms them from each heading's own (rounding apart).
        assert np.array_equal(fv[..., [0, 1, 2, 6, 7, 8]], s["vehicles"][..., [0, 1, 2, 7, 8, 9]])
        np.testing.assert_allclose(fv[..., 3:5], s["vehicles"][..., 3:5], atol=1e-6)
        speed = np.hypot(s["vehicles"][..., 5], s["vehicles"][..., 6])
        np.testing.assert_allclose(np.minimum(speed, 1.0), np.abs(fv[..., 5]), atol=1e-5)


def test_sets_are_in_bounds_and_absent_slots_are_zero():
    env = trackfield.vector.make("town_self_play", num_envs=2, agents=5, observation="sets")
    obs, _ = env.reset(seed=0)
    assert env.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    for value in obs.values():
        assert not value[:, 5:].any()
    assert obs["lane_points"][:, :5, :, 0].sum() > 0 and obs["boundary_points"][:, :5, :, 0].sum() > 0


def test_sets_are_bitwise_equal_for_one_and_two_threads_with_dropout():
    one, two = rollout("sets", num_threads=1, feature_dropout=True), rollout("sets", num_threads=2, feature_dropout=True)
    for (a, *_), (b, *_) in zip(one, two):
        assert all(np.array_equal(a[k], b[k]) for k in a)


def test_feature_dropout_drops_its_shares_and_nothing_else():
    from trackfield.driving.config import DrivingConfig

    assert DrivingConfig().feature_dropout is False  # off by default
    plain, dropped = rollout("sets", steps=30), rollout("sets", steps=30, feature_dropout=True)
    kept = {"lane_points": [0, 0], "boundary_points": [0, 0]}
    for (p, live_p, r_p), (d, live_d, r_d) in zip(plain, dropped):
        assert np.array_equal(live_p, live_d) and np.array_equal(r_p, r_d)  # the world is the same
        for name in kept:
            was = p[name][..., 0] == 1
            now = d[name][..., 0] == 1
            assert not (now & ~was).any()
            # Surviving elements are unchanged; dropped ones are all zero.
            assert np.array_equal(d[name][now], p[name][now]) and not d[name][~now].any()
            kept[name][0] += now.sum()
            kept[name][1] += was.sum()
        for name in ("ego", "vehicles", "goal", "light", "conditioning"):
            assert np.array_equal(p[name], d[name])
    lane_share = 1 - kept["lane_points"][0] / kept["lane_points"][1]
    boundary_share = 1 - kept["boundary_points"][0] / kept["boundary_points"][1]
    assert kept["lane_points"][1] > 20000
    assert lane_share == pytest.approx(0.5, abs=0.02) and boundary_share == pytest.approx(0.4, abs=0.02)
    again = rollout("sets", steps=5, feature_dropout=True)
    assert all(np.array_equal(a[0]["lane_points"], b[0]["lane_points"]) for a, b in zip(again, dropped))


@pytest.mark.parametrize("kwargs, name", [
    (dict(observation="image"), "observation"), (dict(feature_dropout=True), "feature_dropout"),
    (dict(observation="sets", feature_dropout=1), "feature_dropout"),
])
def test_bad_observation_config_names_the_argument(kwargs, name):
    with pytest.raises((ValueError, TypeError), match=name):
        trackfield.make("town_drive", **kwargs)


def test_observe_rebuilds_observations_from_stored_states():
    kw = dict(agents_max=30, max_steps=40)
    flat_env = trackfield.vector.make("town_self_play", num_envs=2, num_threads=1, **kw)
    sets_env = trackfield.vector.make("town_self_play", num_envs=2, num_threads=1, observation="sets",
                                      feature_dropout=True, **kw)
    f_obs, info = flat_env.reset(seed=9)
    s_obs, _ = sets_env.reset(seed=9)
    rng = np.random.default_rng(1)
    for t in range(12):
        states = [flat_env.get_state(i) for i in range(2)]
        live = info["live"]
        again = trackfield.driving.observe(states, observation="sets", feature_dropout=True, **kw)
        for name in again:
            assert np.array_equal(again[name][live], s_obs[name][live])
        flat_again = trackfield.driving.observe(states, **kw)
        assert np.array_equal(flat_again[live], f_obs[live])
        actions = rng.integers(0, 12, size=(2, 150))
        f_obs, _, _, _, info = flat_env.step(actions)
        s_obs, *_ = sets_env.step(actions)


def test_observe_names_bad_states():
    with pytest.raises(TypeError, match="states"):
        trackfield.driving.observe(b"not a list")
    with pytest.raises(ValueError, match=r"states\[0\]"):
        trackfield.driving.observe([b"garbage"])
    other = trackfield.vector.make("town_self_play", num_envs=1, agents=3)
    other.reset(seed=0)
    with pytest.raises(ValueError, match=r"states\[0\]"):
        trackfield.driving.observe([other.get_state(0)], agents=4)   # another config


def test_observe_docstring_example_runs():
    import doctest

    import trackfield.driving.rebuild as observe_module

    result = doctest.testmod(observe_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
