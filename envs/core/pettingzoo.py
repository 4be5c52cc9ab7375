"""PettingZoo's Parallel API over a trackfield world: one agent per controlled player.

``trackfield.parallel_env(name, **config)`` builds a :class:`FootballParallelEnv`;
``trackfield.env(name, **config)`` is its AEC form (PettingZoo's ``parallel_to_aec``).

The adapter sits directly on the engine of one world (the same C++ batch a
``FootballEnv`` uses, with ``num_envs=1`` and no autoreset) and splits its batched
per-agent buffers (``obs [1, A, ...]``, ``rewards [1, A]``, ...) into per-agent dicts.

Which agents are live is tracked by a boolean mask over ``possible_agents``;
``self.agents`` is rebuilt from it after every step. In football every agent leaves
at once when the episode ends, but the code path is the generic one that domains
whose agents leave mid-episode (racing, driving) need: an agent is removed the step
it is terminated or truncated, and its last observation, reward and flags are
returned in that step's dicts (PettingZoo's convention).
"""
from __future__ import annotations

import copy
from collections.abc import Mapping

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import ParallelEnv

from trackfield.core.config import config_from_kwargs
from trackfield.core.spaces import dict_space
from trackfield.football.config import FootballConfig
from trackfield.football.engine import REWARD_COMPONENT_NAMES, FootballEngine
from trackfield.football.scenarios import load_scenario

NUM_ACTIONS = 19


def _agent_names(left: int, right: int) -> list[str]:
    return [f"left_{i}" for i in range(left)] + [f"right_{i}" for i in range(right)]


class FootballParallelEnv(ParallelEnv):
    """Football as a PettingZoo ``ParallelEnv``.

    Agents are ``"left_0" .. "left_{L-1}"`` and ``"right_0" .. "right_{R-1}"`` with
    L = ``number_of_left_players_agent_controls`` (default 1) and
    R = ``number_of_right_players_agent_controls`` (default 0); all other config
    keywords are those of :class:`trackfield.football.env.FootballEnv`.

    * ``action_space(agent)``: ``Discrete(19)`` (GRF's default action set).
    * ``observation_space(agent)``: the single-agent space of the representation:
      ``Box(115,)`` float32 for simple115v2 (460 stacked), ``Box(72, 96, 4)`` uint8 for
      smm (16 channels stacked), a ``Dict`` for raw. Right-team agents see the pitch
      rotated by 180 degrees (their own team attacks x = +1), so the spaces are equal.
    * ``infos[agent]``: ``reward_components`` (``{"scoring": float, "checkpoints": float}``,
      this agent's unweighted components) and the world's ``score`` (left, right),
      ``steps``, ``game_mode`` and ``ball_owned_team``.
    * ``state()``: a global state for centralised critics: the observation of
      ``possible_agents[0]`` (``left_0`` when a left player is controlled) in the
      env's representation, as the engine stores it: the simple115v2 vector or the
      smm planes as they are, and for raw the flat float32 row of all raw fields in
      ``raw_fields`` order (``state_space`` describes it). Every representation sees
      the whole pitch, so this view holds every player and the ball.
    * ``get_state()`` / ``set_state(bytes)``: the world's full state, as
      ``FootballEnv.get_state`` / ``set_state``.

    ``reset(seed)`` seeds the world as ``FootballEnv.reset(seed)`` does, so a parallel
    env and a ``FootballEnv`` with the same config, seed and actions play the same game.
    """

    metadata = {"name": "trackfield_football_v0", "render_modes": ["rgb_array"], "is_parallelizable": True}

    def __init__(self, scenario: str = "academy_empty_goal_close", **config):
        self.config = config_from_kwargs(FootballConfig, config, "trackfield.parallel_env")
        if self.config.render_mode not in (None, "rgb_array"):
            raise ValueError(f"the parallel env renders with render_mode='rgb_array' (or None), "
                             f"got {self.config.render_mode!r}")
        self.render_mode = self.config.render_mode
        self.scenario = load_scenario(scenario)
        self._engine = FootballEngine(self.scenario, self.config, num_envs=1, num_threads=1, autoreset=False)
        eng = self._engine
        self.possible_agents = _agent_names(self.config.number_of_left_players_agent_controls,
                                            self.config.number_of_right_players_agent_controls)
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._alive = np.zeros(len(self.possible_agents), dtype=np.bool_)
        self.agents: list[str] = []

        if eng.raw_fields is not None:
            agent_obs_space = dict_space(eng.raw_fields)
            self.state_space = spaces.Box(-np.inf, np.inf, eng.agent_buffer_shape, np.float32)
        elif self.config.representation == "simple115v2":
            agent_obs_space = spaces.Box(-np.inf, np.inf, eng.agent_buffer_shape, np.float32)
            self.state_space = spaces.Box(-np.inf, np.inf, eng.agent_buffer_shape, np.float32)
        else:
            agent_obs_space = spaces.Box(0, 255, eng.agent_buffer_shape, np.uint8)
            self.state_space = spaces.Box(0, 255, eng.agent_buffer_shape, np.uint8)
        # One space object per agent, returned as the same object every call (PettingZoo
        # seeds spaces per agent and checks identity).
        self.observation_spaces = {agent: copy.deepcopy(agent_obs_space) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
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

    # ------------------------------------------------------------------ views

    def _agent_obs(self, i: int):
        eng = self._engine
        row = eng.obs[0, i]
        if eng.raw_fields is not None:
            return eng._slicer.split(row)
        return row.copy()

    def _agent_info(self, i: int) -> dict:
        eng = self._engine
        st = eng.status[0]
        comps = eng.reward_components[0, i]
        return {
            "reward_components": {name: float(comps[k]) for k, name in enumerate(REWARD_COMPONENT_NAMES)},
            "score": (int(st[0]), int(st[1])),
            "steps": int(st[2]),
            "game_mode": int(st[3]),
            "ball_owned_team": int(st[4]),
        }

    def _agent_done_flags(self):
        """Per-agent (terminated, truncated) after a step. A football world ends for all
        its agents at once; domains with agents leaving mid-episode report per agent."""
        n = len(self.possible_agents)
        eng = self._engine
        return (np.full(n, bool(eng.terminated[0]), dtype=np.bool_),
                np.full(n, bool(eng.truncated[0]), dtype=np.bool_))

    def _rebuild_agents(self):
        self.agents = [agent for agent, alive in zip(self.possible_agents, self._alive) if alive]

    # ------------------------------------------------------------------ API

    def reset(self, seed=None, options=None):
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
            seed = int(seed)
        elif not self._ever_reset:
            # First reset without a seed: draw one (as FootballEnv does). Later unseeded
            # resets continue from the world's own generator.
            seed = int(np.random.default_rng().integers(0, 2**63 - 1))
        self._engine.batch.reset_one(0, seed)
        self._ever_reset = True
        self._alive[:] = True
        self._rebuild_agents()
        observations = {agent: self._agent_obs(self._index[agent]) for agent in self.agents}
        infos = {agent: self._agent_info(self._index[agent]) for agent in self.agents}
        return observations, infos

    def _action_value(self, agent, action) -> int:
        if isinstance(action, (bool, np.bool_)):
            raise ValueError(f"action for agent {agent!r} must be an int in [0, 18], got {action!r}")
        if isinstance(action, (int, np.integer)):
            a = int(action)
        else:
            try:
                arr = np.asarray(action)
            except Exception:  # noqa: BLE001 - anything unconvertible is a bad action
                arr = None
            if arr is None or arr.size != 1 or not np.issubdtype(arr.dtype, np.integer):
                raise ValueError(f"action for agent {agent!r} must be an int in [0, 18], got {action!r}")
            a = int(arr.reshape(()))
        if not 0 <= a < NUM_ACTIONS:
            raise ValueError(f"action for agent {agent!r} must be an int in [0, 18], got {a}")
        return a

    def step(self, actions):
        if not self._ever_reset:
            raise RuntimeError("step() called before reset()")
        if not self.agents:
            raise RuntimeError("step() called after every agent left the episode; call reset()")
        if not isinstance(actions, Mapping):
            raise TypeError(f"actions must be a dict {{agent: action}}, got {type(actions).__name__}")
        for agent in actions:
            if agent not in self._index:
                raise KeyError(f"action for unknown agent {agent!r}; possible agents: {self.possible_agents}")
            if not self._alive[self._index[agent]]:
                raise ValueError(f"action for agent {agent!r}, which already left the episode; "
                                 f"live agents: {self.agents}")
        acting = list(self.agents)
        values = np.zeros(len(self.possible_agents), dtype=np.int32)  # agents that left: idle
        for agent in acting:
            if agent not in actions:
                raise KeyError(f"no action for live agent {agent!r}; step() needs one for each of {acting}")
            values[self._index[agent]] = self._action_value(agent, actions[agent])
        eng = self._engine
        eng.actions[0] = values
        eng.batch.step()

        terminated, truncated = self._agent_done_flags()
        observations, rewards, terminations, truncations, infos = {}, {}, {}, {}, {}
        for agent in acting:
            i = self._index[agent]
            observations[agent] = self._agent_obs(i)
            rewards[agent] = float(eng.rewards[0, i])
            terminations[agent] = bool(terminated[i])
            truncations[agent] = bool(truncated[i])
            infos[agent] = self._agent_info(i)
        self._alive &= ~(terminated | truncated)
        self._rebuild_agents()
        return observations, rewards, terminations, truncations, infos

    def render(self):
        if self.render_mode is None:
            logger.warn("render() called without render_mode; pass render_mode='rgb_array' to the constructor")
            return None
        return self._engine.batch.render(0, self.config.render_width)

    def close(self):
        pass

    def state(self) -> np.ndarray:
        """Global state: ``possible_agents[0]``'s view as the engine stores it (see the class doc)."""
        if not self._ever_reset:
            raise RuntimeError("state() called before reset()")
        return self._engine.obs[0, 0].copy()

    def get_state(self) -> bytes:
        """The world's full state (RNG, sticky actions and frame stack included) as bytes."""
        return self._engine.batch.get_state(0)

    def set_state(self, state: bytes) -> None:
        """Restores a ``get_state()`` of an env with the same scenario and config; the
        agents are live again unless the restored world had ended."""
        if not isinstance(state, (bytes, bytearray)):
            raise TypeError(f"state must be bytes from get_state(), got {type(state).__name__}")
        self._engine.batch.set_state(0, bytes(state))
        self._ever_reset = True
        done = bool(self._engine.terminated[0] or self._engine.truncated[0])
        self._alive[:] = not done
        self._rebuild_agents()

    def observe(self, agent):
        """The current observation of ``agent`` (as the last reset/step returned it)."""
        return self._agent_obs(self._index[self._check_name(agent)])

    @property
    def unwrapped_engine(self) -> FootballEngine:
        return self._engine


__all__ = ["FootballParallelEnv"]
