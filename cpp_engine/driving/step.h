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

// The built-in driver's jerks (driver.h) for every controlled slot, as [controlled, 2]
// (zeros for a slot without a vehicle): env.ai_action().
void ai_jerks(const DriveWorld& w, const DriveConfig& cfg, float* out);

}  // namespace trackfield::driving

#endif
