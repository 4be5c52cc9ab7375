"""The vehicles an observation lists are the 20 nearest other live vehicles within 200 m,
nearest first (the selection in obs_parts.cpp), in both vector observation kinds."""
from __future__ import annotations

import numpy as np
import pytest

import trackfield

VEHICLES_AT = {"flat": (20, 9), "sets": None}  # flat: offset of the field, row length


def vehicle_rows(obs, observation):
    if observation == "sets":
        return obs["vehicles"]
    start, cols = VEHICLES_AT["flat"]
    return obs[..., start:start + 20 * cols].reshape(*obs.shape[:-1], 20, cols)


@pytest.mark.parametrize("observation", ["flat", "sets"])
def test_observed_vehicles_are_the_nearest_twenty_nearest_first(observation):
    env = trackfield.vector.make("town_self_play", num_envs=2, num_threads=1, observation=observation,
                                 agents=90, erratic=False)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(6):
        obs, _, _, _, info = env.step(rng.integers(0, 12, size=(2, 150)))
    rows = vehicle_rows(obs, observation)
    for w in range(2):
        live = np.flatnonzero(info["live"][w])
        xy = np.c_[info["x"][w], info["y"][w]].astype(np.float64)
        assert len(live) > 40
        for a in live:
            others = live[live != a]
            d = np.sort(np.hypot(*(xy[others] - xy[a]).T))
            want = d[d <= 200.0][:20]
            mask = rows[w, a, :, 0]
            got = 200.0 * np.hypot(rows[w, a, :, 1], rows[w, a, :, 2])
            assert mask.sum() == len(want) and np.all(mask[:len(want)] == 1)
            np.testing.assert_allclose(got[:len(want)], want, atol=2e-3)
            checked += 1
    env.close()
    assert checked > 80
