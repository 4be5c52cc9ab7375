"""``trackfield.vector.make``: batched envs stepped inside C++ over threads."""
from __future__ import annotations


def make(name: str, num_envs: int, num_threads: int | None = None, **config):
    """A ``gymnasium.vector.VectorEnv`` of ``num_envs`` worlds of scenario ``name``.

    ``num_threads`` defaults to the CPUs available to this process. World i is seeded
    from ``(seed, i)``: results are bit-identical for any thread count.
    """
    from trackfield.registration import domain_of

    domain = domain_of(name)
    if domain == "football":
        from trackfield.football.vector import FootballVectorEnv

        return FootballVectorEnv(name, num_envs, num_threads, **config)
    if domain == "racing":
        from trackfield.racing.vector import RacingVectorEnv

        return RacingVectorEnv(name, num_envs, num_threads, **config)
    raise ValueError(f"no vector env for domain {domain!r}")
