"""Keeper against keeper for 500 steps, both AIs at difficulty 0."""
from . import *
from ._line_ups import KEEPER_ONLY, KEEPER_ONLY, add_teams


def build_scenario(builder):
    builder.config().game_duration = 500
    builder.config().right_team_difficulty = 0.0
    builder.config().left_team_difficulty = 0.0
    builder.config().deterministic = False
    add_teams(builder, KEEPER_ONLY, KEEPER_ONLY)
