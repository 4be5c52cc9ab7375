// GIGAFLOW's jerk-actuated kinematic bicycle. An action sets the jerk (rate of change of
// acceleration) along and across the path; accelerations, speed and the steering angle
// follow with clips, sign snaps and a steering-rate limit, so no agent can change its
// motion abruptly however it acts.
//
// State: one BicycleState per world, a struct of arrays over its agents (sized at reset,
// never during a step). Kinematic quantities are double: positions in large towns, and the
// displacement formulas below lose digits in float.
#ifndef TRACKFIELD_DRIVING_BICYCLE_H
#define TRACKFIELD_DRIVING_BICYCLE_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/rng.h"

namespace trackfield::driving {

// Discrete actions: index 3 * i_long + i_lat.
constexpr int kActionCount = 12;
constexpr float kJerkLong[4] = {-15.0f, -4.0f, 0.0f, 4.0f};  // m/s^3
constexpr float kJerkLat[3] = {-4.0f, 0.0f, 4.0f};           // m/s^3
// The Box action is (j_long, j_lat) in this range; step_bicycle clips to it (documented).
constexpr float kJerkLongMin = -15.0f, kJerkLongMax = 4.0f, kJerkLatMax = 4.0f;

constexpr double kDefaultDt = 0.3;          // s
constexpr double kBrakeLimit = -5.0;        // m/s^2, a_long >= this
constexpr double kThrottleLimit = 2.5;      // m/s^2 times c_acc
constexpr double kLateralLimit = 4.0;       // m/s^2, |a_lat| <= this
constexpr double kReverseSpeedLimit = -2.0; // m/s, v >= this
constexpr double kSpeedLimit = 20.0;        // m/s times c_vel
constexpr double kSteerRate = 0.6;          // rad/s, |d phi| <= kSteerRate * dt
constexpr double kSteerMax = 0.55;          // rad
constexpr double kCurvatureEps = 1e-5;      // floor of v^2 and |k| (see step_vehicle)
constexpr double kWheelbaseRatio = 0.6;     // wheelbase / length
constexpr float kMinLength = 0.8f, kMaxLength = 7.0f;  // m, U(min, max)
constexpr float kMinWidth = 0.8f, kMaxWidth = 3.0f;    // m, U(min, max) capped at length

struct BicycleState {
  std::vector<double> x, y, heading;      // m, m, rad (centre of the box)
  std::vector<float> z;                   // m, road height (observed; overpasses)
  std::vector<double> v;                  // m/s, + forward
  std::vector<double> a_long, a_lat;      // m/s^2
  std::vector<double> phi;                // steering angle, rad, + left
  // Sign (+1 / -1) of the last nonzero value each snapped quantity held. The speed's rule
  // (snap_speed()) reads sign_v; the accelerations' (snap()) compare with the previous value
  // itself, and their two fields are informational (snapshots, the test hook's columns).
  std::vector<int8_t> sign_a_long, sign_a_lat, sign_v;
  std::vector<float> length, width, wheelbase;  // m
  std::vector<float> c_throttle, c_steer, c_acc, c_vel;  // per-agent coefficients
};

struct BicycleParams {
  double dt = kDefaultDt;   // s
  float jerk_noise = 0.0f;  // std of Gaussian noise added to each jerk, m/s^3 (0: none)
};

// Sizes every array for n agents at rest: a 4.5 m x 1.8 m car, all coefficients 1.
void bicycle_resize(BicycleState& s, int n);

// X(a): U(1/a, 1) or U(1, a), each with probability 1/2.
inline float draw_dynamics_coefficient(Rng& rng, float a) {
  return rng_uniform(rng) < 0.5f ? rng_range(rng, 1.0f / a, 1.0f) : rng_range(rng, 1.0f, a);
}

// Draws agent i's size and coefficients: length U(0.8, 7), width U(0.8, 3) capped at the
// length, wheelbase 0.6 length, c_throttle, c_steer ~ X(1.25), c_acc, c_vel ~ X(1.5) with
// X(a) = U(1/a, 1) or U(1, a), each with probability 1/2.
// A template over the state's storage: BicycleState (vectors, any size) and a driving
// world's fixed arrays (trivially copyable, for snapshots) share one formula.
template <typename State>
void sample_vehicle(State& s, int i, Rng& rng) {
  s.length[i] = rng_range(rng, kMinLength, kMaxLength);
  s.width[i] = std::min(rng_range(rng, kMinWidth, kMaxWidth), s.length[i]);
  s.wheelbase[i] = static_cast<float>(kWheelbaseRatio) * s.length[i];
  s.c_throttle[i] = draw_dynamics_coefficient(rng, 1.25f);
  s.c_steer[i] = draw_dynamics_coefficient(rng, 1.25f);
  s.c_acc[i] = draw_dynamics_coefficient(rng, 1.5f);
  s.c_vel[i] = draw_dynamics_coefficient(rng, 1.5f);
}

inline void decode_action(int action, float& j_long, float& j_lat) {
  j_long = kJerkLong[action / 3];
  j_lat = kJerkLat[action % 3];
}

// The sign rule for the accelerations as GIGAFLOW writes it: when a(t-1) a(t) < 0 the new
// value becomes 0, so an acceleration reversing spends exactly one step at 0, then goes on in
// its new direction. It compares with the previous step's value, not the last nonzero one:
// after cruising (a = 0) the first braking step brakes.
inline double snap(double value, double previous) { return value * previous < 0.0 ? 0.0 : value; }

// The speed's rule compares with the sign of the last nonzero speed (`last`, +1 at the
// start; an attempted speed sets it even when snapped): a new speed whose sign differs becomes
// 0 for that step. Applied to the speed, GIGAFLOW's previous-value rule (a stop at exactly 0
// lets the next step go either way) cut PPO's learning in town_drive
// (examples/train_ppo_driving.py, seed 0): 0.01 of the goals at 300k steps against 0.50.
inline double snap_speed(double value, int8_t& last) {
  if (value == 0.0) return 0.0;
  const int8_t sign = value > 0.0 ? 1 : -1;
  const bool reversed = sign != last;
  last = sign;
  return reversed ? 0.0 : value;
}

// Records the sign of a nonzero value in `last` (the informational sign fields).
inline void note_sign(double value, int8_t& last) {
  if (value != 0.0) last = value > 0.0 ? 1 : -1;
}

inline double bicycle_clip(double x, double lo, double hi) { return std::min(std::max(x, lo), hi); }

// One step of agent i with jerks (j_long, j_lat) over dt (GIGAFLOW's steps 1-4); a
// template over the storage, like sample_vehicle.
template <typename State>
void step_vehicle(State& s, int i, double j_long, double j_lat, double dt) {
  const double a_long0 = s.a_long[i], a_lat0 = s.a_lat[i], v0 = s.v[i], phi0 = s.phi[i];
  const double l_wb = s.wheelbase[i];
  // 1. accelerations
  const double a_long = bicycle_clip(snap(a_long0 + s.c_throttle[i] * j_long * dt, a_long0), kBrakeLimit,
                             kThrottleLimit * s.c_acc[i]);
  double a_lat = bicycle_clip(snap(a_lat0 + s.c_steer[i] * j_lat * dt, a_lat0), -kLateralLimit, kLateralLimit);
  // 2. speed (trapezoid in acceleration)
  const double v = bicycle_clip(snap_speed(v0 + 0.5 * (a_long + a_long0) * dt, s.sign_v[i]), kReverseSpeedLimit,
                        kSpeedLimit * s.c_vel[i]);
  // 3. steering towards the curvature a_lat asks for, rate- and angle-limited. The floor
  // |k| >= eps keeps a tiny request from vanishing; a request of exactly 0 stays 0 (one
  // deviation from the text, where sign(0) = +1 would turn it into +eps): a car told to
  // go straight steers straight, and k = 0 takes the limit in step 4.
  double k = a_lat / std::max(v * v, kCurvatureEps);
  if (k != 0.0) k = (k > 0 ? 1.0 : -1.0) * std::max(std::fabs(k), kCurvatureEps);
  const double phi_target = std::atan(k * l_wb);
  const double max_dphi = kSteerRate * dt;
  const double phi = bicycle_clip(phi0 + bicycle_clip(phi_target - phi0, -max_dphi, max_dphi), -kSteerMax, kSteerMax);
  k = std::tan(phi) / l_wb;
  a_lat = v * v * k;  // what the next step starts from
  // 4. move along an arc of curvature k (body frame, then rotated into the world frame).
  // dy = (1 - cos theta) / k is written 2 sin^2(theta / 2) / k: no cancellation at small theta.
  const double dist = 0.5 * (v + v0) * dt;
  double theta = 0.0, bx = dist, by = 0.0;
  if (k != 0.0) {
    theta = dist * k;
    const double h = std::sin(0.5 * theta);
    bx = std::sin(theta) / k;
    by = 2.0 * h * h / k;
  }
  const double c = std::cos(s.heading[i]), sn = std::sin(s.heading[i]);
  s.x[i] += c * bx - sn * by;
  s.y[i] += sn * bx + c * by;
  s.heading[i] = std::remainder(s.heading[i] + theta, 2.0 * M_PI);
  s.v[i] = v, s.a_long[i] = a_long, s.a_lat[i] = a_lat, s.phi[i] = phi;
  note_sign(a_long, s.sign_a_long[i]), note_sign(a_lat, s.sign_a_lat[i]);
}

// Steps agents [begin, end): adds noise from `rng` when params.jerk_noise > 0 (two normals
// per agent, in agent order), clips the jerks to the Box range, then step_vehicle.
// Allocates nothing.
void step_bicycle(BicycleState& s, int begin, int end, const float* j_long, const float* j_lat,
                  const BicycleParams& params, Rng& rng);

}  // namespace trackfield::driving

#endif
