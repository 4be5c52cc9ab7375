"""Crafted snapshots for all three domains: fields edited and the checksum recomputed.

A snapshot's FNV-1a checksum catches damage, not edits: anyone can recompute it. This
fuzzer edits a taken snapshot (a float32, float64, int32 or byte written at a field's
offset: NaN, infinities, huge values, off-by-one indices, booleans other than 0/1,
small nudges of the true value), reseals it with ``_engine.common.reseal_snapshot``
and restores it. Every crafted state must either be refused with a ``ValueError`` or
step with finite observations and rewards.

Run as a script for large counts; each domain runs in a child process under a time
limit, so a hang or a crash is reported with the case that caused it::

    python tests/snapshot_fuzz.py --count 10000            # all three domains
    python tests/snapshot_fuzz.py --domain racing --count 2000 --seed 3
"""
from __future__ import annotations

import argparse
import json
import struct
import subprocess
import sys
import time

import numpy as np

HEADER_BYTES = 32  # magic u32, version u32, payload size u64, config fingerprint u64, checksum u64

# The env each domain is fuzzed through: built-in AI everywhere it exists (AI cars,
# the football AI team, built-in drivers beside the agents), so crafted states reach it.
DOMAINS = {
    "racing": ("race_1v3", {}),
    "football": ("11_vs_11_stochastic", {"representation": "simple115v2"}),
    "driving": ("town_drive", {"agents": 4, "max_steps": 400}),
}

F32 = [np.nan, np.inf, -np.inf, 1e30, -1e30, 3.4e38, 1e9, -1e9, 1e6, -1e6, 1e3, -1e3, -1.0, 0.0, 2.0, 7.0]
F64 = [np.nan, np.inf, -np.inf, 1e300, -1e300, 1e30, -1e30, 1e9, -1e9, 1e6, -1e6, -1.0, 0.0]
I32 = [-1, -2, 2 ** 31 - 1, -(2 ** 31), 2 ** 16, 1000, 100, 64, 32, 20, 11, 8, 3, 2, 1, 0]
BYTES = [2, 3, 7, 0x7F, 0x80, 0xFF, 0, 1]


def make_env(domain):
    import trackfield

    name, kwargs = DOMAINS[domain]
    return trackfield.make(name, **kwargs)


def sample_action(env, rng):
    space = env.action_space
    space.seed(int(rng.integers(0, 2 ** 31)))
    return space.sample()


def base_states(env, seed):
    """Snapshots taken along one episode, and the payload offsets whose bytes change
    along it (the live fields; the rest are mostly padding and empty slots)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    states = [env.get_state()]
    for k in range(120):
        _, _, terminated, truncated, _ = env.step(sample_action(env, rng))
        if terminated or truncated:
            env.reset(seed=seed + k + 1)
        if k in (3, 15, 40, 80, 119):
            states.append(env.get_state())
    arrays = np.stack([np.frombuffer(s, np.uint8)[HEADER_BYTES:] for s in states])
    live = np.flatnonzero((arrays != arrays[0]).any(axis=0) | (arrays != 0).any(axis=0)) + HEADER_BYTES
    return states, live


def reseal(state):
    """The snapshot with its payload checksum (FNV-1a 64 at header offset 24) recomputed."""
    from trackfield import _engine

    if hasattr(_engine.common, "reseal_snapshot"):
        return _engine.common.reseal_snapshot(state)
    h = 0xCBF29CE484222325  # an engine without the helper: the same sum, in Python
    for byte in state[HEADER_BYTES:]:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    b = bytearray(state)
    struct.pack_into("<Q", b, 24, h)
    return bytes(b)


def restore_true_states(domain, steps, every=10, seed=0):
    """Takes a snapshot every `every` steps of `steps` random-action steps (episodes
    restart as they end) and restores each: the checks must accept every state the
    engine itself reaches. Returns how many were restored."""
    env = make_env(domain)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    restored = 0
    for k in range(steps):
        _, _, terminated, truncated, _ = env.step(sample_action(env, rng))
        if terminated or truncated:
            env.reset(seed=seed + k + 1)
        elif k % every == 0:
            env.reset(options={"state": env.get_state()})
            restored += 1
    return restored


def craft(state, live, rng):
    """One crafted snapshot: 1-3 fields overwritten, the checksum recomputed."""
    b = bytearray(state)
    n = len(b)
    for _ in range(int(rng.integers(1, 4))):
        at = int(live[rng.integers(0, len(live))]) if rng.random() < 0.8 or n <= HEADER_BYTES + 8 \
            else int(rng.integers(HEADER_BYTES, n))
        kind = rng.integers(0, 6)
        if kind == 0:  # float32: a special value
            at = HEADER_BYTES + ((at - HEADER_BYTES) & ~3)
            if at + 4 <= n:
                struct.pack_into("<f", b, at, float(F32[rng.integers(0, len(F32))]))
        elif kind == 1:  # float32: the true value nudged (mostly accepted: exercises the step)
            at = HEADER_BYTES + ((at - HEADER_BYTES) & ~3)
            if at + 4 <= n:
                (v,) = struct.unpack_from("<f", b, at)
                if np.isfinite(v):
                    v = v * float(rng.uniform(-3, 3)) + float(rng.normal(0, 5))
                    struct.pack_into("<f", b, at, float(np.float32(np.clip(v, -3e38, 3e38))))
        elif kind == 2:  # float64
            at = HEADER_BYTES + ((at - HEADER_BYTES) & ~7)
            if at + 8 <= n:
                struct.pack_into("<d", b, at, float(F64[rng.integers(0, len(F64))]))
        elif kind == 3:  # int32: an index or count off its range
            at = HEADER_BYTES + ((at - HEADER_BYTES) & ~3)
            if at + 4 <= n:
                (v,) = struct.unpack_from("<i", b, at)
                choice = I32[rng.integers(0, len(I32))] if rng.random() < 0.7 else v + int(rng.integers(-3, 4))
                struct.pack_into("<i", b, at, int(np.clip(choice, -(2 ** 31), 2 ** 31 - 1)))
        elif kind == 4:  # a byte: booleans and small enums other than their values
            b[at] = int(BYTES[rng.integers(0, len(BYTES))])
        else:  # random bytes
            for k in range(int(rng.integers(1, 5))):
                if at + k < n:
                    b[at + k] = int(rng.integers(0, 256))
    return reseal(bytes(b))


def all_finite(value):
    if isinstance(value, dict):
        return all(all_finite(v) for v in value.values())
    if isinstance(value, (tuple, list)):
        return all(all_finite(v) for v in value)
    a = np.asarray(value)
    return not np.issubdtype(a.dtype, np.floating) or bool(np.isfinite(a).all())


def fuzz(domain, count, seed=0, steps=3, progress=None, keep_going=False):
    """Crafts `count` snapshots; returns the counts of what happened to them. Raises
    AssertionError on a non-finite observation or reward, or on an error other than
    ValueError at restore; with keep_going, counts those as "non_finite" instead."""
    env = make_env(domain)
    states, live = base_states(env, seed)
    counts = {"crafted": 0, "refused": 0, "stepped": 0, "ended": 0, "non_finite": 0}
    for case in range(count):
        rng = np.random.default_rng([seed, case])
        crafted = craft(states[case % len(states)], live, rng)
        if progress is not None:
            progress(case)
        counts["crafted"] += 1
        try:
            counts[_restore_and_step(env, domain, crafted, steps, rng, f"{domain} case {case} (seed {seed})")] += 1
        except AssertionError:
            if not keep_going:
                raise
            counts["non_finite"] += 1
    return counts


def _restore_and_step(env, domain, crafted, steps, rng, where):
    """What became of one crafted snapshot: "refused", "stepped" or "ended"."""
    try:
        obs, _ = env.reset(options={"state": crafted})
    except ValueError:
        return "refused"
    assert all_finite(obs), f"{where}: restored observation is not finite"
    for _ in range(steps):
        try:
            obs, reward, terminated, truncated, _ = env.step(sample_action(env, rng))
        except RuntimeError as error:  # a restored episode that had already ended
            assert "reset" in str(error), error
            return "ended"
        assert all_finite(obs), f"{where}: observation is not finite"
        assert all_finite(reward), f"{where}: reward is not finite"
        if terminated or truncated:
            break
    return "stepped"


def _child(domain, count, seed, steps, keep_going):
    def progress(case):
        print(json.dumps({"at": case}), flush=True)

    counts = fuzz(domain, count, seed, steps=steps, progress=progress, keep_going=keep_going)
    print(json.dumps({"done": counts}), flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domain", choices=sorted(DOMAINS), action="append",
                        help="domain to fuzz (repeatable; default: all three)")
    parser.add_argument("--count", type=int, default=10000, help="crafted snapshots per domain")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=3, help="steps taken from each accepted snapshot")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per domain before a hang is reported")
    parser.add_argument("--keep-going", action="store_true",
                        help="count non-finite outputs instead of stopping at the first")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    domains = args.domain or sorted(DOMAINS)
    if args.child:
        _child(domains[0], args.count, args.seed, args.steps, args.keep_going)
        return 0
    failed = False
    for domain in domains:
        start = time.time()
        cmd = [sys.executable, __file__, "--child", "--domain", domain, "--count", str(args.count),
               "--seed", str(args.seed), "--steps", str(args.steps)] + (["--keep-going"] if args.keep_going else [])
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
            out, rc = run.stdout, run.returncode
            err = run.stderr
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            err, rc = "", "hang"
        lines = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
        done = [x["done"] for x in lines if "done" in x]
        if done and rc == 0:
            c = done[0]
            failed = failed or c["non_finite"] > 0
            print(f"{domain}: {c['crafted']} crafted, {c['refused']} refused (ValueError), "
                  f"{c['stepped']} accepted and stepped, {c['ended']} accepted with the episode over, "
                  f"{c['non_finite']} non-finite; 0 hangs or crashes ({time.time() - start:.0f} s)")
        else:
            failed = True
            at = max([x["at"] for x in lines if "at" in x], default=0)
            print(f"{domain}: FAILED ({'hang' if rc == 'hang' else f'exit status {rc}'}) after case {at} "
                  f"(seed {args.seed})\n{err[-3000:]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
