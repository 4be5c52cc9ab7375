"""Gymnasium spaces from the engine's field declarations (name, shape, dtype, bounds)."""
from __future__ import annotations

import numpy as np
from gymnasium import spaces

_DTYPES = {"float32": np.float32, "int32": np.int32, "uint8": np.uint8, "bool": np.bool_}


def field_space(shape, dtype: str, low: float, high: float, leading=()):
    """Box for arrays; Discrete (MultiDiscrete with a leading agent axis) for integer scalars."""
    dt = _DTYPES[dtype]
    full = tuple(leading) + tuple(shape)
    if dt is np.int32 and len(shape) == 0:
        n = int(high) - int(low) + 1
        if not leading:
            return spaces.Discrete(n, start=int(low))
        return spaces.MultiDiscrete(np.full(leading, n), start=np.full(leading, int(low)))
    if dt is np.float32:
        low = -np.inf if low <= -1e6 else low
        high = np.inf if high >= 1e6 else high
    return spaces.Box(low=low, high=high, shape=full, dtype=dt)


def dict_space(fields, leading=()):
    """A Dict space from (name, shape, dtype, low, high, description) tuples."""
    return spaces.Dict({name: field_space(shape, dtype, low, high, leading)
                        for name, shape, dtype, low, high, _ in fields})


class FieldSlicer:
    """Splits rows of a float32 buffer laid out as `fields` into a dict of typed arrays."""

    def __init__(self, fields):
        self.items = []
        offset = 0
        for name, shape, dtype, *_ in fields:
            size = int(np.prod(shape)) if len(shape) else 1
            self.items.append((name, offset, offset + size, tuple(shape), _DTYPES[dtype]))
            offset += size
        self.size = offset

    def split(self, rows: np.ndarray, leading=()):
        out = {}
        for name, begin, end, shape, dt in self.items:
            if dt is np.int32 and not shape:  # an integer scalar: matches its Discrete space
                value = rows[..., begin].astype(np.int64)
                out[name] = value.reshape(leading) if leading else np.int64(value)
            else:
                out[name] = rows[..., begin:end].reshape(tuple(leading) + shape).astype(dt)
        return out
