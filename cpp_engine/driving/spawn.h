// Placing vehicles: the per-map buffer of candidate points, lane poses, and the spawn of
// one vehicle (rejection-sampled on-road, clear of the others) with its goals.
#ifndef TRACKFIELD_DRIVING_SPAWN_H
#define TRACKFIELD_DRIVING_SPAWN_H

#include <cmath>
#include <cstdint>

#include "driving/config.h"
#include "driving/world.h"

namespace trackfield::driving {

// Rejection sampling gives up after this many candidates (the slot retries next step).
constexpr int kSpawnTries = 32;
constexpr int kGoalTries = 16;

// A point on a lane's centre line.
struct LanePose {
  double x = 0, y = 0;
  float z = 0, heading = 0, half_width = 0;
};

// Interpolated centre-line pose of (lane, s), s clamped to the lane.
LanePose lane_pose(const Map& map, int lane, float s);

// lane_pose for a walk of rising s along one lane: `segment` (the lane's first point, or
// the last call's value) moves forward to the segment holding s instead of a binary search.
// Same result as lane_pose.
LanePose lane_pose_from(const Map& map, int lane, float s, int64_t& segment);

// Fills spawn_lane / spawn_s with kSpawnBufferSize points, lanes drawn in proportion to
// their length and s uniform on the lane, and the map bounds. Deterministic in `seed`.
void build_spawn_buffer(DriveMap& dm, uint64_t seed);

// A new vehicle keeps this much free space (beyond both bounding circles) from every other:
// the configured clearance plus kSpawnHeadway seconds at the faster of the two speeds, so
// a vehicle never appears just ahead of (or behind) one moving at speed.
constexpr float kSpawnHeadway = 1.5f;  // s
inline float spawn_clearance(float base_m, float speed_mps) { return base_m + kSpawnHeadway * std::fabs(speed_mps); }

// Built-in drivers (slots at or beyond DriveConfig::controlled) start outside junctions and
// not just before a stop line,
// already moving at kBuiltinSpawnShare of the lane's limit (at most kBuiltinSpawnSpeed),
// and drive to one final goal U(kBuiltinGoalMin, kBuiltinGoalMax) m on along the lanes
// (following successors only, as they drive).
constexpr float kBuiltinSpawnShare = 0.5f, kBuiltinSpawnSpeed = 3.0f;  // m/s
constexpr float kBuiltinGoalMin = 100.0f, kBuiltinGoalMax = 400.0f;    // m
constexpr float kBuiltinSpawnBeforeLight = 20.0f;  // m: nor this near the end of a lane with a light
constexpr float kBuiltinGoalBack = 6.0f;  // m: a goal at a dead end stands this far before it

// Spawns a vehicle in slot i (an agent slot, or a static slot with `is_static`): draws its
// size and coefficients, then tries buffer points (the vehicle centred on the lane, facing
// along it, or for a controlled agent with DriveConfig::random_spawn_heading a heading drawn
// per try uniform in [-pi, pi)) until its box is on-road and clear of every present
// vehicle. Agents also get reward weights and goals (the route rule in config.h). False: no
// room found (the slot is left kEmpty).
bool spawn_vehicle(DriveWorld& w, const DriveConfig& cfg, const DriveMap& dm, int i, bool is_static);

}  // namespace trackfield::driving

#endif
