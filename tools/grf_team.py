"""GRF's team processing order, for the measurement scripts here.

GRF processes one team before the other every frame, in an order (`reverse_team_processing`)
it draws once per environment at random (docs/football_fidelity.md).
``GRF_TEAM_ORDER=0`` (left team first) or ``1`` fixes it for the scripts that call
``fix_team_order_from_env``. Plain Python, no trackfield: it runs in GRF's interpreter.
"""
import os


def set_team_order(env, right_team_first):
    """Fixes a GRF environment's team processing order for its later resets."""
    env.unwrapped._config._values["reverse_team_processing"] = bool(right_team_first)


def fix_team_order_from_env(env):
    """Applies GRF_TEAM_ORDER to a GRF environment, if it is set; else GRF's draw stands."""
    order = os.environ.get("GRF_TEAM_ORDER")
    if order in ("0", "1"):
        set_team_order(env, order == "1")
