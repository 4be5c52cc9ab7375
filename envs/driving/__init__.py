"""trackfield's driving domain in the manner of GIGAFLOW: towns of lanes, lights and goals
(OpenDRIVE, JSON or generated), many worlds of many jerk-actuated agents stepped in one C++
call, reward-conditioned self-play. Under construction: the map model lands first."""
from trackfield.driving.roadmap import Boundary, Junction, Lane, MapError, RoadMap, Signal
