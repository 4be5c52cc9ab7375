"""trackfield's racing domain in the manner of Gran Turismo Sophy: circuits (shipped, TUM
CSV, JSON, procedural), cars with four-tyre physics at 100 Hz under 10 Hz control, the
built-in AI, GT Sophy's observations and reward components, race scenarios and the
20-car evaluation race.

>>> import trackfield
>>> env = trackfield.make("race_1v3", track="technical")
>>> obs, info = env.reset(seed=0)
>>> obs.shape
(655,)

>>> from trackfield.racing import load_track, list_tracks
>>> track = load_track("technical")
>>> round(track.length / 1000, 1) > 2.5
True
"""
from trackfield.racing.config import RacingConfig
from trackfield.racing.env import RacingEnv
from trackfield.racing.features import feature_index, feature_layout
from trackfield.racing.evaluation import RaceResult, evaluate_race, summarize, thresholds_from
from trackfield.racing.launches import RecordedLaunches
from trackfield.racing.raceline import minimum_curvature_line
from trackfield.racing.reference import car_names, car_params, racing_line, reference_lap, reference_lap_details
from trackfield.racing.scenarios import list_racing_scenarios, load_racing_scenario
from trackfield.racing.track import Section, Track, build_track
from trackfield.racing.track_files import (
    TrackFileError,
    list_tracks,
    list_tum_tracks,
    load_raceline,
    load_track,
    save_track_json,
)
from trackfield.racing.track_generator import generate_track

__all__ = [
    "RaceResult", "RacingConfig", "RacingEnv", "RecordedLaunches", "Section", "Track", "TrackFileError", "build_track",
    "car_names", "car_params", "evaluate_race", "feature_index", "feature_layout", "generate_track", "list_racing_scenarios", "list_tracks", "list_tum_tracks",
    "load_raceline", "load_racing_scenario", "load_track", "minimum_curvature_line", "racing_line",
    "reference_lap", "reference_lap_details", "save_track_json", "summarize", "thresholds_from",
]
