"""PettingZoo's Parallel API over one world of a C++ batch, for every domain.

A domain's parallel env (``FootballParallelEnv``, ...) builds a
:class:`~trackfield.core.engine.BatchEngine` of one world without autoreset and hands
it, with its agent names (one per agent slot), to :meth:`BatchParallelEnv._attach`.
``trackfield.env(name)`` is the AEC form (PettingZoo's ``parallel_to_aec``).

Which agents are in play is the engine's live mask: ``self.agents`` is rebuilt from
it after every step. An agent that leaves (its slot stops being live) is reported
terminated or truncated in that step's dicts, with its last observation and reward,
and is gone from ``agents`` afterwards (PettingZoo's convention); an agent that joins
mid-episode appears in that step's observations and in ``agents`` from then on.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import ParallelEnv

from trackfield.core.engine import BatchEngine
from trackfield.core.single import _state_option, check_open


class BatchParallelEnv(ParallelEnv):
    """One world of a C++ batch as a PettingZoo ``ParallelEnv`` (see the domain classes).

    * ``observation_space(agent)`` / ``action_space(agent)``: the single-agent spaces,
      one object per agent, the same object on every call.
    * ``infos[agent]``: the agent's unweighted ``reward_components`` and the world's and
      agent's info fields.
    * ``state()``: a global state for centralised critics: the observation of slot 0 as
      the engine stores it (``state_space`` describes it).
    * ``get_state()`` / ``set_state(bytes)``: the world's full state.
    """

    metadata = {"name": "trackfield_v0", "render_modes": ["rgb_array"], "is_parallelizable": True}

    def _attach(self, engine: BatchEngine, agent_names, render_mode=None, render_width: int = 480) -> None:
        if not agent_names:
            raise ValueError(f"{type(self).__name__} has no agent to control: every player, car or vehicle "
                             "is the built-in AI's; give it at least one")
        if len(agent_names) != engine.num_agents:
            raise ValueError(f"{len(agent_names)} agent names for {engine.num_agents} agent slots")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"the parallel env renders with render_mode='rgb_array' (or None), got {render_mode!r}")
        self._engine = engine
        self.render_mode = render_mode
        self._render_width = render_width
        self.possible_agents = list(agent_names)
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.agents: list[str] = []
        obs_space = engine.agent_observation_space
        self.observation_spaces = {agent: copy.deepcopy(obs_space) for agent in self.possible_agents}
        self.action_spaces = {agent: copy.deepcopy(engine.agent_action_space) for agent in self.possible_agents}
        dtype = engine.obs.dtype
        low, high = (0, 255) if dtype == np.uint8 else (-np.inf, np.inf)
        self.state_space = spaces.Box(low, high, engine.obs_shape, dtype)
        self._idle = np.zeros(engine.action_size, engine.actions.dtype)
        self._idle[:] = np.maximum(engine.action_low, np.minimum(0, engine.action_high)).astype(engine.actions.dtype)
        self._ever_reset = False

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent):
        return self.observation_spaces[self._check_name(agent)]

    def action_space(self, agent):
        return self.action_spaces[self._check_name(agent)]

    def _check_name(self, agent):
        if agent not in self._index:
            raise KeyError(f"unknown agent {agent!r}; possible agents: {self.possible_agents}")
        return agent

    # ------------------------------------------------------------------ API

    def _rebuild_agents(self):
        live = self._engine.live[0]
        self.agents = [agent for agent, alive in zip(self.possible_agents, live) if alive]

    def reset(self, seed=None, options=None):
        check_open(self, "reset")
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
            seed = int(seed)
        state = _state_option(options, seed)  # the single env's checks and messages
        if seed is None and state is None and not self._ever_reset:
            # First reset without a seed: draw one (as the Gymnasium envs do). Later
            # unseeded resets continue from the world's own generator.
            seed = int(np.random.default_rng().integers(0, 2**63 - 1))
        if state is not None:
            self.set_state(state)
            if self._engine.terminated[0] or self._engine.truncated[0]:
                raise ValueError("reset: options['state'] holds an episode that already ended")
        else:
            self._engine.batch.reset_one(0, seed)
            self._ever_reset = True
        self._rebuild_agents()
        eng = self._engine
        observations = {agent: eng.agent_obs(eng.obs, 0, self._index[agent]) for agent in self.agents}
        infos = {agent: eng.agent_info_of(0, self._index[agent]) for agent in self.agents}
        return observations, infos

    def _action_value(self, agent, action):
        if isinstance(action, (bool, np.bool_)):
            raise ValueError(f"action for agent {agent!r} must be numbers, not a boolean: {action!r}")
        error = self._engine.action_error(action)
        if error:
            raise ValueError(f"action for agent {agent!r} {error}")
        return np.asarray(action).reshape(-1)

    def step(self, actions):
        check_open(self, "step")
        if not self._ever_reset:
            raise RuntimeError("step() called before reset()")
        if not self.agents:
            raise RuntimeError("step() called after every agent left the episode; call reset()")
        if not isinstance(actions, Mapping):
            raise TypeError(f"actions must be a dict {{agent: action}}, got {type(actions).__name__}")
        for agent in actions:
            if agent not in self._index:
                raise KeyError(f"action for unknown agent {agent!r}; possible agents: {self.possible_agents}")
            if agent not in self.agents:
                raise ValueError(f"action for agent {agent!r}, which is not in play; live agents: {self.agents}")
        acting = list(self.agents)
        eng = self._engine
        values = np.tile(self._idle, (eng.num_agents, 1))  # slots not in play: idle
        for agent in acting:
            if agent not in actions:
                raise KeyError(f"no action for live agent {agent!r}; step() needs one for each of {acting}")
            values[self._index[agent]] = self._action_value(agent, actions[agent])
        eng.actions[0] = values
        eng.batch.step()

        self._rebuild_agents()
        observations, rewards, terminations, truncations, infos = {}, {}, {}, {}, {}
        for agent in acting + [a for a in self.agents if a not in acting]:
            i = self._index[agent]
            observations[agent] = eng.agent_obs(eng.obs, 0, i)
            rewards[agent] = float(eng.rewards[0, i]) if agent in acting else 0.0
            terminations[agent] = bool(eng.agent_terminated[0, i])
            truncations[agent] = bool(eng.agent_truncated[0, i])
            infos[agent] = eng.agent_info_of(0, i)
        return observations, rewards, terminations, truncations, infos

    def render(self):
        if self.render_mode is None:
            logger.warn("render() called without render_mode; pass render_mode='rgb_array' to the constructor")
            return None
        return self._engine.batch.render(0, self._render_width)

    def close(self):
        self._closed = True

    def state(self) -> np.ndarray:
        """Global state: slot 0's observation as the engine stores it."""
        if not self._ever_reset:
            raise RuntimeError("state() called before reset()")
        return self._engine.obs[0, 0].copy()

    def get_state(self) -> bytes:
        """The world's full state (RNG and frame stack included) as bytes."""
        return self._engine.batch.get_state(0)

    def set_state(self, state: bytes) -> None:
        """Restores a ``get_state()`` of an env with the same scenario and config; the
        agents in play are those of the restored world."""
        if not isinstance(state, (bytes, bytearray)):
            raise TypeError(f"state must be bytes from get_state(), got {type(state).__name__}")
        self._engine.batch.set_state(0, bytes(state))
        self._ever_reset = True
        self._rebuild_agents()

    def observe(self, agent):
        """The current observation of ``agent`` (as the last reset/step returned it)."""
        return self._engine.agent_obs(self._engine.obs, 0, self._index[self._check_name(agent)])

    @property
    def unwrapped_engine(self) -> BatchEngine:
        return self._engine


__all__ = ["BatchParallelEnv"]
