"""``python -m trackfield``: the command-line tools trackfield ships, one line each.

Each takes ``--help`` for its description and every option.
"""
from __future__ import annotations

import sys

COMMANDS = [
    ("trackfield.demo", "plays academy scenarios, races and town drives with random and scripted policies"),
    ("trackfield.bench", "throughput of each domain (football, racing, driving, rllib) beside its peers"),
    ("trackfield.football.play", "play football yourself against the built-in AI or a saved policy ([render])"),
    ("trackfield.racing.play", "drive a race yourself with the keyboard or a gamepad ([render])"),
    ("trackfield.driving.evaluation", "long-run evaluation of the scripted lane keeper: rates and km per incident"),
    ("trackfield.racing.reward_sweep", "how the racing reward presets were chosen: weights over scripted behaviours"),
    ("trackfield.reward_design.bench", "reward-design speed: re-scoring, vector stepping, clip export"),
]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] not in ("-h", "--help"):
        print(f"python -m trackfield takes no arguments (got {' '.join(argv)}); run one of the commands below",
              file=sys.stderr)
    print("trackfield's commands (each takes --help):\n")
    width = max(len(name) for name, _ in COMMANDS)
    for name, what in COMMANDS:
        print(f"  python -m {name:<{width}}  {what}")
    print("\nExamples (examples/ in the source tree) take --help too.")
    return 2 if argv and argv[0] not in ("-h", "--help") else 0


if __name__ == "__main__":
    sys.exit(main())
