"""Preferences over sub-trajectories, the trajectory alignment coefficient (TAC) of a
reward with them, and Bradley-Terry ranking of pairwise verdicts.

A preference (tau_i, tau_j, p) compares two windows (trajectory, car, start, length L)
with p = 0 when tau_i is preferred and 1 when tau_j is. A reward R orders them by
G(tau, R) = (1/L) sum_{t=1..L} R(s_t, a_t), the car's mean step reward over steps
start+1 .. start+L (step t's reward scores the transition t-1 -> t). TAC
sigma(R, D) = (2P - |D|) / |D|, P the agreements: Kendall's tau-a over the labelled pairs.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

import numpy as np

from trackfield.reward_design.program import load_reward
from trackfield.reward_design.trajectory import Trajectory, load_trajectory, rescore


@dataclass(frozen=True)
class Window:
    trajectory: str   # key of the trajectory in the set (its file path, or a name)
    car: int          # car slot in the trajectory's world
    start: int        # step before the window's first reward (0 = after reset)
    length: int       # L >= 1 steps


class PreferenceSet:
    """Labelled pairs of windows over stored trajectories; JSON on disk with the
    trajectories referred to by path (relative paths are relative to the JSON file)."""

    def __init__(self, trajectories: dict, pairs):
        self.trajectories = dict(trajectories)  # key -> Trajectory
        self.pairs = []
        for k, (a, b, p) in enumerate(pairs):
            a, b = (w if isinstance(w, Window) else Window(*w) for w in (a, b))
            if p not in (0, 1) or isinstance(p, bool):
                raise ValueError(f"preference {k}: p must be 0 (first preferred) or 1 (second), got {p!r}")
            for w in (a, b):
                self._check_window(k, w)
            self.pairs.append((a, b, int(p)))
        if not self.pairs:
            raise ValueError("a preference set needs at least one pair")

    def _check_window(self, k, w):
        if w.trajectory not in self.trajectories:
            raise ValueError(f"preference {k}: trajectory {w.trajectory!r} is not in the set "
                             f"(known: {sorted(self.trajectories)[:5]})")
        traj = self.trajectories[w.trajectory]
        if not 0 <= w.car < traj.cars:
            raise ValueError(f"preference {k}: car {w.car} not in trajectory {w.trajectory!r} ({traj.cars} cars)")
        if w.length < 1:
            raise ValueError(f"preference {k}: window length L must be >= 1, got {w.length}")
        if w.start < 0 or w.start + w.length > traj.steps:
            raise ValueError(f"preference {k}: steps {w.start}..{w.start + w.length} outside trajectory "
                             f"{w.trajectory!r} (0..{traj.steps})")

    def __len__(self):
        return len(self.pairs)

    def subset(self, indices) -> "PreferenceSet":
        return PreferenceSet(self.trajectories, [self.pairs[i] for i in indices])

    def labels(self) -> np.ndarray:
        return np.array([p for _, _, p in self.pairs], np.int8)

    def save(self, path) -> str:
        path = os.fspath(path)
        base = os.path.dirname(os.path.abspath(path))
        files = {}
        for key, traj in self.trajectories.items():
            if not traj.path:
                raise ValueError(f"trajectory {key!r} has no file: save it first (Trajectory.save)")
            files[key] = os.path.relpath(os.path.abspath(traj.path), base)
        doc = {"trajectories": files,
               "pairs": [[list(a.__dict__.values()), list(b.__dict__.values()), p] for a, b, p in self.pairs]}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        return path

    @classmethod
    def load(cls, path) -> "PreferenceSet":
        path = os.fspath(path)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"preference file {path!r} does not exist")
        with open(path, encoding="utf-8") as f:
            try:
                doc = json.load(f)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}, line {exc.lineno}: not JSON: {exc.msg}") from exc
        base = os.path.dirname(os.path.abspath(path))
        trajs = {}
        for key, file in doc.get("trajectories", {}).items():
            full = file if os.path.isabs(file) else os.path.join(base, file)
            if not os.path.isfile(full):
                raise FileNotFoundError(f"{path}: trajectory {key!r} names missing file {full!r}")
            trajs[key] = load_trajectory(full)
        try:
            return cls(trajs, [(Window(*a), Window(*b), p) for a, b, p in doc.get("pairs", [])])
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from exc


def window_returns(program, prefs: PreferenceSet) -> np.ndarray:
    """G of both windows of every pair, (|D|, 2): one rescore per trajectory, then cumulative sums."""
    program = load_reward(program)
    cums = {}
    for key, traj in prefs.trajectories.items():
        totals, _ = rescore(traj, program)
        cums[key] = np.concatenate([np.zeros((1, traj.cars)), np.cumsum(totals, axis=0)])
    return _returns_from(cums, prefs)


def _returns_from(cums, prefs):
    out = np.empty((len(prefs), 2))
    for k, (a, b, _) in enumerate(prefs.pairs):
        for col, w in enumerate((a, b)):
            c = cums[w.trajectory]
            out[k, col] = (c[w.start + w.length, w.car] - c[w.start, w.car]) / w.length
    return out


def _sigma(g: np.ndarray, labels: np.ndarray, ties: str) -> float:
    pred = (g[:, 0] <= g[:, 1]).astype(np.int8)  # p~ = 0 iff G_i > G_j
    tie = g[:, 0] == g[:, 1]
    agree = np.where(tie, 0.5, (pred == labels).astype(np.float64))
    if ties == "drop":
        keep = ~tie
        if not keep.any():
            return 0.0
        agree = agree[keep]
    n = len(agree)
    return float((2 * agree.sum() - n) / n)


def tac(program, prefs: PreferenceSet, ties: str = "half") -> float:
    """sigma(R, D) in [-1, 1]. An exact tie of G counts half an agreement (adds 0, as in
    Kendall's tau-a); ``ties="drop"`` leaves tied pairs out."""
    if ties not in ("half", "drop"):
        raise ValueError(f"ties must be 'half' or 'drop', got {ties!r}")
    if len(prefs) == 0:
        raise ValueError("the preference set is empty")
    return _sigma(window_returns(program, prefs), prefs.labels(), ties)


def tac_many(programs, prefs: PreferenceSet, ties: str = "half") -> np.ndarray:
    return np.array([tac(p, prefs, ties) for p in programs])


def top_n(programs, prefs: PreferenceSet, n: int):
    """The n programs with the highest TAC (best first) and all their scores."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    scores = tac_many(programs, prefs)
    order = np.argsort(-scores, kind="stable")[:n]
    return [programs[i] for i in order], scores


def tac_accuracy(programs, subset: PreferenceSet, full: PreferenceSet) -> float:
    """How well TAC on ``subset`` predicts the order of rewards by TAC on ``full``:
    (1/|D_full|) sum over reward pairs (i < j) of agreement between p_ij (0 when
    sigma(R_i, full) > sigma(R_j, full)) and p^_ij, the same on ``subset``."""
    s_sub, s_full = tac_many(programs, subset), tac_many(programs, full)
    i, j = np.triu_indices(len(programs), 1)
    if len(i) == 0:
        raise ValueError("tac_accuracy needs at least two programs")
    p = (s_full[i] <= s_full[j]).astype(int)
    p_hat = (s_sub[i] <= s_sub[j]).astype(int)
    return float(np.mean(p * p_hat + (1 - p) * (1 - p_hat)))


def all_pairs(n: int):
    """Every unordered pair (i, j), i < j, of n items."""
    if n < 2:
        raise ValueError(f"all_pairs needs n >= 2, got {n}")
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


@dataclass(frozen=True)
class BradleyTerry:
    scores: np.ndarray  # centred log-strengths b_i
    best: int           # argmax of scores


def bradley_terry(n: int, outcomes, l2: float = 1e-2, iterations: int = 200) -> BradleyTerry:
    """Scores b with P(i beats j) = e^b_i / (e^b_i + e^b_j), maximum likelihood with an
    L2 prior ``l2`` (perfect orders stay finite), centred. ``outcomes``: (winner, loser)
    pairs; verdicts are binary, a tie (winner == loser or None) is refused."""
    if n < 2:
        raise ValueError(f"bradley_terry needs n >= 2 items, got {n}")
    pairs = np.asarray([tuple(o) for o in outcomes], dtype=object)
    if len(pairs) == 0:
        raise ValueError("bradley_terry needs at least one outcome")
    try:
        w, lose = np.asarray(pairs[:, 0], np.int64), np.asarray(pairs[:, 1], np.int64)
    except (TypeError, ValueError, IndexError) as exc:
        raise ValueError("outcomes must be (winner, loser) index pairs; ties are not accepted") from exc
    if np.any(w == lose):
        raise ValueError("an outcome names the same item as winner and loser: ties are not accepted")
    if w.min() < 0 or lose.min() < 0 or w.max() >= n or lose.max() >= n:
        raise ValueError(f"outcome indices must be in [0, {n})")
    if l2 <= 0:
        raise ValueError(f"l2 must be > 0, got {l2}")
    b = np.zeros(n)
    for _ in range(iterations):  # Newton on the concave log posterior
        p = 1.0 / (1.0 + np.exp(b[lose] - b[w]))  # P(winner beats loser)
        grad = np.bincount(w, 1 - p, n) - np.bincount(lose, 1 - p, n) - l2 * b
        h = p * (1 - p)
        hess = np.zeros((n, n))
        np.add.at(hess, (w, w), -h)
        np.add.at(hess, (lose, lose), -h)
        np.add.at(hess, (w, lose), h)
        np.add.at(hess, (lose, w), h)
        hess -= l2 * np.eye(n)
        step = np.linalg.solve(hess, grad)
        b -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    b -= b.mean()
    return BradleyTerry(b, int(np.argmax(b)))


def tune_weights(program, reference, trajectories, seed: int = 0, steps: int = 500, lr: float = 0.05):
    """Weights of ``program``'s components whose weighted sum correlates best (Pearson)
    with ``reference`` (a program or file) over every re-scored car-step of
    ``trajectories``: gradient ascent on the correlation from ``seed``'s start, then
    one least-squares scale. Returns (weights dict, correlation before, after).
    A high correlation does not make the two rewards drive alike."""
    program, reference = load_reward(program), load_reward(reference)
    comps, ref = [], []
    for traj in trajectories:
        prev, cur = traj.transitions()
        comps.append(program.components(cur, prev, traj.course))
        ref.append(reference(cur, prev, traj.course)[0])
    x, y = np.concatenate(comps), np.concatenate(ref)
    sd = x.std(axis=0)
    sd[sd == 0] = 1.0
    z = (x - x.mean(axis=0)) / sd
    yc = (y - y.mean()) / (y.std() or 1.0)

    def corr(v):
        s = z @ v
        return float(s @ yc / (np.linalg.norm(s) * np.sqrt(len(yc)) + 1e-300)) if np.linalg.norm(s) else 0.0

    before = corr(program.weights * sd)
    rng = np.random.default_rng(seed)
    v = program.weights * sd + 1e-3 * rng.standard_normal(len(sd))
    for t in range(steps):
        s = z @ v
        norm = np.linalg.norm(s) + 1e-300
        r = s @ yc / (norm * np.sqrt(len(yc)))
        grad = (z.T @ yc) / (norm * np.sqrt(len(yc))) - r * (z.T @ s) / norm ** 2
        # Steps of a fixed share of |v| (correlation ignores scale), shrinking to zero so the
        # ascent settles on the optimum instead of circling it at the step size.
        step = lr * (1.0 - t / steps)
        v = v + step * grad * np.linalg.norm(v) / (np.linalg.norm(grad) + 1e-300)
    weights = v / sd
    s = x @ weights
    sc = s - s.mean()
    scale = float(sc @ (y - y.mean()) / (sc @ sc)) if sc @ sc > 0 else 1.0
    weights = weights * scale
    return dict(zip(program.names, weights.tolist())), before, corr(weights * sd)
