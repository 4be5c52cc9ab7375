"""The driving scenarios: who is controlled and what happens when an agent ends."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class DriveScenario:
    name: str
    controlled: str       # "all": every agent slot is a policy agent; "ego": slot 0 only, the rest built-in drivers
    slots: int            # default agent slots per world
    respawn: bool         # default: an ended agent's slot takes a new agent (else the slot stays empty)
    description: str


SCENARIOS = {
    "town_self_play": DriveScenario(
        "town_self_play", "all", 150, True,
        "GIGAFLOW-style self-play: every agent in the town is controlled; ended agents respawn."),
    "town_drive": DriveScenario(
        "town_drive", "ego", 32, False,
        "One controlled ego (slot 0) among built-in IDM + pure-pursuit traffic; the episode ends with the ego."),
}


def list_driving_scenarios() -> list[str]:
    return list(SCENARIOS)


def load_driving_scenario(name: str) -> DriveScenario:
    if name not in SCENARIOS:
        raise ValueError(f"unknown driving scenario {name!r}; known: {', '.join(SCENARIOS)}")
    return SCENARIOS[name]
