"""Builds the C++ engine as the extension module ``trackfield._engine``.

Every ``.cpp`` under ``cpp_engine/`` (except standalone tools and C++ tests) is compiled
into one pybind11 extension. ``TRACKFIELD_NATIVE=1`` adds ``-march=native``.
"""
import glob
import os
import sys

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))


def engine_sources():
    sources = sorted(glob.glob(os.path.join("cpp_engine", "**", "*.cpp"), recursive=True))
    skip = (os.path.join("cpp_engine", "tools"), os.path.join("cpp_engine", "tests"))
    return [s for s in sources if not s.startswith(skip)]


# Compile the engine's files in parallel (TRACKFIELD_BUILD_JOBS overrides the CPU count).
ParallelCompile("TRACKFIELD_BUILD_JOBS").install()

compile_args = ["-O3", "-Wall", "-Wextra", "-fvisibility=hidden"]
if os.environ.get("TRACKFIELD_NATIVE") == "1":
    compile_args.append("-march=native")
if os.environ.get("TRACKFIELD_WERROR") == "1":
    compile_args.append("-Werror")
link_args = ["-pthread"] if sys.platform.startswith("linux") else []
if os.environ.get("TRACKFIELD_SANITIZE") == "1":  # `make asan`: address and undefined-behaviour sanitizers
    sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer", "-g"]
    compile_args = [a for a in compile_args if a != "-O3"] + ["-O1"] + sanitize
    link_args += sanitize

ext = Pybind11Extension(
    "trackfield._engine",
    engine_sources(),
    include_dirs=[os.path.join(HERE, "cpp_engine")],
    cxx_std=17,
    extra_compile_args=compile_args + ["-pthread"],
    extra_link_args=link_args,
)

setup(
    packages=[
        "trackfield",
        "trackfield.core",
        "trackfield.football",
        "trackfield.racing",
        "trackfield.driving",
        "trackfield.reward_design",
        "trackfield.scenarios",
        "trackfield.scenarios.football",
        "trackfield.scenarios.racing",
        "trackfield.scenarios.driving",
    ],
    package_dir={"trackfield": "envs", "trackfield.scenarios": "scenarios"},
    ext_modules=[ext],
    cmdclass={"build_ext": build_ext},
    zip_safe=False,
)
