"""Stable-Baselines3's ``VecEnv`` API over a trackfield vector env.

>>> import trackfield
>>> from trackfield.core.sb3 import to_sb3
>>> venv = to_sb3(trackfield.vector.make("academy_empty_goal_close", num_envs=8))
>>> # stable_baselines3.PPO("MlpPolicy", venv).learn(100_000)

The worlds step together inside C++ and reset themselves in the step their episode
ends (Gymnasium's SAME_STEP autoreset), which is exactly SB3's own convention: the
returned observation of an ended env is the new episode's first, and
``infos[i]["terminal_observation"]`` holds the last one of the ended episode.

Stable-Baselines3 is imported only when an adapter is built (``to_sb3``, or the first
access to ``SB3VecEnv``), so trackfield itself does not depend on it; it comes with
the ``train`` extra.
"""
from __future__ import annotations

import functools
import importlib
import inspect
import time

import numpy as np


def to_sb3(vector_env):
    """Wraps a trackfield vector env (one agent per world) as an SB3 ``VecEnv``."""
    return _sb3_vec_env_class()(vector_env)


def __getattr__(name):
    if name == "SB3VecEnv":
        return _sb3_vec_env_class()
    if name == "RewardComponentsCallback":
        return _reward_components_callback_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _from_sb3(module: str, name: str):
    """``name`` from ``stable_baselines3.<module>``, imported only when an adapter is built."""
    try:
        return getattr(importlib.import_module(f"stable_baselines3.{module}"), name)
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError("trackfield.core.sb3 needs stable-baselines3: pip install 'trackfield[train]'") from e


@functools.lru_cache(maxsize=None)
def _reward_components_callback_class():
    BaseCallback = _from_sb3("common.callbacks", "BaseCallback")  # noqa: N806 - a class

    class RewardComponentsCallback(BaseCallback):
        """Logs the mean of every ``info["reward_components"]`` entry to SB3's logger
        (``reward_components/<name>``; TensorBoard shows one curve per component).

        Values are averaged over every env step (and every agent, where a component is
        an array) since the last record; a record is made at the end of each rollout once
        ``min_steps`` env steps have been seen (1: every PPO rollout; use about 1000 for
        SAC, whose rollouts are a step or a few). ``last_means`` holds the last record.
        """

        def __init__(self, prefix: str = "reward_components", min_steps: int = 1, verbose: int = 0):
            super().__init__(verbose)
            self.prefix, self.min_steps = prefix, min_steps
            self.last_means: dict = {}
            self._sums: dict = {}
            self._counts: dict = {}
            self._steps = 0

        def _on_step(self) -> bool:
            for info in self.locals.get("infos", ()):
                for name, value in (info.get("reward_components") or {}).items():
                    self._sums[name] = self._sums.get(name, 0.0) + float(np.mean(value))
                    self._counts[name] = self._counts.get(name, 0) + 1
            self._steps += len(self.locals.get("infos", ()))
            return True

        def _on_rollout_end(self) -> None:
            if self._steps < self.min_steps or not self._counts:
                return
            self.last_means = {name: self._sums[name] / self._counts[name] for name in self._sums}
            for name, mean in self.last_means.items():
                self.logger.record(f"{self.prefix}/{name}", mean)
            self._sums, self._counts, self._steps = {}, {}, 0

    RewardComponentsCallback.__module__ = __name__
    RewardComponentsCallback.__qualname__ = "RewardComponentsCallback"
    return RewardComponentsCallback


def _copy_obs(obs):
    if isinstance(obs, dict):
        return {k: np.array(v, copy=True) for k, v in obs.items()}
    return np.array(obs, copy=True)


@functools.lru_cache(maxsize=None)
def _sb3_vec_env_class():
    VecEnv = _from_sb3("common.vec_env.base_vec_env", "VecEnv")  # noqa: N806 - a class

    class SB3VecEnv(VecEnv):
        """A trackfield vector env (any domain's ``BatchVectorEnv``) behind SB3's ``VecEnv`` API.

        * ``step_wait`` returns ``(obs, rewards, dones, infos)`` with
          ``dones = terminated | truncated``; ``infos`` is a list of one dict per world
          holding ``reward_components`` (this world's floats) and, for worlds whose
          episode ended, ``terminal_observation`` (the ended episode's last observation),
          ``TimeLimit.truncated`` (truncated and not terminated) and ``episode``
          (``{"r": return, "l": length, "t": seconds since the adapter was built}``,
          which SB3's logger reads for ``ep_rew_mean`` without a ``Monitor``;
          ``VecMonitor`` on top replaces it with its own, equal, counts).
        * ``seed(seed)`` stores a seed for the next ``reset()``, which reseeds every world
          from it (world i from ``(seed, i)``, as ``vector_env.reset(seed=seed)``); the seed is
          used once, as in SB3. ``seed`` returns ``[seed] * num_envs`` for that reason.
        * ``get_attr`` / ``set_attr`` read and write attributes of the vector env, shared by
          all worlds (``get_attr`` repeats the value once per requested index).
          ``env_method`` calls a per-world method (one whose first parameter is ``index``,
          such as ``get_state`` / ``set_state``) once per index with that index, and any
          other method once on the vector env, repeating its result per index.
        * The worlds are not ``gymnasium.Env`` objects: ``env_is_wrapped`` is all False.
        * Observations are numpy arrays (dicts of arrays for raw) copied from the engine.
        """

        def __init__(self, vector_env):
            metadata = getattr(vector_env, "metadata", {})
            mode = metadata.get("autoreset_mode")
            if mode is not None and getattr(mode, "name", str(mode)) != "SAME_STEP":
                raise ValueError(f"SB3VecEnv needs a vector env with SAME_STEP autoreset, got {mode!r}")
            num_agents = getattr(vector_env, "num_agents", 1)
            if num_agents != 1:
                raise ValueError(f"SB3VecEnv needs one agent per world, the vector env has {num_agents} "
                                 "(football: number_of_left_players_agent_controls=1, "
                                 "number_of_right_players_agent_controls=0)")
            self.vector_env = vector_env
            self._actions = None
            self._seed = None
            self._t_start = time.time()
            super().__init__(vector_env.num_envs, vector_env.single_observation_space,
                             vector_env.single_action_space)

        # ---------------------------------------------------------- stepping

        def reset(self):
            options = next((o for o in self._options if o), None)
            obs, info = self.vector_env.reset(seed=self._seed, options=options)
            self._seed = None  # seeds and options are used once, as in SB3
            self._reset_seeds()
            self._reset_options()
            self.reset_infos = [{} for _ in range(self.num_envs)]
            return _copy_obs(obs)

        def step_async(self, actions) -> None:
            self._actions = actions

        def step_wait(self):
            if self._actions is None:
                raise RuntimeError("step_wait() called without step_async()")
            actions = np.asarray(self._actions)
            self._actions = None
            if actions.ndim > 1 and actions.size == self.num_envs:
                actions = actions.reshape(self.num_envs)  # (n, 1) from some policies
            obs, rewards, terminated, truncated, info = self.vector_env.step(actions)
            dones = np.logical_or(terminated, truncated)
            components = info.get("reward_components", {})
            infos = [{"reward_components": {name: float(values[i]) for name, values in components.items()}}
                     for i in range(self.num_envs)]
            if dones.any():
                final_obs = info["final_obs"]
                episode = info.get("episode")
                elapsed = round(time.time() - self._t_start, 6)
                for i in np.flatnonzero(dones):
                    d = infos[i]
                    d["terminal_observation"] = _copy_obs(final_obs[i])
                    d["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                    if episode is not None:
                        d["episode"] = {"r": float(episode["r"][i]), "l": int(episode["l"][i]), "t": elapsed}
            return (_copy_obs(obs), np.asarray(rewards, dtype=np.float32).copy(), dones, infos)

        def close(self) -> None:
            self.vector_env.close()

        def seed(self, seed=None):
            if seed is None:
                seed = int(np.random.randint(0, np.iinfo(np.uint32).max, dtype=np.uint32))
            self._seed = int(seed)
            return [self._seed] * self.num_envs

        # ---------------------------------------------------------- attributes

        def get_attr(self, attr_name, indices=None):
            value = getattr(self.vector_env, attr_name)
            return [value for _ in self._get_indices(indices)]

        def set_attr(self, attr_name, value, indices=None) -> None:
            setattr(self.vector_env, attr_name, value)

        def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
            method = getattr(self.vector_env, method_name)
            targets = list(self._get_indices(indices))
            try:
                params = list(inspect.signature(method).parameters)
            except (TypeError, ValueError):
                params = []
            if params and params[0] == "index":
                return [method(i, *method_args, **method_kwargs) for i in targets]
            result = method(*method_args, **method_kwargs)
            return [result for _ in targets]

        def env_is_wrapped(self, wrapper_class, indices=None):
            return [False for _ in self._get_indices(indices)]

        def get_images(self):
            frames = self.vector_env.render()
            if frames is None:
                return [None for _ in range(self.num_envs)]
            return list(frames)

    SB3VecEnv.__module__ = __name__
    SB3VecEnv.__qualname__ = "SB3VecEnv"
    return SB3VecEnv


__all__ = ["to_sb3", "SB3VecEnv", "RewardComponentsCallback"]
