#!/usr/bin/env python3
"""How possession changes hands when the built-in AI plays itself, on real GRF or trackfield.

    $GRF_VENV/bin/python tools/football_turnovers.py grf 11_vs_11_stochastic 2
    python tools/football_turnovers.py trackfield 11_vs_11_stochastic 20

One left agent always plays builtin_ai (action set v2, action 19), so both teams are the AI
and the raw observation is there to read (trackfield plays such a game exactly as AI
against AI; GRF too). One JSON line per game, per team [left, right], in normal play:
kick_lost: the team lost the ball with a fast ball (over 0.02 units a step, about 11 m/s)
between its last touch and the other team's first (a pass or shot cut out); duel_lost: with
no fast ball between (a tackle, a poke, a loose dribble won); kick_kept: a fast ball its own
team got back (passes that arrived); press: over the steps the team has the ball (or
dribbles it) at low speed, the share with the nearest opponent within 1.5, 3 and 6 m of the
ball; lost_x_q: quartiles of where the ball was lost (x towards the loser's attack, units);
owned: steps the team was reported on the ball; carrier_speed_q: quartiles of the reported
carrier's speed in normal play (m/s); third_spells: the team's spells on the ball
(between changes of owner, a set piece ending one) that reached x 0.4 towards its attack.
"""
import sys, json, time
import numpy as np
THIRD_X = 0.4  # units towards the attacked goal: the final third's edge, about 31 m from goal
engine, scenario, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
seed0 = int(sys.argv[4]) if len(sys.argv) > 4 else 0
if engine == "grf":
    import gfootball.env as fe
    env = fe.create_environment(env_name=scenario, representation="raw", render=False,
                                number_of_left_players_agent_controls=1, other_config_options={"action_set": "v2"})
    def reset(seed):
        env.unwrapped._config._values["game_engine_random_seed"] = seed
        return env.reset()[0]
    def step():
        o, r, d, i = env.step([19]); return o[0], d
else:
    import trackfield
    env = trackfield.make(scenario, representation="raw", action_set="v2")
    def reset(seed): return env.reset(seed=seed)[0]
    def step():
        o, r, te, tr, i = env.step(19); return o, te or tr
for g in range(games):
    t0 = time.time(); reset(seed0 + g)
    last_team = -1; fast = False; maxs = 0.0
    c = dict(kick_lost=[0, 0], duel_lost=[0, 0], kick_kept=[0, 0], owned=[0, 0], third_spells=[0, 0], lost_x=[], score=None)
    spell_in_third = False
    carrier_speed = [[], []]
    press = np.zeros((2, 4))  # per owning team: steps owned (or dribbled), nearest opponent <1.5, <3, <6 m
    while True:
        o, done = step()
        bd = np.asarray(o["ball_direction"]); speed = float(np.hypot(bd[0], bd[1]))
        owner = int(o["ball_owned_team"])
        team_near = owner if owner >= 0 else last_team
        if o["game_mode"] == 0 and team_near >= 0 and speed < 0.02:
            opp = np.asarray(o["right_team" if team_near == 0 else "left_team"])
            b = np.asarray(o["ball"][:2])
            d = np.min(np.hypot((opp[:, 0] - b[0]) * 54.4, (opp[:, 1] - b[1]) * 83.6))
            press[team_near] += [1, d < 1.5, d < 3, d < 6]
        if o["game_mode"] != 0:
            last_team = -1; fast = False
        elif owner < 0:
            fast |= speed > 0.02
        else:
            c["owned"][owner] += 1
            moves = np.asarray(o["left_team_direction" if owner == 0 else "right_team_direction"])
            carrier_speed[owner].append(float(np.hypot(*moves[int(o["ball_owned_player"])][:2])) * 10 * 54.4)
            if owner != last_team:
                spell_in_third = False
            if not spell_in_third and float(o["ball"][0]) * (1 if owner == 0 else -1) > THIRD_X:
                c["third_spells"][owner] += 1
                spell_in_third = True
            if last_team >= 0 and owner != last_team:
                c["kick_lost" if fast else "duel_lost"][last_team] += 1
                c["lost_x"].append(round(float(o["ball"][0]) * (1 if last_team == 0 else -1), 2))
            elif last_team >= 0 and fast:
                c["kick_kept"][owner] += 1
            last_team = owner; fast = False
        if done: break
    c["press"] = [(press[t, 1:] / max(press[t, 0], 1)).round(3).tolist() for t in range(2)]
    c["score"] = [int(s) for s in o["score"]]; c["sec"] = round(time.time() - t0, 1)
    c["carrier_speed_q"] = [np.percentile(v, [25, 50, 75]).round(1).tolist() if v else [] for v in carrier_speed]
    lost = c.pop("lost_x")
    c["lost_x_q"] = np.percentile(lost, [25, 50, 75]).round(2).tolist() if lost else []
    print(json.dumps(c), flush=True)
