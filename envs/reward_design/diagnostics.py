"""Training diagnostics per reward component, and racing's evaluation protocol with
per-component totals."""
from __future__ import annotations

import numpy as np

import trackfield
from trackfield.racing.evaluation import RaceResult, _act, summarize


def play(policy, scenario: str = "race_time_trial", reward=None, seed: int = 0, max_steps: int = 1500, **config):
    """One evaluation race of ``policy`` (obs -> action callable or SB3 model): the
    return and each component's episode total (weighted when ``reward`` is a file)."""
    kw = dict(config)
    if reward is not None:
        kw["reward"] = reward
    env = trackfield.make(scenario, **kw)
    obs, _ = env.reset(seed=seed)
    totals, ret, steps = {}, 0.0, 0
    for steps in range(1, max_steps + 1):
        obs, r, term, trunc, info = env.step(_act(policy, obs))
        ret += float(np.sum(r))
        for name, value in info["reward_components"].items():
            totals[name] = totals.get(name, 0.0) + float(np.sum(value))
        if term or trunc:
            break
    env.close()
    return {"return": ret, "steps": steps, "components": totals}


class DiagnosticsCallback:
    """Every ``every`` steps plays an evaluation race and keeps each component's
    episode total and the return. Call it as ``callback(policy, step)`` from any loop,
    or pass ``callback.sb3()`` to Stable-Baselines3's ``learn``. ``to_text()`` lists the
    history for a prompt."""

    def __init__(self, reward=None, every: int = 10_000, scenario: str = "race_time_trial", seed: int = 0,
                 max_steps: int = 1500, **config):
        if every < 1:
            raise ValueError(f"every must be >= 1, got {every}")
        self.reward, self.every, self.scenario, self.seed = reward, every, scenario, seed
        self.max_steps, self.config = max_steps, config
        self.history = []  # (step, play() result)
        self._next = every

    def __call__(self, policy, step: int) -> None:
        if step < self._next:
            return
        self._next = (step // self.every + 1) * self.every
        self.history.append((step, play(policy, self.scenario, self.reward, self.seed, self.max_steps, **self.config)))

    def sb3(self):
        from stable_baselines3.common.callbacks import BaseCallback

        outer = self

        class _Callback(BaseCallback):
            def _on_step(self):
                outer(self.model, self.num_timesteps)
                return True

        return _Callback()

    def to_text(self) -> str:
        if not self.history:
            return "no evaluation yet"
        names = sorted({n for _, r in self.history for n in r["components"]})
        lines = ["step | return | " + " | ".join(names)]
        for step, r in self.history:
            lines.append(f"{step} | {r['return']:.2f} | " + " | ".join(f"{r['components'].get(n, 0.0):.2f}" for n in names))
        return "\n".join(lines)


def evaluate(policy, reward=None, races: int = 20, laps: int = 4, start_slot: int = 19, thresholds=None,
             seed: int = 0, num_envs: int = 8, num_threads=None, keep_trajectories: bool = False, **config) -> dict:
    """Racing's protocol (``race_field``: ``laps`` laps against 19 AI from ``start_slot``,
    places 0-19, collision and course-out time, thresholds, the interquartile summary)
    plus each component's mean episode total of the learner's car (weighted when
    ``reward`` is a file). Other keywords go to ``race_field`` (e.g. ``max_time_s``).

    Returns {"results", "summary", "components", "race_components"}: one RaceResult and
    one {component: episode total} per race, in the order the races ended. With
    ``keep_trajectories`` also "trajectories": each race as a :class:`Trajectory` (for
    ``rescore``, ``replay`` and ``export_clips``; world i is seeded from (seed, i))."""
    if races < 1:
        raise ValueError(f"races must be >= 1, got {races}")
    kw = dict(config, off_course_rule=config.get("off_course_rule", "any_tyre"))
    if reward is not None:
        kw["reward"] = reward
    if keep_trajectories:
        kw["race_state"] = True
    envs = trackfield.vector.make("race_field", num_envs=min(num_envs, races), num_threads=num_threads, laps=laps,
                                  start_slot=start_slot, **kw)
    thresholds = dict(thresholds or {})
    obs, _ = envs.reset(seed=seed)
    recorder = _WorldRecorder(envs) if keep_trajectories else None
    running = {}
    results, component_totals, trajectories = [], [], []
    while len(results) < races:
        obs, rewards, term, trunc, info = envs.step(np.asarray(_act(policy, obs), np.float32))
        done = term | trunc
        if recorder is not None:
            recorder.step(rewards, done)
        for name, value in info["reward_components"].items():
            running[name] = running.get(name, 0.0) + np.asarray(value, np.float64)
        for i in np.flatnonzero(done):
            if len(results) < races:
                ep = {k: np.asarray(v[i]).reshape(-1) for k, v in info["episode"].items()}
                place, coll, out = int(ep["place"][0]), float(ep["contact_s"][0]), float(ep["off_course_s"][0])
                over = coll > thresholds.get("collision_s", np.inf) or out > thresholds.get("course_out_s", np.inf)
                results.append(RaceResult(19 if over else place, place, coll, out, float(ep["gap_to_leader_m"][0])))
                component_totals.append({n: float(v[i]) for n, v in running.items()})
                if recorder is not None:
                    trajectories.append(recorder.trajectory(i))
            for v in running.values():
                v[i] = 0.0
            if recorder is not None:
                recorder.restart(i)
    envs.close()
    names = sorted({n for c in component_totals for n in c})
    out = {"results": results, "summary": summarize(results),
           "components": {n: float(np.mean([c.get(n, 0.0) for c in component_totals])) for n in names},
           "race_components": component_totals}
    if keep_trajectories:
        out["trajectories"] = trajectories
    return out


class _WorldRecorder:
    """Every world's current episode of a racing vector env (one agent), kept as engine
    state rows and applied actions, so that each ended race becomes a Trajectory."""

    def __init__(self, envs):
        from trackfield.reward_design.env_hook import race_state_columns
        from trackfield.reward_design.trajectory import _json_config

        self.envs, self.engine = envs, envs._engine
        self.cols = race_state_columns(self.engine)
        self.config = _json_config(envs.config)
        n = envs.num_envs
        self.initial = [envs.get_state(i) for i in range(n)]
        self.raw = [[self.engine.world_info[i, self.cols].astype(np.float32)] for i in range(n)]
        self.actions = [[] for _ in range(n)]
        self.rewards = [[] for _ in range(n)]

    def step(self, rewards, done) -> None:
        rows = self.engine.world_info[:, self.cols].astype(np.float32)
        final = self.engine.final_world_info[:, self.cols].astype(np.float32) if done.any() else None
        actions = np.asarray(self.engine.actions, np.float32)
        rewards = np.asarray(rewards, np.float32).reshape(len(done), -1)
        for i in range(len(done)):
            self.raw[i].append(final[i] if done[i] else rows[i])  # an ended race's last state, not the next one's first
            self.actions[i].append(actions[i].copy())
            self.rewards[i].append(rewards[i].copy())

    def trajectory(self, i: int):
        from trackfield.reward_design.trajectory import Trajectory

        hook = self.envs._race_hook
        t = len(self.actions[i])
        return Trajectory(raw=np.stack(self.raw[i]), actions=np.asarray(self.actions[i], np.float32).reshape(t, -1, 2),
                          rewards=np.asarray(self.rewards[i], np.float32).reshape(t, -1), cars=hook.cars,
                          scenario=self.envs.scenario.name, config=self.config, course=hook.course,
                          initial_state=self.initial[i], seed=None)

    def restart(self, i: int) -> None:
        """World i was reset by the step: its next race starts from the engine's state now."""
        self.initial[i] = self.envs.get_state(i)
        self.raw[i] = [self.engine.world_info[i, self.cols].astype(np.float32)]
        self.actions[i], self.rewards[i] = [], []


def correlation_runs(policy, reward=None, races: int = 20, **kw) -> dict:
    """The paper's short runs for correlating rewards with results: 1 lap from 10th
    (``evaluate``'s other keywords pass through)."""
    return evaluate(policy, reward, races=races, laps=1, start_slot=9, **kw)
