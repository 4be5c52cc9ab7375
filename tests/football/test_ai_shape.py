"""The built-in AI's shape in possession, as GRF's (issue 9, parts 1 and 3).

Facts from GRF 2.10.2, traced under the fidelity protocol (one left player on uniform random
actions, 150 episodes; tools/football_random_play.py): GRF's off-the-ball players hold spots
of its built-in 4-3-3 whatever the scenario lists, in a box that follows the ball, and come
to the man on the ball (its support force field), one pushing up for him. So in
academy_3_vs_1_with_keeper the three attackers (listed at x 0.61, 0.71, 0.71) drift back with
the ball, to 0.45, 0.67 and 0.43 by step 40; in academy_single_goal_versus_lazy, of the two
players listed on the centre spot, one drops to x -0.16 and the other runs up to 0.41.
Until stop 34 ours pushed forwards ahead of the ball (0.67, 0.86, 0.84) and stood (0.04).
"""
from __future__ import annotations

import numpy as np

import trackfield


def positions_at(scenario: str, step: int, episodes: int = 100):
    """The left team's start and step-`step` positions in each random-play episode that lasts."""
    env = trackfield.make(scenario, representation="raw")
    rng = np.random.default_rng(0)
    starts, ends = [], []
    for episode in range(episodes):
        obs, _ = env.reset(seed=episode)
        start = obs["left_team"].copy()
        for _ in range(step):
            obs, _, terminated, truncated, _ = env.step(int(rng.integers(0, 19)))
            if terminated or truncated:
                break
        else:
            starts.append(start)
            ends.append(obs["left_team"].copy())
    return np.array(starts), np.array(ends)


def test_attackers_drift_back_with_the_ball_in_3_vs_1():
    starts, ends = positions_at("academy_3_vs_1_with_keeper", 40)
    assert len(ends) >= 30
    change = ends[:, 1:, 0].mean() - starts[:, 1:, 0].mean()
    # GRF -0.16; ours -0.05 (they walk back; GRF's sprint); before stop 34, +0.12.
    assert change < -0.02, f"the attackers' mean x moved {change:+.3f} by step 40"


def test_one_centre_player_runs_up_and_one_drops_in_single_goal_versus_lazy():
    _, ends = positions_at("academy_single_goal_versus_lazy", 40)
    assert len(ends) >= 80
    centre = ends[:, 1:3, 0]
    # GRF: 0.41 and -0.16; ours 0.29 and -0.18; before stop 34, 0.04 and 0.04.
    assert centre.max(axis=1).mean() > 0.2, centre.mean(axis=0)
    assert centre.min(axis=1).mean() < -0.08, centre.mean(axis=0)
