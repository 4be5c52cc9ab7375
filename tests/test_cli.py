"""The command line: ``python -m trackfield`` lists the commands; every command and every
example answers ``--help`` with its description and options and runs nothing."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from trackfield.__main__ import DESCRIPTIONS, commands, first_clause

COMMANDS = commands()

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def run(args, timeout=120):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=ROOT)


def first_docstring_line(path: Path) -> str:
    return ast.get_docstring(ast.parse(path.read_text())).splitlines()[0]


def words(text: str) -> str:
    return " ".join(text.split())


# Runs a command line up to its parse_args and prints, instead of parsing, every argument
# that has no help text (so --help would name it and say nothing about it).
UNDESCRIBED = """
import argparse, json, runpy, sys
def report(self, *args, **kwargs):
    print(json.dumps([a.option_strings[0] if a.option_strings else a.dest for a in self._actions
                      if not isinstance(a, argparse._HelpAction) and not (a.help or "").strip()]))
    sys.exit(0)
argparse.ArgumentParser.parse_args = argparse.ArgumentParser.parse_known_args = report
target = sys.argv[1]
sys.argv = [target]
if target.endswith(".py"):
    runpy.run_path(target, run_name="__main__")
else:
    runpy.run_module(target, run_name="__main__", alter_sys=True)
"""


def undescribed_arguments(target: str) -> list:
    import json

    result = run(["-c", UNDESCRIBED, target])
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_python_m_trackfield_lists_every_command():
    result = run(["-m", "trackfield"])
    assert result.returncode == 0, result.stderr
    for name, _ in COMMANDS:
        assert f"python -m {name} " in result.stdout


def test_every_module_with_a_command_line_is_listed():
    listed = {name for name, _ in COMMANDS}
    assert {name for name, _ in DESCRIPTIONS} <= listed
    found = set()
    for path in (ROOT / "envs").rglob("*.py"):
        text = path.read_text()
        if '__name__ == "__main__"' in text and "argparse" in text and path.name != "__main__.py":
            found.add("trackfield." + ".".join(path.relative_to(ROOT / "envs").with_suffix("").parts))
    found.discard("trackfield.racing.tracks.author")  # authors the shipped circuits; not shipped itself
    assert found == listed


@pytest.mark.parametrize("name", [name for name, _ in COMMANDS])
def test_command_help_describes_it_and_runs_nothing(name):
    result = run(["-m", name, "--help"])
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("usage: python -m " + name), result.stdout[:300]
    path = ROOT / "envs" / Path(*name.split(".")[1:]).with_suffix(".py")
    assert " ".join(first_docstring_line(path).split()[:4]) in " ".join(result.stdout.split())
    assert "--help" in result.stdout and result.stderr.strip() == ""
    # The whole description, not its first line only.
    assert words(ast.get_docstring(ast.parse(path.read_text()))) in words(result.stdout)


# Commands that still have options without help, named so the gap stays visible; a command
# that gains its help texts must leave this set.
UNDESCRIBED_KNOWN: set[str] = set()


@pytest.mark.parametrize("name", [name for name, _ in COMMANDS])
def test_every_option_of_every_command_says_what_it_does(name):
    missing = undescribed_arguments(name)
    if name in UNDESCRIBED_KNOWN:
        assert missing, f"{name} describes every option now: take it out of UNDESCRIBED_KNOWN"
        pytest.xfail(f"{name}: options without help: {missing}")
    assert missing == [], f"{name} --help names these without saying what they do: {missing}"


def test_each_listed_description_is_a_whole_clause():
    result = run(["-m", "trackfield"])
    for name, description in COMMANDS:
        if name in dict(DESCRIPTIONS):
            continue
        path = ROOT / "envs" / Path(*name.split(".")[1:]).with_suffix(".py")
        assert description == first_clause(ast.get_docstring(ast.parse(path.read_text())))
        assert description.count("``") % 2 == 0, description
        assert description in result.stdout


def test_first_clause_stops_at_the_end_of_a_clause_not_of_a_line():
    assert first_clause("How well the drivers drive: ``measure`` drives worlds of\n``town``.") == \
        "How well the drivers drive"
    assert first_clause("Speed of v1.2 engines.\n\nMore.") == "Speed of v1.2 engines"


def test_reward_sweep_help_runs_no_sweep_and_says_what_the_sweep_reports():
    import time

    start = time.perf_counter()
    result = run(["-m", "trackfield.racing.reward_sweep", "--help"])
    assert result.returncode == 0 and time.perf_counter() - start < 20
    out = words(result.stdout)
    assert "component totals per 60 s drive" not in result.stdout      # the sweep's first output
    assert "no weight set of either grid passes" in out and "the orders it breaks" in out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_help_describes_it_and_runs_nothing(path):
    result = run([str(path), "--help"])
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("usage:"), result.stdout[:300]
    assert words(ast.get_docstring(ast.parse(path.read_text()))) in words(result.stdout)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_option_of_every_example_says_what_it_does(path):
    assert undescribed_arguments(str(path)) == []
