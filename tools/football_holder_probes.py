#!/usr/bin/env python3
"""Probes of how the built-in AI treats a ball holder who does not try to score.

    PYTHONPATH=pkg python tools/football_holder_probes.py [games] [probe ...]
    $GRF_VENV/bin/python tools/football_holder_probes.py --grf [games] [probe ...]

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
the ball over the steps anybody is), and goals scored and conceded per game, with the
standard error of the goal difference.
"""
import sys

import numpy as np

LEVELS = {"easy": (0.05, "11_vs_11_easy_stochastic"), "medium": (0.6, "11_vs_11_stochastic"),
          "hard": (0.95, "11_vs_11_hard_stochastic")}
PROBES = ("idle", "slow", "back_pass", "kick_out")
STEPS = 3001  # GRF's step() calls in a 3000-step game


def probe_actions(probe, t, owned_by_us):
    """The probe's action (per world) at step ``t``; ``owned_by_us`` is a bool array."""
    n = len(owned_by_us)
    if probe == "idle":
        return np.zeros(n, dtype=np.int64)
    if probe == "slow":
        if t == 0:
            return np.full(n, 17)  # dribble (sticky)
        return np.full(n, 3 if (t // 20) % 2 == 0 else 7)
    if probe == "back_pass":
        return np.full(n, 11 if t % 10 == 0 else 1)
    if probe == "kick_out":
        return np.where(owned_by_us, np.where(t % 2 == 0, 3, 9), 3)
    raise ValueError(f"unknown probe {probe!r}")


def run_trackfield(probe, difficulty, scenario, games, seed=0):
    import trackfield
    env = trackfield.vector.make(scenario, num_envs=games, num_threads=1, representation="simple115v2",
                                 number_of_left_players_agent_controls=1)
    obs, _ = env.reset(seed=seed)
    ours = theirs = 0
    score = np.zeros((games, 2))
    for t in range(STEPS):
        owned = obs[:, 95] > 0.5
        obs, _, terminated, truncated, info = env.step(probe_actions(probe, t, owned))
        ours += int((info["ball_owned_team"] == 0).sum())
        theirs += int((info["ball_owned_team"] == 1).sum())
        if (terminated | truncated).any():
            score = np.asarray(info["final_info"]["score"], dtype=float)
            break
    env.close()
    return ours / max(ours + theirs, 1), score


def run_grf(probe, difficulty, scenario, games, seed=0):
    import gfootball.env as fe
    from grf_team import fix_team_order_from_env
    env = fe.create_environment(env_name=scenario, representation="simple115v2",
                                number_of_left_players_agent_controls=1)
    fix_team_order_from_env(env)
    ours = theirs = 0
    scores = []
    for g in range(games):
        env.unwrapped._config._values["game_engine_random_seed"] = seed + g
        obs = env.reset()
        for t in range(STEPS):
            owned = np.array([obs[95] > 0.5])
            obs, _, done, info = env.step(int(probe_actions(probe, t, owned)[0]))
            raw = env.unwrapped._env._observation
            ours += raw["ball_owned_team"] == 0
            theirs += raw["ball_owned_team"] == 1
            if done:
                break
        scores.append(list(env.unwrapped._env._observation["score"]))
    env.close()
    return ours / max(ours + theirs, 1), np.asarray(scores, dtype=float)


def main(argv):
    grf = "--grf" in argv
    argv = [a for a in argv if a != "--grf"]
    games = int(argv[0]) if argv and argv[0].isdigit() else 20
    probes = [a for a in argv if not a.isdigit()] or list(PROBES)
    run = run_grf if grf else run_trackfield
    print(f"{'grf' if grf else 'trackfield'}: {games} games per cell")
    print(f"{'probe':10} {'level':7} {'possession':>10} {'scored':>7} {'conceded':>9} {'diff':>6} {'se':>5}")
    for probe in probes:
        for level, (difficulty, scenario) in LEVELS.items():
            share, score = run(probe, difficulty, scenario, games)
            diff = score[:, 0] - score[:, 1]
            se = diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else 0.0
            print(f"{probe:10} {level:7} {share:10.3f} {score[:, 0].mean():7.2f} {score[:, 1].mean():9.2f} "
                  f"{diff.mean():6.2f} {se:5.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
