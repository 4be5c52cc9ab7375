#!/usr/bin/env python3
"""Where a full game's goals come from, on real GRF or trackfield: per game and team, the
steps on the ball in the final third, the shots and how far out they were struck, the goals.

    $GRF_VENV/bin/python tools/football_chances.py grf 11_vs_11_stochastic 12 2000 0
    python tools/football_chances.py trackfield 11_vs_11_stochastic 24 2000 1

Arguments: engine, scenario, games, first engine seed, controlled left players (0: the AI
plays both teams, read from GRF's engine state or, here, through one left agent playing
builtin_ai; 1: one left player acting uniformly at random, behaviour_stats.py's stream).
A shot is any ball over 12 m/s, loose after its team's last touch, whose line crosses the
goal line it heads for within 0.05 units of the middle (about 4 m: the mouth and its posts),
counted once per flight; its distance is from that goal line, in metres. The final third
is x beyond 0.4 units towards the attacked goal. One JSON line per game; `--summary FILE...`
prints per team the means and the shots' distance quartiles. GRF_TEAM_ORDER=0|1 fixes GRF's
team processing order.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.environ.get("BEHAVIOUR_STATS_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "shared", "tools")))
from grf_team import fix_team_order_from_env  # noqa: E402
X_METRES, Y_METRES = 54.4, 81.0  # GRF's engine metres per observation unit, along x and y
THIRD_X, SHOT_SPEED, MOUTH = 0.4, 12.0, 0.05


def trackfield_env(scenario, left):
    import trackfield
    env = trackfield.make(scenario, representation="raw", action_set="v2" if left == 0 else "default")

    def reset(seed):
        return env.reset(seed=seed)[0]

    def step(action):
        obs, _, terminated, truncated, _ = env.step(19 if left == 0 else action)
        return obs, terminated or truncated
    return reset, step


def grf_env(scenario, left):
    import behaviour_stats as bs
    env, grf_reset, grf_step = bs.grf_env(scenario, left)
    fix_team_order_from_env(env)

    def reset(seed):
        return bs.first(grf_reset(seed))

    def step(action):
        obs, _, done, _ = grf_step(action)
        return bs.first(obs), done
    return reset, step


def play(engine, scenario, games, seed0, left):
    reset, step = (grf_env if engine == "grf" else trackfield_env)(scenario, left)
    rng = np.random.default_rng(0)
    for game in range(games):
        obs = reset(seed0 + game)
        third, shots, in_flight, last_team = [0, 0], [[], []], [False, False], -1
        prev, done = np.array(obs["ball"][:2]), False
        while not done:
            obs, done = step(int(rng.integers(19)) if left else [])
            ball = np.array(obs["ball"][:2])
            move, prev = ball - prev, ball
            owned = int(obs["ball_owned_team"])
            if owned >= 0:
                last_team = owned
            speed = np.hypot(move[0] * X_METRES, move[1] * Y_METRES) * 10
            for team, goal_x in ((0, 1.0), (1, -1.0)):
                sign = 1.0 if team == 0 else -1.0
                third[team] += int(owned == team and ball[0] * sign > THIRD_X)
                bound = False
                if move[0] * sign > 1e-4 and owned == -1 and last_team == team and speed > SHOT_SPEED:
                    steps_to_line = (goal_x - ball[0]) / move[0]
                    bound = 0 <= steps_to_line < 30 and abs(ball[1] + move[1] * steps_to_line) < MOUTH
                if bound and not in_flight[team]:
                    shots[team].append(round(float(abs(goal_x - ball[0]) * X_METRES), 1))
                in_flight[team] = bound
        print(json.dumps({"engine": engine, "scenario": scenario, "seed": seed0 + game,
                          "score": [int(g) for g in obs["score"]], "final_third_steps": third,
                          "shot_metres": shots}), flush=True)


def summary(paths):
    for path in paths:
        rows = [json.loads(line) for line in open(path)]
        parts = []
        for team in (0, 1):
            metres = sum((r["shot_metres"][team] for r in rows), [])
            goals = sum(r["score"][team] for r in rows)
            quartiles = " / ".join(f"{q:.1f}" for q in np.percentile(metres, [25, 50, 75])) if metres else "-"
            parts.append(f"team {team}: goals {goals / len(rows):.2f}, shots {len(metres) / len(rows):.1f} "
                         f"({quartiles} m), goals per shot {goals / max(len(metres), 1):.2f}, "
                         f"final-third steps {np.mean([r['final_third_steps'][team] for r in rows]):.0f}")
        print(f"{path} ({len(rows)} games): " + " | ".join(parts))


if __name__ == "__main__":
    if sys.argv[1] == "--summary":
        summary(sys.argv[2:])
    else:
        play(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
