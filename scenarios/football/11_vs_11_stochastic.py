"""A full 90-minute game (3,000 steps) against the built-in AI at medium difficulty (0.6); sides swap every episode."""
from . import *
from ._line_ups import ELEVEN_KICKING_OFF, ELEVEN_RECEIVING, add_teams


def build_scenario(builder):
    builder.config().game_duration = 3000
    builder.config().right_team_difficulty = 0.6
    builder.config().deterministic = False
    add_teams(builder, ELEVEN_KICKING_OFF, ELEVEN_RECEIVING)
