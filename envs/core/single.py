"""BatchEnv: one world of a C++ batch behind the Gymnasium API, for every domain.

A domain's env (``FootballEnv``, ...) validates its config, builds a
:class:`~trackfield.core.engine.BatchEngine` of one world without autoreset and hands
it to :meth:`BatchEnv._attach`; everything else (seeding, action checks, stepping,
``info``, rendering, snapshots) is shared.
"""
from __future__ import annotations

import gymnasium as gym
import numpy as np

from trackfield.core.config import check_int
from trackfield.core.engine import BatchEngine


class BatchEnv(gym.Env):
    """One world of a C++ batch as a ``gymnasium.Env`` (see the domain envs' docstrings)."""

    metadata = {"render_modes": ["rgb_array", "human"], "render_fps": 10}

    def _attach(self, engine: BatchEngine, render_mode=None, render_width: int = 480) -> None:
        self._engine = engine
        self.observation_space = engine.world_observation_space()
        self.action_space = engine.world_action_space()
        self.render_mode = render_mode
        self._render_width = render_width
        self._num_agents = engine.num_agents
        self._plain_obs = engine.obs[0, 0] if engine.num_agents == 1 and engine.obs_fields is None else None
        self._rewards = engine.rewards[0]
        # One continuous agent: a float32 array of the right shape is copied straight in and
        # range-checked by the engine's step (C++); only a failure takes the Python check,
        # which names the agent.
        self._box_actions = engine.actions[0, 0] if engine.num_agents == 1 and not engine.discrete else None
        self._needs_reset = True
        self._ever_reset = False
        self._window = None
        self._recorder = None  # an EpisodeRecorder when the domain's config asks for dumps
        self._lean = None  # see _lean_step_parts
        self._reward_hook = None  # a domain's (reward, info) -> reward, applied after every step

    @property
    def unwrapped_engine(self) -> BatchEngine:
        return self._engine

    def reset(self, *, seed=None, options=None):
        """Starts an episode. ``options={"state": bytes}`` restores a ``get_state()``
        snapshot instead (seed must then be None); other options are ignored."""
        check_open(self, "reset")
        if seed is not None:
            check_int("seed", seed, 0, 2**64 - 1)
        state = _state_option(options, seed)
        super().reset(seed=seed)
        if state is not None:
            self.set_state(state)
            if self._needs_reset:
                raise ValueError("reset: options['state'] holds an episode that already ended")
        else:
            if seed is None and not self._ever_reset:
                # First reset without a seed: draw one, as Gymnasium envs do. Later unseeded
                # resets continue from the world's own generator, so a run stays reproducible.
                seed = int(self.np_random.integers(0, 2**63 - 1))
            self._engine.batch.reset_one(0, seed)
            self._ever_reset = True
            self._needs_reset = False
        if self._recorder is not None:
            self._recorder.start(self.get_state(), seed)
        if self.render_mode == "human":
            self.render()
        self._lean = self._lean_step_parts()
        return self._engine.world_obs(self._engine.obs, 0), self._engine.info_of(0)

    def _set_action(self, action) -> None:
        eng = self._engine
        if eng.scalar_range is not None and eng.num_agents == 1 and isinstance(action, (int, np.integer)) \
                and not isinstance(action, bool):
            low, high = eng.scalar_range
            if low <= action <= high:
                eng.actions[0, 0, 0] = action
                return
        if eng.num_agents == 1:
            if isinstance(action, (bool, np.bool_)):
                raise ValueError(f"action must be {self._action_kind()} in {eng.bounds_text()}, not a boolean: {action!r}")
            error = eng.action_error(action)
            if not error and not eng.discrete and np.shape(action) != self.action_space.shape:
                # (1, 2) for a single car reads like a batch of one: refused, not flattened
                error = f"must have shape {self.action_space.shape}, got shape {np.shape(action)}"
            if error:
                who = f" for {eng.agent_name(0)}" if eng.agent_name else ""
                raise ValueError(f"action{who} {error} ({self._action_kind()} in {eng.bounds_text()})")
            eng.actions[0, 0] = np.asarray(action).reshape(-1)
            return
        eng.set_batch_actions(action, (eng.num_agents,))

    def _action_kind(self) -> str:
        eng = self._engine
        if eng.discrete:
            return "an int" if eng.action_size == 1 else f"{eng.action_size} ints"
        return f"{eng.action_size} finite numbers"

    def _lean_step_parts(self):
        # The common case (one agent, an array observation, no dumps, no window) steps
        # through bound methods and views gathered here once per reset: a single env's
        # Python overhead is a third of a racing car's step otherwise.
        eng = self._engine
        if self._plain_obs is None or self._recorder is not None or self.render_mode == "human":
            return None
        if self._box_actions is None and eng.scalar_range is None:
            return None
        return (self._box_actions, eng.scalar_range, eng.actions[0, 0], eng.batch.step, eng.terminated,
                eng.truncated, self._plain_obs, self._rewards, eng.batch.info_one, eng.constant_info,
                self._reward_hook)

    def step(self, action):
        lean = self._lean
        if lean is not None and not self._needs_reset:
            box, scalar_range, slot, step, terminated, truncated, obs, rewards, info_one, constant, hook = lean
            if box is not None:
                ready = type(action) is np.ndarray and action.dtype == np.float32 and action.shape == box.shape
                if ready:
                    box[...] = action
            else:
                ready = type(action) is int and scalar_range[0] <= action <= scalar_range[1]
                if ready:
                    slot[0] = action
            if ready:
                try:
                    step()
                except ValueError:
                    self._set_action(action)  # raises the error that names the agent
                    raise
                done = bool(terminated[0]), bool(truncated[0])
                self._needs_reset = done[0] or done[1]
                info = info_one(0, False)
                if constant:
                    info.update(constant)
                reward = rewards.item(0) if hook is None else hook(rewards.item(0), info)
                return obs.copy(), reward, done[0], done[1], info
        if self._needs_reset:
            check_open(self, "step")
            raise RuntimeError("step() called before reset() or after the episode ended; call reset()")
        eng = self._engine
        box = self._box_actions
        if box is not None and type(action) is np.ndarray and action.dtype == np.float32 and action.shape == box.shape:
            box[...] = action
            try:
                eng.batch.step()
            except ValueError:
                self._set_action(action)  # raises the error that names the agent
                raise
        else:
            self._set_action(action)
            eng.batch.step()
        terminated = bool(eng.terminated[0])
        truncated = bool(eng.truncated[0])
        self._needs_reset = terminated or truncated
        if self._recorder is not None:
            self._recorder.record(eng.actions[0], eng.rewards[0], eng.world_info[0])
            if self._needs_reset:
                self._recorder.write()
        if self._plain_obs is not None:  # one agent, array observation: the common case, kept lean
            obs, reward = self._plain_obs.copy(), self._rewards.item(0)
        else:
            obs, reward = eng.world_obs(eng.obs, 0), eng.rewards[0].copy()
            if self._num_agents == 1:
                reward = float(reward[0])
        if self.render_mode == "human":
            self.render()
        info = eng.info_of(0)
        if self._reward_hook is not None:
            reward = self._reward_hook(reward, info)
        return obs, reward, terminated, truncated, info

    def render(self):
        if self.render_mode is None:
            return None
        frame = self._engine.batch.render(0, self._render_width)
        if self.render_mode == "rgb_array":
            return frame
        from trackfield.core.render import show_frame

        self._window = show_frame(self._window, frame, self.metadata["render_fps"])
        return None

    def close(self):
        # closed for good: the lean step is dropped, so the next step() takes the checked path
        self._closed, self._lean, self._needs_reset = True, None, True
        if self._recorder is not None:
            self._recorder.start(None, None)  # writes an unfinished episode
        if self._window is not None:
            from trackfield.core.render import close_window

            close_window(self._window)
            self._window = None

    def get_state(self) -> bytes:
        """The world's full state (RNG, sticky actions and frame stack included) as bytes."""
        return self._engine.batch.get_state(0)

    def set_state(self, state: bytes) -> None:
        """Restores a state from ``get_state()`` of an env with the same scenario and config."""
        if not isinstance(state, (bytes, bytearray)):
            raise TypeError(f"state must be bytes from get_state(), got {type(state).__name__}")
        self._engine.batch.set_state(0, bytes(state))
        self._ever_reset = True
        self._needs_reset = bool(self._engine.terminated[0] or self._engine.truncated[0])

    @property
    def dump_paths(self) -> list:
        """Paths of the episode dumps this env has written (empty without dumps)."""
        return [] if self._recorder is None else list(self._recorder.paths)

    def observation(self):
        """The current observation (as the last reset/step returned it)."""
        return self._engine.world_obs(self._engine.obs, 0)


def _state_option(options, seed=None):
    """``options["state"]`` (None without one), the same checks and messages for every env."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise TypeError(f"options must be a dict or None, got {type(options).__name__}")
    state = options.get("state")  # other options are ignored, as Gymnasium envs do
    if state is not None and seed is not None:
        raise ValueError("reset: pass either seed or options['state'], not both")
    return state


def check_open(env, method: str) -> None:
    """Refuses ``method`` on an env whose ``close()`` was called."""
    if getattr(env, "_closed", False):
        raise RuntimeError(f"{method}() called after close(); make a new env")
