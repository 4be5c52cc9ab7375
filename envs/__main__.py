"""``python -m trackfield``: the command-line tools trackfield ships, one line each.

Each takes ``--help`` for its description and every option.
"""
from __future__ import annotations

import sys

# One line each for the known commands; any other module of the package with a command
# line is found by commands() and described by its docstring's first line.
DESCRIPTIONS = [
    ("trackfield.demo", "plays academy scenarios, races and town drives with random and scripted policies"),
    ("trackfield.bench", "throughput of each domain (football, racing, driving, rllib) beside its peers"),
    ("trackfield.football.play", "play football yourself against the built-in AI or a saved policy ([render])"),
    ("trackfield.racing.play", "drive a race yourself with the keyboard or a gamepad ([render])"),
    ("trackfield.driving.evaluation", "long-run evaluation of the scripted lane keeper: rates and km per incident"),
    ("trackfield.racing.reward_sweep", "how the racing reward presets were chosen: weights over scripted behaviours"),
    ("trackfield.reward_design.bench", "reward-design speed: re-scoring, vector stepping, clip export"),
    ("trackfield.driving.traffic_stats", "how well town_drive's built-in drivers drive: incidents per 100 km"),
    ("trackfield.racing.racecraft", "how cleanly the built-in AI races a field: contacts, off-course, spins, clean passes"),
]


def first_clause(doc: str) -> str:
    """The docstring's first sentence or clause (up to its first ': ', '; ' or '. '),
    whatever lines it spans."""
    import re

    paragraph = " ".join(doc.split("\n\n")[0].split())
    return re.split(r"(?<=[^.])[:;.](?:\s|$)", paragraph, maxsplit=1)[0]


def commands() -> list:
    """(module, description) of every module of the package that has a command line."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent
    known = dict(DESCRIPTIONS)
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "__main__.py" or "tracks" in path.relative_to(root).parts:
            continue
        text = path.read_text(encoding="utf-8")
        if '__name__ == "__main__"' not in text or "argparse" not in text:
            continue
        name = "trackfield." + ".".join(path.relative_to(root).with_suffix("").parts)
        if name not in known:
            known[name] = first_clause(ast.get_docstring(ast.parse(text)) or "")
        found.append(name)
    order = [name for name, _ in DESCRIPTIONS if name in found] + sorted(set(found) - set(dict(DESCRIPTIONS)))
    return [(name, known[name]) for name in order]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] not in ("-h", "--help"):
        print(f"python -m trackfield takes no arguments (got {' '.join(argv)}); run one of the commands below",
              file=sys.stderr)
    print("trackfield's commands (each takes --help):\n")
    listed = commands()
    width = max(len(name) for name, _ in listed)
    for name, what in listed:
        print(f"  python -m {name:<{width}}  {what}")
    print("\nExamples (examples/ in the source tree) take --help too.")
    return 2 if argv and argv[0] not in ("-h", "--help") else 0


if __name__ == "__main__":
    sys.exit(main())
