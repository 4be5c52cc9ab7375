// What an agent's observation sees of itself and of the others, where it differs from the
// true state: the ego's pose and speed with observation noise (DriveConfig::obs_noise_*),
// and other vehicles' boxes grown by DriveConfig::obs_inflate_m per side. Observation
// writers read the ego through observed_ego() instead of the world's arrays, so every
// observation kind sees the same noisy ego.
//
// The noise of each agent is drawn once per step (after the step, and after a reset) by
// draw_obs_noise() from the world's own observation-noise generator (DriveWorld::obs_rng,
// a separate stream seeded with the world), and kept in the world (DriveWorld::obs_noise):
// writing an observation changes nothing, a snapshot carries the noise, the same seed gives
// the same noise, and the world itself (spawns, lights, erratic drivers) evolves exactly as
// without noise for the same actions.
#ifndef TRACKFIELD_DRIVING_OBSERVED_H
#define TRACKFIELD_DRIVING_OBSERVED_H

#include <cstdint>

#include "driving/config.h"
#include "driving/world.h"

namespace trackfield::driving {

// The ego as its observation sees it.
struct EgoView {
  double x = 0, y = 0;        // position, m (+ noise)
  double heading = 0;         // rad (+ noise)
  double c = 1, s = 0;        // cos, sin of heading
  double v = 0;               // signed speed, m/s (+ noise)
  double d = 0;               // lateral offset from the lane centre, m, + left: the position
                              // noise's component across the lane added
};

EgoView observed_ego(const DriveWorld& w, const DriveConfig& cfg, int agent);

// A vehicle's length or width as others observe it.
inline double observed_size(const DriveConfig& cfg, double size) { return size + 2.0 * cfg.obs_inflate_m; }

inline bool obs_noise_enabled(const DriveConfig& cfg) {
  return cfg.obs_noise_pos_m > 0.0f || cfg.obs_noise_heading_rad > 0.0f || cfg.obs_noise_speed_mps > 0.0f;
}

// Seeds the world's observation-noise generator from the reset seed and draws the first noise.
void reset_obs_noise(DriveWorld& w, const DriveConfig& cfg, uint64_t seed);
// Draws this step's observation noise of every controlled slot (nothing when disabled).
void draw_obs_noise(DriveWorld& w, const DriveConfig& cfg);

}  // namespace trackfield::driving

#endif
