// Sizing and the batched, noisy step of a BicycleState (the formulas are in bicycle.h).
#include "driving/bicycle.h"

#include <algorithm>
#include <cmath>

namespace trackfield::driving {

void bicycle_resize(BicycleState& s, int n) {
  const size_t m = static_cast<size_t>(n);
  for (auto* v : {&s.x, &s.y, &s.heading, &s.v, &s.a_long, &s.a_lat, &s.phi}) v->assign(m, 0.0);
  s.z.assign(m, 0.0f);
  for (auto* v : {&s.sign_a_long, &s.sign_a_lat, &s.sign_v}) v->assign(m, 1);
  s.length.assign(m, 4.5f), s.width.assign(m, 1.8f);
  s.wheelbase.assign(m, static_cast<float>(kWheelbaseRatio * 4.5));
  for (auto* v : {&s.c_throttle, &s.c_steer, &s.c_acc, &s.c_vel}) v->assign(m, 1.0f);
}

void step_bicycle(BicycleState& s, int begin, int end, const float* j_long, const float* j_lat,
                  const BicycleParams& params, Rng& rng) {
  for (int i = begin; i < end; ++i) {
    double jl = j_long[i], jt = j_lat[i];
    if (params.jerk_noise > 0.0f) {
      jl += params.jerk_noise * rng_normal(rng);
      jt += params.jerk_noise * rng_normal(rng);
    }
    jl = bicycle_clip(jl, kJerkLongMin, kJerkLongMax);
    jt = bicycle_clip(jt, -kJerkLatMax, kJerkLatMax);
    step_vehicle(s, i, jl, jt, params.dt);
  }
}

}  // namespace trackfield::driving
