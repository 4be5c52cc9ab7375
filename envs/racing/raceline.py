"""The minimum-curvature racing line of a closed track, in numpy only.

The line is the centre line moved by ``alpha_i`` along each point's left normal, kept
``margin_m`` inside the painted edges, minimising the summed squared curvature. As in
Heilmeier et al. (2019), "Minimum curvature trajectory planning and control for an
autonomous race car", the curvature is linearised about the current line, making a
quadratic program in ``alpha`` with box bounds (its Hessian a cyclic five-band
matrix, solved by an interior-point method), and re-linearised about each solution.
"""
from __future__ import annotations

import numpy as np

REQUIRED_ARRAYS = ("x", "y", "width_left", "width_right", "tangent")
# A ridge this small (relative to the Hessian's diagonal) changes the line by far under
# a millimetre but keeps the Hessian definite: shifting a closed loop sideways as a whole
# leaves its curvature unchanged, so without bounds the quadratic is singular.
RIDGE = 1e-9
MAX_IPM_STEPS = 60
IPM_GAP = 1e-9  # stop when complementarity has shrunk by this factor


def minimum_curvature_line(track, margin_m: float = 1.0, iterations: int = 3) -> np.ndarray:
    """The minimum-curvature racing line of ``track`` as an (n, 2) array of x, y.

    One point per centre-line point, in the same order (closed loop, same direction of
    travel). Point ``i`` is ``centre_i + alpha_i * normal_i`` with ``normal_i`` the left
    unit normal at the point (of the mean of the two adjacent segment tangents, the
    normal ``Track.left_edge`` uses), and
    ``-(width_right_i - margin_m) <= alpha_i <= width_left_i - margin_m`` (a bound is
    0 where the width is under the margin). ``iterations`` is how many times the
    curvature is linearised, each time about the previous solution.
    Raises ValueError on a bad ``margin_m``, ``iterations`` or ``track``.
    """
    centre, normal, lower, upper = _check_inputs(track, margin_m, iterations)
    alpha = np.zeros(len(centre))
    cost = lambda a: float(np.sum(_curvature(centre + a[:, None] * normal)[0] ** 2))
    for _ in range(int(iterations)):
        bands, gradient = _curvature_quadratic(alpha, centre, normal)
        target = _box_qp(bands, gradient, lower, upper, alpha)
        # The linearisation can overshoot where the line moves far: step only as far
        # as the true summed curvature keeps falling (both ends are inside the bounds).
        step, before = 1.0, cost(alpha)
        while cost(alpha + step * (target - alpha)) > before and step > 1e-3:
            step *= 0.5
        alpha = alpha + step * (target - alpha)
    return centre + alpha[:, None] * normal


def _check_inputs(track, margin_m, iterations):
    """Validated (centre, left normal, lower bound, upper bound) arrays of ``track``."""
    if isinstance(margin_m, bool) or not isinstance(margin_m, (int, float, np.number)) \
            or not np.isfinite(margin_m) or margin_m < 0:
        raise ValueError(f"margin_m must be a finite number of metres >= 0, got {margin_m!r}")
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise ValueError(f"iterations must be an integer >= 1, got {iterations!r}")
    arrays = {}
    for key in REQUIRED_ARRAYS:
        value = getattr(track, key, None)
        if value is None:
            raise ValueError(f"track is missing the array {key!r} (need {', '.join(REQUIRED_ARRAYS)}; "
                             f"build tracks with load_track or build_track)")
        arrays[key] = np.asarray(value, dtype=np.float64)
    n = len(arrays["x"])
    if n < 10:
        raise ValueError(f"track needs at least 10 points, got {n}")
    for key, value in arrays.items():
        shape = (n, 2) if key == "tangent" else (n,)
        if value.shape != shape or not np.all(np.isfinite(value)):
            raise ValueError(f"track array {key!r} must be finite with shape {shape}, got shape {value.shape}")
    tangent = arrays["tangent"]
    vertex = tangent + np.roll(tangent, 1, axis=0)
    vertex /= np.linalg.norm(vertex, axis=1, keepdims=True)
    normal = np.stack([-vertex[:, 1], vertex[:, 0]], axis=1)
    centre = np.stack([arrays["x"], arrays["y"]], axis=1)
    lower = -np.maximum(arrays["width_right"] - margin_m, 0.0)
    upper = np.maximum(arrays["width_left"] - margin_m, 0.0)
    return centre, normal, lower, upper


def _curvature(path):
    """Signed curvature at each point of a closed (n, 2) path, with its first and second
    differences per point index (curvature does not depend on the parameter's speed,
    so uneven spacing along a cut line is no error)."""
    d1 = 0.5 * (np.roll(path, -1, axis=0) - np.roll(path, 1, axis=0))
    d2 = np.roll(path, -1, axis=0) - 2 * path + np.roll(path, 1, axis=0)
    speed = np.hypot(d1[:, 0], d1[:, 1])
    return (d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]) / speed ** 3, d1, d2, speed


def _curvature_quadratic(alpha, centre, normal):
    """Bands (diagonal, first, second off-diagonal; entry ``i`` couples point ``i`` with
    ``i + 1`` / ``i + 2`` cyclically) of the Hessian ``H`` and the gradient ``g`` with
    ``sum(kappa**2) ~ alpha' H alpha + 2 g' alpha + const``, curvature linearised about
    the path at ``alpha``."""
    kappa, d1, d2, speed = _curvature(centre + alpha[:, None] * normal)
    cross = lambda u, v: u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]
    # Heilmeier et al. freeze the first derivatives; we keep their change too (full
    # Gauss-Newton). Frozen, an offset towards the inside of a bend seems to lower the
    # curvature, as the shorter inner arc is ignored, and at wide hairpins the lines
    # then collapse onto the inner edge and oscillate from one linearisation to the next.
    columns = []
    for shift, dd1, dd2 in ((1, -0.5, 1.0), (0, 0.0, -2.0), (-1, 0.5, 1.0)):  # alpha_{i-1}, _i, _{i+1}
        n = np.roll(normal, shift, axis=0)
        grad_d1, grad_d2 = dd1 * n, dd2 * n
        columns.append((cross(grad_d1, d2) + cross(d1, grad_d2)) / speed ** 3
                       - 3 * kappa * np.einsum("ij,ij->i", d1, grad_d1) / speed ** 2)
    a_prev, a_mid, a_next = columns
    b = kappa - a_prev * np.roll(alpha, 1) - a_mid * alpha - a_next * np.roll(alpha, -1)
    nxt = lambda v: np.roll(v, -1)  # value of row i + 1
    diag = nxt(a_prev) ** 2 + a_mid ** 2 + np.roll(a_next, 1) ** 2
    off1 = a_mid * a_next + nxt(a_prev) * nxt(a_mid)
    off2 = nxt(a_prev) * nxt(a_next)
    diag = diag + RIDGE * diag.mean()
    gradient = nxt(a_prev) * nxt(b) + a_mid * b + np.roll(a_next * b, 1)
    return (diag, off1, off2), gradient


def _band_matvec(bands, x):
    diag, off1, off2 = bands
    return (diag * x + off1 * np.roll(x, -1) + np.roll(off1 * x, 1)
            + off2 * np.roll(x, -2) + np.roll(off2 * x, 2))


def _box_qp(bands, gradient, lower, upper, x):
    """Minimises ``x' H x / 2 + g' x`` for ``lower <= x <= upper`` by Mehrotra's
    primal-dual interior-point method. Active-set methods need many steps here (the
    contact stretches grow a point per step, or cycle: the Hessian is no M-matrix);
    the interior-point method needs a few dozen banded solves whatever the contacts."""
    fixed = upper - lower < 1e-6  # no room to move: such points are not unknowns
    free = np.flatnonzero(~fixed)
    out = np.where(fixed, 0.5 * (lower + upper), 0.0)
    if len(free) == 0:
        return out
    lo, hi, width = lower[free], upper[free], (upper - lower)[free]
    order, e0, e1, e2 = _reduced_bands(bands, free)
    # Start between the previous solution and the middle: strictly inside, nearby.
    x = lo + np.clip((x[free] - lo) / width, 0.0, 1.0) * 0.5 * width + 0.25 * width
    mu0 = bands[0].mean() * float(np.mean(width)) ** 2
    z_lo, z_hi = mu0 / (x - lo), mu0 / (hi - x)
    for _ in range(MAX_IPM_STEPS):
        s, t = x - lo, hi - x
        out[free] = x
        residual = (_band_matvec(bands, out) + gradient)[free] - z_lo + z_hi
        mu = (s @ z_lo + t @ z_hi) / (2 * len(x))
        if mu < IPM_GAP * mu0 and np.abs(residual).max() < IPM_GAP * mu0 / float(np.mean(width)):
            break
        solve = _factor(e0 + (z_lo / s + z_hi / t)[order], e1, e2)

        def direction(c_lo, c_hi):
            dx = np.empty_like(x)
            dx[order] = solve((-residual + c_lo / s - c_hi / t)[order])
            return dx, (c_lo - z_lo * dx) / s, (c_hi + z_hi * dx) / t

        dx, dz_lo, dz_hi = direction(-s * z_lo, -t * z_hi)  # affine (predictor) step
        step = _max_step(s, t, z_lo, z_hi, dx, dz_lo, dz_hi, 1.0)
        gap = (s + step * dx) @ (z_lo + step * dz_lo) + (t - step * dx) @ (z_hi + step * dz_hi)
        sigma_mu = (gap / (2 * len(x)) / mu) ** 3 * mu  # Mehrotra's centring
        dx, dz_lo, dz_hi = direction(sigma_mu - s * z_lo - dx * dz_lo, sigma_mu - t * z_hi + dx * dz_hi)
        step = _max_step(s, t, z_lo, z_hi, dx, dz_lo, dz_hi, 0.99)
        x, z_lo, z_hi = x + step * dx, z_lo + step * dz_lo, z_hi + step * dz_hi
    out[free] = np.clip(x, lo, hi)
    return out


def _max_step(s, t, z_lo, z_hi, dx, dz_lo, dz_hi, fraction):
    """Longest step (at most 1) times ``fraction`` keeping slacks and multipliers >= 0."""
    step = 1.0
    for value, change in ((s, dx), (t, -dx), (z_lo, dz_lo), (z_hi, dz_hi)):
        shrinking = change < 0
        if shrinking.any():
            with np.errstate(over="ignore"):  # a tiny change means no limit
                step = min(step, float(np.min(-value[shrinking] / change[shrinking])) * fraction)
    return step


def _reduced_bands(bands, free):
    """``H[free, free]`` as bands in an ordering of ``free`` (returned) that starts after
    the widest gap between free points: the reduced matrix is then five-banded, with
    corner terms (last band entries) only when no gap is 3 or wider."""
    diag, off1, off2 = bands
    n, m = len(diag), len(free)
    gaps = (np.roll(free, -1) - free) % n
    gaps[gaps == 0] = n  # a single free point
    order = np.roll(np.arange(m), -((int(np.argmax(gaps)) + 1) % m))
    idx = free[order]
    step1 = (np.roll(idx, -1) - idx) % n
    step2 = (np.roll(idx, -2) - idx) % n
    e1 = np.where(step1 == 1, off1[idx], np.where(step1 == 2, off2[idx], 0.0))
    e2 = np.where(step2 == 2, off2[idx], 0.0)
    return order, diag[idx], e1, e2


def _factor(e0, e1, e2):
    """A solver for the cyclic five-band system of ``_reduced_bands`` (``e1[k]`` couples
    unknowns ``k`` and ``k + 1``, ``e2[k]`` ``k`` and ``k + 2``, indices mod m)."""
    m = len(e0)
    if m <= 6:  # too few for the bordered split; a dense solve is trivial
        dense = np.diag(e0.copy())
        for shift, band in ((1, e1), (2, e2)):
            for k in range(m if m > 2 * shift else m - shift):
                dense[k, (k + shift) % m] += band[k]
                dense[(k + shift) % m, k] += band[k]
        return lambda rhs: np.linalg.solve(dense, rhs)
    if e1[m - 1] == 0 and e2[m - 2] == 0 and e2[m - 1] == 0:
        factors = _banded_ldl(e0, e1[:-1], e2[:-2])
        return lambda rhs: _banded_solve(factors, rhs)
    # Corner terms: split off the last two unknowns (a 2x2 Schur complement), so the
    # rest stays an open five-band system.
    k = m - 2
    border = np.zeros((k, 2))
    border[k - 2, 0], border[k - 1, 0], border[0, 0] = e2[k - 2], e1[k - 1], e2[k]
    border[k - 1, 1], border[0, 1], border[1, 1] = e2[k - 1], e1[k + 1], e2[k + 1]
    factors = _banded_ldl(e0[:k], e1[:k - 1], e2[:k - 2])
    coupled = np.column_stack([_banded_solve(factors, border[:, j]) for j in range(2)])
    schur = np.array([[e0[k], e1[k]], [e1[k], e0[k + 1]]]) - border.T @ coupled

    def solve(rhs):
        head = _banded_solve(factors, rhs[:k])
        tail = np.linalg.solve(schur, rhs[k:] - border.T @ head)
        return np.concatenate([head - coupled @ tail, tail])
    return solve


def _banded_ldl(diag, off1, off2):
    """LDL' factors of a symmetric positive definite five-band matrix (``off1[i]``
    couples ``i`` and ``i + 1``, ``off2[i]`` ``i`` and ``i + 2``). Plain Python floats:
    the recursion is sequential, and numpy has no band solver."""
    m = len(diag)
    a, b1, b2 = diag.tolist(), off1.tolist() + [0.0, 0.0], off2.tolist() + [0.0, 0.0]
    l1, l2, d = [0.0] * (m + 2), [0.0] * (m + 2), [0.0] * m + [1.0, 1.0]
    for i in range(m):  # d[-1], d[-2] read the padding (1.0) with zero multipliers
        q2 = b2[i - 2] / d[i - 2] if i >= 2 else 0.0
        q1 = (b1[i - 1] - q2 * d[i - 2] * l1[i - 1]) / d[i - 1] if i >= 1 else 0.0
        d[i] = a[i] - q1 * q1 * d[i - 1] - q2 * q2 * d[i - 2]
        l1[i], l2[i] = q1, q2
    return l1, l2, d


def _banded_solve(factors, rhs):
    l1, l2, d = factors
    m = len(rhs)
    z = rhs.tolist() + [0.0, 0.0]  # z[-1], z[-2] read the zero padding
    for i in range(m):
        z[i] -= l1[i] * z[i - 1] + l2[i] * z[i - 2]
    y = [z[i] / d[i] for i in range(m)] + [0.0, 0.0]
    for i in range(m - 1, -1, -1):
        y[i] -= l1[i + 1] * y[i + 1] + l2[i + 2] * y[i + 2]
    return np.array(y[:m])
