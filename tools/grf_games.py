#!/usr/bin/env python3
"""Full games under GRF's behaviour_stats.py protocol, printing every game's final
score (one JSON line per game), so that goal differences get standard errors.

    $GRF_VENV/bin/python tools/grf_games.py 11_vs_11_stochastic 10 0 1000   # AI v AI, seeds 1000..1009
    $GRF_VENV/bin/python tools/grf_games.py 11_vs_11_stochastic 10 1 1000   # a random left player
    $GRF_VENV/bin/python tools/grf_games.py 11_vs_11_easy_stochastic 32 1 0 scoring,checkpoints   # and its return

Arguments: scenario, games, controlled left players (0: the built-in AI plays both teams), first
engine seed, and optionally GRF's reward string: then each line also gives the first controlled
player's return (the random player's baseline for tests/football/test_full_game_learnability.py).
Each line names GRF's team processing order (`reverse_team_processing`), which GRF draws once per
environment at random unless ``GRF_TEAM_ORDER=0`` (left team first) or ``1`` fixes it
(docs/football_fidelity.md). ``GRF_LEFT_DIFFICULTY`` and ``GRF_RIGHT_DIFFICULTY`` set
the teams' AI difficulty over what the scenario file sets (GRF's files leave the left team at
1.0), so that GRF plays the matches of ``trackfield.football.strength.ladder``:

    GRF_LEFT_DIFFICULTY=0.95 GRF_RIGHT_DIFFICULTY=0.6 $GRF_VENV/bin/python tools/grf_games.py 11_vs_11_stochastic 15 0 1000
It reuses behaviour_stats.py's environment and its single random-action stream, so it runs real
GRF exactly as that script does. trackfield's side of the same measurement is
``trackfield.football.strength`` (``python -m trackfield.bench football``).
"""
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.environ.get("BEHAVIOUR_STATS_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "shared", "tools")))
import behaviour_stats as bs  # noqa: E402
from grf_team import fix_team_order_from_env  # noqa: E402


def main():
    scenario, games, left = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    difficulties = {side: float(os.environ[f"GRF_{side.upper()}_DIFFICULTY"])
                    for side in ("left", "right") if os.environ.get(f"GRF_{side.upper()}_DIFFICULTY")}
    if difficulties:
        scenario = with_difficulties(scenario, difficulties)
    seed0 = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    rewards = sys.argv[5] if len(sys.argv) > 5 else None
    if rewards and left == 0:
        sys.exit("grf_games.py: a reward string needs a controlled left player (third argument >= 1)")
    env, reset, step = rewarded_env(scenario, left, rewards) if rewards else bs.grf_env(scenario, left)
    fix_team_order_from_env(env)
    rng = np.random.default_rng(0)
    for game in range(games):
        started = time.time()
        reset(seed0 + game)
        total = 0.0
        while True:
            act = [] if left == 0 else (int(rng.integers(19)) if left == 1 else list(rng.integers(19, size=left)))
            obs, reward, done, _ = step(act)
            total += float(np.ravel(reward)[0]) if left else 0.0
            if done:
                break
        final = bs.first(obs)
        line = dict(scenario=scenario, left=left, **{f"{side}_team_difficulty": d for side, d in difficulties.items()}, seed=seed0 + game, score=[int(s) for s in final["score"]],
                    reverse_team_processing=int(env.unwrapped._config["reverse_team_processing"]),
                    seconds=round(time.time() - started, 1))
        if rewards:
            line["return"] = round(total, 3)
        print(json.dumps(line), flush=True)


def with_difficulties(scenario, difficulties):
    """The name of a GRF scenario that builds ``scenario`` and then sets the teams' difficulties.

    GRF imports a scenario as ``gfootball.scenarios.<name>``; registering the derived module under
    a new name there lets GRF load it unchanged, without writing into GRF's installation."""
    import importlib
    import types
    base = importlib.import_module(f"gfootball.scenarios.{scenario}")
    name = scenario + "".join(f"_{side}_{d:g}" for side, d in sorted(difficulties.items()))

    def build_scenario(builder):
        base.build_scenario(builder)
        for side, d in difficulties.items():
            setattr(builder.config(), f"{side}_team_difficulty", d)

    module = types.ModuleType(f"gfootball.scenarios.{name}")
    module.build_scenario = build_scenario
    sys.modules[module.__name__] = module
    return name


def rewarded_env(scenario, left, rewards):
    """behaviour_stats.py's grf_env with GRF's reward wrappers named by ``rewards``."""
    import gfootball.env as fe
    env = fe.create_environment(env_name=scenario, representation="raw", render=False, rewards=rewards,
                                number_of_left_players_agent_controls=left)

    def reset(seed):
        env.unwrapped._config._values["game_engine_random_seed"] = seed  # per-episode engine seed
        return env.reset()

    return env, reset, env.step


if __name__ == "__main__":
    main()
