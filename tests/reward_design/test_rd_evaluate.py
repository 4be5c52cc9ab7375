"""racing's evaluation protocol with per-component totals, on short races (the real
defaults, 4 laps against 19 AI, take minutes)."""
import inspect

import numpy as np
import pytest

from trackfield.reward_design import correlation_runs, evaluate, load_reward, preset, rescore
from trackfield.racing.evaluation import summarize


def weaving(obs):
    """Full-ish throttle, each world a different fixed steer: the cars leave the course,
    touch walls and other cars at different times, so the races differ."""
    n = len(obs)
    actions = np.zeros((n, 2), np.float32)
    actions[:, 0] = 0.8
    actions[:, 1] = 0.12 * np.sin(1.7 * np.arange(n))
    return actions


@pytest.fixture(scope="module")
def short_races():
    return evaluate(weaving, preset("gt7_baseline"), races=8, laps=1, max_time_s=15, keep_trajectories=True)


def test_evaluate_keeps_the_protocol_defaults():
    defaults = {k: p.default for k, p in inspect.signature(evaluate).parameters.items()}
    assert (defaults["races"], defaults["laps"], defaults["start_slot"]) == (20, 4, 19)
    corr = inspect.signature(correlation_runs).parameters
    assert corr["races"].default == 20


def test_each_race_reports_its_own_counters_and_a_place_among_20(short_races):
    assert len(short_races["results"]) == len(short_races["trajectories"]) == 8
    for result, traj in zip(short_races["results"], short_races["trajectories"]):
        first, last = traj.state(0), traj.state(traj.steps)
        me = int(np.flatnonzero(last.controlled)[0])
        assert first.rank[me] == 19  # the start_slot default: last on the grid
        # The places of the race's 20 cars are a permutation of 0..19, the learner's among them.
        assert sorted(last.rank.tolist()) == list(range(20))
        assert result.raw_place == result.place == last.rank[me]
        assert result.collision_s == pytest.approx(float(last.contact_s[me]), abs=1e-4)
        assert result.course_out_s == pytest.approx(float(last.off_course_s[me]), abs=1e-4)
        assert result.distance_to_first_m == pytest.approx(float(last.gap_leader[me]), abs=1e-2)
        assert traj.steps == 150  # max_time_s=15 at 10 Hz: every race truncated, none finished the lap
    assert any(r.course_out_s > 0 for r in short_races["results"])
    assert any(r.collision_s > 0 for r in short_races["results"])


def test_component_totals_equal_rescoring_each_recorded_race(short_races):
    program = load_reward(preset("gt7_baseline"))
    totals = []
    for comps, traj in zip(short_races["race_components"], short_races["trajectories"]):
        me = int(np.flatnonzero(traj.state(0).controlled)[0])
        step_totals, parts = rescore(traj, program)
        assert set(comps) == set(program.names)
        for k, name in enumerate(program.names):
            assert comps[name] == pytest.approx(float(parts[:, me, k].sum()), rel=1e-4, abs=1e-3), name
        np.testing.assert_allclose(step_totals[:, me], traj.rewards[:, 0], rtol=1e-4, atol=1e-4)
        totals.append(comps)
    for name in program.names:
        assert short_races["components"][name] == pytest.approx(np.mean([c[name] for c in totals]))


def test_thresholds_send_a_race_over_them_to_last_place(short_races):
    results = short_races["results"]
    limit = float(np.median([r.course_out_s for r in results]))
    again = evaluate(weaving, races=8, laps=1, max_time_s=15, thresholds={"course_out_s": limit})["results"]
    assert [r.raw_place for r in again] == [r.raw_place for r in results]  # the same races (same seed)
    for r, before in zip(again, results):
        assert r.place == (19 if before.course_out_s > limit else before.raw_place)
    assert any(r.place == 19 and r.raw_place < 19 for r in again) or all(r.raw_place == 19 for r in results)


def test_interquartile_summary_drops_the_extreme_distances(short_races):
    results = short_races["results"]
    summary = short_races["summary"]
    dist = np.array([r.distance_to_first_m for r in results])
    lo, hi = np.percentile(dist, [25, 75])
    kept = [r for r, d in zip(results, dist) if lo <= d <= hi]
    assert summary == summarize(results)
    assert summary["races"] == len(kept) < len(results)
    assert summary["place"] == pytest.approx(np.mean([r.place for r in kept]))
    assert summary["collision_s"] == pytest.approx(np.mean([r.collision_s for r in kept]))
    assert dist.argmin() not in [i for i, d in enumerate(dist) if lo <= d <= hi] or dist.min() == lo


def test_correlation_runs_start_from_10th_for_one_lap():
    out = correlation_runs(weaving, races=2, num_envs=2, max_time_s=3, keep_trajectories=True)
    for traj in out["trajectories"]:
        me = int(np.flatnonzero(traj.state(0).controlled)[0])
        assert traj.state(0).rank[me] == 9
        assert traj.config["laps"] == 1 and traj.course.max_laps == 1
