"""Five a side for 3,000 steps, both AIs easy (0.05), keepers left to the AI."""
from . import *
from ._line_ups import FIVE_KICKING_OFF, FIVE_RECEIVING, add_teams


def build_scenario(builder):
    builder.config().game_duration = 3000
    builder.config().right_team_difficulty = 0.05
    builder.config().left_team_difficulty = 0.05
    builder.config().deterministic = False
    add_teams(builder, FIVE_KICKING_OFF, FIVE_RECEIVING)
