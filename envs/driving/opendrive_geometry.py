"""OpenDRIVE reference-line geometry: poses (x, y, heading) along a road's plan view.

A road's reference line is a chain of pieces (line, arc, spiral, poly3, paramPoly3), each
given by its start pose and length (OpenDRIVE 1.4, section 5.3.4). Everything here is
vectorised over arrays of s because Town03 alone asks for ~100k poses.

Curves without a closed form (spirals, cubic polynomials) are integrated with 5-point
Gauss-Legendre quadrature on sub-intervals of at most `QUAD_STEP`: the integrands are
smooth, so the error is far below a millimetre per 100 m (see the tests).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

QUAD_STEP = 0.5  # m; sub-interval of the quadrature and of the arc-length tables

# 5-point Gauss-Legendre nodes and weights on [0, 1].
_GL_X, _GL_W = np.polynomial.legendre.leggauss(5)
_GL_X = (_GL_X + 1.0) / 2.0
_GL_W = _GL_W / 2.0


@dataclass
class Piece:
    """One `<geometry>` record. `kind` is the child tag; `params` its numeric attributes."""
    s: float
    x: float
    y: float
    hdg: float
    length: float
    kind: str
    params: dict

    def __post_init__(self) -> None:
        # Arc-length tables of the cubic curves, built once on first use.
        self._table = None

    def poses(self, u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """World (x, y, heading) at distances `u` (>= 0, <= length) from the piece start."""
        u = np.asarray(u, dtype=np.float64)
        local = {"line": _line, "arc": _arc, "spiral": _spiral}.get(self.kind)
        if local is not None:
            lx, ly, lh = local(u, self.params, self.length)
        else:
            lx, ly, lh = self._cubic_poses(u)
        c, s = np.cos(self.hdg), np.sin(self.hdg)
        return self.x + c * lx - s * ly, self.y + s * lx + c * ly, self.hdg + lh

    def end_pose(self) -> tuple[float, float, float]:
        x, y, h = self.poses(np.array([self.length]))
        return float(x[0]), float(y[0]), float(h[0])

    def _cubic_poses(self, u: np.ndarray):
        """poly3 / paramPoly3: map arc length to the curve parameter with a table."""
        if self._table is None:
            self._table = _cubic_table(self.kind, self.params, self.length)
        arc, p = self._table
        # Scale so the piece's declared length ends exactly at the curve's last parameter:
        # files round lengths, and the next piece starts where the curve ends.
        pu = np.interp(u * (arc[-1] / self.length), arc, p) if self.length > 0 else np.zeros_like(u)
        return _cubic_eval(self.kind, self.params, pu)


def _line(u, params, length):
    return u, np.zeros_like(u), np.zeros_like(u)


def _arc(u, params, length):
    k = params["curvature"]
    if abs(k) < 1e-12:
        return _line(u, params, length)
    heading = k * u
    return np.sin(heading) / k, (1.0 - np.cos(heading)) / k, heading


def _spiral(u, params, length):
    """Clothoid: curvature varies linearly from curvStart to curvEnd over the length."""
    k0 = params["curvStart"]
    rate = (params["curvEnd"] - k0) / length if length > 0 else 0.0

    def heading(t):
        return k0 * t + 0.5 * rate * t * t

    # Integrate (cos, sin) of the heading on a grid that contains every requested u, so
    # each u is reached by summing small exact-enough quadrature steps.
    top = float(np.max(u)) if u.size else 0.0
    grid = np.unique(np.concatenate([np.linspace(0.0, top, int(np.ceil(top / QUAD_STEP)) + 1), u]))
    a, b = grid[:-1, None], grid[1:, None]
    t = a + (b - a) * _GL_X[None, :]
    h = heading(t)
    dx = ((b - a)[:, 0]) * (np.cos(h) @ _GL_W)
    dy = ((b - a)[:, 0]) * (np.sin(h) @ _GL_W)
    gx = np.concatenate([[0.0], np.cumsum(dx)])
    gy = np.concatenate([[0.0], np.cumsum(dy)])
    idx = np.searchsorted(grid, u)
    return gx[idx], gy[idx], heading(u)


def _cubic_uv(kind, params, p):
    """Local (u, v) and their derivatives with respect to the curve parameter p."""
    if kind == "poly3":
        a, b, c, d = (params[k] for k in "abcd")
        return p, a + p * (b + p * (c + p * d)), np.ones_like(p), b + p * (2 * c + 3 * d * p)
    au, bu, cu, du = (params[k] for k in ("aU", "bU", "cU", "dU"))
    av, bv, cv, dv = (params[k] for k in ("aV", "bV", "cV", "dV"))
    u = au + p * (bu + p * (cu + p * du))
    v = av + p * (bv + p * (cv + p * dv))
    return u, v, bu + p * (2 * cu + 3 * du * p), bv + p * (2 * cv + 3 * dv * p)


def _cubic_eval(kind, params, p):
    u, v, du, dv = _cubic_uv(kind, params, p)
    return u, v, np.arctan2(dv, du)


def _parameter_range(kind, params, length) -> float:
    """Last curve parameter: paramPoly3 says it; poly3 runs along u until the arc ends."""
    if kind == "paramPoly3":
        return 1.0 if params.get("pRange", "normalized") == "normalized" else length
    # poly3: u grows at most as fast as arc length, so the end lies in [0, length];
    # refine on the table of arc length over u.
    p = np.linspace(0.0, length, int(np.ceil(length / QUAD_STEP)) + 2)
    arc = _arc_lengths(kind, params, p)
    return float(np.interp(length, arc, p))


def _arc_lengths(kind, params, p):
    a, b = p[:-1, None], p[1:, None]
    t = a + (b - a) * _GL_X[None, :]
    _, _, du, dv = _cubic_uv(kind, params, t)
    speed = np.hypot(du, dv)
    return np.concatenate([[0.0], np.cumsum((b - a)[:, 0] * (speed @ _GL_W))])


def _cubic_table(kind, params, length):
    top = _parameter_range(kind, params, length)
    p = np.linspace(0.0, top, max(64, int(np.ceil(length / QUAD_STEP)) * 4) + 1)
    return _arc_lengths(kind, params, p), p


class ReferenceLine:
    """The chain of pieces of one road, evaluated at any s in [0, length]."""

    def __init__(self, pieces: list[Piece], length: float):
        self.pieces = pieces
        self.length = length
        self._starts = np.array([p.s for p in pieces])

    def breakpoints(self) -> np.ndarray:
        """s where pieces start: sampling keeps them so corners are not cut."""
        return self._starts

    def poses(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        s = np.asarray(s, dtype=np.float64)
        which = np.clip(np.searchsorted(self._starts, s, side="right") - 1, 0, len(self.pieces) - 1)
        x = np.empty_like(s)
        y = np.empty_like(s)
        h = np.empty_like(s)
        for i in np.unique(which):
            mask = which == i
            piece = self.pieces[i]
            u = np.clip(s[mask] - piece.s, 0.0, piece.length)
            x[mask], y[mask], h[mask] = piece.poses(u)
        return x, y, h


class Cubics:
    """Piecewise cubic a + b ds + c ds^2 + d ds^3 (elevation, laneOffset, lane width)."""

    def __init__(self, starts, coeffs):
        order = np.argsort(np.asarray(starts, dtype=np.float64), kind="stable")
        self.starts = np.asarray(starts, dtype=np.float64)[order]
        self.coeffs = np.asarray(coeffs, dtype=np.float64).reshape(-1, 4)[order]

    def __call__(self, s: np.ndarray, end: float | None = None) -> np.ndarray:
        """Values at s. With `end`, a record starting at `end` is not used: a section's last
        point belongs to the records inside the section, not to the next section's."""
        s = np.asarray(s, dtype=np.float64)
        if len(self.starts) == 0:
            return np.zeros_like(s)
        i = np.searchsorted(self.starts, s, side="right") - 1
        if end is not None:
            i = np.minimum(i, np.searchsorted(self.starts, end, side="left") - 1)
        i = np.clip(i, 0, len(self.starts) - 1)
        ds = s - self.starts[i]
        a, b, c, d = self.coeffs[i].T
        return a + ds * (b + ds * (c + ds * d))


def sample_positions(start: float, end: float, breakpoints: np.ndarray, step: float) -> np.ndarray:
    """s values from start to end, at most `step` apart, including breakpoints inside."""
    n = max(1, int(np.ceil((end - start) / step - 1e-9)))
    s = np.linspace(start, end, n + 1)
    inner = breakpoints[(breakpoints > start + 1e-6) & (breakpoints < end - 1e-6)]
    return np.unique(np.concatenate([s, inner])) if inner.size else s


def resample(points: np.ndarray, spacing: float) -> np.ndarray:
    """Vectorised `roadmap.resample_polyline`: points at most `spacing` apart (xy distance)."""
    seg = np.linalg.norm(np.diff(points[:, :2], axis=0), axis=1)
    k = np.maximum(1, np.ceil(seg / spacing - 1e-9).astype(int))
    if np.all(k == 1):
        return points
    start = np.repeat(points[:-1], k, axis=0)
    delta = np.repeat(np.diff(points, axis=0), k, axis=0)
    offsets = np.arange(k.sum()) - np.repeat(np.cumsum(k) - k, k)
    t = ((offsets + 1) / np.repeat(k, k))[:, None]
    return np.concatenate([points[:1], start + t * delta])
