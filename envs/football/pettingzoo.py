"""FootballParallelEnv: football as a PettingZoo ``ParallelEnv``, one agent per controlled player."""
from __future__ import annotations

from trackfield.core.config import config_from_kwargs
from trackfield.core.pettingzoo import BatchParallelEnv
from trackfield.football.config import FootballConfig
from trackfield.football.engine import agent_names, make_engine
from trackfield.football.scenarios import load_scenario


class FootballParallelEnv(BatchParallelEnv):
    """Football as a PettingZoo ``ParallelEnv``.

    Agents are ``"left_0" .. "left_{L-1}"`` and ``"right_0" .. "right_{R-1}"`` with
    L = ``number_of_left_players_agent_controls`` (default 1) and
    R = ``number_of_right_players_agent_controls`` (default 0); all other config
    keywords are those of :class:`trackfield.football.env.FootballEnv`.

    * ``action_space(agent)``: ``Discrete(19)`` (GRF's default action set), ``Discrete(20)``
      with ``action_set="v2"``, ``Discrete(33)`` with ``action_set="full"``.
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

    Every agent leaves at once when the episode ends. ``reset(seed)`` seeds the world
    as ``FootballEnv.reset(seed)`` does, so a parallel env and a ``FootballEnv`` with
    the same config, seed and actions play the same game.
    """

    metadata = {"name": "trackfield_football_v0", "render_modes": ["rgb_array"], "is_parallelizable": True}

    def __init__(self, scenario: str = "academy_empty_goal_close", **config):
        self.config = config_from_kwargs(FootballConfig, config, "trackfield.parallel_env")
        self.scenario = load_scenario(scenario)
        names = agent_names(self.config)
        if not names:
            raise ValueError("number_of_left_players_agent_controls=0 and number_of_right_players_agent_controls=0 "
                             "leave parallel_env no player to control; give either side at least one")
        if self.config.render_mode not in (None, "rgb_array"):
            raise ValueError(f"the parallel env renders with render_mode='rgb_array' (or None), "
                             f"got {self.config.render_mode!r}")
        engine = make_engine(self.scenario, self.config, num_envs=1, num_threads=1, autoreset=False)
        self._attach(engine, names, self.config.render_mode, self.config.render_width)


__all__ = ["FootballParallelEnv"]
