"""Registers every shipped scenario with Gymnasium under the ``trackfield/`` namespace
and resolves names to domains for ``trackfield.make``."""
from __future__ import annotations

import os

import gymnasium

from trackfield.football.scenarios import list_football_scenarios
from trackfield.driving.scenarios import list_driving_scenarios
from trackfield.racing.scenarios import list_racing_scenarios

NAMESPACE = "trackfield"


def gym_id(name: str) -> str:
    """GRF scenario name -> Gymnasium id: academy_3_vs_1_with_keeper -> trackfield/Academy3Vs1WithKeeper-v0."""
    return f"{NAMESPACE}/" + "".join(part[:1].upper() + part[1:] for part in name.split("_")) + "-v0"


def list_scenarios(domain: str | None = None) -> list[str]:
    """Names of the shipped scenarios (all domains, or one)."""
    if domain not in (None, "football", "racing", "driving"):
        raise ValueError(f"domain must be 'football', 'racing' or 'driving', got {domain!r}")
    names = []
    if domain in (None, "football"):
        names += list_football_scenarios()
    if domain in (None, "racing"):
        names += list_racing_scenarios()
    if domain in (None, "driving"):
        names += list_driving_scenarios()
    return names


def domain_of(name) -> str:
    """Which domain a scenario name or file belongs to."""
    if isinstance(name, os.PathLike) or (isinstance(name, str) and (name.endswith(".py") or "/" in name)):
        return "football"  # scenario files of the other domains arrive with those domains
    if isinstance(name, str) and name in list_football_scenarios():
        return "football"
    if isinstance(name, str) and name in list_racing_scenarios():
        return "racing"
    if isinstance(name, str) and name in list_driving_scenarios():
        return "driving"
    raise ValueError(f"unknown scenario {name!r}; known: {', '.join(list_scenarios())} "
                     "(or pass a path to a scenario .py file)")


def _vector_entry(domain, scenario):
    def make_vector(num_envs: int = 1, **kwargs):
        from trackfield import vector

        # gymnasium.make_vec passes the spec's kwargs (our `scenario`) along with its own.
        kwargs.pop("vectorization_mode", None)
        kwargs.pop("scenario", None)
        return vector.make(scenario, num_envs, **kwargs)

    return make_vector


ENTRY_POINTS = {"football": "trackfield.football.env:FootballEnv", "racing": "trackfield.racing.env:RacingEnv",
                "driving": "trackfield.driving.env:DrivingEnv"}
# Scenarios whose every vehicle is an agent: they have no single-agent Gymnasium id, only
# trackfield.vector.make and trackfield.parallel_env.
MULTI_AGENT_ONLY = ("town_self_play",)
# What a scenario's id needs to make with no keywords (each can be given another value).
DEFAULT_KWARGS = {"race_section": {"track": "speedway", "section": "final_chicane"}}


def register_all() -> None:
    for domain, names in (("football", list_football_scenarios()), ("racing", list_racing_scenarios()),
                          ("driving", list_driving_scenarios())):
        for name in names:
            env_id = gym_id(name)
            if env_id in gymnasium.registry or name in MULTI_AGENT_ONLY:
                continue
            gymnasium.register(
                id=env_id,
                entry_point=ENTRY_POINTS[domain],
                vector_entry_point=_vector_entry(domain, name),
                kwargs={"scenario": name, **DEFAULT_KWARGS.get(name, {})},
            )
