"""check_runnable: every failure it must name, and the presets passing."""
import numpy as np
import pytest
from rd_fixtures import agent_race

from trackfield.reward_design import check_runnable, preset, sample_state_pairs

GOOD = '''import numpy as np


def progress(current, previous, course):
    return current.progress - previous.progress


weights = {"progress": 1.0}
'''


def _check(body, **kw):
    result = check_runnable(body, **kw)
    assert isinstance(result.ok, bool) and isinstance(result.message, str)
    return result


def test_good_file_and_presets_pass():
    assert _check(GOOD).ok
    for name in ("gt7_baseline", "gt_sophy"):
        result = _check(preset(name))
        assert result.ok, result.message


def test_presets_pass_on_states_from_a_real_rollout():
    traj = agent_race(seed=0, steps=80, scenario="race_1v3")
    pairs = [(traj.state(t), traj.state(t + 1)) for t in range(0, traj.steps, 10)]
    for name in ("gt7_baseline", "gt_sophy"):
        result = check_runnable(preset(name), pairs=pairs, course=traj.course)
        assert result.ok, result.message


def test_syntax_error_names_line_7():
    source = '"""A reward."""\n# progress only\n' + GOOD.replace("    return current.progress - previous.progress",
                                                               "    return current.progress -")
    assert source.splitlines()[6].strip() == "return current.progress -"
    result = _check(source)
    assert not result.ok and "line 7" in result.message and "SyntaxError" in result.message


def test_wrong_shape():
    result = _check(GOOD.replace("return current.progress - previous.progress", "return np.zeros(3)"))
    assert not result.ok and "shape (3,)" in result.message


def test_nan():
    result = _check(GOOD.replace("return current.progress - previous.progress",
                                 "return np.where(current.progress > -1e9, np.nan, 0.0)"))
    assert not result.ok and "non-finite" in result.message


def test_missing_weight_and_weight_without_function():
    result = _check(GOOD.replace('weights = {"progress": 1.0}', 'weights = {"progress": 1.0, "speed": 2.0}'))
    assert not result.ok and "'speed'" in result.message
    result = _check(GOOD + "\n\ndef speed(current, previous, course):\n    return current.speed_kmh\n")
    assert not result.ok and "'speed' has no weight" in result.message


def test_extra_helper_refused_unless_allowed():
    source = GOOD + "\n\ndef helper(x):\n    return x\n"
    result = _check(source)
    assert not result.ok and "helper" in result.message and "line 11" in result.message
    assert _check(source, allow_helpers=True).ok


def test_state_kept_between_calls():
    source = GOOD.replace("def progress(current, previous, course):\n",
                          "CALLS = [0]\n\n\ndef progress(current, previous, course):\n    CALLS[0] += 1\n")
    source = source.replace("return current.progress - previous.progress",
                            "return current.progress - previous.progress + CALLS[0]")
    result = _check(source)
    assert not result.ok and "keeps state between calls" in result.message


def test_in_place_change_refused():
    source = GOOD.replace("return current.progress - previous.progress",
                          "current.progress[:] = 0\n    return current.progress")
    result = _check(source)
    assert not result.ok and "in place" in result.message


def test_time_limit():
    source = GOOD.replace("return current.progress - previous.progress",
                          "import time\n    time.sleep(0.5)\n    return current.progress")
    result = _check(source, time_limit_s=0.05)
    assert not result.ok and "limit" in result.message


def test_runtime_error_traceback_has_the_file_line(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text(GOOD.replace("return current.progress - previous.progress", "return current.no_such_field"))
    result = _check(str(path))
    assert not result.ok and f'File "{path}", line 5' in result.message and "no_such_field" in result.message


def test_bad_input_never_raises(tmp_path):
    assert not _check(str(tmp_path / "missing.py")).ok
    assert not _check(12).ok
    assert not _check("raise SystemExit(3)\n").ok
    assert not _check("weights = {'a': float('nan')}\ndef a(c, p, k):\n    return c.progress\n").ok


def test_sample_state_pairs_deterministic_and_edge_cases():
    a, b = sample_state_pairs(None, 8, 10, seed=5), sample_state_pairs(None, 8, 10, seed=5)
    c = sample_state_pairs(None, 8, 10, seed=6)
    assert all(np.array_equal(x[1].progress, y[1].progress) for x, y in zip(a, b))
    assert not np.array_equal(a[-1][1].progress, c[-1][1].progress)
    sizes = [len(cur) for _, cur in a]
    assert 1 in sizes and 20 in sizes
    assert (a[2][1].speed_kmh == 0).all() and (a[3][1].speed_kmh <= 0).all()
    assert a[4][1].tyre_off.mean() > 0.5 and a[5][1].car_contact.any()
    for prev, cur in a:
        assert (cur.tyre_off_s >= prev.tyre_off_s).all() and (cur.tyre_off_s - prev.tyre_off_s <= 0.1 + 1e-6).all()
