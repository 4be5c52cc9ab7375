"""TEST DOUBLES, not models: scripted stand-ins for a generator and a judge, so the
reward-design loop can be tested without any model or network."""
from __future__ import annotations

import json


class ScriptedGenerator:
    """TEST DOUBLE, not a model: returns canned reward files in order (cycling), each
    wrapped in a ```python block as a model would; records the prompts it got."""

    is_test_double = True

    def __init__(self, sources):
        self.sources = list(sources)
        if not self.sources:
            raise ValueError("ScriptedGenerator needs at least one canned source")
        self.prompts = []

    def __call__(self, prompt: str) -> str:
        source = self.sources[len(self.prompts) % len(self.sources)]
        self.prompts.append(prompt)
        return f"TEST DOUBLE reply.\n```python\n{source}\n```\n"


def last_progress(states_files) -> float:
    """The progress of the last state row of the last clip (JSON lines with `progress`)."""
    best = float("-inf")
    for path in states_files:
        with open(path, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
        if rows:
            best = rows[-1]["progress"]
    return best


class ScriptedJudge:
    """TEST DOUBLE, not a model: prefers the agent whose car got further (by default the
    last `progress` in its clips' state rows), or the higher ``score(comparison, side)``."""

    is_test_double = True

    def __init__(self, score=None):
        self.score = score or (lambda comparison, side: last_progress(getattr(comparison, f"states_{side}")))
        self.calls = 0

    def __call__(self, comparison) -> str:
        self.calls += 1
        return "A" if self.score(comparison, "a") >= self.score(comparison, "b") else "B"
