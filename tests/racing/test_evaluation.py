"""Race evaluation (the protocol of "Automated Reward Design for Gran Turismo")."""
from __future__ import annotations

import numpy as np
import pytest

from trackfield.racing.evaluation import RaceResult, evaluate_race, summarize, thresholds_from


def results(*rows):
    return [RaceResult(p, p, c, o, d) for p, c, o, d in rows]


def test_thresholds_are_the_maxima_of_reference_runs():
    ref = results((3, 1.0, 0.5, 10.0), (5, 2.5, 0.1, 30.0), (0, 0.0, 3.0, 0.0))
    assert thresholds_from(ref) == {"collision_s": 2.5, "course_out_s": 3.0}
    with pytest.raises(ValueError):
        thresholds_from([])


def test_summary_keeps_the_interquartile_races_by_distance_to_first():
    rows = results(*[(i, 0.0, 0.0, float(d)) for i, d in enumerate([0, 10, 20, 30, 40, 50, 60, 70, 80])])
    s = summarize(rows)
    # Percentiles 25 and 75 of 0..80 step 10 are 20 and 60: races at 20..60 m are kept.
    assert s["races"] == 5
    assert s["distance_to_first_m"] == pytest.approx(40.0)
    assert s["place"] == pytest.approx(4.0)


def test_evaluate_race_runs_the_field_and_applies_thresholds():
    def full_throttle(obs):
        return np.tile(np.array([1.0, 0.0], np.float32), (len(obs), 1))

    out = evaluate_race(full_throttle, races=2, laps=1, max_time_s=8.0, num_envs=2)
    assert len(out) == 2
    for r in out:
        assert 0 <= r.raw_place <= 19 and r.distance_to_first_m >= 0.0
    strict = evaluate_race(full_throttle, races=2, laps=1, max_time_s=8.0, num_envs=2,
                           thresholds={"collision_s": -1.0})
    assert all(r.place == 19 for r in strict)  # every time exceeds a negative threshold
    with pytest.raises(ValueError, match="unknown keys"):
        evaluate_race(full_throttle, races=1, thresholds={"speed": 1})


def test_evaluate_race_with_the_ai_as_learner_reports_the_field_apart():
    out = evaluate_race("ai", races=2, laps=1, max_time_s=20.0, num_envs=2, off_course_rule="three_tyres")
    assert len(out) == 2
    for r in out:
        assert r.field_contacts >= 0 and r.field_off_course >= 0
        assert r.course_out_s == 0.0  # the full-skill AI keeps the learner's car on the course
    with pytest.raises(ValueError, match="policy"):
        evaluate_race("random", races=1)
