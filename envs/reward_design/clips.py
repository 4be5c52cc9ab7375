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

from trackfield.reward_design.env_hook import race_state_columns
from trackfield.reward_design.models import Comparison
from trackfield.reward_design.state import FIELD_NAMES, api_doc
from trackfield.reward_design.trajectory import Trajectory, load_trajectory

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


class _Encoder:
    """One ffmpeg process for all clips of a comparison: raw YUV 4:2:0 frames go down one
    pipe (the renderer converts: ffmpeg's own RGB conversion took a third of its time)
    and the segment muxer cuts a file every ``per_clip`` frames (a key frame each), so
    there is one process start and no encoder probe per clip. H.264 at x264's fastest
    preset: clips are for looking at, and encoding is most of the export's CPU time.
    Constant QP 23 rather than CRF: as sharp as CRF 28 on these flat-coloured frames
    and 15 % less encoder CPU (no rate control). One encoder thread: the caller's
    thread renders meanwhile, and on a shared machine more threads cost CPU without
    shortening the export."""

    def __init__(self, pattern, width, height, per_clip, fps=10):
        try:
            import imageio_ffmpeg
        except ImportError as error:
            raise ImportError("clips need imageio-ffmpeg: pip install 'trackfield[render]'") from error
        import subprocess
        import tempfile

        self.pattern = pattern
        self._log = tempfile.TemporaryFile()
        cmd = [imageio_ffmpeg.get_ffmpeg_exe(), "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p",
               "-s", f"{width}x{height}", "-r", str(fps), "-i", "-", "-an", "-c:v", "libx264", "-preset", "ultrafast",
               "-qp", "23", "-threads", "1", "-colorspace", "smpte170m", "-color_range", "tv", "-g", str(per_clip),
               "-keyint_min", str(per_clip), "-sc_threshold", "0", "-f", "segment",
               "-segment_time", f"{per_clip / fps:g}", "-reset_timestamps", "1", "-segment_format", "mp4", pattern]
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=self._log)

    def write(self, frame: np.ndarray) -> None:
        try:
            self._proc.stdin.write(memoryview(frame).cast("B"))
        except BrokenPipeError:
            self.close()  # raises with ffmpeg's message when it failed
            raise RuntimeError(f"ffmpeg stopped reading frames for {self.pattern}") from None

    def close(self) -> None:
        if self._log.closed:
            return
        try:
            self._proc.stdin.close()
        except BrokenPipeError:
            pass
        code = self._proc.wait()
        self._log.seek(0)
        message = self._log.read().decode(errors="replace").strip()
        self._log.close()
        if code != 0:
            raise RuntimeError(f"ffmpeg failed writing {self.pattern} (exit {code}): {message[-2000:]}")


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


def _border(image, value, width) -> None:
    image[:width], image[-width:], image[:, :width], image[:, -width:] = value, value, value, value


def _mark(frame, contact, off):
    if contact or off:
        _border(frame, RED if contact else ORANGE, 6)
    return frame


def _yuv(rgb) -> tuple:
    """An RGB colour in the renderer's YUV (BT.601 limited range, integer as in C++)."""
    r, g, b = (int(c) for c in rgb)
    return (((66 * r + 129 * g + 25 * b + 128) >> 8) + 16, ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128,
            ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128)


class _Frame:
    """One side-by-side YUV 4:2:0 frame (A left, a white 4-pixel gap, B right) in one
    buffer, as ffmpeg reads it; ``side(k)`` gives the three planes of side k."""

    def __init__(self, width, height):
        self.width, self.height, wide = width, height, 2 * width + 4
        self.buffer = np.empty(wide * height * 3 // 2, np.uint8)
        y = self.buffer[:wide * height].reshape(height, wide)
        u = self.buffer[wide * height:wide * height * 5 // 4].reshape(height // 2, wide // 2)
        v = self.buffer[wide * height * 5 // 4:].reshape(height // 2, wide // 2)
        self.planes = (y, u, v)
        for plane, value in zip(self.planes, _yuv((255, 255, 255))):
            plane[...] = value

    def side(self, k):
        y, u, v = self.planes
        x, c = k * (self.width + 4), k * (self.width // 2 + 2)
        return y[:, x:x + self.width], u[:, c:c + self.width // 2], v[:, c:c + self.width // 2]


class _Replay:
    """Re-simulates a trajectory step by step on the engine itself (no observation or
    info dict per step: only the world is drawn), checking each state bitwise."""

    def __init__(self, traj: Trajectory):
        import trackfield

        self.traj = traj
        self.env = trackfield.make(traj.scenario, **traj.config)
        self.env.reset(options={"state": traj.initial_state})
        self.engine = self.env.unwrapped.unwrapped_engine
        self.cols = race_state_columns(self.engine)
        car = focus_car(traj)
        rows = traj.raw.reshape(len(traj.raw), traj.cars, -1)[:, car]
        from trackfield.reward_design.state import RAW_FIELDS

        offsets, col = {}, 0
        for name, width, _ in RAW_FIELDS:
            offsets[name] = col
            col += width
        self.contact = (rows[:, offsets["car_contact"]] != 0) | (rows[:, offsets["wall_contact"]] != 0)
        self.off = rows[:, offsets["off_course"]] != 0

    def step(self, t: int) -> None:
        """Advances from state t to t + 1."""
        actions = self.engine.actions[0]
        actions[...] = self.traj.actions[t].reshape(actions.shape)
        self.engine.batch.step()
        row = self.engine.world_info[0, self.cols].astype(np.float32)
        if not np.array_equal(row, self.traj.raw[t + 1]):
            raise RuntimeError(f"replay of {self.traj.path or self.traj.scenario} diverged from the recording at "
                               f"step {t + 1}")

    def draw(self, t: int, planes) -> None:
        """State t's chase view into YUV planes (y, u, v), border marked."""
        y, u, v = planes
        self.engine.batch.render_yuv420(0, y, u, v)
        if self.contact[t] or self.off[t]:
            for plane, value, width in zip(planes, _yuv(RED if self.contact[t] else ORANGE), (6, 3, 3)):
                _border(plane, value, width)  # 3 chroma samples are the luma's 6 pixels

    def thumbnail(self, t: int, width: int, height: int) -> np.ndarray:
        """State t's chase view in RGB, border marked, a quarter across (for strips)."""
        return _mark(self.engine.batch.render(0, width, height), self.contact[t], self.off[t])[::4, ::4].copy()

    def close(self) -> None:
        self.env.close()


def _column(values) -> list:
    """One field's values as JSON-ready lists: ints and bools as such, floats to 4 places."""
    values = np.asarray(values)
    if values.dtype.kind in "biu":
        return values.tolist()
    return np.round(values.astype(np.float64), 4).tolist()


def _state_rows(traj, begin, end):
    """The focus car's state per frame as dicts, built column by column (no per-frame CarState)."""
    from trackfield.reward_design.state import car_state_from_raw

    car = focus_car(traj)
    states = car_state_from_raw(traj.raw[begin:end], traj.cars)[np.arange(end - begin) * traj.cars + car]
    columns = {name: _column(getattr(states, name)) for name in FIELD_NAMES if name not in SKIP}
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
    os.makedirs(out_dir, exist_ok=True)
    width, height = size
    if width % 2 or height % 2:
        raise ValueError(f"size must be even in both dimensions (H.264 at 4:2:0), got {size}")
    # Both races are replayed in step and drawn into one side-by-side frame, streamed to
    # the encoder; only the strips' thumbnails are kept, so memory does not grow with length.
    frame = _Frame(width, height)
    picks = [np.linspace(c * per_clip, (c + 1) * per_clip - 1, strip_frames).round().astype(int).tolist()
             for c in range(clips)]
    wanted = {k for p in picks for k in p}
    thumbs = ({}, {})
    replays = [_Replay(t) for t in trajs]
    encoder = _Encoder(os.path.join(out_dir, "clip_%02d.mp4"), 2 * width + 4, height, per_clip)
    try:
        for t in range(clips * per_clip):
            for k, r in enumerate(replays):
                if t:
                    r.step(t - 1)
                r.draw(t, frame.side(k))
                if t in wanted:
                    thumbs[k][t] = r.thumbnail(t, width, height)
            encoder.write(frame.buffer)
    finally:
        encoder.close()
        for r in replays:
            r.close()
    out = {key: [] for key in ("clips_a", "strips_a", "strips_b", "states_a", "states_b")}
    for c in range(clips):
        lo, hi = c * per_clip, (c + 1) * per_clip
        out["clips_a"].append(os.path.join(out_dir, f"clip_{c:02d}.mp4"))
        for side, traj, thumb in (("a", trajs[0], thumbs[0]), ("b", trajs[1], thumbs[1])):
            strip_path = os.path.join(out_dir, f"strip_{side}_{c:02d}.png")
            write_png(strip_path, np.concatenate([thumb[k] for k in picks[c]], axis=1))
            out[f"strips_{side}"].append(strip_path)
            state_path = os.path.join(out_dir, f"states_{side}_{c:02d}.jsonl")
            with open(state_path, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(row) + "\n" for row in _state_rows(traj, lo, hi))
            out[f"states_{side}"].append(state_path)
    return Comparison(clips_a=tuple(out["clips_a"]), clips_b=tuple(out["clips_a"]), strips_a=tuple(out["strips_a"]),
                      strips_b=tuple(out["strips_b"]), states_a=tuple(out["states_a"]),
                      states_b=tuple(out["states_b"]), variables=api_doc(), goal=goal)
