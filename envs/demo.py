"""The demo: ``python -m trackfield.demo`` plays Football Academy scenarios and races
with a random policy and a built-in one, and prints how each episode went."""
from __future__ import annotations

import argparse
import time

import numpy as np

import trackfield
from trackfield.football.engine import GAME_MODE_NAMES

# Action indices (GRF's default set).
RIGHT, TOP_RIGHT, BOTTOM_RIGHT, SHOT = 5, 4, 6, 12
DIRECTIONS = {(-1, 0): 1, (-1, -1): 2, (0, -1): 3, (1, -1): 4, (1, 0): 5, (1, 1): 6, (0, 1): 7, (-1, 1): 8}


def scripted_action(obs: np.ndarray) -> int:
    """Run at the ball; with the ball, run at goal and shoot from close range."""
    active = int(np.argmax(obs[97:108]))
    me = obs[2 * active: 2 * active + 2]
    ball = obs[88:90]
    if obs[95] == 1.0:  # our team has the ball
        if me[0] > 0.72 and abs(me[1]) < 0.2:
            return SHOT
        target = np.array([1.0, 0.0])
    else:
        target = ball
    d = target - me
    step = tuple(int(np.sign(v)) if abs(v) > 0.01 else 0 for v in d)
    return DIRECTIONS.get(step, RIGHT)


def end_reason(info: dict, terminated: bool, truncated: bool) -> str:
    if truncated:
        return "time limit"
    if info["score"][0] > 0:
        return "GOAL"
    if info["score"][1] > 0:
        return "conceded"
    if info["game_mode"] != 0:
        return f"ball out of play ({GAME_MODE_NAMES[info['game_mode']]})"
    return "possession lost"


def play(scenario: str, policy: str, episodes: int, seed: int) -> None:
    env = trackfield.make(scenario)
    rng = np.random.default_rng(seed)
    goals = 0
    steps = 0
    reasons = {}
    start = time.perf_counter()
    for ep in range(episodes):
        obs, info = env.reset(seed=seed + ep)
        done = False
        while not done:
            action = scripted_action(obs) if policy == "scripted" else int(rng.integers(19))
            obs, reward, terminated, truncated, info = env.step(action)
            steps += 1
            done = terminated or truncated
        reason = end_reason(info, terminated, truncated)
        reasons[reason] = reasons.get(reason, 0) + 1
        goals += info["score"][0]
    elapsed = time.perf_counter() - start
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))
    print(f"  {policy:8} {goals:3d}/{episodes} episodes scored, {steps / episodes:6.1f} steps/episode, "
          f"{steps / elapsed:8.0f} steps/s | endings: {summary}")


def race(scenario: str, policy: str, episodes: int, seed: int, max_time_s: float) -> None:
    """Races with the agent's car driven at random or by the built-in AI at full skill."""
    # The built-in driver backs out of a wall in reverse when stuck; a random policy may not.
    env = trackfield.make(scenario, max_time_s=max_time_s, allow_reverse=policy == "built-in")
    rng = np.random.default_rng(seed)
    steps, lines = 0, []
    start = time.perf_counter()
    for ep in range(episodes):
        obs, info = env.reset(seed=seed + ep)
        done = False
        while not done:
            if policy == "built-in":
                action = env.ai_action()
            else:
                action = rng.uniform(-1, 1, 2).astype(np.float32)
            obs, reward, terminated, truncated, info = env.step(action)
            steps += 1
            done = terminated or truncated
        best = f"best lap {info['best_lap_s']:.1f} s, " if info["best_lap_s"] > 0 else ""
        lines.append(f"place {info['place'] + 1}/{env.num_cars}, {info['progress_m']:.0f} m, {best}"
                     f"off course {info['off_course_s']:.1f} s, walls {info['wall_s']:.1f} s, "
                     f"contact {info['contact_s']:.1f} s")
    elapsed = time.perf_counter() - start
    print(f"  {policy:8} {steps / elapsed:8.0f} steps/s | " + " ; ".join(lines))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m trackfield.demo", description=__doc__.split("\n")[0])
    parser.add_argument("--scenarios", nargs="+", default=["academy_empty_goal_close", "academy_empty_goal",
                                                           "academy_run_to_score_with_keeper",
                                                           "academy_3_vs_1_with_keeper", "academy_counterattack_easy"])
    parser.add_argument("--races", nargs="+", default=["race_time_trial", "race_1v3", "race_1v7"])
    parser.add_argument("--race-seconds", type=float, default=60.0, help="length of each demo race")
    parser.add_argument("--episodes", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(f"trackfield {trackfield.__version__}: {len(trackfield.list_scenarios())} scenarios: "
          f"{', '.join(trackfield.list_scenarios())}\n")
    for scenario in args.scenarios:
        print(scenario)
        for policy in ("random", "scripted"):
            play(scenario, policy, args.episodes, args.seed)
    for scenario in args.races:
        print(f"{scenario} on {trackfield.make(scenario).track.name}")
        for policy in ("random", "built-in"):
            race(scenario, policy, 2, args.seed, args.race_seconds)


if __name__ == "__main__":
    main()
