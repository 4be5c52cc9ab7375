// What an agent's observation sees of itself and of the others, where it differs from the
// true state: the ego's pose and speed with observation noise (DriveConfig::obs_noise_*),
// and other vehicles' boxes grown by DriveConfig::obs_inflate_m per side. Observation
// writers read the ego through observed_ego() instead of the world's arrays, so every
// observation kind sees the same noisy ego.
//
// The noise of each agent is drawn from the world's RNG once per step (after the step, and
// after a reset) by draw_obs_noise() and kept in the world (DriveWorld::obs_noise), so
// writing an observation changes nothing, a snapshot carries the noise, and the same seed
// gives the same noise. With every obs_noise_* at 0 nothing is drawn (the RNG stream is the
// one without noise).
#ifndef TRACKFIELD_DRIVING_OBSERVED_H
#define TRACKFIELD_DRIVING_OBSERVED_H

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

// Draws this step's observation noise of every controlled slot (zeros it when disabled).
void draw_obs_noise(DriveWorld& w, const DriveConfig& cfg);

}  // namespace trackfield::driving

#endif
