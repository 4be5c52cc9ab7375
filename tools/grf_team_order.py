#!/usr/bin/env python3
"""GRF's behaviour_stats.py protocol on real GRF with its team processing order fixed.

    $GRF_VENV/bin/python tools/grf_team_order.py {0|1} --engine grf --scenario NAME --episodes 100

GRF processes one team before the other in every frame, and which one comes first is
`reverse_team_processing` (1: the right team first). Unless a config sets it, GRF draws it
once per environment from the parity of a `game_engine_random_seed` taken from Python's
unseeded `random` as the environment is built (scenario_builder.py), and keeps it for every
later episode, whatever seed each reset is given. So one run of behaviour_stats.py plays all
its episodes under one order, drawn by chance: two runs with the same seeds give one of two
tables. In academy_run_pass_and_shoot_with_keeper the right team scores in 2 of 100 episodes
with the left team first and in 13 with the right team first.

This script fixes the order before the first reset (the first argument) and otherwise runs
behaviour_stats.py unchanged; its JSON line gains `reverse_team_processing`. Both orders
together are GRF as a researcher meets it across many environments: the stored academy
figures (trackfield/football/grf_behaviour.json) pool 100 episodes of each.
"""
import importlib.util
import json
import os
import sys

from grf_team import set_team_order

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "behaviour_stats", os.path.join(HERE, "..", "..", "shared", "tools", "behaviour_stats.py"))
bs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bs)


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("0", "1"):
        sys.exit("usage: grf_team_order.py {0|1} --engine grf --scenario NAME [--episodes N] ...")
    reverse = sys.argv[1] == "1"
    del sys.argv[1]
    grf_env = bs.grf_env

    def grf_env_in_order(name, left):
        env, reset, step = grf_env(name, left)
        set_team_order(env, reverse)

        def reset_in_order(seed):
            obs = reset(seed)
            if env.unwrapped._config["reverse_team_processing"] != reverse:
                raise RuntimeError("GRF did not keep reverse_team_processing")
            return obs
        return env, reset_in_order, step

    bs.grf_env = grf_env_in_order
    real_print = print

    def print_with_order(line, *args, **kwargs):
        out = json.loads(line)
        out["reverse_team_processing"] = int(reverse)
        real_print(json.dumps(out), *args, **kwargs)

    bs.print = print_with_order
    bs.main()


if __name__ == "__main__":
    main()
