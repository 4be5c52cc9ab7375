"""Clips: whole 15 s clips, trimmed right, state rows matching the frames."""
import json

import numpy as np
import pytest
from rd_fixtures import agent_race

from trackfield.reward_design.clips import export_clips, kept_steps


def test_clips_are_150_frames_trimmed_right_with_matching_state_rows(tmp_path):
    import imageio_ffmpeg

    a = agent_race(seed=3, steps=160, scenario="race_1v3")
    b = agent_race(seed=4, steps=170, scenario="race_1v3")
    assert kept_steps(a) == 160  # shorter than a lap and 3 minutes: all of it
    comparison = export_clips(a, b, tmp_path, size=(320, 180))
    assert len(comparison.clips_a) == 1  # 161 and 171 frames: one whole clip, the rest dropped
    frames, _ = imageio_ffmpeg.count_frames_and_secs(comparison.clips_a[0])
    assert frames == 150
    for side, traj in (("a", a), ("b", b)):
        rows = [json.loads(line) for line in open(getattr(comparison, f"states_{side}")[0])]
        assert [r["step"] for r in rows] == list(range(150))
        for t in (0, 77, 149):
            assert rows[t]["progress"] == pytest.approx(float(traj.state(t).progress[0]), abs=1e-3)
            assert rows[t]["time_s"] == pytest.approx(float(traj.state(t).time_s[0]), abs=1e-3)
    with open(comparison.strips_a[0], "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_clip_longer_than_trajectory_refused(tmp_path):
    a = agent_race(seed=1, steps=40, scenario="race_1v3")
    with pytest.raises(ValueError, match="needs 150"):
        export_clips(a, a, tmp_path)


def test_clip_frames_show_the_rendered_races_side_by_side(tmp_path):
    import imageio_ffmpeg

    from trackfield.reward_design.trajectory import replay

    a = agent_race(seed=3, steps=160, scenario="race_1v3")
    b = agent_race(seed=4, steps=170, scenario="race_1v3")
    comparison = export_clips(a, b, tmp_path, size=(320, 180))
    frames = imageio_ffmpeg.read_frames(comparison.clips_a[0])
    assert next(frames)["size"] == (644, 180)
    decoded = [np.frombuffer(f, np.uint8).reshape(180, 644, 3) for f, _ in zip(frames, range(61))]
    for side, traj, cols in ((0, a, slice(0, 320)), (1, b, slice(324, 644))):
        _, rendered = replay(traj, steps=60, frame=lambda e: e.unwrapped.unwrapped_engine.batch.render(0, 320, 180))
        for t in (0, 60):
            inner = (slice(6, -6), slice(6, -6))  # the border marks contact / off course
            diff = np.abs(decoded[t][:, cols][inner].astype(int) - rendered[t][inner])
            assert np.median(diff) <= 2 and diff.mean() < 6, (side, t)
    assert (decoded[0][:, 320:324] > 240).all()  # the white gap between A and B


def test_odd_sizes_and_bad_planes_are_refused_by_name(tmp_path):
    import trackfield

    a = agent_race(seed=3, steps=160, scenario="race_1v3")
    with pytest.raises(ValueError, match="size must be even"):
        export_clips(a, a, tmp_path, size=(321, 180))
    env = trackfield.make("race_1v3")
    env.reset(seed=0)
    batch = env.unwrapped.unwrapped_engine.batch
    y, u, v = np.zeros((180, 320), np.uint8), np.zeros((90, 160), np.uint8), np.zeros((90, 160), np.uint8)
    batch.render_yuv420(0, y, u, v)
    assert len(np.unique(y)) > 3
    with pytest.raises(ValueError, match="u and v"):
        batch.render_yuv420(0, y, u[:, :100], v)
    with pytest.raises(ValueError, match="y must be a writable"):
        batch.render_yuv420(0, y.astype(np.float32), u, v)
    with pytest.raises(ValueError, match="even"):
        batch.render_yuv420(0, np.zeros((181, 320), np.uint8), u, v)
    with pytest.raises(IndexError):
        batch.render_yuv420(1, y, u, v)


def test_a_failing_encoder_raises_with_its_message(tmp_path, monkeypatch):
    import imageio_ffmpeg

    a = agent_race(seed=3, steps=160, scenario="race_1v3")
    script = tmp_path / "broken_ffmpeg"
    script.write_text("#!/bin/sh\necho 'Unknown encoder libx264' >&2\nexit 1\n")
    script.chmod(0o755)
    monkeypatch.setattr(imageio_ffmpeg, "get_ffmpeg_exe", lambda: str(script))
    with pytest.raises(RuntimeError, match="ffmpeg failed writing .*Unknown encoder libx264"):
        export_clips(a, a, tmp_path / "clips", size=(160, 90))


def test_one_encoder_cuts_every_clip_to_the_same_length(tmp_path):
    import imageio_ffmpeg

    a = agent_race(seed=3, steps=160, scenario="race_1v3")
    b = agent_race(seed=4, steps=170, scenario="race_1v3")
    comparison = export_clips(a, b, tmp_path, size=(160, 90), clip_s=3.0)
    assert len(comparison.clips_a) == 5  # 161 frames: five 30-frame clips, the last 11 dropped
    assert [imageio_ffmpeg.count_frames_and_secs(p)[0] for p in comparison.clips_a] == [30] * 5
    rows = [json.loads(line) for line in open(comparison.states_b[2])]
    assert [r["step"] for r in rows] == list(range(60, 90))
