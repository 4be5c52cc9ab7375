"""The shipped racing scenarios: who starts where, how fast, against whom, for how long.

Each is a :class:`RaceScenario`; ``trackfield.make(name, **config)`` builds it and the
user's keywords (track, car, laps, start_slot, ...) override its defaults.
"""
from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class RaceScenario:
    name: str
    description: str
    cars: int                     # cars per group, agents included
    start: str = "rolling"        # rolling | grid | slipstream | section
    track: str = "technical"
    reward: str = "race"
    max_time_s: float = 150.0
    laps: int = 0                 # > 0: the race distance
    penalties: bool = False       # slow-down penalties for cutting the course and unsporting contact
    start_slot: int = 0           # grid starts: the agent's slot (-1: random each reset)
    speed_kmh: tuple = (80.0, 200.0)  # launch speeds (rolling and slipstream)
    gap_m: tuple = (8.0, 40.0)    # spacing of the rolling column
    grid_speed_kmh: float = 0.0
    skill: tuple = (0.85, 1.0)    # AI pace fractions, drawn per car and episode
    section: str = ""             # section starts: the named section
    section_lead_m: float = 150.0
    section_exit_m: float = 100.0


SCENARIOS = {s.name: s for s in [
    RaceScenario("race_time_trial", "one car alone, launched at speed anywhere on the lap", cars=1,
                 reward="time_trial"),
    RaceScenario("race_1v1", "one AI opponent launched nearby", cars=2),
    RaceScenario("race_1v2", "two AI opponents launched nearby", cars=3),
    RaceScenario("race_1v3", "three AI opponents launched nearby", cars=4),
    RaceScenario("race_1v7", "seven AI opponents launched nearby", cars=8, gap_m=(8.0, 30.0)),
    RaceScenario("race_grid_start", "standing start from an 8-car grid, slot drawn each reset", cars=8,
                 start="grid", start_slot=-1, max_time_s=60.0),
    RaceScenario("race_slipstream", "1 v 1 on the longest straight, the opponent ahead held to one side",
                 cars=2, start="slipstream", speed_kmh=(150.0, 220.0), max_time_s=20.0),
    RaceScenario("race_final_chicane_traffic", "three opponents into the high-speed circuit's final chicane",
                 cars=4, start="section", track="speedway", section="final_chicane", max_time_s=30.0,
                 gap_m=(6.0, 20.0)),
    RaceScenario("race_field", "1 learner and 19 AI over 4 laps, from the back of the grid", cars=20,
                 start="grid", start_slot=19, laps=4, max_time_s=1200.0, penalties=True),
]}


def list_racing_scenarios() -> list[str]:
    return list(SCENARIOS) + ["race_section"]


def load_racing_scenario(name: str, section: str | None = None) -> RaceScenario:
    """The scenario called ``name``; ``race_section`` needs ``section=`` (a section of the track)."""
    if name == "race_section":
        if not section:
            raise ValueError("race_section needs section=NAME (a named section of the track, e.g. 'final_chicane')")
        return RaceScenario("race_section", f"a run through section {section!r}", cars=1, start="section",
                            section=section, max_time_s=60.0, reward="time_trial")
    if name not in SCENARIOS:
        raise ValueError(f"unknown racing scenario {name!r}; known: {', '.join(list_racing_scenarios())}")
    scenario = SCENARIOS[name]
    if section is not None:
        scenario = replace(scenario, section=section, start="section")
    return scenario
