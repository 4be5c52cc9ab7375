"""Line-ups of GRF's full-game scenarios, as data (positions in each team's own frame,
GRF units: own goal at x = -1, y in [-0.42, 0.42]), and the side swap GRF's full-game
files make: the first line-up (the team kicking off) plays left in even episodes and
right in odd ones."""
from . import Team, e_PlayerRole_CB, e_PlayerRole_CF, e_PlayerRole_CM, e_PlayerRole_GK  # noqa: F401
from . import e_PlayerRole_LB, e_PlayerRole_LM, e_PlayerRole_RB, e_PlayerRole_RM

GK, CB, LB, RB, CM, LM, RM, CF = (e_PlayerRole_GK, e_PlayerRole_CB, e_PlayerRole_LB, e_PlayerRole_RB,
                                  e_PlayerRole_CM, e_PlayerRole_LM, e_PlayerRole_RM, e_PlayerRole_CF)

# The back four and the midfield three both eleven-a-side teams share.
_DEFENCE_AND_MIDFIELD = [
    (-0.422, -0.19576, LB), (-0.5, -0.06356, CB), (-0.5, 0.063559, CB), (-0.422, 0.19576, RB),
    (-0.184212, -0.10568, CM), (-0.267574, 0.0, CM), (-0.184212, 0.10568, CM),
]

# 11 vs 11: the kicking-off team has two forwards on the centre spot.
ELEVEN_KICKING_OFF = ([(-1.0, 0.0, GK), (0.0, 0.02, RM), (0.0, -0.02, CF)] + _DEFENCE_AND_MIDFIELD
                      + [(-0.01, -0.2161, LM)])
ELEVEN_RECEIVING = ([(-1.0, 0.0, GK), (-0.05, 0.0, RM), (-0.01, 0.216102, CF)] + _DEFENCE_AND_MIDFIELD
                    + [(-0.01, -0.2161, LM)])

# 11_vs_11_kaggle orders the slots differently (the forwards last), which fixes which
# observation slot each player fills.
KAGGLE_KICKING_OFF = ([(-1.0, 0.0, GK)] + _DEFENCE_AND_MIDFIELD
                      + [(-0.01, -0.2161, LM), (0.0, 0.02, CF), (0.0, -0.02, RM)])
KAGGLE_RECEIVING = ([(-1.0, 0.0, GK)] + _DEFENCE_AND_MIDFIELD
                    + [(-0.01, -0.2161, LM), (-0.05, 0.0, CF), (-0.01, 0.216102, RM)])

# 5 vs 5: keepers the agents cannot control.
FIVE_KICKING_OFF = [(-1.0, 0.0, GK, False), (0.0, 0.02, RM), (0.0, -0.02, CF), (-0.1, -0.1, LB), (-0.1, 0.1, CB)]
FIVE_RECEIVING = [(-1.0, 0.0, GK, False), (-0.04, 0.04, RM), (-0.04, -0.04, CF), (-0.1, -0.1, LB), (-0.1, 0.1, CB)]

# 1 vs 1: the two keepers alone.
KEEPER_ONLY = [(-1.0, 0.0, GK)]


def add_teams(builder, kicking_off, receiving):
    """Adds both line-ups, the kicking-off one on the left in even episodes."""
    first, second = (Team.e_Left, Team.e_Right) if builder.EpisodeNumber() % 2 == 0 else (Team.e_Right, Team.e_Left)
    for team, line_up in ((first, kicking_off), (second, receiving)):
        builder.SetTeam(team)
        for x, y, role, *controllable in line_up:
            if controllable:
                builder.AddPlayer(x, y, role, controllable=controllable[0])
            else:
                builder.AddPlayer(x, y, role)
