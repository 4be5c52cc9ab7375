"""FootballVectorEnv: many football worlds stepped in one C++ call over threads."""
from __future__ import annotations

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from trackfield.core.config import check_int, config_from_kwargs
from trackfield.football.config import FootballConfig
from trackfield.football.engine import EPISODE_STAT_NAMES, REWARD_COMPONENT_NAMES, FootballEngine, default_threads
from trackfield.football.scenarios import load_scenario


class FootballVectorEnv(VectorEnv):
    """``num_envs`` football worlds; ``step`` runs them all inside C++ on ``num_threads``.

    Worlds reset themselves in the same step their episode ends (Gymnasium's
    SAME_STEP autoreset): the returned observation is the new episode's first, and
    ``info["final_obs"]`` / ``info["_final_obs"]`` hold the last one of the ended episode.
    ``info["episode"]`` holds return ``r``, length ``l`` and the final score of ended
    episodes (mask ``info["_episode"]``). World i is seeded from ``(seed, i)``, so world 0
    reproduces ``trackfield.make(...)`` with the same seed, whatever the thread count.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["rgb_array"]}

    def __init__(self, scenario: str, num_envs: int, num_threads: int | None = None, **config):
        check_int("num_envs", num_envs, 1, 1_000_000)
        num_threads = default_threads() if num_threads is None else check_int("num_threads", num_threads, 1, 1024)
        self.config = config_from_kwargs(FootballConfig, config, "trackfield.vector.make")
        if self.config.render_mode == "human":
            raise ValueError("vector envs render with render_mode='rgb_array' (one frame per world)")
        self.scenario = load_scenario(scenario)
        self._engine = FootballEngine(self.scenario, self.config, num_envs=num_envs,
                                      num_threads=min(num_threads, num_envs), autoreset=True)
        self.num_envs = num_envs
        self.num_threads = self._engine.batch.num_threads
        self.render_mode = self.config.render_mode
        self.single_observation_space = self._engine.observation_space
        self.single_action_space = self._engine.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._ever_reset = False
        self._agents = self._engine.num_agents

    def reset(self, *, seed=None, options=None):
        if isinstance(seed, (list, tuple)):
            raise ValueError("seed must be one int: world i is seeded from (seed, i)")
        if seed is not None:
            check_int("seed", seed, 0, 2**64 - 1)
            self._engine.batch.reset_all(seed)
        elif not self._ever_reset:
            self._engine.batch.reset_all(int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1))
        else:
            for i in range(self.num_envs):
                self._engine.batch.reset_one(i)
        self._ever_reset = True
        return self._engine.batch_obs(self._engine.obs), {}

    def step(self, actions):
        if not self._ever_reset:
            raise RuntimeError("step() called before reset()")
        eng = self._engine
        a = np.asarray(actions)
        if not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions must be integers in [0, 18], got dtype {a.dtype}")
        expected = (self.num_envs,) if self._agents == 1 else (self.num_envs, self._agents)
        if a.shape != expected:
            raise ValueError(f"actions must have shape {expected}, got {a.shape}")
        if a.size and (a.min() < 0 or a.max() > 18):
            bad = a[(a < 0) | (a > 18)].flat[0]
            raise ValueError(f"actions must be in [0, 18] (GRF's 19 actions), got {bad}")
        np.copyto(eng.actions, a.reshape(eng.actions.shape), casting="unsafe")
        eng.batch.step()
        rewards = eng.rewards[:, 0].copy() if self._agents == 1 else eng.rewards.copy()
        terminated = eng.terminated.copy()
        truncated = eng.truncated.copy()
        info = {"reward_components": {name: (eng.reward_components[:, 0, k] if self._agents == 1
                                             else eng.reward_components[:, :, k]).copy()
                                      for k, name in enumerate(REWARD_COMPONENT_NAMES)}}
        done = terminated | truncated
        if done.any():
            final_obs = np.empty(self.num_envs, dtype=object)
            for i in np.flatnonzero(done):
                final_obs[i] = eng.world_obs(eng.final_obs, i)
            info["final_obs"] = final_obs
            info["_final_obs"] = done
            stats = eng.episode_stats
            info["episode"] = {"r": np.where(done, stats[:, 0], 0.0), "l": np.where(done, stats[:, 1], 0).astype(np.int32),
                               "score": np.where(done[:, None], stats[:, 2:4], 0).astype(np.int32)}
            info["_episode"] = done
        return eng.batch_obs(eng.obs), rewards, terminated, truncated, info

    def render(self):
        if self.render_mode != "rgb_array":
            return None
        return tuple(self._engine.batch.render(i, self.config.render_width) for i in range(self.num_envs))

    def get_state(self, index: int = 0) -> bytes:
        return self._engine.batch.get_state(index)

    def set_state(self, index: int, state: bytes) -> None:
        if not isinstance(state, (bytes, bytearray)):
            raise TypeError(f"state must be bytes from get_state(), got {type(state).__name__}")
        self._engine.batch.set_state(index, bytes(state))

    def close_extras(self, **kwargs):
        pass


__all__ = ["FootballVectorEnv", "EPISODE_STAT_NAMES"]
