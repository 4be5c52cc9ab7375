"""GRF's keeper panic clearance: a keeper meeting a loose ball from the other team with an
opponent close clears it first-time, never owning it (GRF: GetOnTheBallCommands, a keeper
whose possession amount is under 3 plays _AddPanicPass).

Line-up as in GRF's academy_empty_goal: the right team's keeper stands in the goal his team
attacks (the left team's); the left player's pass back to his own keeper runs into him.
"""
from __future__ import annotations

import trackfield
from conftest import ACADEMY_FLAGS, GAME_MODE, step_until_done

SHORT_PASS = 11


def test_keeper_clears_a_ball_to_touch_with_the_passer_close(scenario_file):
    # Own frames: the passer at left x -0.8, the right keeper 3 m in front of him (right-frame
    # x 0.86), the left keeper lazy in his goal.
    path = scenario_file((-0.81, 0.0), [(-1.0, 0.0, "GK", True), (-0.8, 0.0, "CB")],
                         [(0.86, 0.0, "GK")], game_duration=60, deterministic=False, **ACADEMY_FLAGS)
    env = trackfield.make(path, representation="raw")
    cleared = 0
    for seed in range(16):
        env.reset(seed=seed)
        steps = step_until_done(env, [0, SHORT_PASS] + [0] * 60)  # GRF ignores a first-step kick
        # Before the change he gathered most such balls: a possession change ended the episode.
        assert all(obs["ball_owned_team"] != 1 for obs, *_ in steps), f"seed {seed}: the keeper took the ball"
        obs = steps[-1][0]
        if obs["game_mode"] == GAME_MODE["throw_in"]:
            cleared += 1
    # The others: the pass got past him (the left keeper has it, or it rolled on).
    assert cleared >= 4  # 6 of 16
