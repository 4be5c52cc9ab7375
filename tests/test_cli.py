"""The command line: ``python -m trackfield`` lists the commands; every command and every
example answers ``--help`` with its description and options and runs nothing."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from trackfield.__main__ import DESCRIPTIONS, commands

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


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_help_describes_it_and_runs_nothing(path):
    result = run([str(path), "--help"])
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("usage:"), result.stdout[:300]
    assert " ".join(first_docstring_line(path).split()[:4]) in " ".join(result.stdout.split())
