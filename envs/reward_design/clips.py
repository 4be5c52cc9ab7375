"""Clips of two recorded races side by side, for a human or a model to compare.

Both trajectories are re-simulated (bitwise, from their initial state and actions) and
re-rendered with racing's rasteriser, one frame per control step (10 fps at 10 Hz
control). The first lap or the first 3 minutes, whichever is shorter, is kept and cut
into 15 s clips; a trailing part shorter than a clip is dropped. Per clip: a
side-by-side mp4 (A left), a frame strip per side (PNG) and per-frame state rows
(JSON lines, CarState names of the followed car). A red border marks contact with a
car or wall, an orange one a car off course.
"""
from __future__ import annotations

import json
import os
import struct
import zlib

import numpy as np

from trackfield.reward_design.models import Comparison
from trackfield.reward_design.state import FIELD_NAMES, api_doc
from trackfield.reward_design.trajectory import Trajectory, load_trajectory, replay

RED, ORANGE = np.array([230, 30, 30], np.uint8), np.array([255, 150, 0], np.uint8)
SKIP = ("others", "world", "car", "group", "contact", "distance")  # per-world tables, not one car's state


def write_png(path: str, image: np.ndarray) -> None:
    """An RGB uint8 image as PNG (standard library only)."""
    h, w, _ = image.shape
    raw = b"".join(b"\x00" + image[y].tobytes() for y in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def _write_mp4(path, frames, fps=10):
    """H.264 at x264's fastest preset: clips are for looking at, and encoding is most of the export's time."""
    try:
        import imageio_ffmpeg
    except ImportError as error:
        raise ImportError("clips need imageio-ffmpeg: pip install 'trackfield[render]'") from error
    h, w = frames[0].shape[:2]
    h, w = h - h % 2, w - w % 2
    writer = imageio_ffmpeg.write_frames(path, (w, h), fps=fps, macro_block_size=1, quality=None,
                                         output_params=["-preset", "ultrafast", "-crf", "28"])
    writer.send(None)
    for frame in frames:
        writer.send(np.ascontiguousarray(frame[:h, :w]))
    writer.close()


def focus_car(traj: Trajectory) -> int:
    """The car the chase view follows: the first agent's, else car 0."""
    controlled = np.flatnonzero(traj.state(0).controlled)
    return int(controlled[0]) if len(controlled) else 0


def kept_steps(traj: Trajectory, max_s: float = 180.0, control_hz: int = 10) -> int:
    """States kept: up to the end of the focus car's first lap (one course length of
    progress: rolling starts begin anywhere on the lap) or ``max_s``, whichever is first."""
    car = focus_car(traj)
    progress = traj.raw.reshape(len(traj.raw), traj.cars, -1)[:, car, 3]  # progress column of RAW_FIELDS
    done = np.flatnonzero(progress - progress[0] >= traj.course.length)
    end = int(done[0]) if len(done) else traj.steps
    return min(end, int(round(max_s * control_hz)), traj.steps)


def _mark(frame, contact, off):
    if contact or off:
        colour = RED if contact else ORANGE
        frame[:6], frame[-6:], frame[:, :6], frame[:, -6:] = colour, colour, colour, colour
    return frame


def _frames(traj, steps, size):
    frames = []
    car = focus_car(traj)
    rows = traj.raw.reshape(len(traj.raw), traj.cars, -1)[:, car]
    from trackfield.reward_design.state import RAW_FIELDS

    offsets, col = {}, 0
    for name, width, _ in RAW_FIELDS:
        offsets[name] = col
        col += width
    env, _ = replay(traj, steps=steps, frame=lambda e: e.unwrapped.unwrapped_engine.batch.render(0, size[0], size[1]),
                    sink=frames)
    for t, frame in enumerate(frames):
        row = rows[t]
        _mark(frame, row[offsets["car_contact"]] or row[offsets["wall_contact"]], row[offsets["off_course"]])
    return frames


def _state_rows(traj, begin, end):
    """The focus car's state per frame as dicts, built column by column (no per-frame CarState)."""
    from trackfield.reward_design.state import car_state_from_raw

    car = focus_car(traj)
    states = car_state_from_raw(traj.raw[begin:end], traj.cars)[np.arange(end - begin) * traj.cars + car]
    columns = {name: np.round(np.asarray(getattr(states, name), np.float64), 4).tolist()
               for name in FIELD_NAMES if name not in SKIP}
    return [{**{name: values[k] for name, values in columns.items()}, "step": begin + k} for k in range(end - begin)]


def export_clips(traj_a, traj_b, out_dir, clip_s: float = 15.0, max_s: float = 180.0, size=(640, 360),
                 strip_frames: int = 10, goal: str = "") -> Comparison:
    """Writes the clips of two trajectories (Trajectory objects or .npz paths) to
    ``out_dir`` and returns the :class:`Comparison` listing them."""
    trajs = [t if isinstance(t, Trajectory) else load_trajectory(t) for t in (traj_a, traj_b)]
    if clip_s <= 0:
        raise ValueError(f"clip_s must be > 0, got {clip_s}")
    per_clip = int(round(clip_s * 10))
    kept = [kept_steps(t, max_s) for t in trajs]
    for side, (t, k) in zip("AB", zip(trajs, kept)):
        if k + 1 < per_clip:
            raise ValueError(f"trajectory {side} ({t.path or t.scenario}) keeps {k + 1} frames; a {clip_s:g} s clip "
                             f"needs {per_clip}")
    clips = min((k + 1) // per_clip for k in kept)
    frames = [_frames(t, clips * per_clip - 1, size) for t in trajs]
    os.makedirs(out_dir, exist_ok=True)
    out = {key: [] for key in ("clips_a", "strips_a", "strips_b", "states_a", "states_b")}
    for c in range(clips):
        lo, hi = c * per_clip, (c + 1) * per_clip
        path = os.path.join(out_dir, f"clip_{c:02d}.mp4")
        gap = np.full((size[1], 4, 3), 255, np.uint8)
        _write_mp4(path, [np.concatenate([fa, gap, fb], axis=1) for fa, fb in zip(frames[0][lo:hi], frames[1][lo:hi])])
        out["clips_a"].append(path)
        for side, traj, fr in (("a", trajs[0], frames[0]), ("b", trajs[1], frames[1])):
            picks = np.linspace(lo, hi - 1, strip_frames).round().astype(int)
            strip = np.concatenate([fr[k][::4, ::4] for k in picks], axis=1)
            strip_path = os.path.join(out_dir, f"strip_{side}_{c:02d}.png")
            write_png(strip_path, np.ascontiguousarray(strip))
            out[f"strips_{side}"].append(strip_path)
            state_path = os.path.join(out_dir, f"states_{side}_{c:02d}.jsonl")
            with open(state_path, "w", encoding="utf-8") as f:
                for row in _state_rows(traj, lo, hi):
                    f.write(json.dumps(row) + "\n")
            out[f"states_{side}"].append(state_path)
    return Comparison(clips_a=tuple(out["clips_a"]), clips_b=tuple(out["clips_a"]), strips_a=tuple(out["strips_a"]),
                      strips_b=tuple(out["strips_b"]), states_a=tuple(out["states_a"]),
                      states_b=tuple(out["states_b"]), variables=api_doc(), goal=goal)
