"""Every Python block of the README runs as it stands, each in a fresh interpreter in an
empty folder (what a user who pastes it gets)."""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_blocks():
    """(heading above the block, its code) of every ```python block."""
    text = README.read_text()
    blocks = []
    for match in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
        headings = re.findall(r"^#+ (.+)$", text[:match.start()], re.M)
        blocks.append((headings[-1] if headings else "top", match.group(1)))
    return blocks


def marks_for(code: str):
    if "import ray" in code:  # starts Ray and trains: the second test command
        needs_ray = importlib.util.find_spec("ray") is None
        return [pytest.mark.rllib, pytest.mark.skipif(needs_ray, reason="needs ray[rllib] (the [dist] extra)")]
    if "evaluate(" in code:  # drives 100 km: a many-episode measurement
        return [pytest.mark.statistical]
    return []


BLOCKS = readme_blocks()


def test_the_readme_has_python_blocks():
    assert len(BLOCKS) >= 5, BLOCKS


@pytest.mark.parametrize("code", [pytest.param(code, marks=marks_for(code), id=f"{i}-{heading}")
                                  for i, (heading, code) in enumerate(BLOCKS)])
def test_readme_python_block_runs_as_written(code, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=1200)
    assert result.returncode == 0, f"README block failed:\n{code}\n--- stderr ---\n{result.stderr[-3000:]}"
