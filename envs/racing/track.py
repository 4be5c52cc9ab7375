"""The racing track in Python: a closed centre line resampled at even spacing, with
widths, elevation and banking per point, and everything derived from them (arc length,
tangents, curvature, edges, grade, straight/curve sections). ``Track.to_engine()`` hands
the arrays to the C++ engine, which only stores them and answers projection queries.

Conventions: x east, y north, z up, metres; d (lateral offset) + to the LEFT of travel;
curvature + for a left turn; banking + when the left edge is higher; grade + uphill.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

# Section rule (docs/racing_tracks.md): a point is in a curve where the smoothed
# curvature's radius is under CURVE_RADIUS_M; straights shorter than MIN_STRAIGHT_M and
# curves shorter than MIN_CURVE_M merge into their neighbours, shortest first. A short
# straight between two corners is still part of the complex (a chicane is one curve),
# while a short tight corner is still a corner, hence the two minima.
CURVE_RADIUS_M = 250.0
MIN_STRAIGHT_M = 60.0
MIN_CURVE_M = 30.0
# Gaussian smoothing of curvature (standard deviation along s): OpenStreetMap-derived
# lines wobble at their 5 m point spacing; 5 m of smoothing keeps a 15 m hairpin's radius.
CURVATURE_SMOOTHING_M = 5.0
DEFAULT_KERB_WIDTH = 1.0
DEFAULT_WALL_DISTANCE = 8.0
KINDS = ("straight", "curve")


class Section(NamedTuple):
    """A stretch of the centre line: ``start_m`` to ``end_m`` along it (may wrap over the line)."""

    name: str
    kind: str
    start_m: float
    end_m: float


@dataclass(eq=False)
class Track:
    """A closed circuit: per-point arrays (length ``n``) at even spacing, plus metadata.

    Build one with :func:`build_track` (or ``load_track`` / ``generate_track``); the
    derived arrays (``s``, ``tangent``, ``curvature``, edges, ``grade``, sections) are
    filled there. Point ``i`` and point ``i + 1`` (mod n) bound segment ``i``.
    """

    name: str
    x: np.ndarray
    y: np.ndarray
    z: np.ndarray
    width_left: np.ndarray
    width_right: np.ndarray
    banking: np.ndarray  # rad
    kerb_width: float = DEFAULT_KERB_WIDTH
    wall_distance: float = DEFAULT_WALL_DISTANCE
    bridge: bool = False
    description: str = ""
    source: str = ""
    # Derived (build_track fills them).
    s: np.ndarray = field(default=None, repr=False)
    length: float = 0.0
    tangent: np.ndarray = field(default=None, repr=False)  # (n, 2), unit, of segment i
    curvature: np.ndarray = field(default=None, repr=False)  # 1/m, + left
    grade: np.ndarray = field(default=None, repr=False)  # rad, + uphill
    left_edge: np.ndarray = field(default=None, repr=False)  # (n, 3)
    right_edge: np.ndarray = field(default=None, repr=False)  # (n, 3)
    section_kind: np.ndarray = field(default=None, repr=False)  # uint8 per segment, 0 straight 1 curve
    section_id: np.ndarray = field(default=None, repr=False)  # int16 per segment, -1 none
    sections: list = field(default_factory=list)  # named Sections (from JSON)
    kind_runs: list = field(default_factory=list)  # Sections "straight_k" / "curve_k" by the rule
    _engine_track: object = field(default=None, init=False, repr=False)

    @property
    def n(self) -> int:
        return len(self.x)

    @property
    def xy(self) -> np.ndarray:
        return np.stack([self.x, self.y], axis=1)

    @property
    def section_names(self) -> list:
        return [sec.name for sec in self.sections]

    def kind_at(self, s_m: float) -> str:
        """``"straight"`` or ``"curve"`` at arc length ``s_m``."""
        return KINDS[int(self.section_kind[self.segment_at(s_m)])]

    def section_at(self, s_m: float) -> str | None:
        """Name of the named section at arc length ``s_m``, or None."""
        sid = int(self.section_id[self.segment_at(s_m)])
        return self.sections[sid].name if sid >= 0 else None

    def segment_at(self, s_m: float) -> int:
        return int(np.searchsorted(self.s, float(s_m) % self.length, side="right") - 1)

    def to_engine(self):
        """The C++ ``trackfield._engine.racing.Track`` for these arrays (built once, cached)."""
        if self._engine_track is None:
            from trackfield import _engine

            self._engine_track = _engine.racing.Track(
                name=self.name, x=self.x, y=self.y, z=self.z,
                width_left=self.width_left, width_right=self.width_right,
                banking=self.banking, grade=self.grade, curvature=self.curvature,
                section=self.section_id, section_kind=self.section_kind,
                section_names=self.section_names, kerb_width=self.kerb_width,
                wall_distance=self.wall_distance, bridge=self.bridge)
        return self._engine_track


def build_track(name, x, y, width_left, width_right, z=None, banking=None, *, kerb_width=None,
                wall_distance=None, bridge=False, sections=(), kind_overrides=(), description="",
                source="") -> Track:
    """A :class:`Track` from per-point arrays already at even spacing (see
    ``resample_closed``); derives geometry and sections. ``sections`` holds
    ``(name, start_m, end_m)`` or ``(name, kind, start_m, end_m)``; ``kind_overrides``
    holds ``(kind, start_m, end_m)``. Raises ValueError on inconsistent input."""
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    fill = lambda v, default: np.full(n, default) if v is None else np.asarray(v, dtype=np.float64)
    track = Track(
        name=name, x=x, y=np.asarray(y, dtype=np.float64), z=fill(z, 0.0),
        width_left=np.asarray(width_left, dtype=np.float64),
        width_right=np.asarray(width_right, dtype=np.float64), banking=fill(banking, 0.0),
        kerb_width=DEFAULT_KERB_WIDTH if kerb_width is None else float(kerb_width),
        wall_distance=DEFAULT_WALL_DISTANCE if wall_distance is None else float(wall_distance),
        bridge=bool(bridge), description=description, source=source)
    for key in ("y", "z", "width_left", "width_right", "banking"):
        if len(getattr(track, key)) != n:
            raise ValueError(f"track {name!r}: {key} has {len(getattr(track, key))} points, x has {n}")
    if not track.wall_distance > track.kerb_width >= 0:
        raise ValueError(f"track {name!r}: need wall_distance > kerb_width >= 0, got "
                         f"{track.wall_distance} and {track.kerb_width}")
    derive_geometry(track)
    assign_sections(track, sections, kind_overrides)
    return track


def derive_geometry(track: Track) -> None:
    """Arc length, tangents, smoothed curvature, grade and 3-D edges."""
    step = np.stack([np.roll(track.x, -1) - track.x, np.roll(track.y, -1) - track.y], axis=1)
    seg = np.hypot(step[:, 0], step[:, 1])
    if np.any(seg < 1e-4):
        raise ValueError(f"track {track.name!r}: points {int(np.argmin(seg))} and the next coincide")
    track.s = np.concatenate([[0.0], np.cumsum(seg)[:-1]])
    track.length = float(seg.sum())
    track.tangent = step / seg[:, None]
    track.curvature = smoothed_curvature(track.tangent, seg, CURVATURE_SMOOTHING_M)
    dz = np.roll(track.z, -1) - np.roll(track.z, 1)
    track.grade = np.arctan2(dz, seg + np.roll(seg, 1))  # central difference at each point
    vertex = track.tangent + np.roll(track.tangent, 1, axis=0)  # matches the engine's normals
    vertex /= np.linalg.norm(vertex, axis=1, keepdims=True)
    left = np.stack([-vertex[:, 1], vertex[:, 0]], axis=1)
    rise = np.tan(track.banking)
    track.left_edge = np.column_stack([track.x + left[:, 0] * track.width_left,
                                       track.y + left[:, 1] * track.width_left,
                                       track.z + rise * track.width_left])
    track.right_edge = np.column_stack([track.x - left[:, 0] * track.width_right,
                                        track.y - left[:, 1] * track.width_right,
                                        track.z - rise * track.width_right])


def smoothed_curvature(tangent: np.ndarray, seg: np.ndarray, sigma_m: float) -> np.ndarray:
    """Signed curvature at each point (turn angle over the mean adjacent segment length),
    smoothed by a periodic Gaussian of ``sigma_m`` metres."""
    heading = np.arctan2(tangent[:, 1], tangent[:, 0])
    turn = np.angle(np.exp(1j * (heading - np.roll(heading, 1))))
    kappa = turn / (0.5 * (seg + np.roll(seg, 1)))
    return periodic_gaussian(kappa, sigma_m / float(np.mean(seg)))


def periodic_gaussian(values: np.ndarray, sigma_points: float) -> np.ndarray:
    if sigma_points <= 0.3:
        return values.copy()
    half = min(int(np.ceil(3 * sigma_points)), len(values) // 2 - 1)
    offsets = np.arange(-half, half + 1)
    kernel = np.exp(-0.5 * (offsets / sigma_points) ** 2)
    kernel /= kernel.sum()
    padded = np.concatenate([values[-half:], values, values[:half]]) if half > 0 else values
    return np.convolve(padded, kernel, mode="valid")


def kind_mask_from_curvature(curvature: np.ndarray, seg_len: np.ndarray) -> np.ndarray:
    """1 (curve) where the radius is under CURVE_RADIUS_M, then runs under their
    kind's minimum length flipped to their neighbours' kind, shortest first."""
    kinds = (np.abs(curvature) > 1.0 / CURVE_RADIUS_M).astype(np.uint8)
    minimum = (MIN_STRAIGHT_M, MIN_CURVE_M)
    while True:
        runs = runs_of(kinds)
        if len(runs) <= 1:
            return kinds
        short = [(seg_len[idx].sum(), k) for k, (kind, idx) in enumerate(runs)
                 if seg_len[idx].sum() < minimum[kind]]
        if not short:
            return kinds
        kinds[runs[min(short)[1]][1]] ^= 1


def runs_of(kinds: np.ndarray) -> list:
    """Maximal runs of equal values on a closed loop, as (value, indices)."""
    n = len(kinds)
    change = np.flatnonzero(kinds != np.roll(kinds, 1))
    if len(change) == 0:
        return [(int(kinds[0]), np.arange(n))]
    runs = []
    for k, start in enumerate(change):
        end = change[(k + 1) % len(change)]
        idx = np.arange(start, end if end > start else end + n) % n
        runs.append((int(kinds[start]), idx))
    return runs


def segments_between(track: Track, start_m: float, end_m: float) -> np.ndarray:
    """Indices of segments whose midpoint lies in [start_m, end_m) along the line (wrapping)."""
    seg = np.diff(np.append(track.s, track.length))
    mid = track.s + 0.5 * seg
    start, end = start_m % track.length, end_m % track.length
    if end_m - start_m >= track.length:
        return np.arange(track.n)
    inside = (mid >= start) & (mid < end) if start <= end else (mid >= start) | (mid < end)
    return np.flatnonzero(inside)


def assign_sections(track: Track, sections=(), kind_overrides=()) -> None:
    """Per-segment kinds (the rule, then overrides) and named section ids."""
    seg = np.diff(np.append(track.s, track.length))
    kinds = kind_mask_from_curvature(track.curvature, seg)
    for kind, start_m, end_m in kind_overrides:
        if kind not in KINDS:
            raise ValueError(f"track {track.name!r}: kind {kind!r} must be one of {KINDS}")
        kinds[segments_between(track, start_m, end_m)] = KINDS.index(kind)
    track.section_kind = kinds
    counts = {0: 0, 1: 0}
    track.kind_runs = []
    for kind, idx in sorted(runs_of(kinds), key=lambda r: track.s[r[1][0]]):
        counts[kind] += 1
        start = float(track.s[idx[0]])
        end = float((track.s[idx[-1]] + seg[idx[-1]]) % track.length)
        track.kind_runs.append(Section(f"{KINDS[kind]}_{counts[kind]}", KINDS[kind], start, end))
    track.section_id = np.full(track.n, -1, dtype=np.int16)
    track.sections = []
    for entry in sections:
        name, kind, start_m, end_m = entry if len(entry) == 4 else (entry[0], None, *entry[1:])
        idx = segments_between(track, start_m, end_m)
        if len(idx) == 0:
            raise ValueError(f"track {track.name!r}: section {name!r} covers no segment")
        if np.any(track.section_id[idx] >= 0):
            other = track.sections[int(track.section_id[idx][track.section_id[idx] >= 0][0])].name
            raise ValueError(f"track {track.name!r}: sections {other!r} and {name!r} overlap")
        if kind is None:  # the kind most of its length has
            kind = KINDS[int(np.round(np.average(kinds[idx], weights=seg[idx])))]
        elif kind not in KINDS:
            raise ValueError(f"track {track.name!r}: section {name!r} kind {kind!r} must be one of {KINDS}")
        track.section_id[idx] = len(track.sections)
        track.sections.append(Section(name, kind, float(start_m) % track.length, float(end_m) % track.length))


def resample_closed(xyz: np.ndarray, extra: np.ndarray, spacing: float):
    """A closed polyline ``xyz`` (n, 3) resampled at even arc-length spacing near
    ``spacing`` along a centripetal Catmull-Rom spline through its points (smooth,
    periodic, no overshoot at uneven spacing); ``extra`` (n, k) columns (widths,
    banking) are interpolated linearly between the same points. Returns (xyz, extra)."""
    n = len(xyz)
    p0, p1, p2, p3 = (np.roll(xyz, -k, axis=0) for k in (-1, 0, 1, 2))
    planar = lambda a, b: np.maximum(np.hypot(*(b - a)[:, :2].T), 1e-9) ** 0.5
    t0 = np.zeros(n)
    t1 = t0 + planar(p0, p1)
    t2 = t1 + planar(p1, p2)
    t3 = t2 + planar(p2, p3)
    chord = np.hypot(*(p2 - p1)[:, :2].T)
    sub = int(max(8, np.ceil(4 * chord.max() / spacing)))
    f = np.arange(sub) / sub  # fraction of each segment; the closing point comes from the next
    t = t1[:, None] + f[None, :] * (t2 - t1)[:, None]  # (n, sub)

    def lerp(ta, tb, pa, pb):  # points (n, 3) or already per sample (n, sub, 3)
        w = ((t - ta[:, None]) / (tb - ta)[:, None])[..., None]
        pa = pa[:, None, :] if pa.ndim == 2 else pa
        pb = pb[:, None, :] if pb.ndim == 2 else pb
        return pa * (1 - w) + pb * w

    a1, a2, a3 = lerp(t0, t1, p0, p1), lerp(t1, t2, p1, p2), lerp(t2, t3, p2, p3)
    b1, b2 = lerp(t0, t2, a1, a2), lerp(t1, t3, a2, a3)
    dense = lerp(t1, t2, b1, b2).reshape(-1, 3)
    dense_extra = (extra[:, None, :] * (1 - f)[None, :, None]
                   + np.roll(extra, -1, axis=0)[:, None, :] * f[None, :, None]).reshape(-1, extra.shape[1])
    step = np.hypot(*(np.roll(dense, -1, axis=0) - dense)[:, :2].T)
    along = np.concatenate([[0.0], np.cumsum(step)])
    total = along[-1]
    count = max(10, int(round(total / spacing)))
    target = np.arange(count) * (total / count)
    closed = lambda a: np.concatenate([a, a[:1]])
    out = np.column_stack([np.interp(target, along, closed(dense[:, k])) for k in range(3)])
    out_extra = np.column_stack([np.interp(target, along, closed(dense_extra[:, k]))
                                 for k in range(extra.shape[1])])
    return out, out_extra
