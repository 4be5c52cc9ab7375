"""Race evaluation in the protocol of "Automated Reward Design for Gran Turismo":
a policy races the 20-car field many times; each race reports the final place, the
time spent in contact with other cars, the time off course and the distance to the
first car; a time over its threshold sets the place to last.

``evaluate_race("ai")`` drives the learner's car by the built-in AI (``ai_action``): the
baseline a trained policy is compared with. Each result also reports the rest of the
field's own incidents (contact onsets between two AI cars, AI cars that went off course),
so a race the field wrecked is told apart from the learner's driving.
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
    field_contacts: int = 0      # contact onsets between two cars of the field (the learner not one of them)
    field_off_course: int = 0    # cars of the field that went off course (under the rule) at least once


def _act(policy, obs, envs=None):
    if isinstance(policy, str):  # "ai": the built-in AI's suggestion for each world's learner
        batch = envs._engine.batch
        return np.stack([batch.ai_actions(i)[0] for i in range(len(obs))])
    if hasattr(policy, "predict"):  # a Stable-Baselines3 model
        action, _ = policy.predict(obs, deterministic=True)
        return action
    return policy(obs)


def evaluate_race(policy, track="technical", car="gt3", races: int = 100, laps: int = 4, start_slot: int = 19,
                  off_course_rule: str = "any_tyre", thresholds: dict | None = None, seed: int = 0,
                  num_envs: int = 16, num_threads: int | None = None, **config) -> list[RaceResult]:
    """Races ``policy`` (a callable from a batch of observations to a batch of actions, an
    SB3 model, or ``"ai"`` for the built-in AI at full skill) in ``race_field`` ``races``
    times; one :class:`RaceResult` per race.

    ``thresholds={"collision_s": a, "course_out_s": b}`` (see :func:`thresholds_from`):
    a race whose time exceeds its threshold counts as last place (19)."""
    if races < 1:
        raise ValueError(f"races must be >= 1, got {races}")
    if isinstance(policy, str) and policy != "ai":
        raise ValueError(f"policy must be a callable, an SB3 model or 'ai', got {policy!r}")
    thresholds = dict(thresholds or {})
    unknown = set(thresholds) - {"collision_s", "course_out_s"}
    if unknown:
        raise ValueError(f"thresholds: unknown keys {sorted(unknown)}; valid: collision_s, course_out_s")
    envs = trackfield.vector.make("race_field", num_envs=min(num_envs, races), num_threads=num_threads,
                                  track=track, car=car, laps=laps, start_slot=start_slot,
                                  off_course_rule=off_course_rule, race_state=True, **config)
    results: list[RaceResult] = []
    obs, info = envs.reset(seed=seed)
    n_worlds = envs.num_envs
    cars = len(info["race_state"].car) // n_worlds
    field_contacts = np.zeros(n_worlds, int)
    field_off = np.zeros((n_worlds, cars), bool)
    prev_pairs = np.zeros((n_worlds, cars, cars), bool)
    learner = np.zeros((n_worlds, cars), bool)
    while len(results) < races:
        obs, _, terminated, truncated, info = envs.step(np.asarray(_act(policy, obs, envs), np.float32))
        st = info["race_state"]
        learner[:] = np.asarray(st.controlled).reshape(n_worlds, cars)
        pairs = np.asarray(st.contact).reshape(n_worlds, cars, cars) != 0
        pairs = (pairs | pairs.transpose(0, 2, 1)) & ~learner[:, :, None] & ~learner[:, None, :]
        field_contacts += np.triu(pairs & ~prev_pairs, 1).sum(axis=(1, 2))
        prev_pairs = pairs
        field_off |= np.asarray(st.off_course).reshape(n_worlds, cars) & ~learner
        ended = np.flatnonzero(terminated | truncated)
        for i in ended:
            if len(results) >= races:
                break
            ep = {k: np.asarray(v[i]).reshape(-1) for k, v in info["episode"].items()}  # the learner's car
            place = int(ep["place"][0])
            collision, course_out = float(ep["contact_s"][0]), float(ep["off_course_s"][0])
            over = collision > thresholds.get("collision_s", np.inf) or course_out > thresholds.get("course_out_s", np.inf)
            results.append(RaceResult(19 if over else place, place, collision, course_out,
                                      float(ep["gap_to_leader_m"][0]), int(field_contacts[i]),
                                      int(field_off[i].sum())))
        # A world that ended has reset in this step: its count starts again.
        field_contacts[ended] = 0
        field_off[ended] = False
        prev_pairs[ended] = False
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
