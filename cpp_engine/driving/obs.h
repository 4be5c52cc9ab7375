// The "flat" observation: one float32 vector per agent slot, every value in [-1, 1]
// (clipped) by the scales documented in obs_flat.cpp's field table, which is the single
// declaration the Python spaces and the env docstring are checked against.
#ifndef TRACKFIELD_DRIVING_OBS_H
#define TRACKFIELD_DRIVING_OBS_H

#include <cstdint>
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

// The "pixels" observation (obs_pixels.cpp): an egocentric top-down picture, uint8
// (kPixelSize, kPixelSize, kPixelChannels), the agent's heading up, its centre at the
// middle of the frame (the corner of pixels (31, 31) and (32, 32)), kPixelMetres m per
// pixel. Pixel (row, col) shows the ego-frame point forward = (32 - row - 0.5) m,
// left = (32 - col - 0.5) m. Needs the map's raster (DriveMap::raster).
constexpr int kPixelSize = 64;
constexpr int kPixelChannels = 6;
constexpr float kPixelMetres = 1.0f;
enum PixelChannel : int {
  kPixelDrivable = 0,  // 255 on a lane (map_raster.h)
  kPixelBoundary = 1,  // 255 on a road edge or boundary line
  kPixelRoute = 2,     // 128 along the route to the current goal (50 m ahead), 255 on the goal's disc
  kPixelVehicles = 3,  // 255 in other vehicles' boxes (none while blind)
  kPixelEgo = 4,       // 255 in the agent's own box
  kPixelLights = 5,    // 1.5 m bands behind lit stop lines: 255 red, 170 yellow, 85 green
};
void write_pixels(const DriveWorld& w, const DriveConfig& cfg, int agent, uint8_t* out);

// The representation cfg.observation selects (flat or sets; pixels has no float fields): its fields, size and writer.
const std::vector<FieldSpec>& observation_specs(const DriveConfig& cfg);
void write_observation(const DriveWorld& w, const DriveConfig& cfg, int agent, float* out);

}  // namespace trackfield::driving

#endif
