"""The demo: ``python -m trackfield.demo`` plays Football Academy scenarios, races and
town driving with a random policy and a built-in or scripted one, and prints how each
episode went."""
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


def lane_keeping_action(obs: np.ndarray) -> int:
    """A scripted driver for the demo: one row of ``trackfield.driving.evaluation.lane_keeping_policy``
    (pure pursuit on the route's lane points, a speed target under the limit and the
    curvature's, braking to red lights, the final goal and a vehicle close ahead)."""
    from trackfield.driving.evaluation import lane_keeping_policy

    return int(lane_keeping_policy(obs[None])[0])


def drive_ending(info: dict, truncated: bool) -> str:
    if info["reached_goal"]:
        return "goal"
    if info["collided"]:
        return "collision"
    if info["off_road"]:
        return "off road"
    return "time limit" if truncated else "ended"


def drive(scenario: str, policy: str, episodes: int, seed: int) -> None:
    """One ego among the built-in traffic, driven at random or by `lane_keeping_action`."""
    env = trackfield.make(scenario)
    rng = np.random.default_rng(seed)
    steps, waypoints, metres, endings = 0, 0, 0.0, {}
    start = time.perf_counter()
    for ep in range(episodes):
        obs, info = env.reset(seed=seed + ep)
        done = False
        while not done:
            action = lane_keeping_action(obs) if policy == "scripted" else int(rng.integers(12))
            x, y = info["x"], info["y"]
            obs, reward, terminated, truncated, info = env.step(action)
            metres += float(np.hypot(info["x"] - x, info["y"] - y))
            steps += 1
            done = terminated or truncated
        ending = drive_ending(info, truncated)
        endings[ending] = endings.get(ending, 0) + 1
        waypoints += info["goal_index"]
    elapsed = time.perf_counter() - start
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(endings.items(), key=lambda kv: -kv[1]))
    print(f"  {policy:8} {steps / episodes:6.1f} steps/episode, {metres / episodes:5.0f} m driven, "
          f"{waypoints / episodes:4.1f} waypoints passed, "
          f"{steps / elapsed:8.0f} steps/s | endings: {summary}")


def self_play(num_envs: int, steps: int, seed: int) -> None:
    """town_self_play: every vehicle of every world picks a random action, in one C++ call per step."""
    env = trackfield.vector.make("town_self_play", num_envs=num_envs)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    live = collisions = off_road = goals = 0
    start = time.perf_counter()
    for _ in range(steps):
        _, _, terminated, _, info = env.step(rng.integers(0, 12, size=(num_envs, env.num_agents)))
        live += int(info["live"].sum())
        # An agent that ends is out of play (not live) for the step that reports why.
        collisions += int(np.sum(info["collided"]))
        off_road += int(np.sum(info["off_road"]))
        goals += int(np.sum(info["reached_goal"]))
    elapsed = time.perf_counter() - start
    print(f"  random   {num_envs} worlds x {env.num_agents} slots, {live / steps:.0f} live vehicles on average, "
          f"{live / elapsed:8.0f} vehicle-steps/s | in {steps} steps: {collisions} collisions, "
          f"{off_road} off road, {goals} goals")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m trackfield.demo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenarios", nargs="+", default=["academy_empty_goal_close", "academy_empty_goal",
                                                           "academy_run_to_score_with_keeper",
                                                           "academy_3_vs_1_with_keeper", "academy_counterattack_easy"],
                        help="football scenarios to play, each with a random and a scripted policy")
    parser.add_argument("--races", nargs="+", default=["race_time_trial", "race_1v3", "race_1v7"],
                        help="racing scenarios to drive, each with a random policy and the built-in AI")
    parser.add_argument("--drives", nargs="+", default=["town_drive"],
                        help="driving scenarios to drive, each with a random and a scripted policy")
    parser.add_argument("--race-seconds", type=float, default=60.0, help="length of each demo race")
    parser.add_argument("--episodes", type=int, default=50, help="football episodes per scenario and policy")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first episode")
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
    for scenario in args.drives:
        print(f"{scenario} on a generated town (one ego among built-in traffic)")
        for policy in ("random", "scripted"):
            drive(scenario, policy, 5, args.seed)
    print("town_self_play (every vehicle an agent)")
    self_play(8, 100, args.seed)


if __name__ == "__main__":
    main()
