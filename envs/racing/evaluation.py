"""Race evaluation in the protocol of "Automated Reward Design for Gran Turismo":
a policy races the 20-car field many times; each race reports the final place, the
time spent in contact with other cars, the time off course and the distance to the
first car; a time over its threshold sets the place to last.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import trackfield


@dataclass(frozen=True)
class RaceResult:
    place: int               # 0 = winner .. 19 (after thresholds)
    raw_place: int           # before thresholds
    collision_s: float       # time touching another car
    course_out_s: float      # time off course under the rule
    distance_to_first_m: float


def _act(policy, obs):
    if hasattr(policy, "predict"):  # a Stable-Baselines3 model
        action, _ = policy.predict(obs, deterministic=True)
        return action
    return policy(obs)


def evaluate_race(policy, track="technical", car="gt3", races: int = 100, laps: int = 4, start_slot: int = 19,
                  off_course_rule: str = "any_tyre", thresholds: dict | None = None, seed: int = 0,
                  num_envs: int = 16, num_threads: int | None = None, **config) -> list[RaceResult]:
    """Races ``policy`` (a callable from a batch of observations to a batch of actions, or
    an SB3 model) in ``race_field`` ``races`` times; one :class:`RaceResult` per race.

    ``thresholds={"collision_s": a, "course_out_s": b}`` (see :func:`thresholds_from`):
    a race whose time exceeds its threshold counts as last place (19)."""
    if races < 1:
        raise ValueError(f"races must be >= 1, got {races}")
    thresholds = dict(thresholds or {})
    unknown = set(thresholds) - {"collision_s", "course_out_s"}
    if unknown:
        raise ValueError(f"thresholds: unknown keys {sorted(unknown)}; valid: collision_s, course_out_s")
    envs = trackfield.vector.make("race_field", num_envs=min(num_envs, races), num_threads=num_threads,
                                  track=track, car=car, laps=laps, start_slot=start_slot,
                                  off_course_rule=off_course_rule, **config)
    results: list[RaceResult] = []
    obs, _ = envs.reset(seed=seed)
    while len(results) < races:
        obs, _, terminated, truncated, info = envs.step(np.asarray(_act(policy, obs), np.float32))
        ended = np.flatnonzero(terminated | truncated)
        for i in ended:
            if len(results) >= races:
                break
            ep = {k: np.asarray(v[i]).reshape(-1) for k, v in info["episode"].items()}  # the learner's car
            place = int(ep["place"][0])
            collision, course_out = float(ep["contact_s"][0]), float(ep["off_course_s"][0])
            over = collision > thresholds.get("collision_s", np.inf) or course_out > thresholds.get("course_out_s", np.inf)
            results.append(RaceResult(19 if over else place, place, collision, course_out,
                                      float(ep["gap_to_leader_m"][0])))
    envs.close()
    return results


def thresholds_from(results: list[RaceResult]) -> dict:
    """Thresholds from reference runs: the largest collision and course-out times seen."""
    if not results:
        raise ValueError("thresholds_from needs at least one RaceResult")
    return {"collision_s": max(r.collision_s for r in results), "course_out_s": max(r.course_out_s for r in results)}


def summarize(results: list[RaceResult]) -> dict:
    """Means over the races whose distance to the first car lies between its 25th and
    75th percentiles (the paper's interquartile summary), and how many races that kept."""
    if not results:
        raise ValueError("summarize needs at least one RaceResult")
    dist = np.array([r.distance_to_first_m for r in results])
    lo, hi = np.percentile(dist, [25, 75])
    kept = [r for r in results if lo <= r.distance_to_first_m <= hi]
    return {"races": len(kept), "place": float(np.mean([r.place for r in kept])),
            "collision_s": float(np.mean([r.collision_s for r in kept])),
            "course_out_s": float(np.mean([r.course_out_s for r in kept])),
            "distance_to_first_m": float(np.mean([r.distance_to_first_m for r in kept]))}
