"""The C++ tests (cpp_engine/tests) built with -fsanitize=address,undefined and run:
the quick part of `make asan` (the full target also runs the Python fuzz, determinism
and snapshot tests against a sanitized extension)."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("make") and shutil.which("g++")), reason="needs make and g++")
@pytest.mark.skipif(not os.path.isdir(os.path.join(ROOT, "cpp_engine", "tests")), reason="needs the source tree")
def test_cpp_tests_pass_under_address_and_undefined_behaviour_sanitizers(tmp_path):
    result = subprocess.run(["make", "-s", "asan-quick", f"BUILD={tmp_path}"], cwd=ROOT, capture_output=True,
                            text=True, timeout=900)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert " 0 failed" in output and "runtime error" not in output and "AddressSanitizer" not in output, output[-4000:]
