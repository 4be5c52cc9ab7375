"""Football in the manner of Google Research Football."""
from trackfield.football.config import FootballConfig
from trackfield.football.env import FootballEnv
from trackfield.football.grf_api import create_environment

__all__ = ["FootballConfig", "FootballEnv", "create_environment"]
