"""Football in the manner of Google Research Football."""
from trackfield.football.config import FootballConfig
from trackfield.football.env import FootballEnv

__all__ = ["FootballConfig", "FootballEnv"]
