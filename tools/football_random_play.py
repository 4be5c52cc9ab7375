#!/usr/bin/env python3
"""What happens in an academy scenario under the fidelity protocol, on real GRF or trackfield.

    $GRF_VENV/bin/python tools/football_random_play.py grf endings academy_run_to_score_with_keeper 100
    python tools/football_random_play.py trackfield endings academy_run_to_score_with_keeper 100

The episodes are behaviour_stats.py's, GRF's protocol script (one left player acting uniformly at
random, seeds 0..N-1, the same action stream), so the figures sit beside its table.

endings: per ending (goal_for, goal_against, possession, stopN for a stoppage in game mode
  N, time), how many episodes, their median length, the median steps since the left team
  was last reported on the ball, who holds it at the end (right player index: 0 is the
  keeper) and the ball's median x there.
keeper: the right keeper's touches: reported on the ball (held) or struck away first time
  or parried (struck: the free ball, within 2.5 m of him before or after, turns upfield by
  over 6 m/s), in or out of his box, with the median distance of the nearest left player;
  for the strikes, the ball's speed before and after and who is next on it; for both, the
  ball's speed as he meets it and whether its line crosses his goal mouth (bound for goal).
duels: the left carrier's steps by how near the nearest right field player is to the ball
  (<1, <1.5, <2.5, <4 m, further), and how many of those steps end with the right team on it.
idle: the agent stands idle (action 0) every step; how each of N episodes ends, and when.
kicks: the agent's kicks (the ball leaving his team's carrier faster than 4 m/s) where one
  kick action (long, high, short pass or shot) was pressed in the 8 steps before: the ball's
  speed, its upward speed over the first step and its peak height over the next 10 steps
  (the ball's centre, as both engines report it: 0.11 m on the grass).
fatigue: one episode; every 500 steps the mean and largest tired_factor of each team
  (11_vs_11_stochastic shows GRF's game-long build-up).
receptions: the agent's left field receivers meeting a team-mate's free ball (the ball passing
  within 1 m of him along the step) with a kick pressed in the 4 steps before: reported on it
  within 4 steps (taken: he controls it before the kick) or not (struck first time or missed).
contacts: right field players' first contacts (within 1 m along the step) with a free low ball
  the left team last played, by the ball's speed relative to the player: taken (reported within
  4 steps), struck (no report, the ball turns by over 30 degrees or speeds up by 3 m/s), passed
  by; per episode and as shares.
mates: where the left carrier's field team-mates are while he is reported on the ball (dx
  upfield and |dy| from him, m), and the most advanced left field player's x (GRF units)
  at steps 0, 20 and 40.
strikes: the left team's strikes (the ball leaving its carrier faster than 5 m/s) and what
  next happens to each: which team's keeper or field player is reported on it, or the
  stoppage (stopN); also for the fast ones backwards (over 12 m/s towards the left goal).
holds: the right team's longest spell on the ball in each episode: how many episodes hold it
  over 50, 100 and 200 steps, and the ball's median x in the spells over 100 (GRF's AI
  carrier waits about 28 m out in run_to_score_with_keeper).
"""
import importlib.util
import os
import sys
from collections import Counter

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "behaviour_stats", os.path.join(HERE, "..", "..", "shared", "tools", "behaviour_stats.py"))
bs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bs)

METRES = np.array([54.4, 83.6])  # metres per observation unit along x and y (GRF's, and ours)
BOX_DEPTH, BOX_HALF_WIDTH = 16.5, 20.15


def episodes(engine, scenario, n, policy="random"):
    """Yields each episode as a list of raw observations, the one after reset first."""
    env, reset, step = (bs.grf_env if engine == "grf" else bs.tf_env)(scenario, 1)
    rng = np.random.default_rng(0)
    for seed in range(n):
        obs = [bs.first(reset(seed))]
        total = 0.0
        actions = []
        while True:
            action = int(rng.integers(19)) if policy == "random" else 0
            o, r, done, _ = step(action)
            obs.append(bs.first(o))
            actions.append(action)
            total += float(np.sum(r))
            if done:
                break
        yield obs, total, actions


def ending(o, total):
    mode = int(o["game_mode"])
    if o["steps_left"] <= 0:
        return "time"
    if total > 0.99:
        return "goal_for"
    if total < -0.99:
        return "goal_against"
    return "stop%d" % mode if mode else "possession"


def report_endings(engine, scenario, n):
    rows = {}
    for obs, total, _ in episodes(engine, scenario, n):
        last_left = max((t for t, o in enumerate(obs) if o["ball_owned_team"] == 0), default=None)
        end = obs[-1]
        rows.setdefault(ending(end, total), []).append(
            (len(obs) - 1, None if last_left is None else len(obs) - 1 - last_left,
             int(end["ball_owned_player"]) if end["ball_owned_team"] == 1 else -1, float(end["ball"][0])))
    for why, rs in sorted(rows.items()):
        since = [r[1] for r in rs if r[1] is not None]
        print(f"{why}: {len(rs)} episodes, median length {np.median([r[0] for r in rs]):.0f}, "
              f"since the left last had it {np.median(since) if since else float('nan'):.0f} steps, "
              f"right player on it {dict(Counter(r[2] for r in rs).most_common(4))}, "
              f"ball x {np.median([r[3] for r in rs]):+.2f}")


def _next_fate(obs, t, at_end="the end"):
    """Who is next reported on the ball after step t, or the stoppage (stopN); at_end if
    neither comes before the episode ends."""
    for o in obs[t + 1:]:
        if o["game_mode"] != 0:
            return "stop%d" % o["game_mode"]
        if o["ball_owned_team"] != -1:
            team = "left" if o["ball_owned_team"] == 0 else "right"
            return team + (" keeper" if o["ball_owned_player"] == 0 else " field player")
    return at_end


FAST_BALL = 10.0  # m/s
SPEED_BINS = [0, 3, 6, 10, 14, 20, 99]
GOAL_HALF_WIDTH_UNITS = 0.06  # a post (0.044) and a ball's reach or two beyond it


def _meeting(prev):
    """The ball's speed (m/s) as the right keeper meets it, and whether its line crosses his goal."""
    direction, ball = np.array(prev["ball_direction"][:2]), np.array(prev["ball"][:2])
    speed = float(np.linalg.norm(direction * METRES * 10))
    bound = direction[0] > 1e-4 and abs(ball[1] + direction[1] * (1.0 - ball[0]) / direction[0]) < GOAL_HALF_WIDTH_UNITS
    return speed, bool(bound)


def report_keeper(engine, scenario, n):
    counts, nearest = Counter(), {}
    ball_in, ball_out, fates = [], [], Counter()
    met = Counter()  # (kind, fast, bound for goal): every ball he holds or strikes
    met_speed = {"held": [], "struck": []}
    for obs, _, _ in episodes(engine, scenario, n):
        for t, (prev, o) in enumerate(zip(obs, obs[1:]), start=1):
            keeper = np.array(o["right_team"][0])
            in_box = (1.0 - keeper[0]) * METRES[0] < BOX_DEPTH and abs(keeper[1]) * METRES[1] < BOX_HALF_WIDTH
            ball = np.array(prev["ball"][:2])
            left = np.min(np.linalg.norm((np.array(prev["left_team"]) - ball) * METRES, axis=1))
            kind = None
            if o["ball_owned_team"] == 1 and o["ball_owned_player"] == 0 and not (
                    prev["ball_owned_team"] == 1 and prev["ball_owned_player"] == 0):
                kind = "held"
            elif prev["ball_owned_team"] == -1 and o["ball_owned_team"] == -1 and int(o["game_mode"]) == 0:
                before = np.array(prev["ball_direction"][:2]) * METRES * 10
                after = np.array(o["ball_direction"][:2]) * METRES * 10
                # within his reach before or after the touch (a dive meets the ball at arm's length)
                near = min(np.linalg.norm((np.array(prev["right_team"][0]) - ball) * METRES),
                           np.linalg.norm((np.array(o["right_team"][0]) - np.array(o["ball"][:2])) * METRES)) < 2.5
                if near and np.linalg.norm(after - before) > 6.0 and after[0] < 0:
                    kind = "struck"
                    ball_in.append(np.linalg.norm(before))
                    ball_out.append(np.linalg.norm(after))
                    fates[_next_fate(obs, t)] += 1
            if kind:
                speed, bound = _meeting(prev)
                met[kind, speed > FAST_BALL, bound] += 1
                met_speed[kind].append(speed)
                key = f"{kind} {'in' if in_box else 'out of'} his box"
                counts[key] += 1
                nearest.setdefault(key, []).append(left)
    for key in sorted(counts):
        print(f"{key}: {counts[key]} (nearest left player {np.median(nearest[key]):.1f} m, median)")
    for kind in ("held", "struck"):
        print(f"{kind}, by the ball's speed as he meets it (m/s, {SPEED_BINS[1:-1]}): "
              f"{np.histogram(met_speed[kind], SPEED_BINS)[0].tolist()}; over {FAST_BALL:.0f} m/s and bound for goal "
              f"{met[kind, True, True]}, over and not bound {met[kind, True, False]}, "
              f"under and bound {met[kind, False, True]}, under and not bound {met[kind, False, False]}")
    if ball_in:
        print(f"struck: the ball's speed before / after, median {np.median(ball_in):.1f} / {np.median(ball_out):.1f} m/s; "
              "next: " + ", ".join(f"{k} {v}" for k, v in fates.most_common()))


def report_duels(engine, scenario, n):
    edges = [1.0, 1.5, 2.5, 4.0, np.inf]
    steps, lost = np.zeros(len(edges), int), np.zeros(len(edges), int)
    for obs, _, _ in episodes(engine, scenario, n):
        for prev, o in zip(obs, obs[1:]):
            field = np.array(prev["right_team"])[1:]
            if prev["ball_owned_team"] != 0 or not len(field):
                continue
            d = np.min(np.linalg.norm((field - np.array(prev["ball"][:2])) * METRES, axis=1))
            k = int(np.searchsorted(edges, d))
            steps[k] += 1
            lost[k] += o["ball_owned_team"] == 1
    share = np.round(100.0 * steps / max(steps.sum(), 1), 1)
    print(f"carrier steps with the nearest defender <1 / <1.5 / <2.5 / <4 m / further: {steps.tolist()} "
          f"({share.tolist()}%); ending with the right team on the ball: {lost.tolist()}")


def report_idle(engine, scenario, n):
    how = []
    for obs, total, _ in episodes(engine, scenario, n, policy="idle"):
        end = obs[-1]
        why = ending(end, total)
        if why == "possession":
            why = f"lost to right player {int(end['ball_owned_player'])}"
        how.append((why, len(obs) - 1))
    for why, count in Counter(h[0] for h in how).most_common():
        print(f"{why}: {count} episodes, lengths {sorted(h[1] for h in how if h[0] == why)}")


def report_kicks(engine, scenario, n):
    names = {9: "long pass", 10: "high pass", 11: "short pass", 12: "shot"}
    rows = {}
    for obs, _, actions in episodes(engine, scenario, n):
        for t in range(1, len(obs) - 1):
            before, after = obs[t - 1], obs[t]
            if before["ball_owned_team"] != 0 or after["ball_owned_team"] == 0 or int(after["game_mode"]):
                continue
            speed = np.linalg.norm(np.array(after["ball_direction"][:2]) * METRES) * 10
            pressed = [a for a in actions[max(0, t - 8):t] if a in names]
            if speed < 4 or len(pressed) != 1:
                continue
            peak = max(float(o["ball"][2]) for o in obs[t:t + 10])
            rows.setdefault(names[pressed[0]], []).append((speed, float(after["ball_direction"][2]) * 10, peak))
    for name, r in sorted(rows.items()):
        r = np.array(r)
        print(f"{name}: {len(r)} kicks, speed {np.median(r[:, 0]):.1f} m/s, up {np.median(r[:, 1]):.1f} m/s "
              f"over the first step, peak height q25/50/75 {np.round(np.percentile(r[:, 2], [25, 50, 75]), 2).tolist()} m")


def report_fatigue(engine, scenario, n):
    for obs, _, _ in episodes(engine, scenario, 1):
        for t in list(range(500, len(obs), 500)) + [len(obs) - 1]:
            o = obs[t]
            left, right = np.array(o["left_team_tired_factor"]), np.array(o["right_team_tired_factor"])
            print(f"step {t}: left mean {left.mean():.3f} max {left.max():.3f}, "
                  f"right mean {right.mean():.3f} max {right.max():.3f}")


def report_holds(engine, scenario, n):
    longest = []
    for obs, _, _ in episodes(engine, scenario, n):
        best, spell = [], []
        for o in obs[1:] + [None]:
            if o is not None and o["ball_owned_team"] == 1:
                spell.append(float(o["ball"][0]))
                continue
            best = max(best, spell, key=len)
            spell = []
        longest.append(best)
    lengths = np.array([len(b) for b in longest])
    long_x = [np.median(b) for b in longest if len(b) > 100]
    where = f"{np.median(long_x):+.2f}" if long_x else "-"
    print(f"right team's longest spell on the ball, {n} episodes: over 50 / 100 / 200 steps in "
          f"{(lengths > 50).sum()} / {(lengths > 100).sum()} / {(lengths > 200).sum()}; the ball's median x "
          f"in the spells over 100: {where}")


def report_saves(engine, scenario, n):
    counts = Counter()
    for obs, _, _ in episodes(engine, scenario, n):
        t = 1
        while t < len(obs) - 1:
            before = obs[t - 1]
            speed_x = before["ball_direction"][0] * METRES[0] * 10
            ball, keeper = np.array(before["ball"][:2]) * METRES, np.array(before["right_team"][0]) * METRES
            if before["ball_owned_team"] != -1 or speed_x <= 15 or not 0 < keeper[0] - ball[0] < 6 \
                    or np.linalg.norm(keeper - ball) >= 6:
                t += 1
                continue
            what = "other"
            for o in obs[t:t + 3]:
                if o["ball_owned_team"] == 1 and o["ball_owned_player"] == 0:
                    what = "held"
                elif o["ball_direction"][0] < 0 and o["ball_owned_team"] == -1:
                    what = "parried or struck away"
                elif int(o["game_mode"]) != 0 or o is obs[-1]:
                    what = "goal or out"
                else:
                    continue
                break
            counts[what] += 1
            t += 6  # one shot once
    print(f"shots at the right keeper, {n} episodes: {dict(counts.most_common())}")


def report_first(engine, scenario, n):
    rows = {}
    for obs, total, _ in episodes(engine, scenario, n):
        first = next(((t, int(o["ball_owned_team"]), int(o["ball_owned_player"]))
                      for t, o in enumerate(obs) if o["ball_owned_team"] != -1), (len(obs) - 1, -1, -1))
        who = {0: "left", 1: "right", -1: "nobody"}[first[1]]
        rows.setdefault(who, []).append((first[0], first[2], ending(obs[-1], total)))
    for who, rs in sorted(rows.items()):
        print(f"first on the ball: {who}: {len(rs)} episodes, at step {np.median([r[0] for r in rs]):.0f} "
              f"(median), players {dict(Counter(r[1] for r in rs).most_common(5))}, "
              f"endings {dict(Counter(r[2] for r in rs).most_common())}")


def _closest_approach(b0, b1, p0, p1):
    """Closest distance (m) of the ball to each player over a step, both moving linearly."""
    d0, dd = (b0 - p0) * METRES, ((b1 - p1) - (b0 - p0)) * METRES
    along = np.clip(-(d0 * dd).sum(-1) / np.maximum((dd * dd).sum(-1), 1e-9), 0.0, 1.0)
    return np.linalg.norm(d0 + along[..., None] * dd, axis=-1)


def _free_ball_contacts(obs, team_key):
    """Yields (t, player, last_team, last_player) for each player of `team_key` first coming within
    1 m of the free, low ball (under 1.5 m) since the last reported owner."""
    last_team, last_player, met = -1, -1, set()
    for t in range(1, len(obs) - 4):
        o, nxt = obs[t], obs[t + 1]
        if o["ball_owned_team"] >= 0:
            last_team, last_player, met = int(o["ball_owned_team"]), int(o["ball_owned_player"]), set()
            continue
        if int(o["game_mode"]) != 0 or min(o["ball"][2], nxt["ball"][2]) > 1.5:
            continue
        near = _closest_approach(np.array(o["ball"][:2]), np.array(nxt["ball"][:2]),
                                 np.array(o[team_key]), np.array(nxt[team_key]))
        for p in np.nonzero(near < 1.0)[0]:
            if p not in met:
                met.add(p)
                yield t, int(p), last_team, last_player


def _reported_within(obs, t, team, player, steps=4):
    return any((o["ball_owned_team"], o["ball_owned_player"]) == (team, player) for o in obs[t + 1:t + 1 + steps])


def report_receptions(engine, scenario, n):
    taken = missed = 0
    for obs, _, actions in episodes(engine, scenario, n):
        for t, p, last_team, last_player in _free_ball_contacts(obs, "left_team"):
            if last_team != 0 or p in (0, last_player):
                continue
            if not any(9 <= a <= 12 for a in actions[max(0, t - 3):t + 1]):
                continue
            if _reported_within(obs, t, 0, p):
                taken += 1
            else:
                missed += 1
    total = max(taken + missed, 1)
    print(f"receptions with a kick queued, {n} episodes: {taken + missed}; taken {taken} ({100 * taken / total:.0f}%), "
          f"not taken {missed} ({100 * missed / total:.0f}%)")


def report_contacts(engine, scenario, n):
    bins = [(0, 10), (10, 18), (18, np.inf)]
    counts = {b: Counter() for b in bins}
    for obs, _, _ in episodes(engine, scenario, n):
        for t, p, last_team, _ in _free_ball_contacts(obs, "right_team"):
            if last_team != 0 or p == 0:
                continue
            o, nxt = obs[t], obs[t + 1]
            ball_v = (np.array(nxt["ball"][:2]) - np.array(o["ball"][:2])) * METRES * 10
            player_v = (np.array(nxt["right_team"][p]) - np.array(o["right_team"][p])) * METRES * 10
            relative = np.linalg.norm(ball_v - player_v)
            if _reported_within(obs, t, 1, p):
                what = "taken"
            elif any(x["ball_owned_team"] >= 0 for x in obs[t + 1:t + 5]):
                what = "other took"
            else:
                after = (np.array(obs[t + 3]["ball"][:2]) - np.array(obs[t + 2]["ball"][:2])) * METRES * 10
                speed, speed_after = np.linalg.norm(ball_v), np.linalg.norm(after)
                turned = speed_after > 2 and ball_v @ after < 0.87 * max(speed * speed_after, 1e-6)
                what = "struck" if turned or speed_after > speed + 3 else "passed by"
            counts[next(b for b in bins if b[0] <= relative < b[1])][what] += 1
    for (lo, hi), c in counts.items():
        k = sum(c.values())
        shares = ", ".join(f"{w} {100 * c[w] / max(k, 1):.0f}%" for w in ("taken", "struck", "passed by", "other took"))
        print(f"relative speed {lo}-{hi if np.isfinite(hi) else 'up'} m/s: {k / n:.2f} an episode; {shares}")


def report_mates(engine, scenario, n):
    offsets, advanced = [], {0: [], 20: [], 40: []}
    for obs, _, _ in episodes(engine, scenario, n):
        for o in obs:
            if o["ball_owned_team"] != 0:
                continue
            carrier = int(o["ball_owned_player"])
            team = np.array(o["left_team"])
            for q in range(1, len(team)):
                if q != carrier:
                    offsets.append((team[q] - team[carrier]) * METRES)
        for t in advanced:
            if t < len(obs):
                advanced[t].append(np.max(np.array(obs[t]["left_team"])[1:, 0]))
    offsets = np.array(offsets)
    print(f"team-mates of the left carrier: dx (upfield) p25/50/75 {np.percentile(offsets[:, 0], [25, 50, 75]).round(1)} m, "
          f"|dy| median {np.median(np.abs(offsets[:, 1])):.1f} m")
    print("most advanced left field player's x by step: "
          + ", ".join(f"{t}: {np.median(v):+.2f}" for t, v in advanced.items()))


def report_strikes(engine, scenario, n):
    """Where the left team's strikes end: who is next reported on the ball, or the stoppage."""
    fates = {"all": Counter(), "backwards": Counter()}
    count = 0
    for obs, total, _ in episodes(engine, scenario, n):
        for t in range(1, len(obs)):
            if obs[t - 1]["ball_owned_team"] != 0 or obs[t]["ball_owned_team"] != -1:
                continue
            move = np.asarray(obs[t]["ball_direction"][:2]) * METRES * 10
            if np.hypot(*move) < 5.0:
                continue
            count += 1
            fate = _next_fate(obs, t, "ended loose: " + ending(obs[-1], total))
            fates["all"][fate] += 1
            if move[0] < -12.0 and abs(move[1]) < 1.5 * abs(move[0]):
                fates["backwards"][fate] += 1
    print(f"left strikes over 5 m/s: {count / n:.2f} an episode")
    for kind, c in fates.items():
        total_kind = max(sum(c.values()), 1)
        print(f"  {kind} ({sum(c.values())}): " + ", ".join(f"{k} {v / total_kind:.0%}" for k, v in c.most_common()))


if __name__ == "__main__":
    engine, what, scenario = sys.argv[1], sys.argv[2], sys.argv[3]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else (10 if what == "idle" else 100)
    {"endings": report_endings, "keeper": report_keeper, "duels": report_duels, "idle": report_idle,
     "kicks": report_kicks, "fatigue": report_fatigue, "holds": report_holds, "saves": report_saves,
     "first": report_first, "receptions": report_receptions, "contacts": report_contacts,
     "mates": report_mates, "strikes": report_strikes}[what](engine, scenario, n)
