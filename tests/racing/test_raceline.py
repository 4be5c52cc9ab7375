"""Minimum-curvature racing line: inside the margins, much less curvature than the
centre line, cuts corners, close to TUM's published Monza line, smooth, closed,
deterministic, and clear errors."""
from types import SimpleNamespace

import numpy as np
import pytest

from trackfield.racing import build_track, list_tracks, load_raceline, load_track, minimum_curvature_line
from trackfield.racing.track_files import TUM_DIR

TUM = TUM_DIR  # TUM's circuits and racing lines, shipped with the package
MONZA = TUM / "Monza.csv"


def monza():
    if not MONZA.is_file():
        pytest.skip("TUM's tracks not installed")
    return load_track(MONZA)


def curvature(points):
    """Curvature of the circle through each point and its neighbours (closed loop)."""
    a, b, c = np.roll(points, 1, axis=0), points, np.roll(points, -1, axis=0)
    ab, bc, ac = b - a, c - b, c - a
    cross = ab[:, 0] * bc[:, 1] - ab[:, 1] * bc[:, 0]
    return 2 * cross / (np.linalg.norm(ab, axis=1) * np.linalg.norm(bc, axis=1) * np.linalg.norm(ac, axis=1))


def stadium(radius=50.0, straight=200.0, half_width=6.0, spacing=2.0):
    """Two straights joined by semicircles, anticlockwise, at even spacing."""
    length = 2 * straight + 2 * np.pi * radius
    s = np.arange(int(round(length / spacing))) * (length / int(round(length / spacing)))
    arc = np.pi * radius
    x, y = np.empty_like(s), np.empty_like(s)
    for k, u in enumerate(s):
        if u < straight:
            x[k], y[k] = u, -radius
        elif u < straight + arc:
            phi = -np.pi / 2 + (u - straight) / radius
            x[k], y[k] = straight + radius * np.cos(phi), radius * np.sin(phi)
        elif u < 2 * straight + arc:
            x[k], y[k] = straight - (u - straight - arc), radius
        else:
            phi = np.pi / 2 + (u - 2 * straight - arc) / radius
            x[k], y[k] = radius * np.cos(phi), radius * np.sin(phi)
    width = np.full(len(s), half_width)
    return build_track("stadium", x, y, width, width)


def tracks():
    return [load_track(name) for name in list_tracks()] + ([load_track(MONZA)] if MONZA.is_file() else [])


@pytest.mark.parametrize("margin", [1.0, 2.5])
def test_line_stays_inside_the_margins_on_every_track(margin):
    for track in tracks():
        line = minimum_curvature_line(track, margin_m=margin)
        assert line.shape == (track.n, 2) and line.dtype == np.float64
        # Measured by the engine's projection, not by the module's own normals.
        pos = track.to_engine().project_many(line.astype(np.float32), -1)
        tol = 0.01  # float32 coordinates
        assert np.all(pos["d"] <= track.width_left - margin + tol), track.name
        assert np.all(pos["d"] >= -(track.width_right - margin) - tol), track.name
        assert np.abs(pos["d"]).max() > 0.5 * np.min(track.width_left + track.width_right) - margin - tol


def test_line_has_far_less_curvature_than_the_centre_line_and_is_smooth():
    for track in tracks():
        line = minimum_curvature_line(track)
        kappa_line, kappa_centre = curvature(line), curvature(track.xy)
        assert np.sum(kappa_line ** 2) < 0.75 * np.sum(kappa_centre ** 2), track.name
        assert np.abs(kappa_line).max() < np.abs(kappa_centre).max(), track.name
        # No kinks: curvature never jumps away from its neighbours' mean.
        spike = np.abs(kappa_line - 0.5 * (np.roll(kappa_line, 1) + np.roll(kappa_line, -1)))
        assert spike.max() < 0.01, (track.name, spike.max())


def test_line_cuts_the_corners_of_a_stadium():
    # Tight turns on a wide track: the line uses the width to open the radius. (On a
    # narrow track the summed-curvature optimum may turn as tightly as the centre line
    # mid-turn, having spread the rest of the turning over the straights.)
    track = stadium(radius=30.0, straight=100.0, half_width=10.0)
    line = minimum_curvature_line(track)
    turns = np.abs(track.curvature) > 0.01
    kappa_line, kappa_centre = np.abs(curvature(line)), np.abs(curvature(track.xy))
    assert kappa_line[turns].max() < 0.9 * kappa_centre[turns].max()
    offset = ((line - track.xy) * np.stack([-track.tangent[:, 1], track.tangent[:, 0]], axis=1)).sum(axis=1)
    # All turns are left ones: the flattest closed loop is the widest, out on the right.
    assert offset[turns].max() < -5.0 and offset.min() < -8.9


def test_monza_matches_the_published_racing_line():
    track = monza()
    line = minimum_curvature_line(track)
    published = load_raceline(TUM / "racelines" / "Monza.csv")
    start, end = published, np.roll(published, -1, axis=0)
    gaps = []
    for chunk in np.array_split(line, 12):  # distance to the published polyline's segments
        rel = chunk[:, None, :] - start[None]
        seg = end - start
        t = np.clip((rel * seg).sum(-1) / (seg * seg).sum(-1), 0, 1)
        gaps.append(np.linalg.norm(rel - t[..., None] * seg, axis=-1).min(axis=1))
    gaps = np.concatenate(gaps)
    lap = lambda p: np.linalg.norm(np.roll(p, -1, axis=0) - p, axis=1).sum()
    assert gaps.mean() < 1.6 and np.percentile(gaps, 95) < 4.0
    assert abs(lap(line) - lap(published)) < 0.01 * lap(published)
    assert lap(line) < track.length


def test_line_is_deterministic_closed_and_follows_the_travel_direction():
    track = load_track("technical")
    line = minimum_curvature_line(track)
    assert np.array_equal(line, minimum_curvature_line(track))
    steps = np.linalg.norm(np.roll(line, -1, axis=0) - line, axis=1)
    assert 0.5 * np.median(steps) < steps[-1] < 1.5 * np.median(steps)  # last joins first
    kappa = curvature(line)
    assert abs(kappa[0] - kappa[-1]) < 0.01 and abs(kappa[1] - kappa[0]) < 0.01
    forward = ((np.roll(line, -1, axis=0) - line) * track.tangent).sum(axis=1)
    assert np.all(forward > 0)


def test_bad_arguments_raise_value_errors_naming_them():
    track = load_track("technical")
    with pytest.raises(ValueError, match="margin_m"):
        minimum_curvature_line(track, margin_m=-0.5)
    with pytest.raises(ValueError, match="iterations"):
        minimum_curvature_line(track, iterations=0)
    with pytest.raises(ValueError, match="width_left"):
        minimum_curvature_line(SimpleNamespace(x=track.x, y=track.y))
    with pytest.raises(ValueError, match="'y'"):
        minimum_curvature_line(SimpleNamespace(x=track.x, y=track.y[:-1], width_left=track.width_left,
                                               width_right=track.width_right, tangent=track.tangent))


def test_width_under_the_margin_pins_the_line_to_the_centre():
    track = stadium()
    line = minimum_curvature_line(track, margin_m=6.5)
    assert np.allclose(line, track.xy, atol=1e-9)


@pytest.mark.skipif(not MONZA.is_file(), reason="TUM's tracks not installed")
@pytest.mark.parametrize("name", ["Austin", "Norisring"])
def test_engine_line_keeps_inside_the_narrowest_edge_nearby(name):
    # TUM's line crosses the painted edge at Norisring's hairpin by 1.5 m, measured against
    # the narrowest edge within 10 m; the engine's line keeps 0.5 m inside it.
    from trackfield.racing.reference import racing_line

    track = load_track(TUM / f"{name}.csv")
    line = racing_line(track, "gt3", TUM / "racelines" / f"{name}.csv")
    engine = track.to_engine()
    segment = np.array([engine.project(float(x), float(y)).segment for x, y in np.asarray(line.xy)])
    window = (segment[:, None] + np.arange(-5, 6)[None]) % track.n
    offset = np.asarray(line.offset)
    edge = np.where(offset > 0, track.width_left[window].min(axis=1), track.width_right[window].min(axis=1))
    assert np.abs(offset).max() > 5.0  # still a racing line, out to the edges
    assert (np.abs(offset) <= edge - 0.45).all(), (np.abs(offset) - edge).max()
