"""Circuits made in code: a seeded procedural generator, and the turtle (straights and
arcs) that the shipped circuits were authored with (``tracks/author.py``)."""
from __future__ import annotations

import math

import numpy as np

from trackfield.racing.track import Track, build_track, resample_closed
from trackfield.racing.track_files import find_crossings


def generate_track(seed: int, length_m: float = 4000.0, width_m: float = 12.0, *,
                   corners: int = 14, hairpins: int = 2, straights: int = 3,
                   elevation_m: float = 12.0, spacing: float = 2.0) -> Track:
    """A seeded procedural closed circuit of about ``length_m`` metres and constant
    total width ``width_m``.

    Control points go round a centre at ``corners`` jittered angles and random radii;
    ``hairpins`` of them are pulled deep inwards (tight turns of over 120 degrees) and
    ``straights`` gaps between neighbours are filled with collinear points (straights).
    A smooth spline through them is scaled to ``length_m``; elevation is a sum of three
    random periodic waves with peak-to-peak about ``elevation_m``; curves bank up to 3
    degrees. The same arguments give identical arrays. A layout whose centre line
    crosses itself, whose tightest radius is under the half width, or whose separate
    parts come closer than two widths is redrawn from the next sub-seed (at most 50).
    """
    if not (isinstance(seed, (int, np.integer)) and seed >= 0):
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    if not 500 <= length_m <= 50_000:
        raise ValueError(f"length_m must be in [500, 50000], got {length_m!r}")
    if not 4 <= width_m <= 40:
        raise ValueError(f"width_m must be in [4, 40], got {width_m!r}")
    if not (6 <= corners <= 64 and 0 <= hairpins <= corners // 3 and 0 <= straights <= corners // 2):
        raise ValueError("need 6 <= corners <= 64, hairpins <= corners // 3, straights <= corners // 2")
    for attempt in range(50):
        rng = np.random.default_rng([int(seed), attempt])
        xy = polar_layout(rng, corners, hairpins, straights)
        if find_crossings(xy):
            continue
        z0 = np.zeros(len(xy))
        dense, _ = resample_closed(np.column_stack([xy, z0]), np.zeros((len(xy), 1)), 0.002)
        scale = length_m / float(np.sum(np.hypot(*(np.roll(dense, -1, axis=0) - dense)[:, :2].T)))
        xy = xy * scale
        xyz, _ = resample_closed(np.column_stack([xy, z0]), np.zeros((len(xy), 1)), spacing)
        s = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(xyz[:, :2], axis=0).T))])
        z = elevation_profile(rng, s / (s[-1] + spacing), elevation_m)
        half = np.full(len(xyz), width_m / 2)
        track = build_track(f"generated_{seed}", xyz[:, 0], xyz[:, 1], half, half, z,
                            description=f"generate_track(seed={seed}, length_m={length_m}, width_m={width_m})")
        if layout_ok(track, width_m):
            track.banking = -np.clip(track.curvature * 2.0, -math.radians(3), math.radians(3))
            return build_track(track.name, track.x, track.y, half, half, track.z, track.banking,
                               description=track.description)
    raise ValueError(f"generate_track: no valid layout for seed {seed} with these parameters")


def polar_layout(rng, corners, hairpins, straights) -> np.ndarray:
    angles = (np.arange(corners) + rng.uniform(-0.3, 0.3, corners)) * (2 * math.pi / corners)
    radii = rng.uniform(0.6, 1.0, corners)
    radii[rng.choice(corners, hairpins, replace=False)] = rng.uniform(0.25, 0.35, hairpins)
    points = np.column_stack([radii * np.cos(angles), radii * np.sin(angles)])
    gaps = set(rng.choice(corners, straights, replace=False).tolist())
    out = []
    for k in range(corners):
        out.append(points[k])
        if k in gaps:  # collinear points: the spline runs straight between them
            nxt = points[(k + 1) % corners]
            out.extend(points[k] + (nxt - points[k]) * f for f in (0.2, 0.4, 0.6, 0.8))
    return np.asarray(out)


def elevation_profile(rng, u: np.ndarray, peak_to_peak: float) -> np.ndarray:
    """Smooth periodic heights at fractions ``u`` of the lap (three waves)."""
    z = sum(rng.uniform(0.3, 1.0) / m * np.sin(2 * math.pi * m * u + rng.uniform(0, 2 * math.pi))
            for m in (1, 2, 3))
    span = z.max() - z.min()
    return (z - z.min()) * (peak_to_peak / span) if span > 0 else z * 0


def layout_ok(track: Track, width_m: float) -> bool:
    """Tightest radius above the half width, and parts of the line that are far apart
    along it stay two widths apart in the plane."""
    if np.max(np.abs(track.curvature)) * (width_m / 2 + 1.0) >= 1.0:
        return False
    if find_crossings(track.xy):
        return False
    xy = track.xy[::2]
    s = track.s[::2]
    gap = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    along = np.abs(s[:, None] - s[None, :])
    along = np.minimum(along, track.length - along)
    return bool(np.all(gap[along > 4 * width_m] > 2 * width_m))


# ----------------------------------------------------------------------------- turtle


def turtle_path(pieces, closing=(0, -1), step: float = 4.0) -> np.ndarray:
    """Points every ~``step`` m along straights ``("straight", length_m)`` and arcs
    ``("arc", radius_m, angle_deg)`` (+ left), starting at the origin heading +x. The
    turns must sum to +-360 degrees; the two straights at indices ``closing`` are
    lengthened or shortened so the path ends exactly where it began."""
    pieces = [list(p) for p in pieces]
    turn = sum(p[2] for p in pieces if p[0] == "arc")
    if abs(abs(turn) - 360) > 1e-6:
        raise ValueError(f"turtle_path: turns sum to {turn} degrees, not +-360")
    end, directions = walk(pieces)
    a, b = (closing[0] % len(pieces), closing[1] % len(pieces))
    matrix = np.column_stack([directions[a], directions[b]])
    extra = np.linalg.solve(matrix, -end)
    pieces[a][1] += extra[0]
    pieces[b][1] += extra[1]
    if pieces[a][1] <= 0 or pieces[b][1] <= 0:
        raise ValueError(f"turtle_path: closing needs straights {a} and {b} of {pieces[a][1]:.1f} "
                         f"and {pieces[b][1]:.1f} m")
    points, _ = walk(pieces, step)
    return points


def walk(pieces, step=None):
    """End point and straight directions (no step), or the sampled points (step)."""
    pos, heading = np.zeros(2), 0.0
    points, directions = [], {}
    for k, piece in enumerate(pieces):
        if piece[0] == "straight":
            direction = np.array([math.cos(heading), math.sin(heading)])
            directions[k] = direction
            if step:
                count = max(1, int(round(piece[1] / step)))
                points.extend(pos + direction * piece[1] * f for f in np.arange(count) / count)
            pos = pos + direction * piece[1]
        elif piece[0] == "arc":
            radius, angle = piece[1], math.radians(piece[2])
            side = 1.0 if angle > 0 else -1.0
            centre = pos + side * radius * np.array([-math.sin(heading), math.cos(heading)])
            start = heading - side * math.pi / 2
            if step:
                count = max(2, int(round(radius * abs(angle) / step)))
                points.extend(centre + radius * np.array([math.cos(start + angle * f), math.sin(start + angle * f)])
                              for f in np.arange(count) / count)
            heading += angle
            pos = centre + radius * np.array([math.cos(start + angle), math.sin(start + angle)])
        else:
            raise ValueError(f"turtle_path: unknown piece {piece!r}")
    return (np.asarray(points), directions) if step else (pos, directions)
