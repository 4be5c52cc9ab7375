"""Pixel observations and viewer frames, drawn by the C++ rasteriser."""
from __future__ import annotations

import hashlib

import numpy as np
import pytest

import trackfield

BALL = (255, 255, 255)  # nothing else is drawn pure white (markings are 235)


def ball_pixels(frame):
    mask = np.all(frame == BALL, axis=-1)
    assert mask.any(), "ball not drawn"
    ys, xs = np.nonzero(mask)
    return xs.mean(), ys.mean()


def test_gray_is_the_luminance_of_rgb():
    rgb = trackfield.make("academy_3_vs_1_with_keeper", representation="pixels")
    gray = trackfield.make("academy_3_vs_1_with_keeper", representation="pixels_gray")
    a, _ = rgb.reset(seed=4)
    b, _ = gray.reset(seed=4)
    for t in range(30):
        c = a.astype(np.int64)
        lum = (299 * c[..., 0] + 587 * c[..., 1] + 114 * c[..., 2] + 500) // 1000
        assert np.array_equal(b[..., 0], lum.astype(np.uint8)), f"step {t}"
        a, _, done_a, cut_a, _ = rgb.step(t % 19)
        b, _, done_b, cut_b, _ = gray.step(t % 19)
        assert (done_a, cut_a) == (done_b, cut_b)
        if done_a or cut_a:
            a, _ = rgb.reset(seed=5 + t)
            b, _ = gray.reset(seed=5 + t)


def test_ball_moves_across_the_frame_as_in_the_raw_observation(scenario_file):
    # The ball rolls from the centre towards the right: its pixel follows raw's x.
    path = scenario_file((0.0, 0.0), [(-1.0, 0.0, "GK"), (-0.05, 0.0, "CF")], [(-1.0, 0.0, "GK")],
                         game_duration=50, offsides=False)
    pix = trackfield.make(path, representation="pixels", channel_dimensions=(192, 144))
    raw = trackfield.make(path, representation="raw")
    p, _ = pix.reset(seed=0)
    r, _ = raw.reset(seed=0)
    for _ in range(12):
        x, y = ball_pixels(p)
        # the pitch in metres (105 x 68, drawn with a 3 m margin) from GRF's observation
        # units (lines at x = 55 / 54.4, y = 36 / 83.6); the ball is drawn raised by half
        # its height above the grass
        metres_x, metres_y = r["ball"][0] * 52.5 / (55 / 54.4), r["ball"][1] * 34 / (36 / 83.6)
        expected_x = (metres_x + 55.5) / 111.0 * 192
        expected_y = (metres_y - (r["ball"][2] - 0.11) * 0.5 + 37) / 74.0 * 144
        assert abs(x - expected_x) <= 1.5 and abs(y - expected_y) <= 1.5
        p = pix.step(5)[0]       # run right with the ball
        r = raw.step(5)[0]


def test_right_team_agent_sees_the_pitch_rotated(scenario_file):
    path = scenario_file((0.3, 0.2), [(-1.0, 0.0, "GK"), (-0.5, 0.1, "CF")], [(-1.0, 0.0, "GK"), (-0.6, -0.1, "CF")],
                         game_duration=50)
    env = trackfield.parallel_env(path, representation="pixels", number_of_right_players_agent_controls=1)
    obs, _ = env.reset(seed=0)
    h, w = obs["left_0"].shape[:2]
    lx, ly = ball_pixels(obs["left_0"])
    rx, ry = ball_pixels(obs["right_0"])
    assert abs((w - 1 - lx) - rx) <= 1.0 and abs((h - 1 - ly) - ry) <= 1.0
    # each agent's own team is drawn light, the opponents dark
    own, opp = (255, 120, 80), (30, 40, 140)
    for agent in ("left_0", "right_0"):
        frame = obs[agent]
        assert np.all(frame == own, axis=-1).any() and np.all(frame == opp, axis=-1).any()


def test_channel_dimensions_size_smm_and_pixels():
    for rep, channels in (("smm", 4), ("pixels", 3), ("pixels_gray", 1)):
        env = trackfield.make("academy_empty_goal_close", representation=rep, channel_dimensions=(40, 30))
        obs, _ = env.reset(seed=0)
        assert obs.shape == (30, 40, channels) and env.observation_space.shape == obs.shape


@pytest.mark.parametrize("dims", [(0, 72), (96, -1), (4097, 72), (96, 5000), (96,), "96x72", (96.0, 72)])
def test_bad_channel_dimensions_raise(dims):
    with pytest.raises((ValueError, TypeError), match="channel_dimensions"):
        trackfield.make("academy_empty_goal_close", representation="pixels", channel_dimensions=dims)


def test_viewer_frame_golden_hash(scenario_file):
    # A constructed, deterministic frame: any change to the drawing changes the hash.
    path = scenario_file((0.5, 0.1), [(-1.0, 0.0, "GK"), (0.45, 0.1, "CF"), (0.3, -0.2, "CM")],
                         [(-1.0, 0.0, "GK"), (-0.55, 0.0, "CB")], game_duration=400, deterministic=True)
    env = trackfield.make(path, render_mode="rgb_array", render_width=800)
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (533, 800, 3) and frame.dtype == np.uint8
    # the scoreboard bar (dark) spans the top, the clock reads 00:00
    assert np.all(frame[:4, :, :] == (20, 30, 25)) or frame[:2].mean() < 40
    digest = hashlib.sha256(frame.tobytes()).hexdigest()[:16]
    assert digest == GOLDEN_VIEWER_FRAME, digest


def test_pixels_golden_hash(scenario_file):
    path = scenario_file((0.5, 0.1), [(-1.0, 0.0, "GK"), (0.45, 0.1, "CF")], [(-1.0, 0.0, "GK")],
                         game_duration=400, deterministic=True)
    env = trackfield.make(path, representation="pixels")
    obs, _ = env.reset(seed=0)
    digest = hashlib.sha256(obs.tobytes()).hexdigest()[:16]
    assert digest == GOLDEN_PIXELS, digest


GOLDEN_VIEWER_FRAME = "1cbced8aee1895bb"
GOLDEN_PIXELS = "adc32e11aeca0642"
