#!/usr/bin/env python3
"""Probes of how the built-in AI treats a ball holder who does not try to score.

    python tools/football_holder_probes.py [games] [probe ...] [easy|medium|hard ...]
    $GRF_VENV/bin/python tools/football_holder_probes.py --grf [games] [probe ...] [level ...]

One controlled left player (GRF's default), simple115v2, full games of GRF's
11_vs_11_easy_stochastic / 11_vs_11_stochastic / 11_vs_11_hard_stochastic (right team at
difficulty 0.05 / 0.6 / 0.95, left AI team-mates at 1.0). The controlled player's policy:

idle:       action 0 (idle) every step: he stands on the ball from kick-off.
slow:       dribble held (17), moving up for 2 s, then down for 2 s, and so on: a slow dribble
            across his own half that never goes forward.
back_pass:  facing his own goal (left held) and a short pass (11) every 10 steps: passes back
            and forth in his own half.
kick_out:   with the ball, "top" held and a long pass (9) every step: the ball is played over
            the touchline to stop play.

Printed per probe and difficulty: possession share (the steps the left team is reported on
the ball over the steps anybody is; then over all steps), and goals scored and conceded per game, with the
standard error of the goal difference.
"""
import sys

import numpy as np

LEVELS = {"easy": (0.05, "11_vs_11_easy_stochastic"), "medium": (0.6, "11_vs_11_stochastic"),
          "hard": (0.95, "11_vs_11_hard_stochastic")}
PROBES = ("idle", "slow", "back_pass", "kick_out")
STEPS = 3001  # GRF's step() calls in a 3000-step game


def probe_actions(probe, t, owned_by_us):
    """The probe's action per world; ``t`` is each world's step in its game (an int or an
    array), ``owned_by_us`` a bool array (the left team on the ball)."""
    t = np.broadcast_to(np.asarray(t), np.shape(owned_by_us))
    if probe == "idle":
        return np.zeros(t.shape, dtype=np.int64)
    if probe == "slow":  # dribble (sticky) first, then up and down in turn
        return np.where(t == 0, 17, np.where((t // 20) % 2 == 0, 3, 7))
    if probe == "back_pass":
        return np.where(t % 10 == 0, 11, 1)
    if probe == "kick_out":
        return np.where(owned_by_us, np.where(t % 2 == 0, 3, 9), 3)
    raise ValueError(f"unknown probe {probe!r}")


def run_trackfield(probe, difficulty, scenario, games, seed=0):
    """Each world plays two games in a row, so that half the games have each of GRF's two
    line-ups (its 11 vs 11 files swap them on the episode number's parity)."""
    import trackfield
    worlds = (games + 1) // 2
    env = trackfield.vector.make(scenario, num_envs=worlds, num_threads=1, representation="simple115v2",
                                 number_of_left_players_agent_controls=1)
    obs, _ = env.reset(seed=seed)
    ours = theirs = steps = 0
    scores, ended = [], np.zeros(worlds, dtype=np.int64)
    t = np.zeros(worlds, dtype=np.int64)  # each world's step in its current game
    while (ended < 2).any():
        owned = obs[:, 95] > 0.5
        actions = probe_actions(probe, t, owned)
        obs, _, terminated, truncated, info = env.step(actions)
        playing = ended < 2
        ours += int(((info["ball_owned_team"] == 0) & playing).sum())
        theirs += int(((info["ball_owned_team"] == 1) & playing).sum())
        steps += int(playing.sum())
        t += 1
        for i in np.flatnonzero((terminated | truncated) & playing):
            scores.append(info["final_info"]["score"][i])
            ended[i] += 1
            t[i] = 0
    env.close()
    return ours / max(ours + theirs, 1), ours / steps, np.asarray(scores[:games], dtype=float)


def run_grf(probe, difficulty, scenario, games, seed=0):
    """GRF plays its games one after another in one env, so its line-ups alternate."""
    import gfootball.env as fe
    from grf_team import fix_team_order_from_env
    env = fe.create_environment(env_name=scenario, representation="raw",
                                number_of_left_players_agent_controls=1)
    fix_team_order_from_env(env)
    ours = theirs = steps = 0
    scores = []
    for g in range(games):
        env.unwrapped._config._values["game_engine_random_seed"] = seed + g
        obs = env.reset()
        for t in range(STEPS):
            owned = np.array([obs[0]["ball_owned_team"] == 0])
            obs, _, done, _ = env.step(int(probe_actions(probe, t, owned)[0]))
            ours += obs[0]["ball_owned_team"] == 0
            theirs += obs[0]["ball_owned_team"] == 1
            steps += 1
            if done:
                break
        scores.append([int(s) for s in obs[0]["score"]])
        print(f"  game {g}: score {scores[-1]}, possession so far {ours / max(ours + theirs, 1):.3f}", flush=True)
    env.close()
    return ours / max(ours + theirs, 1), ours / steps, np.asarray(scores, dtype=float)


def main(argv):
    grf = "--grf" in argv
    levels = [a for a in argv if a in LEVELS] or list(LEVELS)
    argv = [a for a in argv if a != "--grf" and a not in LEVELS]
    games = int(argv[0]) if argv and argv[0].isdigit() else 20
    probes = [a for a in argv if not a.isdigit()] or list(PROBES)
    run = run_grf if grf else run_trackfield
    print(f"{'grf' if grf else 'trackfield'}: {games} games per cell")
    print(f"{'probe':10} {'level':7} {'possession':>10} {'of all':>7} {'scored':>7} {'conceded':>9} {'diff':>6} {'se':>5}")
    for probe in probes:
        for level in levels:
            difficulty, scenario = LEVELS[level]
            share, of_all, score = run(probe, difficulty, scenario, games)
            diff = score[:, 0] - score[:, 1]
            se = diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else 0.0
            print(f"{probe:10} {level:7} {share:10.3f} {of_all:7.3f} {score[:, 0].mean():7.2f} {score[:, 1].mean():9.2f} "
                  f"{diff.mean():6.2f} {se:5.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
