"""Football scenarios in Google Research Football's file format.

A scenario file defines ``build_scenario(builder)`` and starts with ``from . import *``,
which brings in the names GRF's files expect: ``Team`` and the ``e_PlayerRole_*``
constants. Existing GRF scenario files therefore run unchanged.
"""


class Team:
    """Which team ``builder.SetTeam`` adds players to."""

    e_Left = 0
    e_Right = 1


e_PlayerRole_GK = 0
e_PlayerRole_CB = 1
e_PlayerRole_LB = 2
e_PlayerRole_RB = 3
e_PlayerRole_DM = 4
e_PlayerRole_CM = 5
e_PlayerRole_LM = 6
e_PlayerRole_RM = 7
e_PlayerRole_AM = 8
e_PlayerRole_CF = 9

__all__ = ["Team"] + [name for name in dict(globals()) if name.startswith("e_PlayerRole_")]
