"""The documentation a user reads matches the engine: doctests run, and the env
docstring's observation tables name every field the engine writes."""
import doctest
import re

import trackfield
import trackfield.football.env as football_env
import trackfield.racing.features as racing_features
from trackfield import _engine


def test_doctests_pass():
    for module in (trackfield, football_env, racing_features):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, f"{module.__name__}: {result.failed} doctest(s) failed"
        assert result.attempted > 0


def test_docstring_lists_every_raw_field():
    doc = football_env.FootballEnv.__doc__
    raw_section = doc[doc.index("raw (a dict"):doc.index("## Action Space")]
    listed = set(re.findall(r"`([a-z_]+)`", raw_section))
    engine = {name for name, *_ in _engine.football.raw_fields(11, 11)}
    # "the same six for right_team": right-team keys mirror the left-team ones.
    expanded = listed | {k.replace("left_team", "right_team") for k in listed if k.startswith("left_team")}
    assert engine <= expanded, f"missing from the docstring: {sorted(engine - expanded)}"


def test_docstring_simple115_table_covers_all_115_indices():
    doc = football_env.FootballEnv.__doc__
    ranges = re.findall(r"^\s*\| (\d+)-(\d+) \|", doc, flags=re.M)
    covered = sorted(i for a, b in ranges for i in range(int(a), int(b) + 1))
    assert covered == list(range(_engine.football.SIMPLE115_SIZE))


def test_docstring_action_list_matches_action_names():
    doc = football_env.FootballEnv.__doc__
    section = doc[doc.index("## Action Space"):doc.index("## Rewards")]
    from trackfield.football.engine import ACTION_SET_NAMES

    names = ACTION_SET_NAMES["full"]  # the other sets are its prefixes
    assert all(names[:len(prefix)] == prefix for prefix in ACTION_SET_NAMES.values())
    for index, name in enumerate(names):
        assert f"{index} {name}" in section
