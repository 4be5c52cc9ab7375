"""A vector env whose worlds run a fixed mix of racing scenarios.

GT Sophy trained on a mix of launches (time trials, 1 v 1 up to 1 v 7, grid starts,
slipstream and section drills) in fixed proportions. ``trackfield.vector.make(
scenarios={"race_1v1": 0.3, "race_time_trial": 0.7}, num_envs=64)`` gives each scenario
its share of the worlds (largest remainder; every listed scenario gets at least one),
and the shares stay fixed: a world keeps its scenario across resets. Each scenario's
worlds are one C++ batch; ``info["scenario"]`` names every world's scenario, as in
every racing env.
"""
from __future__ import annotations

import numpy as np
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space


def split_counts(shares: dict, num_envs: int) -> dict:
    """Worlds per scenario: proportional to the shares, summing to num_envs, each >= 1."""
    if not isinstance(shares, dict) or not shares:
        raise ValueError(f"scenarios must be a non-empty dict {{name: share}}, got {shares!r}")
    for name, share in shares.items():
        if not isinstance(share, (int, float)) or isinstance(share, bool) or not share > 0 or not np.isfinite(share):
            raise ValueError(f"scenarios[{name!r}] must be a positive share, got {share!r}")
    if num_envs < len(shares):
        raise ValueError(f"num_envs={num_envs} is fewer than the {len(shares)} scenarios in the mix")
    total = float(sum(shares.values()))
    exact = {name: num_envs * share / total for name, share in shares.items()}
    counts = {name: max(1, int(v)) for name, v in exact.items()}
    while sum(counts.values()) > num_envs:  # the minimum of one pushed us over: take from the largest
        name = max(counts, key=lambda n: counts[n] - exact[n])
        counts[name] -= 1
    by_remainder = sorted(exact, key=lambda n: exact[n] - counts[n], reverse=True)
    k = 0
    while sum(counts.values()) < num_envs:
        counts[by_remainder[k % len(by_remainder)]] += 1
        k += 1
    return counts


def merge(parts: list, counts: list):
    """One info dict from the per-scenario ones: arrays concatenated in world order; a
    key some parts lack is filled with zeros (False, None) for their worlds."""
    keys = []
    for part in parts:
        keys += [k for k in part if k not in keys]
    out = {}
    for key in keys:
        template = next(p[key] for p in parts if key in p)
        if isinstance(template, dict):
            out[key] = merge([p.get(key, {}) for p in parts], counts)
            continue
        pieces = []
        for part, n in zip(parts, counts):
            if key in part:
                pieces.append(np.asarray(part[key]))
            else:
                shape = (n,) + np.asarray(template).shape[1:]
                pieces.append(np.zeros(shape, dtype=np.asarray(template).dtype) if np.asarray(template).dtype != object
                              else np.full(shape, None, dtype=object))
        out[key] = np.concatenate(pieces)
    return out


class ScenarioMixVectorEnv(VectorEnv):
    """Worlds of several racing scenarios in fixed shares (see the module docstring)."""

    def __init__(self, scenarios: dict, num_envs: int, num_threads: int | None = None, **config):
        from trackfield.racing.vector import RacingVectorEnv

        self.counts = split_counts(scenarios, num_envs)
        self.parts = [RacingVectorEnv(name, n, num_threads, **config) for name, n in self.counts.items()]
        first = self.parts[0]
        for name, part in zip(self.counts, self.parts):
            if part.single_observation_space != first.single_observation_space or part.num_agents != first.num_agents:
                raise ValueError(f"scenario {name!r} has other observations or agents than {next(iter(self.counts))!r}; "
                                 "a mix needs the same spaces (one agent per world)")
        self.num_envs = num_envs
        self.num_agents = first.num_agents
        self.single_observation_space = first.single_observation_space
        self.single_action_space = first.single_action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = first.render_mode
        self.scenario_of = np.array([name for name, n in self.counts.items() for _ in range(n)], dtype=object)
        self._slices = np.cumsum([0] + list(self.counts.values()))

    def _join(self, results):
        obs = np.concatenate([r[0] for r in results])
        infos = merge([r[-1] for r in results], list(self.counts.values()))
        return obs, infos

    def reset(self, *, seed=None, options=None):
        seeds = [None] * len(self.parts)
        if seed is not None:
            seeds = [int(s) for s in np.random.SeedSequence(seed).generate_state(len(self.parts), np.uint32)]
        results = [part.reset(seed=s, options=o) for part, s, o in zip(self.parts, seeds, self._part_options(options))]
        return self._join(results)

    def _part_options(self, options) -> list:
        """reset's options for each part: a per-world ``state`` list and a ``reset_mask``
        are split by the parts' worlds; anything else goes to every part as it is."""
        if not isinstance(options, dict):
            return [options] * len(self.parts)  # each part refuses it with the usual message
        spans = list(zip(self._slices[:-1], self._slices[1:]))
        out = [dict(options) for _ in self.parts]
        state = options.get("state")
        if isinstance(state, (list, tuple)):
            if len(state) != self.num_envs:
                raise TypeError(f"options['state'] must be bytes from get_state() (every world) or a list of "
                                f"{self.num_envs} of them (one per world), got {type(state).__name__} of "
                                f"length {len(state)}")
            for o, (a, b) in zip(out, spans):
                o["state"] = list(state[a:b])
        mask = options.get("reset_mask")
        if mask is not None:
            array = np.asarray(mask)
            if array.dtype != np.bool_ or array.shape != (self.num_envs,):
                raise ValueError(f"options['reset_mask'] must be a bool array of shape ({self.num_envs},), got "
                                 f"{type(mask).__name__} of dtype {array.dtype} and shape {array.shape}")
            for o, (a, b) in zip(out, spans):
                o["reset_mask"] = array[a:b]
        return out

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.shape[:1] != (self.num_envs,):
            raise ValueError(f"actions must have shape {(self.num_envs,) + self.single_action_space.shape}, "
                             f"got {actions.shape}")
        results = [part.step(actions[a:b]) for part, a, b in zip(self.parts, self._slices[:-1], self._slices[1:])]
        obs, infos = self._join([(r[0], r[4]) for r in results])
        rewards = np.concatenate([r[1] for r in results])
        terminated = np.concatenate([r[2] for r in results])
        truncated = np.concatenate([r[3] for r in results])
        return obs, rewards, terminated, truncated, infos

    def close_extras(self, **kwargs):
        # Gymnasium's VectorEnv.__del__ closes an env whose __init__ raised before the
        # parts were made (a bad argument), so there may be none.
        for part in getattr(self, "parts", ()):
            part.close()
