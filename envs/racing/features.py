"""Where each field lies in the flat ``features`` observation, for selecting parts of it."""
from __future__ import annotations

import numpy as np

from trackfield import _engine


def feature_layout() -> dict:
    """name -> (slice into the flat ``features`` vector, the field's shape), in order.

    >>> layout = feature_layout()
    >>> layout["velocity"]
    (slice(0, 3, None), (3,))
    >>> sum(s.stop - s.start for s, _ in layout.values())
    655
    """
    out, offset = {}, 0
    for name, shape, *_ in _engine.racing.feature_fields():
        size = int(np.prod(shape))
        out[name] = (slice(offset, offset + size), tuple(shape))
        offset += size
    return out


def feature_index(fields: dict) -> np.ndarray:
    """Indices into ``features`` of a selection: ``{name: None}`` keeps a whole field,
    ``{name: (rows, columns)}`` keeps those rows and columns of a 2-D field (each an
    index, slice or sequence). Raises ValueError for an unknown field.

    >>> feature_index({"heading_error": None, "left_edge": (slice(0, 2), [0, 1])}).tolist()
    [25, 35, 36, 38, 39]
    """
    layout = feature_layout()
    parts = []
    for name, select in fields.items():
        if name not in layout:
            raise ValueError(f"fields: unknown feature {name!r}; features are {', '.join(layout)}")
        where, shape = layout[name]
        index = np.arange(where.start, where.stop).reshape(shape)
        if select is not None:
            if len(shape) != 2:
                raise ValueError(f"fields: {name!r} has shape {shape}; (rows, columns) selects only in 2-D fields")
            rows, columns = select
            index = index[rows][:, columns]
        parts.append(index.reshape(-1))
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)
