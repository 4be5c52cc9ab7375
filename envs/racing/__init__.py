"""trackfield's racing domain: circuits (shipped, TUM CSV, JSON, procedural) and,
later, cars, observations, rewards and scenarios.

>>> from trackfield.racing import load_track, list_tracks
>>> track = load_track("technical")
>>> round(track.length / 1000, 1) > 2.5
True
"""
from trackfield.racing.raceline import minimum_curvature_line
from trackfield.racing.track import Section, Track, build_track
from trackfield.racing.track_files import (
    TrackFileError,
    list_tracks,
    load_raceline,
    load_track,
    save_track_json,
)
from trackfield.racing.track_generator import generate_track

__all__ = [
    "Section", "Track", "TrackFileError", "build_track", "generate_track", "list_tracks",
    "load_raceline", "load_track", "minimum_curvature_line", "save_track_json",
]
