"""Reward files: a ``.py`` file of component functions and their ``weights``.

A reward file defines, for each component ``name``, a function
``name(current: CarState, previous: CarState, course: Course) -> np.ndarray`` giving
one float per car (shape (N,) or (N, 1)), and ``weights = {"name": w}``. The reward of
a car is ``sum_k w_k * name_k(current, previous, course)[car]``. Components depend
only on their arguments, so stored trajectories can be re-scored.
"""
from __future__ import annotations

import math
import os
import types

import numpy as np


class RewardFileError(ValueError):
    """A reward file that cannot be used; the message names the file (and line)."""


class RewardProgram:
    """The components and weights of a reward file, called on all cars at once:
    ``program(current, previous, course)`` -> (totals (N,), weighted parts (N, K)),
    both float64; ``names`` orders the K parts."""

    def __init__(self, names, functions, weights, path="<reward>", source=""):
        self.names = tuple(names)
        self.functions = tuple(functions)
        self.weights = np.asarray([weights[n] for n in self.names], dtype=np.float64)
        self.path = path
        self.source = source

    @property
    def weight_dict(self) -> dict:
        return dict(zip(self.names, self.weights.tolist()))

    def with_weights(self, weights: dict) -> "RewardProgram":
        """The same components with other weights ({name: w}, every component)."""
        unknown = set(weights) - set(self.names)
        if unknown:
            raise ValueError(f"weights: unknown components {sorted(unknown)} for {self.path}; components: {list(self.names)}")
        merged = {**self.weight_dict, **{k: float(v) for k, v in weights.items()}}
        return RewardProgram(self.names, self.functions, merged, self.path, self.source)

    def components(self, current, previous, course) -> np.ndarray:
        """Unweighted components, (N, K) float64 (a column-major view)."""
        return self._rows(current, previous, course).T

    def _rows(self, current, previous, course) -> np.ndarray:
        n = len(current)
        rows = np.empty((len(self.names), n), dtype=np.float64)  # one contiguous row per component
        for k, (name, fn) in enumerate(zip(self.names, self.functions)):
            value = np.asarray(fn(current, previous, course))
            if value.shape not in ((n,), (n, 1)):
                raise RewardFileError(f"{self.path}: component {name!r} returned shape {value.shape}; "
                                      f"it must return one float per car, shape ({n},) or ({n}, 1)")
            rows[k] = value.reshape(n)
        return rows

    def __call__(self, current, previous, course):
        rows = self._rows(current, previous, course)
        totals = self.weights @ rows
        rows *= self.weights[:, None]
        return totals, rows.T

    def __repr__(self):
        return f"RewardProgram({self.path!r}, {self.weight_dict})"


def exec_reward_source(source: str, path: str = "<reward>") -> dict:
    """Runs a reward file's source in a fresh module namespace and returns it."""
    module = types.ModuleType(os.path.splitext(os.path.basename(path))[0] or "reward")
    module.__file__ = path
    code = compile(source, path, "exec")
    exec(code, module.__dict__)  # noqa: S102 - running the user's reward file is the point
    return module.__dict__


def program_from_namespace(namespace: dict, path: str = "<reward>", source: str = "") -> RewardProgram:
    """The RewardProgram of an executed reward file; RewardFileError names what is wrong."""
    weights = namespace.get("weights")
    if not isinstance(weights, dict) or not weights:
        raise RewardFileError(f"{path}: needs a non-empty dict `weights = {{\"component\": weight}}`")
    names, functions = [], []
    for name, w in weights.items():
        if not isinstance(name, str):
            raise RewardFileError(f"{path}: weights keys must be component names (str), got {name!r}")
        if isinstance(w, bool) or not isinstance(w, (int, float, np.integer, np.floating)) or not math.isfinite(float(w)):
            raise RewardFileError(f"{path}: weights[{name!r}] must be a finite number, got {w!r}")
        fn = namespace.get(name)
        if not callable(fn):
            raise RewardFileError(f"{path}: weights names component {name!r} but the file defines no function {name}"
                                  f"(current, previous, course)")
        names.append(name)
        functions.append(fn)
    return RewardProgram(names, functions, {k: float(v) for k, v in weights.items()}, path, source)


def load_reward(path) -> RewardProgram:
    """The RewardProgram of reward file ``path`` (FileNotFoundError, SyntaxError or
    RewardFileError naming the file and line when it cannot be used)."""
    if isinstance(path, RewardProgram):
        return path
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"reward file {path!r} does not exist")
    with open(path, encoding="utf-8") as f:
        source = f.read()
    return program_from_namespace(exec_reward_source(source, path), path, source)
