"""The driving vector env's observation buffers: an empty slot's observation is zeros in
every field (zeroed once when the slot empties, never rewritten), and ``copy=False``
hands out read-only views that hold their step's values until the next step."""
from __future__ import annotations

import numpy as np
import pytest

import trackfield

SMALL = dict(num_envs=3, num_threads=2, slots=12, agents_min=2, max_steps=40)


def make(copy=True, observation="sets", **config):
    return trackfield.vector.make("town_self_play", copy=copy, observation=observation, **{**SMALL, **config})


def fields(obs):
    return obs.items() if isinstance(obs, dict) else [("obs", obs)]


@pytest.mark.parametrize("observation", ["sets", "flat"])
def test_a_slot_that_leaves_is_zeros_in_every_field_and_stays_so(observation):
    # No respawn: a slot whose agent ends shows its last observation for one step, then
    # stays empty (zeros) to the end of the episode; autoreset brings new agents.
    env = make(observation=observation, respawn=False, max_steps=60)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(0)
    prev_live = info["live"].copy()
    left = 0
    for _ in range(80):
        obs, _, term, trunc, info = env.step(rng.integers(0, 12, size=(3, 12)))
        live = info["live"]
        reset = (term | trunc)[:, None]
        # Empty now and not just left: nothing to show.
        empty = ~live & (~prev_live | reset)
        left += int((prev_live & ~live & ~reset).sum())
        for name, value in fields(obs):
            assert not value[empty].any(), f"{name} of an empty slot is not zeros"
        ego = obs["ego"] if isinstance(obs, dict) else obs
        assert ego[live].reshape(int(live.sum()), -1).any(axis=1).all(), "a live slot's observation is zeros"
        prev_live = live.copy()
    assert left > 0, "no agent left its slot: the test saw nothing"


def test_views_equal_copies_step_by_step_and_change_at_the_next_step():
    copies, views = make(copy=True), make(copy=False)
    c_obs, _ = copies.reset(seed=2)
    v_obs, _ = views.reset(seed=2)
    rng = np.random.default_rng(1)
    kept = None
    for t in range(50):
        for name in c_obs:
            assert np.array_equal(c_obs[name], v_obs[name]), f"step {t}: {name}"
            assert not v_obs[name].flags.writeable
        if t == 10:
            kept = ({k: v.copy() for k, v in v_obs.items()}, v_obs, c_obs)
        actions = rng.integers(0, 12, size=(3, 12))
        c_obs, *_, c_info = copies.step(actions)
        v_obs, *_, v_info = views.step(actions)
        assert ("final_obs" in c_info) == ("final_obs" in v_info)
        if "final_obs" in v_info:  # final observations are copies either way
            for i in np.flatnonzero(v_info["_final_obs"]):
                for name in c_obs:
                    assert np.array_equal(c_info["final_obs"][i][name], v_info["final_obs"][i][name])
    saved, old_views, old_copies = kept
    # Copies keep their step's values; views show the latest step (Gymnasium's copy=False rule).
    assert all(np.array_equal(old_copies[k], saved[k]) for k in saved)
    assert all(np.array_equal(old_views[k], v_obs[k]) for k in saved)
    assert not all(np.array_equal(old_views[k], saved[k]) for k in saved)


def test_views_cannot_be_written():
    env = make(copy=False, observation="flat")
    obs, _ = env.reset(seed=0)
    with pytest.raises(ValueError, match="read-only"):
        obs[0, 0, 0] = 1.0
    obs, *_ = env.step(np.zeros((3, 12), np.int64))
    with pytest.raises(ValueError, match="read-only"):
        obs[...] = 0.0


def test_copy_must_be_a_bool():
    with pytest.raises(TypeError, match="copy"):
        make(copy="no")
