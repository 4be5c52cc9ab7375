// The observed ego and the observation noise (observed.h).
#include "driving/observed.h"

#include <cmath>

#include "driving/heading_trig.h"

namespace trackfield::driving {

EgoView observed_ego(const DriveWorld& w, const DriveConfig& cfg, int a) {
  const Vehicles& v = w.veh;
  EgoView e;
  e.x = v.x[a], e.y = v.y[a], e.heading = v.heading[a], e.v = v.v[a], e.d = w.d[a];
  if (!obs_noise_enabled(cfg)) {
    heading_cos_sin(a, e.heading, e.c, e.s);  // the vehicle's own heading: usually remembered
    return e;
  }
  if (a < kMaxAgents) {
    const float* n = w.obs_noise[a];
    e.x += n[0], e.y += n[1], e.heading += n[2], e.v += n[3];
    // The lane's left normal is (-sin, cos) of the lane heading.
    const double lh = w.lane_heading[a];
    e.d += -std::sin(lh) * n[0] + std::cos(lh) * n[1];
  }
  e.c = std::cos(e.heading), e.s = std::sin(e.heading);
  return e;
}

void reset_obs_noise(DriveWorld& w, const DriveConfig& cfg, uint64_t seed) {
  rng_seed(w.obs_rng, seed, 0x4f42534eULL);  // "OBSN": a stream apart from the world's
  draw_obs_noise(w, cfg);
}

void draw_obs_noise(DriveWorld& w, const DriveConfig& cfg) {
  if (!obs_noise_enabled(cfg)) return;  // the world's obs_noise stays zero (reset zeroes it)
  const int C = cfg.num_controlled();
  for (int a = 0; a < C; ++a) {
    float* n = w.obs_noise[a];
    if (w.state[a] != kAlive) {
      n[0] = n[1] = n[2] = n[3] = 0.0f;
      continue;
    }
    n[0] = cfg.obs_noise_pos_m * rng_normal(w.obs_rng);
    n[1] = cfg.obs_noise_pos_m * rng_normal(w.obs_rng);
    n[2] = cfg.obs_noise_heading_rad * rng_normal(w.obs_rng);
    n[3] = cfg.obs_noise_speed_mps * rng_normal(w.obs_rng);
  }
}

}  // namespace trackfield::driving
