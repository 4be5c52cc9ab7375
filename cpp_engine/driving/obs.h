// The "flat" observation: one float32 vector per agent slot, every value in [-1, 1]
// (clipped) by the scales documented in obs_flat.cpp's field table, which is the single
// declaration the Python spaces and the env docstring are checked against.
#ifndef TRACKFIELD_DRIVING_OBS_H
#define TRACKFIELD_DRIVING_OBS_H

#include <vector>

#include "common/field_spec.h"
#include "driving/config.h"
#include "driving/world.h"

namespace trackfield::driving {

constexpr int kObsVehicles = 20;        // nearest other vehicles
constexpr float kObsVehicleRadius = 200.0f;  // m
constexpr int kObsLanePoints = 20;      // centre-line points ahead along the route
constexpr float kObsLaneSpacing = 5.0f; // m (100 m ahead)

const std::vector<FieldSpec>& flat_specs();
int flat_size();
void write_flat(const DriveWorld& w, const DriveConfig& cfg, int agent, float* out);

// The "sets" observation (obs_sets.cpp): ego, goal and light as in flat, then sets with
// explicit masks (vehicles, the map's precomputed lane and boundary points, map_sets.h)
// for permutation-invariant encoders; conditioning last.
constexpr float kFeatureDropoutLane = 0.5f, kFeatureDropoutBoundary = 0.4f;
const std::vector<FieldSpec>& sets_specs();
int sets_size();
void write_sets(const DriveWorld& w, const DriveConfig& cfg, int agent, float* out);

// The representation cfg.observation selects: its fields, size and writer.
const std::vector<FieldSpec>& observation_specs(const DriveConfig& cfg);
void write_observation(const DriveWorld& w, const DriveConfig& cfg, int agent, float* out);

}  // namespace trackfield::driving

#endif
