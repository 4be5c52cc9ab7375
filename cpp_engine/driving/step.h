// A driving world's episode: reset and the ordered step (step.cpp lists the order).
#ifndef TRACKFIELD_DRIVING_STEP_H
#define TRACKFIELD_DRIVING_STEP_H

#include <cstdint>

#include "driving/config.h"
#include "driving/world.h"

namespace trackfield::driving {

const DriveMap& world_map(const DriveWorld& w, const DriveConfig& cfg);

// A new episode: map, lights, erratic drivers, agents and static obstacles.
void reset_world(DriveWorld& w, const DriveConfig& cfg, uint64_t seed);

// One step. `actions`: [controlled] int32 in [0, 11] or [controlled, 2] float32 jerks.
void step_world(DriveWorld& w, const DriveConfig& cfg, const void* actions);

// The built-in driver's jerks for slot i: IDM speed behind the leader in its path and
// pure-pursuit steering towards the lane centre 1 s ahead (at least 6 m).
void builtin_driver(const DriveWorld& w, const DriveConfig& cfg, int i, float& j_long, float& j_lat);

}  // namespace trackfield::driving

#endif
