"""``trackfield.vector.make``: batched envs stepped inside C++ over threads."""
from __future__ import annotations


def make(name: str | None = None, num_envs: int | None = None, num_threads: int | None = None, *,
         scenarios: dict | None = None, **config):
    """A ``gymnasium.vector.VectorEnv`` of ``num_envs`` worlds of scenario ``name``.

    ``num_threads`` defaults to the CPUs available to this process; more than that warns
    and is capped to it (extra threads only take turns on the same cores). World i is seeded
    from ``(seed, i)``: results are bit-identical for any thread count. Racing also takes
    ``scenarios={"race_1v1": 0.3, "race_time_trial": 0.7}`` instead of a name: the worlds
    are split between them in those fixed shares (``info["scenario"]`` names each world's).
    """
    from trackfield.registration import domain_of

    if num_envs is None:
        raise TypeError("vector.make() needs num_envs")
    num_threads = _capped_threads(num_threads)
    if scenarios is not None:
        if name is not None:
            raise ValueError("pass either a scenario name or scenarios={name: share}, not both")
        domains = {domain_of(n) for n in scenarios} if isinstance(scenarios, dict) else set()
        if domains != {"racing"}:
            raise ValueError(f"scenarios= mixes racing scenarios only, got {scenarios!r}")
        from trackfield.racing.mix import ScenarioMixVectorEnv

        return ScenarioMixVectorEnv(scenarios, num_envs, num_threads, **config)
    if name is None:
        raise TypeError("vector.make() needs a scenario name (or scenarios= for a racing mix)")

    domain = domain_of(name)
    if domain == "football":
        from trackfield.football.vector import FootballVectorEnv

        return FootballVectorEnv(name, num_envs, num_threads, **config)
    if domain == "racing":
        from trackfield.racing.vector import RacingVectorEnv

        return RacingVectorEnv(name, num_envs, num_threads, **config)
    if domain == "driving":
        from trackfield.driving.vector import DrivingVectorEnv
        return DrivingVectorEnv(name, num_envs, num_threads, **config)
    raise ValueError(f"no vector env for domain {domain!r}")


def _capped_threads(num_threads):
    """``num_threads``, capped (with a warning) at the CPUs this process may use."""
    import warnings

    import numpy as np

    from trackfield.core.engine import default_threads

    cores = default_threads()
    if isinstance(num_threads, (int, np.integer)) and not isinstance(num_threads, bool) and num_threads > cores:
        warnings.warn(f"num_threads={num_threads} is more than the {cores} CPUs this process may use; using {cores}",
                      RuntimeWarning, stacklevel=3)
        return cores
    return num_threads
