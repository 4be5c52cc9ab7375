// The Intelligent Driver Model (Treiber, Hennecke and Helbing, "Congested traffic states in
// empirical observations and microscopic simulations", Phys. Rev. E 62, 2000) for background
// traffic that follows its lane.
//
//   s*(v, dv) = s0 + max(0, v T + v dv / (2 sqrt(a b)))
//   dv/dt     = a (1 - (v / v0)^delta - (s* / gap)^2),  delta = 4
//
// v: own speed, v0: desired speed (the lane's limit), gap: bumper-to-bumper distance to the
// leader (infinity when there is none), dv = v - v_leader (positive when closing in).
#ifndef TRACKFIELD_DRIVING_IDM_H
#define TRACKFIELD_DRIVING_IDM_H

#include <limits>

namespace trackfield::driving {

constexpr float kNoLeader = std::numeric_limits<float>::infinity();

// The usual literature values (Treiber et al. 2000 and the traffic-flow textbook that followed).
struct IdmParams {
  float time_headway_s = 1.5f;  // T
  float min_gap_m = 2.0f;       // s0, the standstill gap
  float max_accel = 1.5f;       // a, m/s^2
  float comfort_decel = 2.0f;   // b, m/s^2
  float exponent = 4.0f;        // delta
  // The result is clipped to [-max_brake, a]: the IDM's interaction term is unbounded when a
  // leader appears too close (a cut-in), and no tyre brakes harder than about 9 m/s^2.
  float max_brake = 9.0f;
};

// Acceleration in m/s^2. A v0 at or below 0 means "stop": brake at b (or hold still). A gap at
// or below 0 (overlap) brakes as hard as allowed.
float idm_acceleration(float v, float v0, float gap, float dv, const IdmParams& p);

// The equilibrium gap at speed v (zero acceleration behind a leader at the same speed).
float idm_equilibrium_gap(float v, float v0, const IdmParams& p);

// One explicit step of the speed; IDM vehicles never reverse.
inline float idm_advance_speed(float v, float accel, float dt) {
  float next = v + accel * dt;
  return next > 0.0f ? next : 0.0f;
}

}  // namespace trackfield::driving

#endif
