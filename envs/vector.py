"""``trackfield.vector.make``: batched envs stepped inside C++ over threads."""
from __future__ import annotations


def make(name: str | None = None, num_envs: int | None = None, num_threads: int | None = None, *,
         scenarios: dict | None = None, **config):
    """A ``gymnasium.vector.VectorEnv`` of ``num_envs`` worlds of scenario ``name``.

    ``num_threads`` defaults to the CPUs available to this process. World i is seeded
    from ``(seed, i)``: results are bit-identical for any thread count. Racing also takes
    ``scenarios={"race_1v1": 0.3, "race_time_trial": 0.7}`` instead of a name: the worlds
    are split between them in those fixed shares (``info["scenario"]`` names each world's).
    """
    from trackfield.registration import domain_of

    if num_envs is None:
        raise TypeError("vector.make() needs num_envs")
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
