"""BatchVectorEnv: many worlds of one domain stepped in one C++ call over threads.

A domain's vector env validates its config, builds a
:class:`~trackfield.core.engine.BatchEngine` with autoreset and hands it to
:meth:`BatchVectorEnv._attach`.
"""
from __future__ import annotations

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from trackfield.core.config import check_int
from trackfield.core.engine import BatchEngine
from trackfield.core.single import _state_option
from trackfield.core.spaces import batch_of


class BatchVectorEnv(VectorEnv):
    """``num_envs`` worlds; ``step`` runs them all inside C++ on ``num_threads``.

    Worlds reset themselves in the same step their episode ends (Gymnasium's
    SAME_STEP autoreset): the returned observation is the new episode's first, and
    ``info["final_obs"]`` (mask ``info["_final_obs"]``) and ``info["final_info"]`` (a dict
    of arrays with ``_key`` masks, as Gymnasium's own vector envs give) hold the ended
    episode's last observation and info fields. ``info["episode"]`` holds return ``r``,
    length ``l`` and the domain's episode statistics of ended episodes (mask
    ``info["_episode"]``). ``info`` also holds the reward components and the domain's
    info fields as arrays over worlds. World i is seeded from ``(seed, i)``, so world 0
    reproduces the single env with the same seed, whatever the thread count.

    Observations are copies by default (``copy=True``, Gymnasium's default). With
    ``copy=False`` (where a domain's vector env takes it) ``reset`` and ``step`` return
    read-only views of the engine's observation buffer instead, as Gymnasium's vector
    envs do with ``copy=False``: no copy per step, but the arrays hold the values of
    their step only until the next ``step()`` or ``reset()``, which overwrites them in
    place; copy what you keep longer. ``info["final_obs"]`` is always a copy.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["rgb_array"]}

    def _attach(self, engine: BatchEngine, render_mode=None, render_width: int = 480, copy: bool = True) -> None:
        if not isinstance(copy, (bool, np.bool_)):
            raise TypeError(f"copy must be True or False, got {copy!r}")
        self._engine = engine
        self.copy = bool(copy)
        self.num_envs = engine.num_envs
        self.num_threads = engine.batch.num_threads
        self.num_agents = engine.num_agents
        self.render_mode = render_mode
        self._render_width = render_width
        self.single_observation_space = engine.world_observation_space()
        self.single_action_space = engine.world_action_space()
        self.observation_space = batch_of(self.single_observation_space, self.num_envs)
        self.action_space = batch_of(self.single_action_space, self.num_envs)
        self._lead = (self.num_envs,) if self.num_agents == 1 else (self.num_envs, self.num_agents)
        self._ever_reset = False
        self._last_reset_mask = None

    def reset(self, *, seed=None, options=None):
        """Resets every world: from ``seed`` (world i from ``(seed, i)``), or with
        ``options={"state": ...}`` restores ``get_state()`` snapshots instead: one bytes for
        every world, or a list of ``num_envs`` (seed must then be None). With
        ``options={"reset_mask": mask}`` (Gymnasium's partial reset: a bool array of shape
        ``(num_envs,)``) only the worlds where ``mask`` is True are reset, from ``(seed, i)``
        or, without a seed, from their own generators; the others carry on as they were and
        the returned observations hold them as they are. Other options are ignored, as
        Gymnasium envs do."""
        if self.closed:
            raise RuntimeError("reset() called after close(); make a new env")
        if isinstance(seed, (list, tuple)):
            raise ValueError("seed must be one int: world i is seeded from (seed, i)")
        batch = self._engine.batch
        state = _state_option(options, seed)
        mask = self._reset_mask(options)
        if seed is not None:
            check_int("seed", seed, 0, 2**64 - 1)
        self._last_reset_mask = mask
        if mask is not None:
            if state is not None:
                raise ValueError("reset: pass either options['reset_mask'] or options['state'], not both")
            if not self._ever_reset:
                raise RuntimeError("reset: options['reset_mask'] resets some worlds only; reset every world first")
            for i in np.flatnonzero(mask):
                batch.reset_one(int(i), seed)
        elif state is not None:
            self._restore_all(state)
        elif seed is not None:
            batch.reset_all(seed)
        elif not self._ever_reset:
            batch.reset_all(int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1))
        else:
            for i in range(self.num_envs):
                batch.reset_one(i)
        self._ever_reset = True
        info = self._engine.batch_info()
        if self.num_agents > 1:
            info["live"] = self._engine.live.copy()
        return self._observations(), info

    def _reset_mask(self, options):
        """``options["reset_mask"]`` as a bool array of shape (num_envs,), or None."""
        if not isinstance(options, dict) or options.get("reset_mask") is None:
            return None
        mask = options["reset_mask"]
        array = np.asarray(mask)
        if array.dtype != np.bool_ or array.shape != (self.num_envs,):
            raise ValueError(f"options['reset_mask'] must be a bool array of shape ({self.num_envs},), got "
                             f"{type(mask).__name__} of dtype {array.dtype} and shape {array.shape}")
        return array.copy()

    def _restore_all(self, state) -> None:
        states = [state] * self.num_envs if isinstance(state, (bytes, bytearray)) else state
        if not isinstance(states, (list, tuple)) or len(states) != self.num_envs:
            raise TypeError(f"options['state'] must be bytes from get_state() (every world) or a list of "
                            f"{self.num_envs} of them (one per world), got {type(state).__name__}"
                            + (f" of length {len(state)}" if isinstance(state, (list, tuple)) else ""))
        for i, world_state in enumerate(states):
            self.set_state(i, world_state)
            if self._engine.terminated[i] or self._engine.truncated[i]:
                raise ValueError(f"reset: options['state'] of world {i} holds an episode that already ended")

    def step(self, actions):
        if self.closed:
            raise RuntimeError("step() called after close(); make a new env")
        if not self._ever_reset:
            raise RuntimeError("step() called before reset()")
        eng = self._engine
        eng.set_batch_actions(actions, self._lead)
        eng.batch.step()
        rewards = eng.rewards[:, 0].copy() if self.num_agents == 1 else eng.rewards.copy()
        terminated = eng.terminated.copy()
        truncated = eng.truncated.copy()
        info = eng.batch_info()
        if self.num_agents > 1:
            info["live"] = eng.live.copy()
        done = terminated | truncated
        if done.any():
            final_obs = np.empty(self.num_envs, dtype=object)
            for i in np.flatnonzero(done):
                final_obs[i] = eng.world_obs(eng.final_obs, i)
            info["final_obs"], info["_final_obs"] = final_obs, done
            info["final_info"], info["_final_info"] = eng.final_batch_info(done), done
            info["episode"], info["_episode"] = eng.episode_info(done), done
        return self._observations(), rewards, terminated, truncated, info

    def _observations(self):
        eng = self._engine
        return eng.batch_obs(eng.obs) if self.copy else eng.batch_obs_views()

    def render(self):
        if self.render_mode != "rgb_array":
            return None
        return tuple(self._engine.batch.render(i, self._render_width) for i in range(self.num_envs))

    def get_state(self, index: int = 0) -> bytes:
        """World ``index``'s full state as bytes."""
        return self._engine.batch.get_state(index)

    def set_state(self, index: int, state: bytes) -> None:
        """Restores world ``index`` from a ``get_state()`` of the same scenario and config."""
        if not isinstance(state, (bytes, bytearray)):
            raise TypeError(f"state must be bytes from get_state(), got {type(state).__name__}")
        self._engine.batch.set_state(index, bytes(state))

    def close_extras(self, **kwargs):
        pass
