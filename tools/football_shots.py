#!/usr/bin/env python3
"""The built-in AI's shots when it plays itself, on real GRF or trackfield, and what became of them.

    $GRF_VENV/bin/python tools/football_shots.py grf 11_vs_11_easy_stochastic 5
    python tools/football_shots.py trackfield 11_vs_11_easy_stochastic 20

As tools/football_turnovers.py, one left agent always plays builtin_ai (action set v2), so
both teams are the AI (left 1.0, right the scenario's level). A shot: the ball, last held by
a team, leaves in normal play faster than SHOT_SPEED units a step (about 10.5 m/s), from
within SHOT_FROM of the goal line it heads for, on a line that crosses that goal line within
AIM_WIDTH of the goal's centre (the posts are 0.044 units out). Its outcome, within 40 steps:
goal; wide (goal kick or corner); held by the keeper or a defender; back to the shooter's
team; other. Per team [left, right]: shots and goals per game, steps on the ball, the
shots' median distance from the goal centre (m), and the outcome counts.
"""
import sys

import numpy as np

SHOT_SPEED = 0.02  # units per step
SHOT_FROM = 0.55   # units from the goal line (about 29 m)
AIM_WIDTH = 0.12   # units either side of the goal's centre, at the goal line (about 10 m)
X_METRES, Y_METRES = 52.5, 34.0 / 0.42  # metres per observation unit along x and y
GOAL_KICK, CORNER = 2, 4

engine, scenario, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
if engine == "grf":
    import gfootball.env as fe
    env = fe.create_environment(env_name=scenario, representation="raw", render=False,
                                number_of_left_players_agent_controls=1,
                                other_config_options={"action_set": "v2"})

    def reset(seed):
        env.unwrapped._config._values["game_engine_random_seed"] = seed
        return env.reset()[0]

    def step():
        obs, _, done, _ = env.step([19])
        return obs[0], done
else:
    import trackfield
    env = trackfield.make(scenario, representation="raw", action_set="v2")

    def reset(seed):
        return env.reset(seed=seed)[0]

    def step():
        obs, _, terminated, truncated, _ = env.step(19)
        return obs, terminated or truncated

shots, goals, owned = np.zeros(2), np.zeros(2), np.zeros(2)
distances = [[], []]
outcomes = [{}, {}]
for game in range(games):
    obs = reset(game)
    last_team, cooldown, pending, done = -1, [0, 0], [None, None], False
    while not done:
        owner = int(obs["ball_owned_team"])
        if owner >= 0:
            last_team = owner
            owned[owner] += 1
        ball, move = np.array(obs["ball"]), np.array(obs["ball_direction"])
        for team, sign in ((0, 1.0), (1, -1.0)):
            if cooldown[team] > 0:
                cooldown[team] -= 1
                continue
            if (owner < 0 and last_team == team and obs["game_mode"] == 0 and move[0] * sign > SHOT_SPEED
                    and (1.0 - ball[0] * sign) < SHOT_FROM):
                steps_to_line = (sign - ball[0]) / move[0]
                if 0 < steps_to_line < 40 and abs(ball[1] + move[1] * steps_to_line) < AIM_WIDTH:
                    shots[team] += 1
                    distances[team].append(np.hypot((1.0 - ball[0] * sign) * X_METRES, ball[1] * Y_METRES))
                    cooldown[team], pending[team] = 20, 0
        score = list(obs["score"])
        obs, done = step()
        for team in (0, 1):
            scored = obs["score"][team] > score[team]
            goals[team] += scored
            if pending[team] is None:
                continue
            pending[team] += 1
            result = None
            if scored:
                result = "goal"
            elif obs["game_mode"] in (GOAL_KICK, CORNER):
                result = "wide"
            elif obs["game_mode"] != 0:
                result = "other stoppage"
            elif obs["ball_owned_team"] == 1 - team:
                roles = obs["right_team_roles"] if team == 0 else obs["left_team_roles"]
                result = "keeper" if roles[obs["ball_owned_player"]] == 0 else "defender"
            elif obs["ball_owned_team"] == team:
                result = "back to the team"
            elif pending[team] > 40 or done:
                result = "other"
            if result:
                outcomes[team][result] = outcomes[team].get(result, 0) + 1
                pending[team] = None
print(f"{engine} {scenario}, {games} games, per team [left, right]:")
print("  shots per game", (shots / games).round(2).tolist(), " goals per game", (goals / games).round(2).tolist(),
      " steps on the ball per game", (owned / games).round(0).tolist())
print("  median shot distance (m)", [round(float(np.median(d)), 1) if d else None for d in distances])
print("  outcomes", outcomes)
