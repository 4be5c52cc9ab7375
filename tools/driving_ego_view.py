"""Saves the ego view and the whole-town view of a seeded town_drive as PNG files.

    python tools/driving_ego_view.py                        # generated town, seed 0
    python tools/driving_ego_view.py --map Town03 --seed 3 --steps 40 --out /tmp/views
    python tools/driving_ego_view.py --speed                # also times both views

The ego drives with the built-in driver (`env.ai_action()`) for `--steps` steps, then the
two frames are written to `<out>/ego_view.png` and `<out>/town_view.png`. `--speed`
prints frames per second of each view (one thread, the frame's copy into numpy
included) and the stepping rate with rendering off. PNGs are written with the standard
library (zlib), so nothing beyond trackfield is needed.
"""
from __future__ import annotations

import argparse
import os
import struct
import time
import zlib

import numpy as np

import trackfield


def write_png(path: str, rgb: np.ndarray) -> None:
    """An 8-bit RGB PNG of an (H, W, 3) uint8 array."""
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[row].tobytes() for row in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def frames_per_second(render, seconds: float = 1.0) -> float:
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        render()
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", default=None, help="a map name or path (default: the generated town)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=30, help="built-in driver steps before the frames")
    parser.add_argument("--width", type=int, default=480, help="side of each frame, px")
    parser.add_argument("--out", default=".", help="folder for ego_view.png and town_view.png")
    parser.add_argument("--speed", action="store_true", help="print frames per second of both views")
    args = parser.parse_args()

    kwargs = dict(render_mode="rgb_array", render_width=args.width)
    if args.map is not None:
        kwargs["map"] = args.map
    env = trackfield.make("town_drive", render_view="ego", **kwargs)
    town = trackfield.make("town_drive", render_view="town", **kwargs)
    env.reset(seed=args.seed)
    town.reset(seed=args.seed)
    for _ in range(args.steps):
        action = env.ai_action()
        _, _, terminated, truncated, _ = env.step(action)
        _, _, t2, tr2, _ = town.step(action)
        if terminated or truncated:
            break
    os.makedirs(args.out, exist_ok=True)
    for name, frame in (("ego_view.png", env.render()), ("town_view.png", town.render())):
        write_png(os.path.join(args.out, name), frame)
        print(os.path.join(args.out, name))
    if args.speed:
        print(f"ego view: {frames_per_second(env.render):.0f} frames/s; "
              f"town view: {frames_per_second(town.render):.0f} frames/s ({args.width} px)")
        plain = trackfield.make("town_drive", **({"map": args.map} if args.map else {}))
        plain.reset(seed=args.seed)
        action = plain.action_space.sample()
        n, start = 0, time.perf_counter()
        while time.perf_counter() - start < 1.0:
            _, _, terminated, truncated, _ = plain.step(action)
            n += 1
            if terminated or truncated:
                plain.reset()
        print(f"stepping without rendering: {n / (time.perf_counter() - start):.0f} steps/s")


if __name__ == "__main__":
    main()
