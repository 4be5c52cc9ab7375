"""The Kaggle competition's game: full strength AIs, halves of 1,500 steps, GRF-Kaggle slot order."""
from . import *
from ._line_ups import KAGGLE_KICKING_OFF, KAGGLE_RECEIVING, add_teams


def build_scenario(builder):
    builder.config().game_duration = 3000
    builder.config().second_half = 1500
    builder.config().right_team_difficulty = 1.0
    builder.config().left_team_difficulty = 1.0
    builder.config().deterministic = False
    add_teams(builder, KAGGLE_KICKING_OFF, KAGGLE_RECEIVING)
