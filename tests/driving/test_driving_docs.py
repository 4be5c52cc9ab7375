"""The driving package's docstring examples run as written."""
import doctest

import trackfield.driving


def test_driving_doctests_pass():
    result = doctest.testmod(trackfield.driving, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
