"""feature_layout / feature_index: where each field lies in the flat features vector."""
import numpy as np
import pytest

import trackfield
from trackfield.racing import feature_index, feature_layout


def test_layout_slices_the_flat_vector_into_the_dict_observation():
    flat = trackfield.make("race_1v3", observation="features")
    as_dict = trackfield.make("race_1v3", observation="track_points")
    obs, _ = flat.reset(seed=4)
    fields, _ = as_dict.reset(seed=4)
    layout = feature_layout()
    assert list(layout) == list(fields)
    for name, (where, shape) in layout.items():
        np.testing.assert_array_equal(obs[where].reshape(shape), fields[name], err_msg=name)


def test_index_selects_rows_and_columns():
    layout = feature_layout()
    index = feature_index({"signed_speed": None, "right_edge": (slice(None, None, 2), [0, 1])})
    start = layout["right_edge"][0].start
    expected = [layout["signed_speed"][0].start] + [start + 3 * r + c for r in range(0, 60, 2) for c in (0, 1)]
    assert index.tolist() == expected


def test_index_names_a_bad_field():
    with pytest.raises(ValueError, match="unknown feature 'speed'"):
        feature_index({"speed": None})
    with pytest.raises(ValueError, match="only in 2-D"):
        feature_index({"velocity": (0, 0)})
