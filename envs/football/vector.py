"""FootballVectorEnv: many football worlds stepped in one C++ call over threads."""
from __future__ import annotations

from trackfield.core.config import check_int, config_from_kwargs
from trackfield.core.engine import default_threads
from trackfield.core.vector import BatchVectorEnv
from trackfield.football.config import FootballConfig
from trackfield.football.engine import make_engine
from trackfield.football.scenarios import load_scenario


class FootballVectorEnv(BatchVectorEnv):
    """``num_envs`` football worlds; ``step`` runs them all inside C++ on ``num_threads``.

    The config keywords are ``FootballEnv``'s. Worlds reset in the step their episode
    ends (SAME_STEP autoreset; ``info["final_obs"]``), ``info["episode"]`` holds return
    ``r``, length ``l`` and the final ``score`` of ended episodes, and ``info`` holds
    ``score``, ``steps``, ``game_mode`` and ``ball_owned_team`` as arrays over worlds.
    World i is seeded from ``(seed, i)``, so world 0 reproduces ``trackfield.make(...)``
    with the same seed, whatever the thread count.

    ``copy=False`` returns observations as read-only views of the engine's buffer: the
    same arrays at every ``step()`` and ``reset()``, overwritten in place, so copy what you
    keep past the next call (no per-step copy: 64 worlds of ``smm`` planes are 1.8 MB a
    step; raw's integer scalars, such as ``ball_owned_team``, are still fresh arrays). See
    ``BatchVectorEnv``.
    """

    def __init__(self, scenario: str, num_envs: int, num_threads: int | None = None, copy: bool = True,
                 **config):
        check_int("num_envs", num_envs, 1, 1_000_000)
        num_threads = default_threads() if num_threads is None else check_int("num_threads", num_threads, 1, 1024)
        self.config = config_from_kwargs(FootballConfig, config, "trackfield.vector.make")
        if self.config.render_mode == "human":
            raise ValueError("vector envs render with render_mode='rgb_array' (one frame per world)")
        self.scenario = load_scenario(scenario)
        engine = make_engine(self.scenario, self.config, num_envs=num_envs,
                             num_threads=min(num_threads, num_envs), autoreset=True)
        self._attach(engine, self.config.render_mode, self.config.render_width, copy)


__all__ = ["FootballVectorEnv"]
