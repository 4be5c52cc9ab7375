"""Rules of a driving world: spawns, off-road, collisions, goals, respawns."""
from __future__ import annotations

import math

import numpy as np

import trackfield
from trackfield import _engine

QUIET = dict(lights=False, erratic=False)
COMPONENTS = list(_engine.driving.REWARD_COMPONENTS)


def component(info_or_row, name):
    return info_or_row[COMPONENTS.index(name)]


def test_spawns_are_on_road_and_clear_of_each_other():
    env = trackfield.vector.make("town_self_play", num_envs=2, agents=150, static_obstacles=20)
    env.reset(seed=5)
    eng = env.unwrapped_engine if hasattr(env, "unwrapped_engine") else env._engine
    drive_map = eng.drive_config.maps[0].map
    for i in range(2):
        v = eng.batch.vehicles(i)
        present = v[v[:, 6] == 1]
        assert len(present) >= 150  # a small town fits 150 agents and 20 obstacles (rejection may drop a few)
        for x, y, h, _, length, width, _, _, z in present:
            assert not drive_map.is_off_road(x, y, z, h, length, width)
        radius = 0.5 * np.hypot(present[:, 4], present[:, 5])
        d = np.hypot(present[:, None, 0] - present[None, :, 0], present[:, None, 1] - present[None, :, 1])
        need = radius[:, None] + radius[None, :]
        np.fill_diagonal(d, np.inf)
        assert (d > need).all()


def test_driving_straight_off_the_road_terminates_with_the_off_road_weight():
    env = trackfield.make("town_drive", agents=1, **QUIET)
    env.reset(seed=2)
    eng = env.unwrapped_engine
    x, y, h = eng.batch.vehicles(0)[0, :3]
    lane_heading = eng.drive_config.maps[0].map.localise(x, y).heading
    eng.batch.place_vehicle(0, 0, x, y, lane_heading + math.pi / 2, 6.0)  # across the lane
    for _ in range(50):
        obs, reward, terminated, truncated, info = env.step(7)
        if terminated:
            break
    assert terminated and info["off_road"]
    assert info["reward_components"]["off_road"] == -25.0
    assert reward <= -25.0


def test_two_agents_placed_head_on_collide():
    env = trackfield.parallel_env("town_self_play", agents=2, **QUIET)
    env.reset(seed=1)
    batch = env.unwrapped_engine.batch
    x, y = batch.vehicles(0)[0, :2]
    pos = env.unwrapped_engine.drive_config.maps[0].map.localise(x, y)
    h = pos.heading
    batch.place_vehicle(0, 0, x, y, h, 8.0)
    batch.place_vehicle(0, 1, x + 12 * math.cos(h), y + 12 * math.sin(h), h + math.pi, 8.0)
    names = list(env.agents)
    for _ in range(5):
        obs, rewards, terms, truncs, infos = env.step({a: 7 for a in env.agents})
        if any(terms.values()):
            break
    assert all(terms[a] for a in names)
    for a in names:
        assert infos[a]["collided"]
        assert infos[a]["reward_components"]["collision"] <= -25.0


def test_reaching_the_goal_slowly_pays_the_goal_reward_and_ends_the_agent():
    env = trackfield.make("town_drive", agents=1, **QUIET)
    env.reset(seed=4)
    batch = env.unwrapped_engine.batch
    x, y = batch.vehicles(0)[0, :2]
    batch.set_goal(0, 0, x, y)  # the ego stands at its goal, at rest
    obs, reward, terminated, truncated, info = env.step(7)
    assert terminated and info["reached_goal"]
    assert info["reward_components"]["goal"] == 1.0


def test_a_fast_pass_through_the_final_goal_pays_nothing():
    env = trackfield.make("town_drive", agents=1, **QUIET)
    env.reset(seed=4)
    batch = env.unwrapped_engine.batch
    x, y, h = batch.vehicles(0)[0, :3]
    batch.place_vehicle(0, 0, x, y, h, 6.0)
    batch.set_goal(0, 0, x, y)
    _, _, _, _, info = env.step(7)
    assert info["reward_components"]["goal"] == 0.0 and not info["reached_goal"]


def test_respawn_gives_a_new_agent_name():
    env = trackfield.parallel_env("town_self_play", agents=2, **QUIET)
    env.reset(seed=0)
    first = set(env.agents)
    slot0 = env.agents[0]
    env.unwrapped_engine.batch.place_vehicle(0, 0, 1e4, 1e4, 0.0, 0.0)  # far off the map
    _, _, terms, _, _ = env.step({a: 7 for a in env.agents})
    assert terms[slot0] and slot0 not in env.agents
    env.step({a: 7 for a in env.agents})
    new = set(env.agents) - first
    assert len(new) == 1 and slot0 not in env.agents
    assert len(env.agents) == 2


def test_static_obstacles_are_seen_like_vehicles():
    env = trackfield.make("town_drive", agents=1, static_obstacles=50, **QUIET)
    obs, _ = env.reset(seed=0)
    vehicles = obs[14 + 6:14 + 6 + 180].reshape(20, 9)
    assert vehicles[:, 0].sum() >= 1  # 50 obstacles in a small town: some within 200 m
