"""A full game against the built-in AI at hard difficulty (0.95)."""
from . import *
from ._line_ups import ELEVEN_KICKING_OFF, ELEVEN_RECEIVING, add_teams


def build_scenario(builder):
    builder.config().game_duration = 3000
    builder.config().right_team_difficulty = 0.95
    builder.config().deterministic = False
    add_teams(builder, ELEVEN_KICKING_OFF, ELEVEN_RECEIVING)
