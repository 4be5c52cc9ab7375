// The Intelligent Driver Model: free road, equilibrium gap, standing queue, closing in.
#include <cmath>

#include "driving/idm.h"
#include "tests/check.h"

using namespace trackfield::driving;

TEST(driving_idm_free_road_reaches_v0_and_stays) {
  IdmParams p;
  const float v0 = 13.9f, dt = 0.1f;
  float v = 0.0f, last = -1.0f;
  CHECK(std::fabs(idm_acceleration(0.0f, v0, kNoLeader, 0.0f, p) - p.max_accel) < 1e-6f);
  for (int step = 0; step < 1200; ++step) {  // 120 s
    float acc = idm_acceleration(v, v0, kNoLeader, 0.0f, p);
    CHECK(acc >= 0.0f && acc <= p.max_accel);
    v = idm_advance_speed(v, acc, dt);
    CHECK(v >= last && v <= v0 + 1e-4f);  // monotone towards v0, never past it
    last = v;
  }
  CHECK(std::fabs(v - v0) < 0.05f);
  CHECK(std::fabs(idm_acceleration(v0, v0, kNoLeader, 0.0f, p)) < 1e-6f);
  CHECK(idm_acceleration(v0 + 2.0f, v0, kNoLeader, 0.0f, p) < 0.0f);  // over the limit: slows
}

TEST(driving_idm_equilibrium_gap_is_stationary) {
  IdmParams p;
  const float v0 = 20.0f;
  for (float v : {2.0f, 5.0f, 10.0f, 15.0f, 19.0f}) {
    float s_e = idm_equilibrium_gap(v, v0, p);
    CHECK(std::fabs(s_e - (2.0f + 1.5f * v) / std::sqrt(1.0f - std::pow(v / v0, 4.0f))) < 1e-4f * s_e);
    CHECK(std::fabs(idm_acceleration(v, v0, s_e, 0.0f, p)) < 1e-4f);
    CHECK(idm_acceleration(v, v0, 0.9f * s_e, 0.0f, p) < 0.0f);  // closer: back off
    CHECK(idm_acceleration(v, v0, 1.1f * s_e, 0.0f, p) > 0.0f);  // farther: close up
  }
}

TEST(driving_idm_standing_queue_stays_still) {
  IdmParams p;
  CHECK_EQ(idm_acceleration(0.0f, 13.9f, p.min_gap_m, 0.0f, p), 0.0f);
  // A queue of five cars at s0 over 60 s: nobody moves.
  float v[5] = {0, 0, 0, 0, 0};
  for (int step = 0; step < 600; ++step)
    for (int i = 1; i < 5; ++i) v[i] = idm_advance_speed(v[i], idm_acceleration(v[i], 13.9f, p.min_gap_m, v[i] - v[i - 1], p), 0.1f);
  for (float x : v) CHECK_EQ(x, 0.0f);
}

TEST(driving_idm_closing_in_and_bounds) {
  IdmParams p;
  // Approaching a stopped car at 15 m/s from 30 m: brakes, clipped at the emergency bound.
  float acc = idm_acceleration(15.0f, 15.0f, 30.0f, 15.0f, p);
  CHECK(acc < -p.comfort_decel);
  CHECK(acc >= -p.max_brake);
  CHECK_EQ(idm_acceleration(15.0f, 15.0f, 1.0f, 15.0f, p), -p.max_brake);
  CHECK_EQ(idm_acceleration(5.0f, 15.0f, 0.0f, 0.0f, p), -p.max_brake);
  // A leader pulling away (dv < 0) lets the follower accelerate harder than a matched one.
  CHECK(idm_acceleration(10.0f, 15.0f, 50.0f, -5.0f, p) > idm_acceleration(10.0f, 15.0f, 50.0f, 0.0f, p));
  CHECK_EQ(idm_acceleration(3.0f, 0.0f, kNoLeader, 0.0f, p), -p.comfort_decel);
  CHECK_EQ(idm_acceleration(0.0f, 0.0f, kNoLeader, 0.0f, p), 0.0f);
}
