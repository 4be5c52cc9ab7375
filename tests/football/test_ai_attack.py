"""The built-in AI's attack, as GRF's (issue 9, part 3).

Facts from GRF 2.10.2: a uniform random left player concedes 1.75 / 1.25-3.25 / 3.50 goals a
game to the easy / medium / hard AI (measured, 4 games each); GRF's AI on the ball passes to
any team-mate whose tactical rating (nearness to goal, space) beats its own, whether pressed
or not (ElizaController::GetOnTheBallCommands).
"""
from __future__ import annotations

import numpy as np

import trackfield

GAME_STEPS = 3001


def test_medium_ai_scores_against_a_random_player():
    # Ours concedes 1.7-2.4 a game (19-20 in these 8 seeded games), GRF's 1.25-3.25; the AI before its attack was
    # calibrated conceded 0.25 a game and would fail this.
    games = 8
    vec = trackfield.vector.make("11_vs_11_stochastic", num_envs=games, num_threads=1)
    vec.reset(seed=0)
    rng = np.random.default_rng(0)
    conceded = 0
    for _ in range(GAME_STEPS):
        _, reward, _, _, _ = vec.step(rng.integers(0, 19, size=games))
        conceded += int(np.sum(reward < -0.5))
    vec.close()
    assert conceded >= 10, f"the medium AI scored {conceded} goals in {games} games against a random player"


def test_unpressed_carrier_passes_to_a_free_forward(scenario_file):
    # The right AI's midfielder has the ball at the halfway line with nobody near him; its
    # centre-forward stands free 25 m nearer goal. GRF's AI passes at once; an AI that passes
    # only when pressed dribbles on.
    path = scenario_file(
        ball=(0.0, 0.0),
        left=[(-1.0, 0.0, "GK"), (-0.5, 0.3, "CB", True), (-0.5, -0.3, "CB", True)],
        right=[(-1.0, 0.0, "GK"), (0.0, 0.0, "CM"), (0.5, 0.15, "CF")],
        game_duration=60, deterministic=False, offsides=False,
    )
    passed = 0
    for seed in range(10):
        env = trackfield.make(path, representation="raw", number_of_left_players_agent_controls=1)
        obs, _ = env.reset(seed=seed)
        for _ in range(30):
            obs, _, terminated, truncated, _ = env.step(0)  # the left agent idles
            o = obs[0] if isinstance(obs, (list, tuple)) else obs
            if o["ball_owned_team"] == 1 and o["ball_owned_player"] == 2:
                passed += 1
                break
            if terminated or truncated:
                break
    assert passed >= 8, f"the forward got the ball in {passed} of 10 episodes"
