"""batch_of: Gymnasium's batch_space, built in constant time for large uniform Boxes."""
import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from trackfield.core.spaces import batch_of


def test_large_uniform_box_equals_gymnasium_batch():
    single = spaces.Box(0, 255, (150, 64, 64, 6), np.uint8)
    fast, slow = batch_of(single, 3), batch_space(single, 3)
    assert fast == slow and slow == fast
    assert fast.shape == (3, 150, 64, 64, 6) and fast.dtype == np.uint8
    assert not fast.low.flags.writeable  # views of one value, not 11 M copies
    sample = np.full(fast.shape, 7, np.uint8)
    assert fast.contains(sample)
    assert not fast.contains(sample.astype(np.float32))


def test_small_or_uneven_boxes_take_gymnasium_path():
    small = spaces.Box(-1, 1, (2,), np.float32)
    assert batch_of(small, 4) == batch_space(small, 4)
    assert batch_of(small, 4).low.flags.writeable
    uneven = spaces.Box(np.zeros((1 << 20,), np.float32), np.arange(1 << 20, dtype=np.float32) + 1)
    assert batch_of(uneven, 2).low.flags.writeable
    assert batch_of(spaces.Discrete(3), 5) == batch_space(spaces.Discrete(3), 5)
