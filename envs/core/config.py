"""Config validation shared by every domain.

Each domain declares a frozen dataclass; ``config_from_kwargs`` builds it from the
keyword arguments a user passed to ``trackfield.make`` and rejects unknown keys with
the list of valid ones.
"""
from __future__ import annotations

import dataclasses
import math


def config_from_kwargs(cls, kwargs: dict, where: str):
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(kwargs) - set(names))
    if unknown:
        raise TypeError(f"{where}: unknown config key(s) {unknown}; valid keys: {sorted(names)}")
    return cls(**kwargs)


def check_choice(name: str, value, choices):
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")


def check_int(name: str, value, low: int, high: int | None = None):
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            import numpy as np

            if isinstance(value, np.integer):
                value = int(value)
            else:
                raise TypeError
        except TypeError:
            raise TypeError(f"{name} must be an int, got {value!r}") from None
    if value < low or (high is not None and value > high):
        bound = f"[{low}, {high}]" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be {bound}, got {value}")
    return value


def check_float(name: str, value, low: float, high: float):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value}")
    return float(value)


def check_bool(name: str, value):
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return value
