"""GIGAFLOW's 12 conditioning values: seven reward weights, the collision weight, four dynamics
coefficients; each drawn per agent and shown to it, and the reward uses what it shows."""
import math

import numpy as np
import pytest

import trackfield
from trackfield import _engine

D = _engine.driving
QUIET = dict(lights=False, erratic=False)
COLLISION = list(D.CONDITIONING).index("collision")


def collision_factor(conditioning):
    return 1.0 + 1.5 * (conditioning[COLLISION] + 1.0)  # U(1, 4) mapped onto [-1, 1]


def test_twelve_values_with_the_collision_weight_drawn_per_agent():
    assert len(D.CONDITIONING) == 12
    env = trackfield.vector.make("town_self_play", num_envs=2, num_threads=1, agents=50, **QUIET)
    obs, info = env.reset(seed=3)
    c = obs[info["live"]][:, -12:]
    assert c.shape[0] == 100 and np.all(np.abs(c) <= 1)
    assert c[:, COLLISION].std() > 0.3                     # drawn per agent, not one fixed weight
    assert D.safe_conditioning()["collision"] == 4.0         # 'safe': the conservative end


def test_collision_penalty_scales_with_the_observed_weight():
    env = trackfield.parallel_env("town_self_play", agents=2, **QUIET)
    obs, _ = env.reset(seed=1)
    names = list(env.agents)
    factors = {a: collision_factor(obs[a][-12:]) for a in names}
    batch = env.unwrapped_engine.batch
    x, y = batch.vehicles(0)[0, :2]
    h = env.unwrapped_engine.drive_config.maps[0].map.localise(x, y).heading
    batch.place_vehicle(0, 0, x, y, h, 8.0)
    batch.place_vehicle(0, 1, x + 12 * math.cos(h), y + 12 * math.sin(h), h + math.pi, 8.0)
    for _ in range(5):
        obs, rewards, terms, truncs, infos = env.step({a: 7 for a in env.agents})
        if any(terms.values()):
            break
    a, b = names
    pa, pb = infos[a]["reward_components"]["collision"], infos[b]["reward_components"]["collision"]
    assert infos[a]["collided"] and infos[b]["collided"]
    assert pa <= -25.0 * factors[a] and pb <= -25.0 * factors[b]
    assert pa / pb == pytest.approx(factors[a] / factors[b], rel=1e-3)   # same impact, own weights
