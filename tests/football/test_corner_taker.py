"""academy_corner's taker starts where GRF's engine puts him (on the goal line, 1.8 m from the
ball) and has to walk onto the ball: nobody owns it at reset nor for the first steps, and a
random carrier does not walk it straight out of play."""
import numpy as np

import trackfield

METRES = np.array([54.4, 83.6])  # GRF: metres per observation unit along x and y


def test_corner_taker_walks_onto_the_ball():
    env = trackfield.make("academy_corner", representation="raw")
    obs, _ = env.reset(seed=0)
    # GRF 2.10.2's first observation of academy_corner, in its units: the taker on the goal
    # line (x = 55 / 54.4, its pitchHalfW in observation units), the ball 1.1 m inside it.
    assert np.allclose(obs["left_team"][1], [1.0110, 0.4268], atol=1e-3)
    assert np.allclose(obs["ball"], [0.99, 0.41, 0.1106], atol=1e-3)
    taker = np.array(obs["left_team"][1]) * METRES
    ball = np.array(obs["ball"][:2]) * METRES
    assert 1.6 < np.linalg.norm(taker - ball) < 2.0
    assert obs["ball_owned_team"] == -1
    owned_at = None
    for t in range(10):
        obs, *_ = env.step(0)
        if obs["ball_owned_team"] == 0:
            owned_at = t
            break
    assert owned_at is not None and owned_at >= 2  # GRF: 4-5 steps


def test_corner_random_play_lasts():
    # On the commit before, the taker owned the ball at once and random play took it out in
    # 20-31 steps on average (GRF: 153); with GRF's geometry it lasts 95-107 (100 episodes).
    lengths = []
    rng = np.random.default_rng(0)
    env = trackfield.make("academy_corner", representation="raw")
    for seed in range(30):
        env.reset(seed=seed)
        for t in range(400):
            _, _, term, trunc, _ = env.step(int(rng.integers(19)))
            if term or trunc:
                break
        lengths.append(t + 1)
    assert np.mean(lengths) > 50
