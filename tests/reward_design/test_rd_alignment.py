"""TAC on real AI rollouts, and Bradley-Terry ranking."""
import itertools

import numpy as np
import pytest
from rd_fixtures import PROGRESS_FILE, ai_race

from trackfield.reward_design import (PreferenceSet, RewardProgram, Window, all_pairs, bradley_terry, load_reward,
                                      tac, tac_accuracy, top_n, tune_weights)
from trackfield.reward_design.alignment import _sigma, window_returns


def _program(source, tmp_path, name):
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    return load_reward(str(path))


@pytest.fixture(scope="module")
def prefs():
    """40 pairs of 3 s windows of different AI cars (skills 0.85-1), labelled by who advanced more."""
    traj = ai_race(seed=0, steps=150)
    rng = np.random.default_rng(0)
    pairs = []
    for _ in range(40):
        a, b = rng.choice(traj.cars, 2, replace=False)
        sa, sb = rng.integers(0, traj.steps - 30, 2)
        wa, wb = Window("race", int(a), int(sa), 30), Window("race", int(b), int(sb), 30)
        pa = traj.state(sa + 30).progress[a] - traj.state(sa).progress[a]
        pb = traj.state(sb + 30).progress[b] - traj.state(sb).progress[b]
        pairs.append((wa, wb, 0 if pa > pb else 1))
    return PreferenceSet({"race": traj}, pairs)


def test_progress_gets_one_negation_minus_one_constant_zero(prefs, tmp_path):
    progress = _program(PROGRESS_FILE, tmp_path, "p")
    assert tac(progress, prefs) == 1.0
    assert tac(progress.with_weights({"progress": -1.0}), prefs) == -1.0
    const = _program(PROGRESS_FILE.replace("current.progress - previous.progress", "0.0 * current.progress + 1.0"),
                     tmp_path, "c")
    assert tac(const, prefs) == 0.0
    assert tac(const, prefs, ties="drop") == 0.0


def test_three_of_four_agree_gives_half():
    g = np.array([[2.0, 1.0], [1.0, 2.0], [3.0, 0.0], [0.0, 5.0]])
    labels = np.array([0, 1, 0, 0])  # the last disagrees
    assert _sigma(g, labels, "half") == 0.5


def test_sigma_equals_brute_force_kendall_tau_a():
    rng = np.random.default_rng(1)
    for _ in range(20):
        n = 12
        reward, truth = rng.integers(0, 5, n).astype(float), rng.permutation(n).astype(float)
        pairs = list(itertools.combinations(range(n), 2))
        g = np.array([[reward[i], reward[j]] for i, j in pairs])
        labels = np.array([0 if truth[i] > truth[j] else 1 for i, j in pairs])
        concordant = sum(np.sign(reward[i] - reward[j]) * np.sign(truth[i] - truth[j]) for i, j in pairs)
        assert _sigma(g, labels, "half") == pytest.approx(concordant / len(pairs))


def test_top_n_and_accuracy(prefs, tmp_path):
    progress = _program(PROGRESS_FILE, tmp_path, "p")
    programs = [progress.with_weights({"progress": w}) for w in (-1.0, 1.0)]
    best, scores = top_n(programs, prefs, 1)
    assert best[0] is programs[1] and scores.tolist() == [-1.0, 1.0]
    assert tac_accuracy(programs, prefs.subset(range(10)), prefs) == 1.0


def test_bad_preferences_named(prefs):
    traj = prefs.trajectories["race"]
    with pytest.raises(ValueError, match="missing"):
        PreferenceSet({"race": traj}, [(Window("missing", 0, 0, 5), Window("race", 1, 0, 5), 0)])
    with pytest.raises(ValueError, match="car 9"):
        PreferenceSet({"race": traj}, [(Window("race", 9, 0, 5), Window("race", 1, 0, 5), 0)])
    with pytest.raises(ValueError, match="L must be >= 1"):
        PreferenceSet({"race": traj}, [(Window("race", 0, 0, 0), Window("race", 1, 0, 5), 0)])
    with pytest.raises(ValueError, match="outside"):
        PreferenceSet({"race": traj}, [(Window("race", 0, 140, 50), Window("race", 1, 0, 5), 0)])
    with pytest.raises(ValueError, match="at least one"):
        PreferenceSet({"race": traj}, [])


def test_preference_json_roundtrip(prefs, tmp_path):
    traj = prefs.trajectories["race"]
    traj.save(tmp_path / "race.npz")
    import dataclasses

    saved = PreferenceSet({"race": dataclasses.replace(traj, path=str(tmp_path / "race.npz"))}, prefs.pairs)
    saved.save(tmp_path / "prefs.json")
    back = PreferenceSet.load(tmp_path / "prefs.json")
    assert back.pairs == prefs.pairs
    (tmp_path / "race.npz").unlink()
    with pytest.raises(FileNotFoundError, match="race.npz"):
        PreferenceSet.load(tmp_path / "prefs.json")


def test_bradley_terry_recovers_scores():
    rng = np.random.default_rng(0)
    true = rng.normal(0, 1.5, 8)
    outcomes = []
    for _ in range(2000):
        i, j = rng.choice(8, 2, replace=False)
        p = 1 / (1 + np.exp(true[j] - true[i]))
        outcomes.append((i, j) if rng.random() < p else (j, i))
    bt = bradley_terry(8, outcomes)
    ranks = lambda x: np.argsort(np.argsort(x))  # noqa: E731
    rho = np.corrcoef(ranks(bt.scores), ranks(true))[0, 1]
    assert rho > 0.95 and bt.best == int(np.argmax(true)) and abs(bt.scores.sum()) < 1e-9


def test_bradley_terry_perfect_order_finite_and_relabelling_permutes():
    outcomes = [(i, j) for i, j in all_pairs(5)]  # 0 beats everyone, ...
    bt = bradley_terry(5, outcomes)
    assert np.isfinite(bt.scores).all() and bt.best == 0 and (np.diff(bt.scores) < 0).all()
    perm = np.array([3, 0, 4, 1, 2])
    relabelled = bradley_terry(5, [(perm[i], perm[j]) for i, j in outcomes])
    np.testing.assert_allclose(relabelled.scores[perm], bt.scores, atol=1e-9)
    with pytest.raises(ValueError, match="ties"):
        bradley_terry(5, [(1, 1)])


def test_tune_weights_recovers_a_ratio(prefs, tmp_path):
    source = '''import numpy as np


def progress(current, previous, course):
    return current.progress - previous.progress


def offset(current, previous, course):
    return current.lateral_offset


weights = {"progress": 1.0, "offset": 1.0}
'''
    program = _program(source, tmp_path, "two")
    reference = program.with_weights({"progress": 3.0, "offset": 0.5})
    weights, before, after = tune_weights(program, reference, [prefs.trajectories["race"]], seed=0)
    assert after > 0.999 and after >= before
    assert weights["progress"] / weights["offset"] == pytest.approx(6.0, rel=0.02)
    assert weights["progress"] == pytest.approx(3.0, rel=0.02)  # the least-squares scale


def test_bradley_terry_ranks_four_ai_paces_from_scripted_judge_on_real_clips(tmp_path):
    """Four drivers (the built-in AI capped at four throttle levels) race the same start;
    ScriptedJudge (TEST DOUBLE: prefers the car that got further) judges all pairs of clips."""
    import trackfield
    from trackfield.reward_design import TrajectoryRecorder, export_clips
    from trackfield.reward_design.testing import ScriptedJudge

    trajs = []
    for cap in (0.25, 0.5, 0.75, 1.0):
        env = TrajectoryRecorder(trackfield.make("race_time_trial", race_state=True))
        env.reset(seed=5)
        for _ in range(40):
            action = np.asarray(env.unwrapped.ai_action(), np.float32).copy()
            action[0] = min(action[0], cap)
            env.step(action)
        trajs.append(env.trajectory())
    judge, outcomes = ScriptedJudge(), []
    for a, b in all_pairs(4):
        comparison = export_clips(trajs[a], trajs[b], tmp_path / f"{a}{b}", clip_s=3.0, size=(160, 90))
        outcomes.append((a, b) if judge(comparison) == "A" else (b, a))
    bt = bradley_terry(4, outcomes)
    assert bt.best == 3 and (np.diff(bt.scores) > 0).all()
