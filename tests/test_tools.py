"""Smoke test of tools/ (the scripts that compare trackfield's football with real GRF):
every script parses and documents how to run it, and the trackfield side runs."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1] / "tools"
SCRIPTS = sorted(TOOLS.glob("*.py"))


def run_tool(*args, timeout=300):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return subprocess.run([sys.executable, str(TOOLS / args[0]), *args[1:]], capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_readme_names_every_script():
    readme = (TOOLS / "README.md").read_text()
    assert "real GRF" in readme or "real Google Research Football" in readme
    for path in SCRIPTS:
        assert f"| {path.name} |" in readme, path.name


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_script_parses_and_documents_its_command_line(path):
    doc = ast.get_docstring(ast.parse(path.read_text()))
    assert doc, f"{path.name} has no docstring"
    assert path.name == "grf_team.py" or f"tools/{path.name}" in doc, f"{path.name}: no command line in its docstring"
    assert "PYTHONPATH=pkg" not in doc and "../shared" not in doc


def test_probes_run_on_trackfield():
    result = run_tool("football_probes.py", "trackfield", "passes")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "trackfield pass ahead" in result.stdout


def test_shots_run_on_trackfield():
    result = run_tool("football_shots.py", "trackfield", "11_vs_11_easy_stochastic", "1")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "outcomes" in result.stdout


def test_academy_deviation_runs_on_trackfield():
    result = run_tool("football_academy_deviation.py", "0", "5", "academy_empty_goal")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "academy_empty_goal" in result.stdout and "deviation" in result.stdout
