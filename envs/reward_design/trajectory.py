"""Recorded races: every car's state per step, the agents' actions, the seed, config
and course; re-scoring them with any reward file, and re-simulating them bitwise."""
from __future__ import annotations

import dataclasses
import json
import os

import gymnasium as gym
import numpy as np

import trackfield
from trackfield.reward_design.state import (RAW_SCALARS, CarState, Course, car_state_from_columns, car_state_from_raw,
                                           course_of_env)

FORMAT_VERSION = 1


def state_version() -> str:
    """What a trajectory file must match to be read: trackfield's version and the state row layout."""
    return f"trackfield {trackfield.__version__}, race_state {RAW_SCALARS}, format {FORMAT_VERSION}"


@dataclasses.dataclass(eq=False)
class Trajectory:
    """One recorded episode of a single racing env.

    ``raw``: (T + 1, L) float32 engine state rows (step 0 = after reset); ``actions``:
    (T, A, 2); ``rewards``: (T, A) the env's reward; ``cars``: cars in the world;
    ``scenario`` and ``config`` rebuild the env; ``initial_state``: its ``get_state()``
    after reset; ``seed``: the reset seed (None when unknown)."""

    raw: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    cars: int
    scenario: str
    config: dict
    course: Course
    initial_state: bytes
    seed: object = None
    version: str = dataclasses.field(default_factory=state_version)
    path: str = ""

    @property
    def steps(self) -> int:
        return len(self.raw) - 1

    def state(self, t: int) -> CarState:
        """Every car's state at step t (0 = after reset)."""
        if not 0 <= t <= self.steps:
            raise IndexError(f"step {t} outside the trajectory's 0..{self.steps}")
        return car_state_from_raw(self.raw[t], self.cars)

    def transitions(self):
        """(previous, current) CarStates of all steps at once: car axis T x cars, step by step."""
        cache = self.__dict__.get("_transitions")
        if cache is None:
            cols = np.ascontiguousarray(self.raw.reshape(-1, self.raw.shape[1] // self.cars).T)  # one transpose for both
            split = self.steps * self.cars
            cache = (car_state_from_columns(cols[:, :split], self.cars),
                     car_state_from_columns(cols[:, self.cars:], self.cars))
            self.__dict__["_transitions"] = cache
        return cache

    def save(self, path) -> str:
        path = os.fspath(path)
        meta = {"cars": self.cars, "scenario": self.scenario, "config": self.config, "seed": self.seed,
                "version": self.version, "course": {"name": self.course.name, "length": self.course.length,
                                                    "sections": self.course.sections, "max_laps": self.course.max_laps,
                                                    "max_episode_duration_s": self.course.max_episode_duration_s}}
        np.savez_compressed(path, raw=self.raw, actions=self.actions, rewards=self.rewards,
                            initial_state=np.frombuffer(self.initial_state, np.uint8),
                            centre_line=self.course.centre_line, left_edge=self.course.left_edge,
                            right_edge=self.course.right_edge, start_finish=self.course.start_finish,
                            meta=np.array(json.dumps(meta)))
        return path if path.endswith(".npz") else path + ".npz"


def load_trajectory(path, course: Course | None = None) -> Trajectory:
    """A Trajectory from ``save``; ValueError naming the file when it is from another
    trackfield version or (with ``course``) another course."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"trajectory file {path!r} does not exist")
    try:
        data = np.load(path, allow_pickle=False)
        meta = json.loads(str(data["meta"]))
    except Exception as exc:  # noqa: BLE001 - any unreadable file is reported by name
        raise ValueError(f"trajectory file {path!r} cannot be read: {exc}") from exc
    if meta.get("version") != state_version():
        raise ValueError(f"trajectory file {path!r} was written by {meta.get('version')!r}; this is {state_version()!r}")
    c = meta["course"]
    stored = Course(c["name"], float(c["length"]), data["centre_line"], data["left_edge"], data["right_edge"],
                    tuple(tuple(s) for s in c["sections"]), data["start_finish"], int(c["max_laps"]),
                    float(c["max_episode_duration_s"]))
    if course is not None:
        check_same_course(stored, course, path)
    return Trajectory(raw=data["raw"], actions=data["actions"], rewards=data["rewards"], cars=int(meta["cars"]),
                      scenario=meta["scenario"], config=meta["config"], course=stored,
                      initial_state=data["initial_state"].tobytes(), seed=meta["seed"], version=meta["version"],
                      path=path)


def check_same_course(a: Course, b: Course, where: str) -> None:
    if a.name != b.name or abs(a.length - b.length) > 1e-3 or a.centre_line.shape != b.centre_line.shape \
            or not np.allclose(a.centre_line, b.centre_line, atol=1e-3):
        raise ValueError(f"{where}: recorded on course {a.name!r} ({a.length:.1f} m), not {b.name!r} ({b.length:.1f} m)")


def _json_config(config) -> dict:
    out = {}
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if f.name in ("render_mode",):
            continue
        if f.name == "track" and value is not None and not isinstance(value, (str, os.PathLike)):
            value = value.source or value.name
        if isinstance(value, os.PathLike):
            value = os.fspath(value)
        if isinstance(value, tuple):
            value = list(value)
        if isinstance(value, np.ndarray):
            value = value.tolist()
        if value != f.default and not (f.default_factory is not dataclasses.MISSING and value == f.default_factory()):
            out[f.name] = value
    out["race_state"] = True
    return out


class TrajectoryRecorder(gym.Wrapper):
    """Records a single racing env: every car's state each step, the actions, the seed,
    config and course. ``trajectory()`` gives the current (or last finished) episode;
    ``save(path)`` writes it. The env needs ``race_state=True`` (or a reward file)."""

    def __init__(self, env):
        super().__init__(env)
        base = env.unwrapped
        if getattr(base, "_race_hook", None) is None:
            raise ValueError("TrajectoryRecorder needs a racing env made with race_state=True (or a reward file)")
        self._base = base
        self._course = course_of_env(base)
        self._cars = base.num_cars
        self._raw, self._actions, self._rewards = [], [], []
        self._initial, self._seed = None, None

    def _row(self):
        return self._base.unwrapped_engine.world_info[0, 1:].astype(np.float32)

    def reset(self, *, seed=None, options=None):
        obs, info = self.env.reset(seed=seed, options=options)
        self._seed = seed
        self._initial = self._base.get_state()
        self._raw, self._actions, self._rewards = [self._row()], [], []
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._raw.append(self._row())
        self._actions.append(np.asarray(self._base.unwrapped_engine.actions[0], np.float32).copy())
        self._rewards.append(np.asarray(reward, np.float32).reshape(-1).copy())
        return obs, reward, terminated, truncated, info

    def trajectory(self) -> Trajectory:
        if self._initial is None:
            raise RuntimeError("nothing recorded: call reset() first")
        a, t = self._base.unwrapped_engine.num_agents, len(self._actions)
        return Trajectory(raw=np.stack(self._raw), actions=np.asarray(self._actions, np.float32).reshape(t, a, 2),
                          rewards=np.asarray(self._rewards, np.float32).reshape(t, a), cars=self._cars,
                          scenario=self._base.scenario.name, config=_json_config(self._base.config),
                          course=self._course, initial_state=self._initial, seed=self._seed)

    def save(self, path) -> str:
        return self.trajectory().save(path)


def rescore(trajectory: Trajectory, program):
    """Per-step, per-car totals (T, cars) and weighted parts (T, cars, K) of ``program``
    (a RewardProgram or a reward file path) over a trajectory, without simulating."""
    from trackfield.reward_design.program import load_reward

    program = load_reward(program)
    previous, current = trajectory.transitions()
    totals, parts = program(current, previous, trajectory.course)
    t, n = trajectory.steps, trajectory.cars
    return totals.reshape(t, n), parts.reshape(t, n, -1)


def replay(trajectory: Trajectory, render_width: int | None = None, check: bool = True, steps: int | None = None,
           frame=None, sink=None):
    """Re-simulates a trajectory from its initial state and actions (its first ``steps``
    steps, default all). Returns the env after the last step and the frames: one per
    state (the first after reset) from ``frame(env)`` or, with ``render_width``, the
    env's render; ``sink``, a list, collects them instead of a new one. With ``check``
    raises RuntimeError at the first state row that differs from the recording (bitwise)."""
    steps = trajectory.steps if steps is None else steps
    if not 0 <= steps <= trajectory.steps:
        raise ValueError(f"steps={steps} outside the trajectory's 0..{trajectory.steps}")
    config = dict(trajectory.config)
    if render_width is not None:
        config.update(render_mode="rgb_array", render_width=render_width)
        frame = frame or (lambda e: e.render())
    env = trackfield.make(trajectory.scenario, **config)
    env.reset(options={"state": trajectory.initial_state})
    engine = env.unwrapped.unwrapped_engine
    frames = sink if sink is not None else ([] if frame is not None else None)
    if frame is not None:
        frames.append(frame(env))
    for t in range(steps):
        action = trajectory.actions[t]
        env.step(action[0] if len(action) == 1 else action)
        if check and not np.array_equal(engine.world_info[0, 1:].astype(np.float32), trajectory.raw[t + 1]):
            raise RuntimeError(f"replay diverged from the recording at step {t + 1}")
        if frame is not None:
            frames.append(frame(env))
    return env, frames


def load_state_pairs(path):
    """(previous, current) pairs of a saved trajectory, one pair per step."""
    traj = load_trajectory(path)
    return [(traj.state(t), traj.state(t + 1)) for t in range(traj.steps)]
