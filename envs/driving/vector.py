"""DrivingVectorEnv: many driving worlds stepped in one C++ call over threads."""
from __future__ import annotations

from trackfield.core.config import check_int, config_from_kwargs
from trackfield.core.engine import default_threads
from trackfield.core.vector import BatchVectorEnv
from trackfield.driving.config import DrivingConfig
from trackfield.driving.engine import make_engine
from trackfield.driving.scenarios import load_driving_scenario
from trackfield.driving.window import HumanWindow, ShowsHumanWindow, frame


class DrivingVectorEnv(ShowsHumanWindow, BatchVectorEnv):
    """``num_envs`` driving worlds; ``step`` runs them all inside C++ on ``num_threads``.

    One fixed (num_envs, slots) layout: observations (num_envs, slots, 337), actions
    (num_envs, slots), rewards (num_envs, slots); ``info["live"]`` is the alive mask (the
    slots in play in the returned observation; actions of other slots are ignored) and
    ``info["agent_id"]`` each slot's occupant. Ended agents leave for one step and their
    slot takes a new agent (``respawn=True``), so worlds of ``town_self_play`` run until
    ``max_steps`` (truncation). The keywords are ``DrivingEnv``'s. ``render()`` gives one
    frame per world (``render_mode="rgb_array"``; ``render_view="ego"``: each around its
    world's slot 0, or its first live agent while slot 0 is empty); ``render_mode="human"`` shows world 0
    in a window after every reset and step. ``copy=False`` returns observations as
    read-only views of the engine's buffer, valid until the next ``step()`` or ``reset()``
    (no per-step copy: about 50 MB per step for 64 x 150 ``sets`` slots; see
    ``BatchVectorEnv``).
    """

    metadata = {**BatchVectorEnv.metadata, "render_modes": ["rgb_array", "human"], "render_fps": 10}

    def __init__(self, scenario: str, num_envs: int, num_threads: int | None = None, copy: bool = True, **config):
        check_int("num_envs", num_envs, 1, 1_000_000)
        num_threads = default_threads() if num_threads is None else check_int("num_threads", num_threads, 1, 1024)
        self.config = config_from_kwargs(DrivingConfig, config, "trackfield.vector.make")
        self.scenario = load_driving_scenario(scenario)
        engine = make_engine(self.scenario, self.config, num_envs=num_envs,
                             num_threads=min(num_threads, num_envs), autoreset=True)
        human = self.config.render_mode == "human"
        self._attach(engine, None if human else self.config.render_mode, self.config.render_width, copy)
        self._render_view = self.config.render_view
        self._human = (HumanWindow(engine, self.config.render_width, self.metadata["render_fps"], self._render_view)
                       if human else None)
        if human:
            self.render_mode = "human"

    def _ego_frames(self):
        return tuple(frame(self._engine, i, self._render_width, "ego") for i in range(self.num_envs))


__all__ = ["DrivingVectorEnv"]
