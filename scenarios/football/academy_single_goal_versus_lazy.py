"""A full team against ten opponents who stand still (only their keeper moves)."""
from . import *


def build_scenario(builder):
    builder.config().game_duration = 3000
    builder.config().deterministic = False
    builder.config().offsides = False
    builder.config().end_episode_on_score = True
    builder.config().end_episode_on_out_of_play = True
    builder.config().end_episode_on_possession_change = True
    builder.SetBallPosition(-0.48, -0.06356)

    builder.SetTeam(Team.e_Left)
    builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
    builder.AddPlayer(0.0, 0.02, e_PlayerRole_RM)
    builder.AddPlayer(0.0, -0.02, e_PlayerRole_CF)
    builder.AddPlayer(-0.422, -0.19576, e_PlayerRole_LB)
    builder.AddPlayer(-0.5, -0.06356, e_PlayerRole_CB)
    builder.AddPlayer(-0.5, 0.063559, e_PlayerRole_CB)
    builder.AddPlayer(-0.422, 0.19576, e_PlayerRole_RB)
    builder.AddPlayer(-0.184212, -0.10568, e_PlayerRole_CM)
    builder.AddPlayer(-0.267574, 0.0, e_PlayerRole_CM)
    builder.AddPlayer(-0.184212, 0.10568, e_PlayerRole_CM)
    builder.AddPlayer(-0.01, -0.2161, e_PlayerRole_LM)

    builder.SetTeam(Team.e_Right)
    builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
    builder.AddPlayer(-0.05, 0.0, e_PlayerRole_RM, True)
    builder.AddPlayer(-0.01, 0.216102, e_PlayerRole_CF, True)
    builder.AddPlayer(-0.422, -0.19576, e_PlayerRole_LB, True)
    builder.AddPlayer(-0.5, -0.06356, e_PlayerRole_CB, True)
    builder.AddPlayer(-0.5, 0.063559, e_PlayerRole_CB, True)
    builder.AddPlayer(-0.422, 0.19576, e_PlayerRole_RB, True)
    builder.AddPlayer(-0.184212, -0.10568, e_PlayerRole_CM, True)
    builder.AddPlayer(-0.267574, 0.0, e_PlayerRole_CM, True)
    builder.AddPlayer(-0.184212, 0.10568, e_PlayerRole_CM, True)
    builder.AddPlayer(-0.01, -0.2161, e_PlayerRole_LM, True)
