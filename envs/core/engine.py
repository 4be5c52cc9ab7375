"""The Python side of a C++ batch, for every domain: buffers allocated once from the
engine's layout, spaces, action checks, and views of the buffers as observations and
``info`` dicts.

A domain's ``_engine.<domain>`` module provides ``layout(config)`` and
``Batch(config, num_envs, num_threads, autoreset, buffers)``; the batch reads
``actions`` and writes every other buffer in place (shapes below; N worlds, A agent
slots). Single envs, vector envs and the PettingZoo adapter all sit on a
:class:`BatchEngine`.

| buffer | shape | dtype |
|---|---|---|
| obs, final_obs | (N, A, *obs_shape) | float32 or uint8 |
| actions | (N, A, action_size) | int32 or float32 |
| rewards, episode_return | (N, A) | float32 |
| reward_components | (N, A, K) | float32 |
| terminated, truncated | (N,) | bool |
| live, agent_terminated, agent_truncated | (N, A) | bool |
| episode_length | (N,) | int32 |
| episode_stats | (N, S) | float64 |
| world_info, final_world_info | (N, W) | float64 |
| agent_info, final_agent_info | (N, A, G) | float64 |
"""
from __future__ import annotations

import os
import warnings

import numpy as np
from gymnasium import spaces

from trackfield.core.spaces import FieldSlicer, dict_space


def default_threads() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


class InfoFields:
    """Turns rows of float64 values laid out as engine fields into ``info`` entries:
    ints for int32 scalars, tuples for int32 vectors, floats and float arrays otherwise."""

    def __init__(self, fields):
        self.items = []
        offset = 0
        for name, shape, dtype, *_ in fields:
            size = int(np.prod(shape)) if len(shape) else 1
            self.items.append((name, offset, offset + size, tuple(shape), dtype))
            offset += size
        self.size = offset
        self._one = self._compile_one()
        self.names = [item[0] for item in self.items]
        self._dtypes = sorted({_NUMPY_DTYPES[item[4]] for item in self.items}, key=str)

    def one(self, row: np.ndarray) -> dict:
        """The entries of one world (or agent) row."""
        return self._one(row.tolist())

    def _compile_one(self):
        # The single env builds an info dict every step: like dataclasses and namedtuple,
        # generate one flat expression per layout instead of looping over fields.
        parts = []
        for name, begin, end, shape, dtype in self.items:
            if dtype == "int32":
                value = (f"int(v[{begin}])" if not shape else
                         "(" + "".join(f"int(v[{k}]), " for k in range(begin, end)) + ")")
            elif dtype == "bool":
                value = f"bool(v[{begin}])" if not shape else f"_np.asarray(v[{begin}:{end}], _np.bool_).reshape({shape})"
            else:
                value = f"v[{begin}]" if not shape else f"_np.asarray(v[{begin}:{end}], _np.float32).reshape({shape})"
            parts.append(f"{name!r}: {value}")
        namespace = {"_np": np}
        exec("def one(v):\n    return {" + ", ".join(parts) + "}\n", namespace)  # noqa: S102 - names come from the engine
        return namespace["one"]

    def many(self, rows: np.ndarray, mask=None) -> dict:
        """The entries of many rows as arrays with the rows' leading axes; with ``mask``
        (over the first axis) also Gymnasium's ``_name`` masks, and zeros where it is False."""
        lead = rows.shape[:-1]
        if mask is not None:
            rows = rows * mask.reshape((-1,) + (1,) * (rows.ndim - 1))
        converted = {dt: rows.astype(dt) for dt in self._dtypes}  # one conversion per dtype, then views
        out = {}
        for name, begin, end, shape, dtype in self.items:
            out[name] = converted[_NUMPY_DTYPES[dtype]][..., begin:end].reshape(lead + shape)
            if mask is not None:
                out["_" + name] = mask
        return out


_NUMPY_DTYPES = {"int32": np.int32, "bool": np.bool_, "float32": np.float32, "float64": np.float32}


class BatchEngine:
    """A C++ batch of ``num_envs`` worlds of one domain and the numpy buffers it uses.

    ``module`` is the domain's engine module (``trackfield._engine.football``, ...);
    ``config`` its engine config. ``obs_fields``, if given, declares the observation
    row as named fields (name, shape, dtype, low, high, description): observations are
    then dicts (football's ``raw``). ``obs_bounds`` = (low, high) bounds the Box of
    float observations (default unbounded; uint8 observations are [0, 255]).
    """

    def __init__(self, module, config, num_envs: int = 1, num_threads: int = 1, autoreset: bool = False,
                 obs_fields=None, obs_bounds=None):
        layout = module.layout(config)
        self.layout = layout
        self.num_envs = n = num_envs
        self.num_agents = a = layout["num_agents"]
        # Optional name of agent slot k in error messages (racing: the car, "car_3"); None: "agent k".
        self.agent_name = None
        self._bound_pairs = None  # (low, high) per action element, built on first use
        # Entries every info carries unchanged (racing: {"scenario": name}).
        self.constant_info = {}
        self.obs_shape = tuple(layout["obs_shape"])
        self.reward_component_names = tuple(layout["reward_components"])
        self.world_info_fields = InfoFields(layout["world_info"])
        self.agent_info_fields = InfoFields(layout["agent_info"])
        self.episode_stat_fields = InfoFields(layout["episode_stats"])
        obs_dtype = np.dtype(layout["obs_dtype"])
        action_dtype = np.dtype(layout["action_dtype"])
        self.discrete = action_dtype == np.int32
        self.action_size = layout["action_size"]
        self.action_low = np.asarray(layout["action_low"], dtype=np.float64)
        self.action_high = np.asarray(layout["action_high"], dtype=np.float64)
        # One discrete value per agent: the single env's fast path checks it in Python ints.
        self.scalar_range = ((int(self.action_low[0]), int(self.action_high[0]))
                             if self.discrete and self.action_size == 1 else None)
        k, s = len(self.reward_component_names), self.episode_stat_fields.size
        w, g = self.world_info_fields.size, self.agent_info_fields.size
        self.buffers = {
            "obs": np.zeros((n, a) + self.obs_shape, obs_dtype),
            "final_obs": np.zeros((n, a) + self.obs_shape, obs_dtype),
            "actions": np.zeros((n, a, self.action_size), action_dtype),
            "rewards": np.zeros((n, a), np.float32),
            "reward_components": np.zeros((n, a, k), np.float32),
            "terminated": np.zeros(n, np.bool_),
            "truncated": np.zeros(n, np.bool_),
            "live": np.zeros((n, a), np.bool_),
            "agent_terminated": np.zeros((n, a), np.bool_),
            "agent_truncated": np.zeros((n, a), np.bool_),
            "episode_return": np.zeros((n, a), np.float32),
            "episode_length": np.zeros(n, np.int32),
            "episode_stats": np.zeros((n, s), np.float64),
            "world_info": np.zeros((n, w), np.float64),
            "agent_info": np.zeros((n, a, g), np.float64),
            "final_world_info": np.zeros((n, w), np.float64),
            "final_agent_info": np.zeros((n, a, g), np.float64),
        }
        for name, array in self.buffers.items():
            setattr(self, name, array)
        cores = default_threads()
        if isinstance(num_threads, (int, np.integer)) and not isinstance(num_threads, bool) and num_threads > cores:
            # more threads than CPUs only take turns on them (1,000 threads ran 5x slower)
            warnings.warn(f"num_threads={num_threads} is more than the {cores} CPUs this process may use; "
                          f"using {cores}", RuntimeWarning, stacklevel=4)
            num_threads = cores
        self.batch = module.Batch(config, n, num_threads, autoreset, self.buffers)
        self._slicer = FieldSlicer(obs_fields) if obs_fields is not None else None
        self._obs_views = None  # batch_obs_views(), built on first use
        self.obs_fields = obs_fields
        self.agent_observation_space = self._agent_observation_space(obs_bounds)
        self.agent_action_space = self._agent_action_space()

    # ------------------------------------------------------------------ spaces

    def _agent_observation_space(self, bounds):
        if self.obs_fields is not None:
            return dict_space(self.obs_fields)
        if self.buffers["obs"].dtype == np.uint8:
            return spaces.Box(0, 255, self.obs_shape, np.uint8)
        low, high = bounds if bounds is not None else (-np.inf, np.inf)
        return spaces.Box(low, high, self.obs_shape, np.float32)

    def _agent_action_space(self):
        if self.discrete and self.action_size == 1:
            low, high = int(self.action_low[0]), int(self.action_high[0])
            return spaces.Discrete(high - low + 1, start=low)
        if self.discrete:
            return spaces.MultiDiscrete((self.action_high - self.action_low + 1).astype(np.int64),
                                        start=self.action_low.astype(np.int64))
        return spaces.Box(self.action_low.astype(np.float32), self.action_high.astype(np.float32),
                          (self.action_size,), np.float32)

    def world_observation_space(self):
        """One world's observation: the agent's space, or all agents' stacked on a first axis."""
        if self.obs_fields is not None:
            return dict_space(self.obs_fields, () if self.num_agents == 1 else (self.num_agents,))
        return stack_space(self.agent_observation_space, self.num_agents)

    def world_action_space(self):
        return stack_space(self.agent_action_space, self.num_agents)

    # ------------------------------------------------------------------ actions

    def action_error(self, value) -> str:
        """Why ``value`` (one agent's action) is not valid, or '' if it is."""
        if not self.discrete and type(value) is np.ndarray and value.dtype.kind == "f" \
                and value.size == self.action_size:
            # The common case, kept cheap: a float array inside the box (NaN fails the
            # comparisons and takes the full check below, which names the problem).
            bounds = self._bound_pairs
            if bounds is None:
                bounds = self._bound_pairs = list(zip(self.action_low.tolist(), self.action_high.tolist()))
            if all(lo <= v <= hi for v, (lo, hi) in zip(value.ravel().tolist(), bounds)):
                return ""
        arr = _as_array(value)
        if arr is None:
            return f"cannot be read as numbers: {value!r}"
        if arr.dtype == np.bool_:
            return f"must be {'ints' if self.discrete else 'numbers'}, not booleans"
        if self.discrete and not np.issubdtype(arr.dtype, np.integer):
            return f"must be ints, got dtype {arr.dtype}"
        if not self.discrete and not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
            return f"must be numbers, got dtype {arr.dtype}"
        if arr.size != self.action_size:
            return f"must have {self.action_size} element(s), got shape {arr.shape}"
        flat = arr.reshape(-1)
        if not self.discrete and not np.all(np.isfinite(flat)):
            return f"must be finite, got {flat.tolist()}"
        if np.any(flat < self.action_low) or np.any(flat > self.action_high):
            return f"must lie in {self.bounds_text()}, got {flat.tolist()}"
        return ""

    def bounds_text(self) -> str:
        if self.discrete and self.action_size == 1:
            return f"[{int(self.action_low[0])}, {int(self.action_high[0])}]"
        return " x ".join(f"[{lo:g}, {hi:g}]" for lo, hi in zip(self.action_low, self.action_high))

    def set_batch_actions(self, actions, expected_lead) -> None:
        """Checks a whole batch of actions (shape ``expected_lead`` + the agent's action
        shape) and copies it into the engine's buffer; raises ValueError naming the problem."""
        a = _as_array(actions)
        agent_shape = () if self.action_size == 1 and self.discrete else (self.action_size,)
        expected = tuple(expected_lead) + agent_shape
        if self.num_agents == 0 and a is not None and a.size == 0 and a.dtype != object:
            return  # no agent (built-in AI only): an empty list is the action
        if a is None or a.dtype == np.bool_ or a.dtype == object:
            raise ValueError(f"actions must be a numeric array of shape {expected}, got {actions!r:.80}")
        if self.discrete and not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions must be integers in {self.bounds_text()}, got dtype {a.dtype}")
        if not self.discrete and not (np.issubdtype(a.dtype, np.floating) or np.issubdtype(a.dtype, np.integer)):
            raise ValueError(f"actions must be numbers, got dtype {a.dtype}")
        if a.shape != expected:
            raise ValueError(f"actions must have shape {expected}, got {a.shape}")
        flat = a.reshape(-1, self.action_size)
        if flat.size:
            if not self.discrete and not np.all(np.isfinite(flat)):
                row = int(np.flatnonzero(~np.all(np.isfinite(flat), axis=1))[0])
                raise ValueError(f"actions must be finite; {self._where(row, expected_lead)} got {flat[row].tolist()}")
            if self.scalar_range is not None:  # one discrete value per agent: min/max is enough
                low, high = self.scalar_range
                bad = None if low <= flat.min() and flat.max() <= high else (flat[:, 0] < low) | (flat[:, 0] > high)
            else:
                bad = np.any((flat < self.action_low) | (flat > self.action_high), axis=1)
            if bad is not None and bad.any():
                row = int(np.flatnonzero(bad)[0])
                raise ValueError(f"actions must lie in {self.bounds_text()}; {self._where(row, expected_lead)} "
                                 f"got {flat[row].tolist() if flat.shape[1] > 1 else flat[row, 0].item()}")
        np.copyto(self.actions, flat.reshape(self.actions.shape), casting="unsafe")

    def _where(self, row: int, lead) -> str:
        name = self.agent_name or (lambda k: f"agent {k}")
        if len(lead) == 2:
            return f"world {row // lead[1]}, {name(row % lead[1])}"
        if len(lead) == 1 and self.num_agents == 1:
            return f"world {row}" + (f", {name(0)}" if self.agent_name else "")
        return name(row)

    # ------------------------------------------------------------------ views

    def agent_obs(self, source: np.ndarray, i: int, a: int):
        """World i's agent a observation in its public form (a copy)."""
        row = source[i, a]
        return self._slicer.split(row) if self._slicer is not None else row.copy()

    def world_obs(self, source: np.ndarray, i: int):
        """World i's observation in its public form (a copy)."""
        rows = source[i]
        if self.num_agents == 1:
            rows = rows[0]
        if self._slicer is not None:
            return self._slicer.split(rows, () if self.num_agents == 1 else (self.num_agents,))
        return rows.copy()

    def batch_obs(self, source: np.ndarray):
        """Every world's observation, batched (a copy)."""
        lead = (self.num_envs,) if self.num_agents == 1 else (self.num_envs, self.num_agents)
        rows = source[:, 0] if self.num_agents == 1 else source
        if self._slicer is not None:
            return self._slicer.split(rows, lead)
        return rows.copy()

    def batch_obs_views(self):
        """Every world's observation as read-only views of the ``obs`` buffer (no copy):
        they change in place at the next step or reset. Fields that are not float32 in
        the public form (integer scalars) are still copies."""
        lead = (self.num_envs,) if self.num_agents == 1 else (self.num_envs, self.num_agents)
        rows = self.obs[:, 0] if self.num_agents == 1 else self.obs
        views = self._obs_views
        if views is None:
            if self._slicer is None:
                views = rows.view()
                views.flags.writeable = False
            else:
                views = {}
                for name, begin, end, shape, dt in self._slicer.items:
                    if dt is not rows.dtype.type or (dt is np.int32 and not shape):
                        continue  # converted every step, below
                    view = rows[..., begin:end].reshape(lead + shape)
                    view.flags.writeable = False
                    views[name] = view
            self._obs_views = views
        if self._slicer is None:
            return views
        return {item[0]: views[item[0]] if item[0] in views else self._slicer.field(rows, item, lead)
                for item in self._slicer.items}

    def info_of(self, i: int, final: bool = False) -> dict:
        """``info`` of world i: its info fields and reward components (per agent as arrays
        when it has several agents), plus ``live`` when agents may come and go."""
        if self.num_agents == 1:  # every single-env step: built in C++ in one call
            info = self.batch.info_one(i, final)
            if self.constant_info:
                info.update(self.constant_info)
            return info
        world = self.final_world_info if final else self.world_info
        agent = self.final_agent_info if final else self.agent_info
        info = self.world_info_fields.one(world[i])
        comps = self.reward_components[i]
        info.update(self.agent_info_fields.many(agent[i]))
        info["reward_components"] = {name: comps[:, k].copy() for k, name in enumerate(self.reward_component_names)}
        if self.constant_info:
            info.update(self.constant_info)
        return info

    def agent_info_of(self, i: int, a: int) -> dict:
        """``info`` of world i's agent a: its reward components, its info fields and the world's."""
        info = {"reward_components": {name: float(self.reward_components[i, a, k])
                                      for k, name in enumerate(self.reward_component_names)}}
        info.update(self.world_info_fields.one(self.world_info[i]))
        info.update(self.agent_info_fields.one(self.agent_info[i, a]))
        info.update(self.constant_info)
        return info

    def batch_info(self) -> dict:
        """Vector-env ``info``: reward components and info fields as arrays over worlds."""
        comps = self.reward_components[:, 0] if self.num_agents == 1 else self.reward_components
        info = {"reward_components": {name: comps[..., k].copy() for k, name in enumerate(self.reward_component_names)}}
        info.update(self.world_info_fields.many(self.world_info))
        agents = self.agent_info[:, 0] if self.num_agents == 1 else self.agent_info
        info.update(self.agent_info_fields.many(agents))
        for key, value in self.constant_info.items():
            info[key] = np.full(self.num_envs, value, dtype=object)
        return info

    def final_batch_info(self, done: np.ndarray) -> dict:
        """The info fields of the worlds whose episode ended, as of its last state, each
        with its ``_name`` mask (Gymnasium's layout of ``info["final_info"]``)."""
        info = self.world_info_fields.many(self.final_world_info, done)
        if self.agent_info_fields.size:
            agents = self.final_agent_info[:, 0] if self.num_agents == 1 else self.final_agent_info
            info.update(self.agent_info_fields.many(agents, done))
        return info

    def episode_info(self, done: np.ndarray) -> dict:
        """Gymnasium's ``info["episode"]`` for the worlds whose episode ended: return
        ``r`` (per agent when there are several), length ``l`` and the domain's statistics."""
        ret = self.episode_return[:, 0] if self.num_agents == 1 else self.episode_return
        out = {"r": ret * (done if self.num_agents == 1 else done[:, None]),
               "l": self.episode_length * done}
        out.update(self.episode_stat_fields.many(self.episode_stats, done))
        for name in self.episode_stat_fields.names:
            del out["_" + name]
        return out


def stack_space(space, n: int):
    """``space`` for one agent, or n of them (0 included) on a leading axis."""
    if n == 1:
        return space
    if n == 0 and isinstance(space, spaces.Discrete):
        return spaces.MultiDiscrete(np.zeros(0, np.int64))
    if isinstance(space, spaces.Discrete):
        return spaces.MultiDiscrete(np.full(n, space.n), start=np.full(n, space.start))
    def spread(values):
        return np.broadcast_to(values, (n,) + values.shape).copy()

    if isinstance(space, spaces.MultiDiscrete):
        return spaces.MultiDiscrete(spread(space.nvec), start=spread(space.start))
    if isinstance(space, spaces.Box):
        return spaces.Box(spread(space.low), spread(space.high), (n,) + space.shape, space.dtype)
    raise TypeError(f"cannot stack {space!r}")


def _as_array(value):
    try:
        return np.asarray(value)
    except Exception:  # noqa: BLE001 - anything unconvertible is a bad action
        return None
