"""The shared C++ utilities exposed in trackfield._engine.common: the RNG and the spatial hash."""
from __future__ import annotations

import numpy as np
import pytest

from trackfield import _engine

common = _engine.common


# ---------------------------------------------------------------------------------- RNG


def test_rng_uniform_is_deterministic():
    a = common.rng_uniform(12345, 7, 1000)
    b = common.rng_uniform(12345, 7, 1000)
    assert a.dtype == np.float32 and a.shape == (1000,)
    assert np.array_equal(a, b)


def test_rng_uniform_prefix_property():
    # n values are the first n of a longer draw: one generator, one sequence
    assert np.array_equal(common.rng_uniform(3, 1, 10), common.rng_uniform(3, 1, 100)[:10])


@pytest.mark.parametrize("seed,stream", [(0, 0), (1, 0), (2 ** 64 - 1, 5), (42, 2 ** 63)])
def test_rng_uniform_range_and_mean(seed, stream):
    x = common.rng_uniform(seed, stream, 200_000)
    assert x.min() >= 0.0 and x.max() < 1.0
    assert abs(x.mean() - 0.5) < 0.005           # sd of the mean: 0.29 / sqrt(2e5) = 0.00065
    assert abs(x.var() - 1 / 12) < 0.002
    hist, _ = np.histogram(x, bins=20, range=(0, 1))
    assert np.all(np.abs(hist / len(x) - 0.05) < 0.003)
    assert len(np.unique(x)) > 190_000             # not a short cycle
    # successive values are uncorrelated
    assert abs(np.corrcoef(x[:-1], x[1:])[0, 1]) < 0.01


def test_rng_streams_differ():
    draws = [common.rng_uniform(99, stream, 64) for stream in range(8)]
    for i in range(8):
        for j in range(i + 1, 8):
            assert not np.array_equal(draws[i], draws[j])
            assert np.mean(draws[i] == draws[j]) < 0.1


def test_rng_seeds_differ():
    draws = [common.rng_uniform(seed, 0, 64) for seed in range(8)]
    for i in range(8):
        for j in range(i + 1, 8):
            assert not np.array_equal(draws[i], draws[j])


def test_rng_streams_are_uncorrelated():
    a = common.rng_uniform(5, 0, 100_000)
    b = common.rng_uniform(5, 1, 100_000)
    assert abs(np.corrcoef(a, b)[0, 1]) < 0.02


def test_rng_uniform_n_zero_and_negative():
    assert common.rng_uniform(1, 1, 0).shape == (0,)
    with pytest.raises(ValueError):
        common.rng_uniform(1, 1, -1)


# -------------------------------------------------------------------------- spatial hash


def brute_force(points, x, y, radius):
    """(surely inside, surely outside) ids, allowing float rounding at the boundary."""
    d2 = (points[:, 0].astype(np.float64) - x) ** 2 + (points[:, 1].astype(np.float64) - y) ** 2
    r2 = float(radius) ** 2
    tol = 1e-5 * max(r2, 1.0)
    return set(np.flatnonzero(d2 < r2 - tol).tolist()), set(np.flatnonzero(d2 > r2 + tol).tolist())


def check_query(points, cell, x, y, radius):
    found = common.spatial_hash_query(points, cell, x, y, radius)
    assert list(found) == sorted(found), "ids come back sorted"
    assert len(set(found)) == len(found), "no duplicates"
    inside, outside = brute_force(points, x, y, radius)
    found = set(found)
    assert inside <= found, f"missed {sorted(inside - found)[:10]}"
    assert not (found & outside), f"false hits {sorted(found & outside)[:10]}"
    return found


@pytest.mark.parametrize("n", [1, 2, 10, 300, 3000])
@pytest.mark.parametrize("cell", [0.5, 3.0, 17.0, 250.0])
def test_spatial_hash_matches_brute_force_uniform(n, cell):
    rng = np.random.default_rng(n * 1000 + int(cell * 10))
    points = rng.uniform(-52.5, 52.5, (n, 2)).astype(np.float32)
    points[:, 1] *= 34 / 52.5
    for _ in range(25):
        x, y = rng.uniform(-70, 70), rng.uniform(-50, 50)
        radius = rng.choice([0.0, 0.3, 1.0, 5.0, 20.0, 200.0]) * rng.uniform(0.5, 1.5)
        check_query(points, cell, x, y, radius)


def test_spatial_hash_clustered_and_duplicate_points():
    rng = np.random.default_rng(7)
    cluster = rng.normal(0, 0.2, (500, 2))
    duplicates = np.repeat([[3.0, -2.0]], 50, axis=0)
    line = np.stack([np.linspace(-10, 10, 200), np.zeros(200)], axis=1)
    points = np.concatenate([cluster, duplicates, line]).astype(np.float32)
    for x, y, r in [(0, 0, 0.1), (0, 0, 1.0), (3, -2, 0.0), (3, -2, 0.01), (0, 0.05, 0.04),
                    (-10, 0, 0.5), (10, 0, 0.5), (5, 5, 100)]:
        found = check_query(points, 0.25, x, y, r)
        if (x, y) == (3, -2):
            assert set(range(500, 550)) <= found


def test_spatial_hash_large_radius_finds_all():
    rng = np.random.default_rng(1)
    points = rng.uniform(-50, 50, (400, 2)).astype(np.float32)
    assert common.spatial_hash_query(points, 4.0, 0.0, 0.0, 1000.0) == list(range(400))


def test_spatial_hash_query_far_outside_finds_nothing():
    rng = np.random.default_rng(2)
    points = rng.uniform(0, 10, (100, 2)).astype(np.float32)
    for x, y in [(-100, 5), (100, 5), (5, -100), (5, 100), (-1e6, -1e6)]:
        assert common.spatial_hash_query(points, 1.0, x, y, 3.0) == []


def test_spatial_hash_query_near_the_border_from_outside():
    # Query centres outside the points' bounding box still find points within reach.
    points = np.array([[0.0, 0.0], [10.0, 10.0], [0.0, 10.0], [10.0, 0.0]], dtype=np.float32)
    assert common.spatial_hash_query(points, 2.0, -1.0, -1.0, 1.5) == [0]
    assert common.spatial_hash_query(points, 2.0, 11.0, 11.0, 1.5) == [1]
    assert common.spatial_hash_query(points, 2.0, -0.5, 10.5, 1.0) == [2]


def test_spatial_hash_empty_and_bad_input():
    assert common.spatial_hash_query(np.zeros((0, 2), np.float32), 1.0, 0.0, 0.0, 5.0) == []
    with pytest.raises(ValueError):
        common.spatial_hash_query(np.zeros((5, 3), np.float32), 1.0, 0.0, 0.0, 1.0)
    with pytest.raises(ValueError):
        common.spatial_hash_query(np.zeros((5, 2), np.float32), 0.0, 0.0, 0.0, 1.0)
    with pytest.raises(ValueError):
        common.spatial_hash_query(np.zeros((5, 2), np.float32), -1.0, 0.0, 0.0, 1.0)


def test_spatial_hash_accepts_float64_points():
    rng = np.random.default_rng(3)
    points = rng.uniform(-5, 5, (200, 2))
    check_query(points.astype(np.float32), 1.0, 0.3, -0.2, 2.0)
    assert common.spatial_hash_query(points, 1.0, 0.3, -0.2, 2.0) == \
        common.spatial_hash_query(points.astype(np.float32), 1.0, 0.3, -0.2, 2.0)
