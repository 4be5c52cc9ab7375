"""A full game with both built-in AIs at full strength (1.0)."""
from . import *
from ._line_ups import ELEVEN_KICKING_OFF, ELEVEN_RECEIVING, add_teams


def build_scenario(builder):
    builder.config().game_duration = 3000
    builder.config().right_team_difficulty = 1.0
    builder.config().left_team_difficulty = 1.0
    builder.config().deterministic = False
    add_teams(builder, ELEVEN_KICKING_OFF, ELEVEN_RECEIVING)
