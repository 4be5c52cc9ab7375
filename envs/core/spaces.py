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
        return {item[0]: self.field(rows, item, leading) for item in self.items}

    @staticmethod
    def field(rows: np.ndarray, item, leading=()):
        """One of ``items`` cut from ``rows`` as its public dtype (a copy)."""
        _, begin, end, shape, dt = item
        if dt is np.int32 and not shape:  # an integer scalar: matches its Discrete space
            value = rows[..., begin].astype(np.int64)
            return value.reshape(leading) if leading else np.int64(value)
        return rows[..., begin:end].reshape(tuple(leading) + shape).astype(dt)


_LARGE_BOX = 1 << 20  # elements beyond which a uniform Box is built from views


def batch_of(space, n: int):
    """Gymnasium's ``batch_space(space, n)``, except that a large Box with one low and one
    high value is built in constant time: Gymnasium's constructor checks every bound (11 s
    and 470 MB of bounds for 64 driving worlds of 150 pixel observations). Its bounds are
    then read-only broadcast views, equal to what Gymnasium would hold."""
    from gymnasium.vector.utils import batch_space

    if not isinstance(space, spaces.Box) or space.low.size * n < _LARGE_BOX:
        return batch_space(space, n)
    low, high = space.low.reshape(-1), space.high.reshape(-1)
    if not ((low == low[0]).all() and (high == high[0]).all()):
        return batch_space(space, n)
    shape = (n,) + space.shape
    box = spaces.Box(low[0], high[0], (1,), space.dtype)
    box._shape = shape
    box.low, box.high = np.broadcast_to(box.low[:1].reshape(()), shape), np.broadcast_to(box.high[:1].reshape(()), shape)
    box.bounded_below = np.broadcast_to(box.bounded_below[:1].reshape(()), shape)
    box.bounded_above = np.broadcast_to(box.bounded_above[:1].reshape(()), shape)
    return box
