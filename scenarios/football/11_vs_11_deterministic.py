"""A full game at medium difficulty (0.6) with every random outcome fixed."""
from . import *
from ._line_ups import ELEVEN_KICKING_OFF, ELEVEN_RECEIVING, add_teams


def build_scenario(builder):
    builder.config().game_duration = 3000
    builder.config().right_team_difficulty = 0.6
    builder.config().deterministic = True
    add_teams(builder, ELEVEN_KICKING_OFF, ELEVEN_RECEIVING)
