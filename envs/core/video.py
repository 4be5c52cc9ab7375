"""Videos of episodes: mp4 through imageio-ffmpeg (the ``render`` extra)."""
from __future__ import annotations

import numpy as np


class VideoWriter:
    """Writes RGB frames (H, W, 3) uint8 to an mp4. Frames are cropped to even sizes,
    which H.264's yuv420p needs; all frames must have the first one's size."""

    def __init__(self, path: str, fps: int = 10):
        try:
            import imageio_ffmpeg
        except ImportError as error:
            raise ImportError("videos need imageio-ffmpeg: pip install 'trackfield[render]'") from error
        self._imageio_ffmpeg = imageio_ffmpeg
        self.path, self.fps, self.frames = str(path), fps, 0
        self._gen = None

    def send(self, frame: np.ndarray) -> None:
        frame = np.asarray(frame)
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError(f"frames must be (H, W, 3) uint8, got {frame.shape} {frame.dtype}")
        if self._gen is None:
            h, w = frame.shape[:2]
            self.h, self.w = h - h % 2, w - w % 2
            self._gen = self._imageio_ffmpeg.write_frames(self.path, (self.w, self.h), fps=self.fps,
                                                          macro_block_size=1, quality=7)
            self._gen.send(None)  # start the generator
        self._gen.send(np.ascontiguousarray(frame[: self.h, : self.w]))
        self.frames += 1

    def close(self) -> None:
        if self._gen is not None:
            self._gen.close()
            self._gen = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def record_episode(env, act, path: str, fps: int = 10, max_steps: int = 100_000, seed=None) -> dict:
    """Plays one episode of ``env`` (made with ``render_mode="rgb_array"``) with
    ``act(obs) -> action`` and writes it to ``path``; returns the return, length and
    frame count."""
    if getattr(env, "render_mode", None) != "rgb_array":
        raise ValueError("record_episode needs an env made with render_mode='rgb_array'")
    obs, _ = env.reset(seed=seed)
    total, steps = 0.0, 0
    with VideoWriter(path, fps) as video:
        video.send(env.render())
        while steps < max_steps:
            obs, reward, terminated, truncated, _ = env.step(act(obs))
            total += float(np.sum(reward))
            steps += 1
            video.send(env.render())
            if terminated or truncated:
                break
    return {"return": total, "length": steps, "frames": video.frames, "path": str(path)}
