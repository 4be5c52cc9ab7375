"""trackfield's driving domain in the manner of GIGAFLOW: towns of lanes, lights and goals
(OpenDRIVE, JSON or generated), many worlds of many jerk-actuated agents stepped in one C++
call, reward-conditioned self-play.

Every map source produces one `RoadMap` (lanes as polylines in their direction of
travel, boundaries, junctions, lights), which the engine's map is built from; the envs
are `trackfield.make("town_drive")`, `trackfield.vector.make("town_self_play", ...)` and
`trackfield.parallel_env("town_self_play")` (see `DrivingEnv`); `evaluate(policy, ...)`
measures a policy's goal, collision, off-road and red-light rates and km per incident
under the `eval_long` preset (see `trackfield.driving.evaluation`).

>>> from trackfield.driving import load_map, generate_town
>>> town01 = load_map("Town01")            # CARLA's Town01, shipped with the package
>>> len(town01.junctions), len(town01.signals)
(12, 36)
>>> town = generate_town(seed=0, size="small")
>>> 4.0 <= town.lane_length / 1000 <= 8.0
True
"""
from trackfield.driving.augment import augment_map, variants
from trackfield.driving.env import DrivingEnv
from trackfield.driving.map_json import load_map_json, save_map_json
from trackfield.driving.maps import load_map
from trackfield.driving.rebuild import observe
from trackfield.driving.opendrive import load_opendrive
from trackfield.driving.roadmap import Boundary, Junction, Lane, MapError, RoadMap, Signal
from trackfield.driving.signals import generate_signals
from trackfield.driving.town_generator import generate_town

__all__ = ["Boundary", "DrivingEnv", "DrivingMetrics", "Junction", "Lane", "MapError", "RoadMap", "Signal", "augment_map",
           "evaluate", "generate_signals", "generate_town", "load_map", "load_map_json", "load_opendrive", "observe",
           "save_map_json", "variants"]

_EVALUATION = ("evaluate", "DrivingMetrics", "IncidentRecorder", "Incident")


def __getattr__(name):
    # Loaded on first use, so `python -m trackfield.driving.evaluation` runs the module
    # without the package having imported it first.
    if name in _EVALUATION:
        from trackfield.driving import evaluation

        return getattr(evaluation, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
