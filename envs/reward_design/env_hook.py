"""What a racing env does with ``race_state=True`` and ``reward="file.py"``: turns the
engine's state rows into CarStates in ``info["race_state"]`` and, with a reward file,
scores every agent car from (previous, current) in one program call per step."""
from __future__ import annotations

import numpy as np

from trackfield.reward_design.program import load_reward
from trackfield.reward_design.state import car_state_from_raw, course_of_env


def race_state_columns(engine) -> slice:
    """Where the engine's world_info rows hold the race state (every car's row)."""
    fields = engine.world_info_fields
    return slice(*fields.items[fields.names.index("race_state")][1:3])


class RaceStateHook:
    """Per env: the last CarState of every world and, with a reward file, the program."""

    def __init__(self, env, cars: int):
        cfg = env.config
        self.cars = cars
        self.course = course_of_env(env)
        self.program = load_reward(cfg.reward_file) if cfg.reward_file is not None else None
        self.add = cfg.reward_mode == "add"
        if self.program is not None and self.add:
            clash = set(self.program.names) & set(env._engine.reward_component_names)
            if clash:
                raise ValueError(f"reward file {cfg.reward_file}: components {sorted(clash)} share names with the "
                                 "built-in ones; with reward_mode='add' rename them")
        self.previous = None
        self.extra_return = None  # per (world, agent): the file's reward summed over the episode (vector env)

    def state(self, raw) -> "CarState":  # noqa: F821
        return car_state_from_raw(raw, self.cars)

    def restored(self, engine) -> None:
        """After ``set_state``: the next step's reward compares with the restored world.
        Between steps every world's engine row is the state the hook last saw (or, for the
        restored world, the snapshot's), so all previous states are re-read from the engine."""
        self.previous = self.state(engine.world_info[:, race_state_columns(engine)].astype(np.float32))
        if self.extra_return is None:  # restored before any reset
            self.extra_return = np.zeros((engine.num_envs, engine.num_agents), np.float64)

    def score(self, current, previous):
        """Totals and weighted parts of the agent cars, (agents,) and (agents, K)."""
        totals, parts = self.program(current, previous, self.course)
        mask = current.controlled
        return totals[mask], parts[mask]

    def components(self, builtin: dict, parts_row) -> dict:
        names = self.program.names
        if parts_row.ndim == 1:
            mine = dict(zip(names, parts_row.tolist()))
        else:
            mine = {name: parts_row[..., k].astype(np.float32) for k, name in enumerate(names)}
        return {**builtin, **mine} if self.add else mine

    # ------------------------------------------------------------ single env

    def single_reset(self, info: dict) -> None:
        self.previous = info["race_state"] = self.state(info["race_state"])
        if self.program is not None:
            zeros = np.zeros((int(self.previous.controlled.sum()), len(self.program.names)))
            info["reward_components"] = self.components(info["reward_components"], zeros[0] if len(zeros) == 1 else zeros)

    def single_step(self, reward, info: dict):
        current = info["race_state"] = self.state(info["race_state"])
        if self.program is not None:
            totals, parts = self.score(current, self.previous)
            if np.ndim(reward) == 0:
                reward = (float(reward) if self.add else 0.0) + float(totals[0])
                info["reward_components"] = self.components(info["reward_components"], parts[0])
            else:
                reward = (reward if self.add else np.zeros_like(reward)) + totals.astype(np.float32)
                info["reward_components"] = self.components(info["reward_components"], parts)
        self.previous = current
        return reward

    # ------------------------------------------------------------ vector env

    def vector_reset(self, info: dict, num_agents: int) -> None:
        self.previous = info["race_state"] = self.state(info["race_state"])
        self.extra_return = np.zeros((len(self.previous) // self.cars, num_agents), np.float64)

    def vector_step(self, rewards, info: dict, done: np.ndarray, num_agents: int):
        raw = info["race_state"]
        current = info["race_state"] = self.state(raw)
        final = None
        if done.any():
            final_raw = info["final_info"]["race_state"]
            final = self.state(final_raw)
            info["final_info"]["race_state"] = final
        if self.program is not None:
            # A world that ended this step is scored on its last state, not the new episode's first.
            scored = current if final is None else self.state(np.where(done[:, None], final_raw, raw))
            totals, parts = self.score(scored, self.previous)
            worlds = len(done)
            totals = totals.reshape(worlds, num_agents)
            parts = parts.reshape(worlds, num_agents, -1)
            if num_agents == 1:
                totals, parts = totals[:, 0], parts[:, 0]
            rewards = (rewards if self.add else np.zeros_like(rewards)) + totals.astype(np.float32)
            info["reward_components"] = self.components(info["reward_components"], parts)
            self.extra_return += totals.reshape(worlds, num_agents)
            if "episode" in info:
                r = info["episode"]["r"]
                extra = self.extra_return[:, 0] if num_agents == 1 else self.extra_return
                keep = done if r.ndim == 1 else done[:, None]
                base = r if self.add else np.zeros_like(r)
                info["episode"]["r"] = np.where(keep, base + extra, 0.0).astype(np.float32)
                self.extra_return[done] = 0.0
        self.previous = current
        return rewards

    # ------------------------------------------------------------ parallel env

    def parallel_reset(self, infos: dict, index: dict) -> None:
        raw = next(iter(infos.values()))["race_state"] if infos else None
        if raw is None:
            return
        self.previous = self.state(raw)
        for agent, info in infos.items():
            info["race_state"] = self.previous
            if self.program is not None:
                info["reward_components"] = self.components(info["reward_components"],
                                                            np.zeros(len(self.program.names)))

    def parallel_step(self, rewards: dict, infos: dict, index: dict, raw) -> dict:
        current = self.state(raw)
        if self.program is not None:
            totals, parts = self.score(current, self.previous)
            for agent in rewards:
                i = index[agent]
                rewards[agent] = (rewards[agent] if self.add else 0.0) + float(totals[i])
                if agent in infos:
                    infos[agent]["reward_components"] = self.components(infos[agent]["reward_components"], parts[i])
        for info in infos.values():
            info["race_state"] = current
        self.previous = current
        return rewards
