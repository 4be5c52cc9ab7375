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
  // Sign (+1 / -1) of the last nonzero value each snapped quantity held (see snap()).
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

// Draws agent i's size and coefficients: length U(0.8, 7), width U(0.8, 3) capped at the
// length, wheelbase 0.6 length, c_throttle, c_steer ~ X(1.25), c_acc, c_vel ~ X(1.5) with
// X(a) = U(1/a, 1) or U(1, a), each with probability 1/2.
void sample_vehicle(BicycleState& s, int i, Rng& rng);

inline void decode_action(int action, float& j_long, float& j_lat) {
  j_long = kJerkLong[action / 3];
  j_lat = kJerkLat[action % 3];
}

// The sign snap, per quantity: `last` is the sign of the last nonzero value the quantity
// held (+1 at the start, since sign(0) = +1). A new value whose sign differs from it
// becomes 0, and `last` takes the new sign: a quantity reversing through zero spends
// exactly one step at 0, then continues in its new direction. Zero leaves `last` alone.
inline double snap(double value, int8_t& last) {
  if (value == 0.0) return 0.0;
  const int8_t sign = value > 0.0 ? 1 : -1;
  const bool reversed = sign != last;
  last = sign;
  return reversed ? 0.0 : value;
}

// One step of agent i with jerks (j_long, j_lat) over dt (the steps 1-4).
void step_vehicle(BicycleState& s, int i, double j_long, double j_lat, double dt);

// Steps agents [begin, end): adds noise from `rng` when params.jerk_noise > 0 (two normals
// per agent, in agent order), clips the jerks to the Box range, then step_vehicle.
// Allocates nothing.
void step_bicycle(BicycleState& s, int begin, int end, const float* j_long, const float* j_lat,
                  const BicycleParams& params, Rng& rng);

}  // namespace trackfield::driving

#endif
