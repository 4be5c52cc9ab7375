"""trackfield: fast C++ reinforcement-learning environments for football, racing and driving.

>>> import trackfield
>>> env = trackfield.make("academy_empty_goal_close")
>>> obs, info = env.reset(seed=0)
>>> obs.shape
(115,)
"""
from __future__ import annotations

__version__ = "0.1.0"

from trackfield import vector
from trackfield.registration import domain_of, gym_id, list_scenarios, register_all

register_all()


def make(name: str, **config):
    """A Gymnasium env for scenario ``name`` (a shipped name such as
    ``"academy_empty_goal_close"``, or a path to a scenario ``.py`` file)."""
    domain = domain_of(name)
    if domain == "football":
        from trackfield.football.env import FootballEnv

        return FootballEnv(name, **config)
    if domain == "racing":
        from trackfield.racing.env import RacingEnv

        return RacingEnv(name, **config)
    if domain == "driving":
        from trackfield.driving.env import DrivingEnv
        return DrivingEnv(name, **config)
    raise ValueError(f"no env for domain {domain!r}")


def make_vec(name: str, num_envs: int, num_threads: int | None = None, **config):
    """Same as ``trackfield.vector.make``."""
    return vector.make(name, num_envs, num_threads, **config)


def parallel_env(name: str, **config):
    """A PettingZoo ParallelEnv: one agent per controlled player, car or vehicle."""
    if domain_of(name) == "racing":
        from trackfield.racing.pettingzoo import RacingParallelEnv

        return RacingParallelEnv(name, **config)
    if domain_of(name) == "driving":
        from trackfield.driving.pettingzoo import DrivingParallelEnv

        return DrivingParallelEnv(name, **config)
    from trackfield.football.pettingzoo import FootballParallelEnv

    return FootballParallelEnv(name, **config)


def env(name: str, **config):
    """The AEC form of ``parallel_env`` (PettingZoo's converter)."""
    from pettingzoo.utils.conversions import parallel_to_aec

    return parallel_to_aec(parallel_env(name, **config))


def replay(path, video=None, observations=False, fps=10, width=640):
    """Re-simulates an episode dump (``write_full_episode_dumps=True``) bit for bit;
    ``video="out.mp4"`` writes it as a video. See ``trackfield.core.dumps.replay``."""
    from trackfield.core.dumps import replay as replay_dump

    return replay_dump(path, video=video, observations=observations, fps=fps, width=width)


__all__ = ["make", "make_vec", "vector", "parallel_env", "env", "list_scenarios", "gym_id", "replay", "__version__"]
