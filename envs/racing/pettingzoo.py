"""RacingParallelEnv: racing as a PettingZoo ``ParallelEnv``, one agent per controlled car."""
from __future__ import annotations

import numpy as np

from trackfield.core.config import config_from_kwargs
from trackfield.core.pettingzoo import BatchParallelEnv
from trackfield.racing.config import RacingConfig
from trackfield.racing.engine import make_engine
from trackfield.racing.env import race_state_hook
from trackfield.racing.scenarios import load_racing_scenario


class RacingParallelEnv(BatchParallelEnv):
    """Racing as a PettingZoo ``ParallelEnv``.

    Agents are ``"car_0" .. "car_{k-1}"`` for the first ``agents`` cars of each group
    (default 1, at least 1; with ``groups=g`` the names run on over the groups: group 1's first car
    is ``car_{agents}``); the scenario's other cars are driven by the built-in AI. All
    other keywords are :class:`trackfield.racing.env.RacingEnv`'s.

    * ``action_space(agent)``: ``Box(-1, 1, (2,), float32)``.
    * ``observation_space(agent)``: the single-agent space of ``observation``.
    * ``infos[agent]``: ``reward_components`` and the car's ``lap``, ``progress_m``,
      ``place``, ``off_course``, lap times and the race ``time_s``.

    Every agent leaves when the episode ends (all agents finished, or the time limit).
    """

    metadata = {"name": "trackfield_racing_v0", "render_modes": ["rgb_array"], "is_parallelizable": True}

    def __init__(self, scenario: str = "race_1v1", **config):
        self.config = config_from_kwargs(RacingConfig, config, "trackfield.parallel_env")
        if self.config.agents == 0:
            raise ValueError("agents=0 leaves parallel_env no car to control; trackfield.make(..., agents=0) "
                             "or trackfield.vector.make(..., agents=0) race the AI cars alone")
        self.scenario = load_racing_scenario(scenario, self.config.section)
        if self.config.render_mode not in (None, "rgb_array"):
            raise ValueError(f"the parallel env renders with render_mode='rgb_array' (or None), "
                             f"got {self.config.render_mode!r}")
        engine = make_engine(self.scenario, self.config, num_envs=1, num_threads=1, autoreset=False)
        self.track = engine.track
        names = [f"car_{i}" for i in range(engine.num_agents)]
        self._attach(engine, names, self.config.render_mode, self.config.render_width)
        self._race_hook = race_state_hook(self, self.config.groups * self.scenario.cars)

    def reset(self, seed=None, options=None):
        observations, infos = super().reset(seed=seed, options=options)
        if self._race_hook is not None:
            self._race_hook.parallel_reset(infos, self._index)
        return observations, infos

    def step(self, actions):
        observations, rewards, terminations, truncations, infos = super().step(actions)
        if self._race_hook is not None:
            raw = self._engine.world_info[0, 1:].astype(np.float32)
            rewards = self._race_hook.parallel_step(rewards, infos, self._index, raw)
        return observations, rewards, terminations, truncations, infos

    def set_state(self, state: bytes) -> None:
        super().set_state(state)
        if self._race_hook is not None:
            self._race_hook.restored(self._engine)


__all__ = ["RacingParallelEnv"]
