"""Diagnostics per component for a prompt."""
import numpy as np

from trackfield.reward_design import DiagnosticsCallback, preset


def test_diagnostics_every_n_steps_with_weighted_component_totals():
    cb = DiagnosticsCallback(preset("gt7_baseline"), every=100, max_steps=30)
    policy = lambda obs: np.array([0.5, 0.0], np.float32)  # noqa: E731
    for step in (50, 100, 150, 230):
        cb(policy, step)
    assert [s for s, _ in cb.history] == [100, 230]
    result = cb.history[0][1]
    assert abs(sum(result["components"].values()) - result["return"]) < 1e-3
    assert result["components"]["progress"] > 0
    text = cb.to_text()
    assert text.splitlines()[0].startswith("step | return | any_contact") and "230 |" in text
