"""racing's evaluation protocol with per-component totals, on short races (the real
defaults, 4 laps against 19 AI, take minutes)."""
import inspect

import numpy as np
import pytest

from trackfield.reward_design import correlation_runs, evaluate, load_reward, preset, replay, rescore


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
    # 4 worlds for 8 races: each world races twice, so totals and recordings must restart per race.
    return evaluate(weaving, preset("gt7_baseline"), races=8, laps=1, max_time_s=15, num_envs=4,
                    keep_trajectories=True)


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


def test_thresholds_send_a_race_over_them_to_last_place():
    # From pole for 6 s: places 1-6 with varied contact, so a threshold has places to change.
    kw = dict(races=8, laps=1, start_slot=0, max_time_s=6)
    results = evaluate(weaving, **kw)["results"]
    limit = float(np.median([r.collision_s for r in results]))
    again = evaluate(weaving, thresholds={"collision_s": limit}, **kw)["results"]
    assert [(r.raw_place, r.collision_s) for r in again] == [(r.raw_place, r.collision_s) for r in results]
    for r, before in zip(again, results):
        assert r.place == (19 if before.collision_s > limit else before.raw_place)
    assert any(r.place == 19 and r.raw_place < 19 for r in again)


def test_interquartile_summary_drops_the_extreme_distances(short_races):
    results = short_races["results"]
    summary = short_races["summary"]
    dist = np.array([r.distance_to_first_m for r in results])
    lo, hi = np.percentile(dist, [25, 75])
    kept = [i for i, d in enumerate(dist) if lo <= d <= hi]
    assert dist.argmin() not in kept and dist.argmax() not in kept
    assert summary["races"] == len(kept) == 4
    for key, attr in (("place", "place"), ("collision_s", "collision_s"), ("course_out_s", "course_out_s"),
                      ("distance_to_first_m", "distance_to_first_m")):
        assert summary[key] == pytest.approx(np.mean([getattr(results[i], attr) for i in kept])), key


def test_correlation_runs_start_from_10th_for_one_lap():
    out = correlation_runs(weaving, races=3, num_envs=3, max_time_s=3, keep_trajectories=True)
    assert len(out["results"]) == 3
    for traj in out["trajectories"]:
        me = int(np.flatnonzero(traj.state(0).controlled)[0])
        assert traj.state(0).rank[me] == 9
        assert traj.config["laps"] == 1 and traj.course.max_laps == 1


def test_kept_races_replay_bitwise(short_races):
    # A world's first race and its second (recorded from the autoreset's state on).
    for traj in (short_races["trajectories"][0], short_races["trajectories"][-1]):
        env, _ = replay(traj)  # raises at the first state that differs from the recording
        env.close()
