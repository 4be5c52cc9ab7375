"""DrivingParallelEnv: driving as a PettingZoo ``ParallelEnv``, agents coming and going."""
from __future__ import annotations

from trackfield.core.config import config_from_kwargs
from trackfield.core.pettingzoo import BatchParallelEnv
from trackfield.driving.config import DrivingConfig
from trackfield.driving.engine import make_engine
from trackfield.driving.scenarios import load_driving_scenario
from trackfield.driving.window import HumanWindow, ShowsHumanWindow, frame


class DrivingParallelEnv(ShowsHumanWindow, BatchParallelEnv):
    """Driving as a PettingZoo ``ParallelEnv``: every controlled vehicle is an agent.

    An agent is named ``"vehicle_<k>"`` with k its identity in the episode (0, 1, ...:
    spawn order). An agent that collides, leaves the road or reaches its final goal is
    terminated and leaves; with ``respawn=True`` (town_self_play's default) its slot takes
    a new agent, with a new name, one step later. ``possible_agents`` is declared up front:
    every name an episode can use, ``vehicle_0`` to ``vehicle_<n-1>`` with n the most
    agents in play times (``max_steps`` + 1) with respawns (each agent in play ends at most
    once a step), else the most agents in play. Every agent shares one observation space
    and one action space. All other keywords are ``DrivingEnv``'s.
    """

    metadata = {"name": "trackfield_driving_v0", "render_modes": ["rgb_array", "human"], "is_parallelizable": True,
                "render_fps": 10}

    def __init__(self, scenario: str = "town_self_play", **config):
        self.config = config_from_kwargs(DrivingConfig, config, "trackfield.parallel_env")
        self.scenario = load_driving_scenario(scenario)
        engine = make_engine(self.scenario, self.config, num_envs=1, num_threads=1, autoreset=False)
        human = self.config.render_mode == "human"
        self._attach(engine, [f"slot_{k}" for k in range(engine.num_agents)],
                     None if human else self.config.render_mode, self.config.render_width)
        self._render_view = self.config.render_view
        self._human = (HumanWindow(engine, self.config.render_width, self.metadata["render_fps"], self._render_view)
                       if human else None)
        if human:
            self.render_mode = "human"
        self._obs_space = engine.agent_observation_space
        self._act_space = engine.agent_action_space
        cfg = engine.drive_config
        most = cfg.agents_max if cfg.agents_max > 0 else cfg.slots
        identities = most * (cfg.episode_steps + 1) if cfg.respawn else most
        self.names_agents_as_they_spawn = bool(cfg.respawn)
        # one list for the env's life: PettingZoo's AEC converter keeps a reference to it
        self.possible_agents = [f"vehicle_{k}" for k in range(identities)]
        self._index = {}

    def _ego_frames(self):
        return frame(self._engine, 0, self._render_width, "ego")

    def _slot_name(self, slot: int) -> str:
        return f"vehicle_{int(self._engine.agent_info[0, slot, 0])}"

    def _rebuild_agents(self):
        live = self._engine.live[0]
        agents = []
        for slot in live.nonzero()[0]:
            name = self._slot_name(int(slot))
            if name not in self._index and int(name[8:]) >= len(self.possible_agents):
                self.possible_agents.append(name)  # never expected: the bound above holds
            self._index[name] = int(slot)
            agents.append(name)
        self.agents = agents

    def reset(self, seed=None, options=None):
        self._index = {}
        return super().reset(seed=seed, options=options)

    def set_state(self, state: bytes) -> None:
        self._index = {}
        super().set_state(state)

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space


__all__ = ["DrivingParallelEnv"]
