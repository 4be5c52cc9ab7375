// The jerk-actuated bicycle step (bicycle.h) and vehicle sampling.
#include "driving/bicycle.h"

#include <algorithm>
#include <cmath>

namespace trackfield::driving {

namespace {

double clip(double x, double lo, double hi) { return std::min(std::max(x, lo), hi); }

// X(a): U(1/a, 1) or U(1, a), each with probability 1/2.
float draw_coefficient(Rng& rng, float a) {
  return rng_uniform(rng) < 0.5f ? rng_range(rng, 1.0f / a, 1.0f) : rng_range(rng, 1.0f, a);
}

}  // namespace

void bicycle_resize(BicycleState& s, int n) {
  const size_t m = static_cast<size_t>(n);
  for (auto* v : {&s.x, &s.y, &s.heading, &s.v, &s.a_long, &s.a_lat, &s.phi}) v->assign(m, 0.0);
  s.z.assign(m, 0.0f);
  for (auto* v : {&s.sign_a_long, &s.sign_a_lat, &s.sign_v}) v->assign(m, 1);
  s.length.assign(m, 4.5f), s.width.assign(m, 1.8f);
  s.wheelbase.assign(m, static_cast<float>(kWheelbaseRatio * 4.5));
  for (auto* v : {&s.c_throttle, &s.c_steer, &s.c_acc, &s.c_vel}) v->assign(m, 1.0f);
}

void sample_vehicle(BicycleState& s, int i, Rng& rng) {
  s.length[i] = rng_range(rng, kMinLength, kMaxLength);
  s.width[i] = std::min(rng_range(rng, kMinWidth, kMaxWidth), s.length[i]);
  s.wheelbase[i] = static_cast<float>(kWheelbaseRatio) * s.length[i];
  s.c_throttle[i] = draw_coefficient(rng, 1.25f);
  s.c_steer[i] = draw_coefficient(rng, 1.25f);
  s.c_acc[i] = draw_coefficient(rng, 1.5f);
  s.c_vel[i] = draw_coefficient(rng, 1.5f);
}

void step_vehicle(BicycleState& s, int i, double j_long, double j_lat, double dt) {
  const double a_long0 = s.a_long[i], a_lat0 = s.a_lat[i], v0 = s.v[i], phi0 = s.phi[i];
  const double l_wb = s.wheelbase[i];
  // 1. accelerations
  const double a_long = clip(snap(a_long0 + s.c_throttle[i] * j_long * dt, s.sign_a_long[i]), kBrakeLimit,
                             kThrottleLimit * s.c_acc[i]);
  double a_lat = clip(snap(a_lat0 + s.c_steer[i] * j_lat * dt, s.sign_a_lat[i]), -kLateralLimit, kLateralLimit);
  // 2. speed (trapezoid in acceleration)
  const double v = clip(snap(v0 + 0.5 * (a_long + a_long0) * dt, s.sign_v[i]), kReverseSpeedLimit,
                        kSpeedLimit * s.c_vel[i]);
  // 3. steering towards the curvature a_lat asks for, rate- and angle-limited. The floor
  // |k| >= eps keeps a tiny request from vanishing; a request of exactly 0 stays 0 (one
  // deviation from the text, where sign(0) = +1 would turn it into +eps): a car told to
  // go straight steers straight, and k = 0 takes the limit in step 4.
  double k = a_lat / std::max(v * v, kCurvatureEps);
  if (k != 0.0) k = (k > 0 ? 1.0 : -1.0) * std::max(std::fabs(k), kCurvatureEps);
  const double phi_target = std::atan(k * l_wb);
  const double max_dphi = kSteerRate * dt;
  const double phi = clip(phi0 + clip(phi_target - phi0, -max_dphi, max_dphi), -kSteerMax, kSteerMax);
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
  if (a_lat != 0.0) s.sign_a_lat[i] = a_lat > 0 ? 1 : -1;  // a_lat's value is the recomputed one
}

void step_bicycle(BicycleState& s, int begin, int end, const float* j_long, const float* j_lat,
                  const BicycleParams& params, Rng& rng) {
  for (int i = begin; i < end; ++i) {
    double jl = j_long[i], jt = j_lat[i];
    if (params.jerk_noise > 0.0f) {
      jl += params.jerk_noise * rng_normal(rng);
      jt += params.jerk_noise * rng_normal(rng);
    }
    jl = clip(jl, kJerkLongMin, kJerkLongMax);
    jt = clip(jt, -kJerkLatMax, kJerkLatMax);
    step_vehicle(s, i, jl, jt, params.dt);
  }
}

}  // namespace trackfield::driving
