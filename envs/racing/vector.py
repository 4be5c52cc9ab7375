"""RacingVectorEnv: many racing worlds stepped in one C++ call over threads."""
from __future__ import annotations

from trackfield.core.config import check_int, config_from_kwargs
from trackfield.core.engine import default_threads
from trackfield.core.vector import BatchVectorEnv
from trackfield.racing.config import RacingConfig
from trackfield.racing.engine import make_engine
from trackfield.racing.env import race_state_hook
from trackfield.racing.scenarios import load_racing_scenario


class RacingVectorEnv(BatchVectorEnv):
    """``num_envs`` racing worlds; ``step`` runs them all inside C++ on ``num_threads``.

    The config keywords are ``RacingEnv``'s. Worlds reset in the step their episode
    ends (SAME_STEP autoreset, ``info["final_obs"]``); ``info["episode"]`` holds return
    ``r``, length ``l``, and the race's ``place``, ``laps``, ``progress_m``,
    ``off_course_s``, ``wall_s``, ``contact_s`` and ``best_lap_s``. World i is seeded
    from ``(seed, i)``, so world 0 reproduces ``trackfield.make(...)`` with the same
    seed, whatever the thread count.

    ``copy=False`` returns observations as read-only views of the engine's buffer: the
    same array at every ``step()`` and ``reset()``, overwritten in place, so copy what you
    keep past the next call (see ``BatchVectorEnv``). A scenario mix (``scenarios=``) joins
    its parts' observations, so it returns a new array either way.
    """

    def __init__(self, scenario: str, num_envs: int, num_threads: int | None = None, copy: bool = True,
                 **config):
        check_int("num_envs", num_envs, 1, 1_000_000)
        num_threads = default_threads() if num_threads is None else check_int("num_threads", num_threads, 1, 1024)
        self.config = config_from_kwargs(RacingConfig, config, "trackfield.vector.make")
        if self.config.render_mode == "human":
            raise ValueError("vector envs render with render_mode='rgb_array' (one frame per world)")
        self.scenario = load_racing_scenario(scenario, self.config.section)
        engine = make_engine(self.scenario, self.config, num_envs=num_envs,
                             num_threads=min(num_threads, num_envs), autoreset=True)
        self.track = engine.track
        self._attach(engine, self.config.render_mode, self.config.render_width, copy)
        self._race_hook = race_state_hook(self, self.config.groups * self.scenario.cars)

    def reset(self, *, seed=None, options=None):
        hook = self._race_hook
        kept = None if hook is None or hook.extra_return is None else hook.extra_return.copy()
        obs, info = super().reset(seed=seed, options=options)
        if hook is not None:
            hook.vector_reset(info, self.num_agents)
            mask = self._last_reset_mask
            if mask is not None and kept is not None:  # worlds not reset keep their episode's return
                hook.extra_return[~mask] = kept[~mask]
        return obs, info

    def step(self, actions):
        obs, rewards, terminated, truncated, info = super().step(actions)
        if self._race_hook is not None:
            rewards = self._race_hook.vector_step(rewards, info, terminated | truncated, self.num_agents)
        return obs, rewards, terminated, truncated, info

    def set_state(self, index: int, state: bytes) -> None:
        super().set_state(index, state)
        if self._race_hook is not None:
            self._race_hook.restored(self._engine)


__all__ = ["RacingVectorEnv"]
