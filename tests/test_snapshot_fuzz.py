"""Crafted snapshots (fields edited, checksum recomputed) are refused with a ValueError
naming the field, or step with finite observations and rewards: never a hang, a crash
or NaN. The fuzzer itself lives in snapshot_fuzz.py (also a script for large counts)."""
from __future__ import annotations

import math
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import trackfield
from trackfield import _engine

import snapshot_fuzz

HEADER = snapshot_fuzz.HEADER_BYTES


@pytest.mark.parametrize("domain", sorted(snapshot_fuzz.DOMAINS))
def test_crafted_snapshots_are_refused_or_step_finite(domain):
    counts = snapshot_fuzz.fuzz(domain, 300, seed=1)
    assert counts["crafted"] == 300
    # Both branches are reached: the checks refuse, and edits within range step.
    assert counts["refused"] > 50, counts
    assert counts["stepped"] > 30, counts


@pytest.mark.parametrize("domain", sorted(snapshot_fuzz.DOMAINS))
def test_every_state_the_engine_reaches_restores(domain):
    assert snapshot_fuzz.restore_true_states(domain, 150, every=3) > 40


@pytest.mark.statistical
@pytest.mark.parametrize("domain", sorted(snapshot_fuzz.DOMAINS))
def test_every_state_of_long_runs_restores(domain):
    assert snapshot_fuzz.restore_true_states(domain, 6000, every=7, seed=3) > 500


def _edit(state, offset, fmt, value):
    b = bytearray(state)
    struct.pack_into(fmt, b, HEADER + offset, value)
    return snapshot_fuzz.reseal(bytes(b))


def test_reseal_recomputes_the_checksum_only():
    env = trackfield.make("race_1v1")
    env.reset(seed=0)
    state = env.get_state()
    assert _engine.common.reseal_snapshot(state) == state
    with pytest.raises(ValueError, match="too short"):
        _engine.common.reseal_snapshot(b"abc")


# Payload offsets of the first slot's fields: each world struct starts with its Rng (two
# uint64), then (racing) steps, time_s, two flags and padding before car[0]; (driving)
# map_id, steps, next_agent_id, two flags and padding before veh.x[0]; (football) the two
# team sizes before players.x[0].
RACING_CAR0 = 28
RACING_CAR_BYTES = 164  # sizeof(CarState): 39 floats and ints, 5 flags, padding


@pytest.mark.parametrize("field, offset, value, match", [
    ("yaw", RACING_CAR0 + 12, 1e30, r"car\.yaw\[0\]"),  # once looped forever in the angle wrap
    ("vx", RACING_CAR0 + 16, math.nan, r"car\.vx\[0\]"),
    ("x", RACING_CAR0, math.inf, r"car\.x\[0\]"),
])
def test_racing_field_edits_are_refused_by_name(field, offset, value, match):
    env = trackfield.make("race_1v3")
    env.reset(seed=0)
    state = env.get_state()
    with pytest.raises(ValueError, match=match):
        env.reset(options={"state": _edit(state, offset, "<f", value)})
    env.reset(options={"state": state})  # the true state still restores


def test_racing_ai_car_with_nan_speed_is_refused():
    env = trackfield.make("race_1v3")
    env.reset(seed=0)
    for _ in range(5):
        env.step(np.array([1.0, 0.0], np.float32))
    state = env.get_state()
    # Car 3 is an AI car: a NaN speed once sent its driver reading the racing line out of bounds.
    with pytest.raises(ValueError, match=r"car\.vx\[3\]"):
        env.reset(options={"state": _edit(state, RACING_CAR0 + 3 * RACING_CAR_BYTES + 16, "<f", math.nan)})


def test_football_field_edits_are_refused_by_name():
    env = trackfield.make("academy_3_vs_1_with_keeper")
    env.reset(seed=0)
    state = env.get_state()
    with pytest.raises(ValueError, match=r"players\.x\[0\]"):
        env.reset(options={"state": _edit(state, 8, "<f", math.nan)})
    env.reset(options={"state": state})


def test_driving_field_edits_are_refused_by_name():
    env = trackfield.make("town_drive", agents=2, max_steps=40)
    env.reset(seed=0)
    state = env.get_state()
    with pytest.raises(ValueError, match=r"veh\.x\[0\]"):
        env.reset(options={"state": _edit(state, 32, "<d", math.nan)})
    env.reset(options={"state": state})


@pytest.mark.statistical
def test_ten_thousand_crafted_snapshots_per_domain():
    script = Path(__file__).with_name("snapshot_fuzz.py")
    run = subprocess.run([sys.executable, str(script), "--count", "10000", "--timeout", "1200"],
                         capture_output=True, text=True, timeout=3900)
    assert run.returncode == 0, run.stdout + run.stderr[-2000:]
    assert run.stdout.count(" 0 non-finite; 0 hangs or crashes") == 3, run.stdout
