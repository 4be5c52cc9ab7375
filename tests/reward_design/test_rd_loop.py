"""The reward-design loop end to end with TEST DOUBLES (not models), sockets blocked."""

import pytest
from rd_fixtures import no_sockets  # noqa: F401 - the fixture
from conftest import load_example

from trackfield.reward_design import preset
from trackfield.reward_design.testing import ScriptedGenerator, ScriptedJudge

BROKEN = "import numpy as np\n\ndef progress(current, previous, course)\n    return current.progress\n"


@pytest.fixture(autouse=True)
def _offline(no_sockets):
    pass


def _run(tmp_path, name):
    loop = load_example("reward_design_loop")
    canned = [BROKEN, open(preset("gt7_baseline")).read(), open(preset("gt_sophy")).read(),
              open(preset("gt7_baseline")).read().replace('"progress": 0.1', '"progress": 0.3')]
    generator, judge, asked = ScriptedGenerator(canned), ScriptedJudge(), []
    prefs = loop.ai_preferences(steps=80, pairs=30, window=20)
    history = loop.run_loop(generator, judge, lambda prompt: asked.append(prompt) or "brake earlier",
                            tmp_path / name, prefs=prefs, m=3, n=3, k=2, race_steps=40, clip_s=3.0,
                            clip_size=(160, 90), log=lambda *a: None)
    return history, generator, judge, asked


def test_loop_end_to_end_with_test_doubles(tmp_path):
    history, generator, judge, asked = _run(tmp_path, "a")
    assert len(history) == 2 and len(asked) == 2
    # The first canned file is broken: its regeneration prompt carries the syntax error.
    assert "SyntaxError" in generator.prompts[1] and "line 3" in generator.prompts[1]
    assert "brake earlier" in generator.prompts[-1]  # feedback reaches the improvement prompt
    assert judge.calls == 2 * 3  # all pairs of 3 agents, twice
    again, _, _, _ = _run(tmp_path, "b")
    assert [h["best"].replace("/b/", "/a/") for h in again] == [h["best"] for h in history]
    assert [h["tac"] for h in again] == [h["tac"] for h in history]
