"""The C++ tests (cpp_engine/tests) built with -fsanitize=address,undefined and run:
the quick part of `make asan` (the full target also runs the Python fuzz, determinism
and snapshot tests against a sanitized extension)."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sanitizer_build_dir() -> str:
    """build/sanitizers-<hash of cpp_engine's sources and the Makefile>: a build kept between
    runs and reused while none of the sources it was built from has changed."""
    digest = hashlib.sha256()
    paths = [os.path.join(ROOT, "Makefile")]
    for folder, _, names in os.walk(os.path.join(ROOT, "cpp_engine")):
        paths += [os.path.join(folder, name) for name in names if name.endswith((".cpp", ".h"))]
    for path in sorted(paths):
        digest.update(os.path.relpath(path, ROOT).encode() + b"\0")
        with open(path, "rb") as f:
            digest.update(f.read() + b"\0")
    return os.path.join(ROOT, "build", f"sanitizers-{digest.hexdigest()[:16]}")


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("make") and shutil.which("g++")), reason="needs make and g++")
@pytest.mark.skipif(not os.path.isdir(os.path.join(ROOT, "cpp_engine", "tests")), reason="needs the source tree")
def test_cpp_tests_pass_under_address_and_undefined_behaviour_sanitizers():
    build = sanitizer_build_dir()
    binary = os.path.join(build, "cpp_tests_asan")
    # the same sources built it: make is told to keep it whatever the files' times say
    keep = ["-o", binary] if os.path.isfile(binary) else []
    result = subprocess.run(["make", "-s", "asan-quick", f"BUILD={build}", *keep], cwd=ROOT, capture_output=True,
                            text=True, timeout=900)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert " 0 failed" in output and "runtime error" not in output and "AddressSanitizer" not in output, output[-4000:]
