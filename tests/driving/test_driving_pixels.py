"""The driving "pixels" observation and the rgb_array / human renderers."""
from __future__ import annotations

import math

import numpy as np
import pytest

import trackfield
from trackfield import _engine
from trackfield.driving.engine import light_arrays, resolve_roadmap

_dr = _engine.driving
DRIVABLE, BOUNDARY, ROUTE, VEHICLES, EGO, LIGHTS = range(6)
SIZE, METRES = _dr.PIXEL_SIZE, _dr.PIXEL_METRES


def pixel_env(num_envs=1, agents=2, **config):
    return trackfield.vector.make("town_self_play", num_envs=num_envs, num_threads=1, agents=agents,
                                  observation="pixels", lights=True, erratic=False, **config)


def reobserve(env, index=0):
    """Rewrites world `index`'s observation without stepping (set_state writes it)."""
    eng = env.unwrapped._engine
    eng.batch.set_state(index, eng.batch.get_state(index))
    return eng.obs[index]


def test_spaces_and_checkers_pass_with_pixels():
    from gymnasium.utils.env_checker import check_env

    env = trackfield.make("town_drive", observation="pixels", max_steps=20)
    assert env.observation_space.shape == (SIZE, SIZE, 6) and env.observation_space.dtype == np.uint8
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=1)
    assert obs.dtype == np.uint8 and env.observation_space.contains(obs)
    assert obs[..., DRIVABLE].any() and obs[..., EGO].any()


def test_pettingzoo_parallel_api_with_pixels():
    from pettingzoo.test import parallel_api_test

    parallel_api_test(trackfield.parallel_env("town_self_play", agents=3, max_steps=20, observation="pixels"),
                      num_cycles=25)


def test_ego_box_is_centred_and_dead_slots_are_zero():
    env = pixel_env(num_envs=2, agents=4)
    obs, info = env.reset(seed=0)
    assert obs.shape == (2, 150, SIZE, SIZE, 6)
    live = info["live"]
    assert live.sum() == 8 and not obs[~live].any()
    for world, slot in zip(*np.nonzero(live)):
        rows, cols = np.nonzero(obs[world, slot, :, :, EGO])
        # The box centre lies on the corner between pixels 31 and 32 (half a pixel of slack).
        assert abs(rows.mean() + 0.5 - SIZE / 2) <= 0.5 and abs(cols.mean() + 0.5 - SIZE / 2) <= 0.5
        length = env.unwrapped._engine.batch.vehicles(int(world))[slot, 4]
        assert abs((rows.max() - rows.min() + 1) - length / METRES) <= 1.5


def test_a_vehicle_ten_metres_ahead_appears_at_the_expected_rows():
    env = pixel_env(agents=2)
    env.reset(seed=2)
    batch = env.unwrapped._engine.batch
    veh = batch.vehicles(0)
    x, y, h = veh[0, :3]
    batch.place_vehicle(0, 0, x, y, h, 0.0)
    batch.place_vehicle(0, 1, x + 10 * math.cos(h), y + 10 * math.sin(h), h, 0.0)
    obs = reobserve(env)[0]
    rows, cols = np.nonzero(obs[:, :, VEHICLES])
    length = veh[1, 4]
    # Forward f metres is row SIZE/2 - f: the box spans f in [10 - L/2, 10 + L/2].
    assert rows.min() >= math.floor(SIZE / 2 - 10 - length / 2) - 1 and rows.max() <= math.ceil(SIZE / 2 - 10 + length / 2)
    assert abs(rows.mean() + 0.5 - (SIZE / 2 - 10)) <= 0.75
    assert abs(cols.mean() + 0.5 - SIZE / 2) <= 0.75
    # Moved 10 m to the left instead: the same rows as the ego, columns to the left.
    batch.place_vehicle(0, 1, x - 10 * math.sin(h), y + 10 * math.cos(h), h, 0.0)
    obs = reobserve(env)[0]
    rows, cols = np.nonzero(obs[:, :, VEHICLES])
    assert abs(cols.mean() + 0.5 - (SIZE / 2 - 10)) <= 0.75 and abs(rows.mean() + 0.5 - SIZE / 2) <= 0.75


def test_a_red_light_ahead_shows_in_the_lights_channel():
    roadmap = resolve_roadmap(None, 0)
    lights = light_arrays(roadmap)
    stop = lights["stop_lines"][0]
    heading = float(lights["light_heading"][0])
    mid = stop.mean(axis=0)
    seen = set()
    for seed in range(6):
        env = pixel_env(agents=1, max_steps=200)
        _, info = env.reset(seed=seed)
        if not info["lights_on"][0]:
            continue
        batch = env.unwrapped._engine.batch
        for _ in range(120):
            # The ego 8 m before the stop line, facing along its lane.
            batch.place_vehicle(0, 0, mid[0] - 8 * math.cos(heading), mid[1] - 8 * math.sin(heading), heading, 0.0)
            channel = reobserve(env)[0, :, :, LIGHTS]
            assert set(np.unique(channel).tolist()) <= {0, 85, 170, 255}
            # Its band: 8 m ahead (the stop line) back to 6.5 m: row 24 (centre 7.5 m ahead), across the lane.
            band = channel[SIZE // 2 - 8:SIZE // 2 - 7, SIZE // 2 - 1:SIZE // 2 + 1]
            assert (band == band[0, 0]).all()
            seen.add(int(band[0, 0]))
            assert not channel[SIZE // 2 - 4:SIZE // 2 + 4, SIZE // 2 - 1:SIZE // 2 + 1].any()  # nothing under the ego
            env.step(np.full((1, 150), 7))
        if {85, 255} <= seen:
            break
    assert {85, 255} <= seen, seen


def test_pixels_batched_equals_single_and_threads_are_bitwise_equal():
    def rollout(num_envs, threads):
        env = trackfield.vector.make("town_self_play", num_envs=num_envs, num_threads=threads, agents_max=6,
                                     max_steps=8, observation="pixels")
        obs, _ = env.reset(seed=5)
        out = [obs[0].copy()]
        rng = np.random.default_rng(0)
        for _ in range(10):
            obs, *_ = env.step(rng.integers(0, 12, size=(num_envs, 150)))
            out.append(obs[0].copy())
        return out

    one, two = rollout(3, 1), rollout(3, 2)
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
    single = trackfield.make("town_drive", observation="pixels", agents=4)
    vec = trackfield.vector.make("town_drive", num_envs=2, num_threads=2, observation="pixels", agents=4)
    sobs, _ = single.reset(seed=9)
    vobs, _ = vec.reset(seed=9)
    assert np.array_equal(vobs[0], sobs)
    for t in range(6):
        sobs, *_ = single.step(7)
        vobs, *_ = vec.step(np.array([7, 7]))
        assert np.array_equal(vobs[0], sobs), t


def yellow_near(frame, row, col, r=3):
    patch = frame[max(row - r, 0):row + r + 1, max(col - r, 0):col + r + 1].reshape(-1, 3)
    return bool((patch == (255, 225, 0)).all(axis=1).any())


def test_rgb_array_frame_shows_a_vehicle_where_it_is():
    env = trackfield.make("town_drive", render_mode="rgb_array", render_width=960, agents=1)  # a car is ~3 px long at 960 px
    env.reset(seed=0)
    batch = env.unwrapped._engine.batch
    before = env.render()
    assert before.shape == (960, 960, 3) and before.dtype == np.uint8
    x0, y0, ppm = batch.render_view(0, 960)
    x, y, h = batch.vehicles(0)[0, :3]
    col, row = int((x - x0) * ppm), int((y0 - y) * ppm)
    assert yellow_near(before, row, col)  # slot 0 is yellow
    # Moved 40 m: the frame changes at both places, and the yellow box moves with it.
    nx, ny = x - 40 * math.cos(h), y - 40 * math.sin(h)
    batch.place_vehicle(0, 0, nx, ny, h, 0.0)
    after = env.render()
    ncol, nrow = int((nx - x0) * ppm), int((y0 - ny) * ppm)
    assert not yellow_near(after, row, col) and yellow_near(after, nrow, ncol)
    changed = (before != after).any(axis=2)
    assert changed[row - 3:row + 4, col - 3:col + 4].any() and changed[nrow - 3:nrow + 4, ncol - 3:ncol + 4].any()


def test_vector_and_parallel_envs_render_rgb_arrays():
    vec = trackfield.vector.make("town_self_play", num_envs=2, agents=3, render_mode="rgb_array", render_width=128)
    vec.reset(seed=0)
    frames = vec.render()
    assert len(frames) == 2 and frames[0].shape == (128, 128, 3)
    par = trackfield.parallel_env("town_self_play", agents=3, render_mode="rgb_array", render_width=128)
    par.reset(seed=0)
    assert par.render().shape == (128, 128, 3)


def test_human_mode_opens_a_window(monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    for env in (trackfield.make("town_drive", render_mode="human", render_width=96, agents=2),
                trackfield.vector.make("town_self_play", num_envs=1, agents=2, render_mode="human", render_width=96),
                trackfield.parallel_env("town_self_play", agents=2, render_mode="human", render_width=96)):
        env.reset(seed=0)
        assert env.render() is None
        env.close()


@pytest.mark.parametrize("kwargs, name", [
    (dict(render_mode="movie"), "render_mode"),
    (dict(render_width=10), "render_width"),
    (dict(observation="image"), "observation"),
    (dict(observation="pixels", feature_dropout=True), "feature_dropout"),
])
def test_bad_render_and_pixel_config_raises_naming_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        trackfield.make("town_drive", **kwargs)


def test_observe_rebuilds_pixels_from_stored_states():
    from trackfield.driving import observe

    env = trackfield.vector.make("town_self_play", num_envs=2, agents=3, observation="flat")
    env.reset(seed=4)
    env.step(np.full((2, 150), 10))
    states = [env.get_state(0), env.get_state(1)]
    pixels = trackfield.vector.make("town_self_play", num_envs=2, agents=3, observation="pixels")
    pixels.reset(seed=4)
    obs, *_ = pixels.step(np.full((2, 150), 10))
    rebuilt = observe(states, observation="pixels", agents=3)
    assert rebuilt.shape == (2, 150, SIZE, SIZE, 6) and np.array_equal(rebuilt, obs)
