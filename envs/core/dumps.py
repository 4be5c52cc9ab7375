"""Episode dumps and replays, for every domain.

A dump is a compact record of one episode: the env's config, the world's full state
at the start of the episode (its snapshot, RNG included), every step's actions, and
per-step summaries (rewards and the world's info fields). Re-simulating the actions
from the stored state reproduces the episode bit for bit, so ``replay`` checks every
step against the summaries and can render a video or collect observations on the way.

The file is a numpy ``.npz`` archive (``np.savez_compressed``) holding a JSON header
and four arrays::

    header          JSON: format, version, trackfield version, domain, scenario name,
                    scenario file source (for scenarios given by path), config, seed,
                    summary field names, steps, finished
    initial_state   uint8: get_state() bytes at the start of the episode
    actions         (T, A, action_size) int32 or float32
    rewards         (T, A) float32
    summaries       (T, W) float64: the world's info fields after each step
"""
from __future__ import annotations

import json
import os
import tempfile
import time
import zipfile

import numpy as np

FORMAT = "trackfield-episode-dump"
VERSION = 1
SUFFIX = ".tfdump.npz"


class DumpError(ValueError):
    """A dump file that cannot be read: names the file and what is wrong with it."""


class EpisodeRecorder:
    """Collects one episode of a single env and writes it to ``logdir`` when it ends."""

    def __init__(self, logdir: str, domain: str, scenario_name: str, scenario_source: str | None,
                 config: dict, summary_fields: list[str]):
        self.logdir = logdir or os.path.join(tempfile.gettempdir(), "trackfield_dumps")
        self.meta = {"domain": domain, "scenario": scenario_name, "scenario_source": scenario_source,
                     "config": config, "summary_fields": list(summary_fields)}
        self.paths: list[str] = []
        self._count = 0
        self._reset_buffers(None, None)

    def _reset_buffers(self, state, seed):
        self._state, self._seed = state, seed
        self._actions, self._rewards, self._summaries = [], [], []

    def start(self, state: bytes, seed) -> None:
        """A new episode begins in ``state``; an unfinished previous one is written first."""
        if self._state is not None and self._actions:
            self.write(finished=False)
        self._reset_buffers(state, seed)

    def record(self, actions: np.ndarray, rewards: np.ndarray, summary: np.ndarray) -> None:
        self._actions.append(actions.copy())
        self._rewards.append(rewards.copy())
        self._summaries.append(summary.copy())

    def write(self, finished: bool = True) -> str | None:
        if self._state is None:
            return None
        os.makedirs(self.logdir, exist_ok=True)
        self._count += 1
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = os.path.join(self.logdir, f"episode_{stamp}_{os.getpid()}_{self._count:05d}{SUFFIX}")
        header = dict(self.meta, format=FORMAT, version=VERSION, trackfield=_trackfield_version(),
                      seed=self._seed, steps=len(self._actions), finished=finished)
        np.savez_compressed(
            path, header=np.frombuffer(json.dumps(header).encode(), np.uint8),
            initial_state=np.frombuffer(self._state, np.uint8),
            actions=np.asarray(self._actions), rewards=np.asarray(self._rewards, np.float32),
            summaries=np.asarray(self._summaries, np.float64))
        self.paths.append(path)
        self._reset_buffers(None, None)
        return path


class Dump:
    """A dump read back: ``header`` (dict), ``initial_state`` (bytes), ``actions``,
    ``rewards`` and ``summaries`` (arrays)."""

    def __init__(self, path):
        self.path = os.fspath(path)
        if not os.path.isfile(self.path):
            raise FileNotFoundError(f"{self.path}: no such dump file")
        try:
            with np.load(self.path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, KeyError) as error:
            raise DumpError(f"{self.path}: not a readable trackfield dump (truncated or corrupt: {error})") from None
        for name in ("header", "initial_state", "actions", "rewards", "summaries"):
            if name not in arrays:
                raise DumpError(f"{self.path}: field '{name}' is missing")
        try:
            self.header = json.loads(arrays["header"].tobytes().decode())
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise DumpError(f"{self.path}: field 'header' is corrupt ({error})") from None
        if not isinstance(self.header, dict) or self.header.get("format") != FORMAT:
            raise DumpError(f"{self.path}: field 'header' does not describe a trackfield episode dump")
        version = self.header.get("version")
        if version != VERSION:
            raise DumpError(f"{self.path}: dump format version {version!r}; this trackfield "
                            f"({_trackfield_version()}) reads version {VERSION}")
        for name in ("domain", "scenario", "config", "summary_fields", "steps"):
            if name not in self.header:
                raise DumpError(f"{self.path}: field 'header.{name}' is missing")
        self.initial_state = arrays["initial_state"].tobytes()
        self.actions, self.rewards, self.summaries = arrays["actions"], arrays["rewards"], arrays["summaries"]
        steps = self.header["steps"]
        for name in ("actions", "rewards", "summaries"):
            if len(arrays[name]) != steps:
                raise DumpError(f"{self.path}: field '{name}' holds {len(arrays[name])} steps, the header says {steps}")


class ReplayResult:
    """What ``replay`` produced: ``steps``, ``video`` (path or None), ``frames`` written,
    ``observations`` (a list, when asked for), and the dump it read."""

    def __init__(self, dump, steps, video, frames, observations):
        self.dump, self.steps, self.video, self.frames, self.observations = dump, steps, video, frames, observations


def replay(path, video: str | None = None, observations: bool = False, fps: int = 10,
           width: int = 640) -> ReplayResult:
    """Re-simulates a dump bit for bit, checking each step's rewards and info fields
    against the stored ones (``DumpError`` names the first step that differs).

    ``video="out.mp4"`` writes the episode as an mp4 (one frame for the start and one
    per step, ``width`` pixels wide, via imageio-ffmpeg: ``pip install 'trackfield[render]'``);
    ``observations=True`` collects the observation after the reset and after every step.
    """
    dump = Dump(path)
    env = _env_for(dump, render=video is not None, width=width)
    writer = None
    try:
        try:
            env.set_state(dump.initial_state)
        except ValueError as error:
            raise DumpError(f"{dump.path}: field 'initial_state' cannot be restored here ({error})") from None
        eng = env.unwrapped_engine
        writer = _video_writer(video, env, fps) if video else None
        frames, seen = 0, []
        if writer is not None:
            writer.send(env.render())
            frames += 1
        if observations:
            seen.append(env.observation())
        for t in range(len(dump.actions)):
            eng.actions[0] = dump.actions[t]
            eng.batch.step()
            if not (np.array_equal(eng.rewards[0], dump.rewards[t]) and np.array_equal(eng.world_info[0], dump.summaries[t])):
                raise DumpError(f"{dump.path}: replay diverged at step {t + 1} (rewards or "
                                f"{', '.join(dump.header['summary_fields'])} differ); was it written by another engine version?")
            if writer is not None:
                writer.send(env.render())
                frames += 1
            if observations:
                seen.append(env._engine.world_obs(eng.obs, 0))
        return ReplayResult(dump, len(dump.actions), video, frames, seen if observations else None)
    finally:
        if writer is not None:
            writer.close()
        env.close()


def _env_for(dump: Dump, render: bool, width: int):
    header = dump.header
    config = dict(header["config"])
    config.update(render_mode="rgb_array" if render else None)
    if "render_width" in config:
        config["render_width"] = width
    for key in ("write_full_episode_dumps", "logdir"):
        config.pop(key, None)
    if header["domain"] != "football":
        raise DumpError(f"{dump.path}: field 'header.domain' is {header['domain']!r}; this trackfield replays football")
    from trackfield.football.env import FootballEnv

    scenario = header["scenario"]
    source = header.get("scenario_source")
    if source is None:
        return FootballEnv(scenario, **config)
    with tempfile.TemporaryDirectory() as folder:  # a scenario given by path: rebuilt from its stored text
        file = os.path.join(folder, os.path.basename(scenario) or "scenario.py")
        with open(file, "w") as f:
            f.write(source)
        return FootballEnv(file, **config)


def _video_writer(path: str, env, fps: int):
    from trackfield.core.video import VideoWriter

    return VideoWriter(path, fps)


def _trackfield_version() -> str:
    from trackfield import __version__

    return __version__


__all__ = ["EpisodeRecorder", "Dump", "DumpError", "ReplayResult", "replay", "SUFFIX", "VERSION"]
