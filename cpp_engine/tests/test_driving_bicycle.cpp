// The jerk-actuated bicycle: GIGAFLOW's worked case, the sign snaps, every clip, the
// steering-rate limit, exact straight-line motion, vehicle sampling, and a throughput print.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "common/rng.h"
#include "driving/bicycle.h"
#include "tests/check.h"

using namespace trackfield;
using namespace trackfield::driving;

namespace {

bool near(double a, double b, double tol = 1e-4) { return std::fabs(a - b) <= tol; }

BicycleState one_car(double length = 5.0) {
  BicycleState s;
  bicycle_resize(s, 1);
  s.length[0] = static_cast<float>(length);
  s.wheelbase[0] = static_cast<float>(kWheelbaseRatio * length);
  return s;
}

}  // namespace

TEST(driving_bicycle_worked_case) {
  BicycleState s = one_car(5.0);
  s.v[0] = 2.0;
  float jl, jt;
  decode_action(3 * 3 + 2, jl, jt);  // (j_long, j_lat) = (4, 4)
  CHECK(jl == 4.0f && jt == 4.0f);
  step_vehicle(s, 0, jl, jt, 0.3);
  CHECK(near(s.a_long[0], 1.2));
  CHECK(near(s.v[0], 2.18));
  CHECK(near(s.phi[0], 0.18));
  CHECK(near(std::tan(s.phi[0]) / s.wheelbase[0], 0.06066));
  CHECK(near(s.a_lat[0], 0.2883));
  CHECK(near(s.heading[0], 0.03803));
  CHECK(near(s.x[0], 0.62685));
  CHECK(near(s.y[0], 0.01192));
}

TEST(driving_bicycle_actions_decode) {
  float jl, jt;
  decode_action(0, jl, jt);
  CHECK(jl == -15.0f && jt == -4.0f);
  decode_action(7, jl, jt);  // 3 * 2 + 1
  CHECK(jl == 0.0f && jt == 0.0f);
  decode_action(11, jl, jt);
  CHECK(jl == 4.0f && jt == 4.0f);
}

TEST(driving_bicycle_speed_snaps_to_zero_for_one_step) {
  BicycleState s = one_car();
  s.v[0] = 0.5, s.a_long[0] = -5.0, s.sign_a_long[0] = -1;
  step_vehicle(s, 0, 0.0, 0.0, 0.3);  // 0.5 - 5 * 0.3 = -1 < 0: crosses zero
  CHECK_EQ(s.v[0], 0.0);
  const double x = s.x[0];
  step_vehicle(s, 0, 0.0, 0.0, 0.3);  // now reversing is allowed
  CHECK(near(s.v[0], -1.5));
  CHECK(s.x[0] < x);
  // The acceleration snaps the same way: braking from +1 m/s^2 sits at 0 for one step.
  BicycleState t = one_car();
  t.a_long[0] = 1.0, t.v[0] = 5.0;
  step_vehicle(t, 0, -15.0, 0.0, 0.3);  // 1 - 4.5 < 0
  CHECK_EQ(t.a_long[0], 0.0);
  step_vehicle(t, 0, -15.0, 0.0, 0.3);
  CHECK(near(t.a_long[0], -4.5));
  // The rule in isolation: a(t-1) a(t) < 0 gives 0; from 0 either sign goes through.
  CHECK_EQ(snap(2.0, 1.0), 2.0);
  CHECK_EQ(snap(-1.0, 2.0), 0.0);
  CHECK_EQ(snap(-1.0, 0.0), -1.0);
  CHECK_EQ(snap(1.0, 0.0), 1.0);
  CHECK_EQ(snap(-1.0, -1.0), -1.0);
  // After cruising (a = 0, having accelerated before), the first braking step brakes.
  BicycleState u = one_car();
  u.v[0] = 8.0, u.a_long[0] = 0.0, u.sign_a_long[0] = 1;
  step_vehicle(u, 0, -4.0, 0.0, 0.3);
  CHECK(near(u.a_long[0], -1.2));
}

TEST(driving_bicycle_clips) {
  BicycleState s = one_car();
  s.v[0] = 10.0, s.a_long[0] = -4.9, s.sign_a_long[0] = -1;
  step_vehicle(s, 0, -15.0, 0.0, 0.3);
  CHECK_EQ(s.a_long[0], kBrakeLimit);
  s = one_car();
  s.c_acc[0] = 1.2f, s.a_long[0] = 2.9, s.v[0] = 5.0;
  step_vehicle(s, 0, 4.0, 0.0, 0.3);
  CHECK(near(s.a_long[0], 2.5 * 1.2, 1e-6));
  s = one_car();
  s.c_vel[0] = 0.8f, s.v[0] = 15.9, s.a_long[0] = 2.5;
  step_vehicle(s, 0, 4.0, 0.0, 0.3);
  CHECK(near(s.v[0], 20.0 * 0.8, 1e-6));
  s = one_car();
  s.v[0] = -1.9, s.sign_v[0] = -1, s.a_long[0] = -5.0, s.sign_a_long[0] = -1;
  step_vehicle(s, 0, 0.0, 0.0, 0.3);
  CHECK_EQ(s.v[0], kReverseSpeedLimit);
  // Lateral acceleration: clipped to 4 before steering (seen through phi*'s size).
  s = one_car();
  s.v[0] = 10.0, s.a_lat[0] = 3.9, s.phi[0] = 0.5;
  step_vehicle(s, 0, 0.0, 4.0, 0.3);
  CHECK(s.phi[0] <= kSteerMax + 1e-12);
  // Steering: a full-lock request at low speed is held at 0.55 rad.
  s = one_car();
  s.v[0] = 1.0, s.a_lat[0] = 3.0, s.phi[0] = 0.5;
  for (int k = 0; k < 5; ++k) step_vehicle(s, 0, 0.0, 4.0, 0.3);
  CHECK_EQ(s.phi[0], kSteerMax);
}

TEST(driving_bicycle_steering_rate_limit) {
  for (double dt : {0.1, 0.3}) {
    BicycleState s = one_car();
    s.v[0] = 3.0;
    double phi = 0.0;
    for (int k = 0; k < 20; ++k) {
      step_vehicle(s, 0, 0.0, k < 10 ? 4.0 : -4.0, dt);
      CHECK(std::fabs(s.phi[0] - phi) <= kSteerRate * dt + 1e-12);
      CHECK(std::fabs(s.phi[0]) <= kSteerMax);
      phi = s.phi[0];
    }
  }
  // The worked case's first step is rate-limited: phi* = 0.648 but phi = 0.6 * 0.3.
  BicycleState s = one_car(5.0);
  s.v[0] = 2.0;
  step_vehicle(s, 0, 4.0, 4.0, 0.3);
  CHECK(near(s.phi[0], 0.18, 1e-12));
}

TEST(driving_bicycle_straight_line_is_exact) {
  BicycleState s = one_car();
  s.v[0] = 7.0;
  for (int k = 0; k < 50; ++k) step_vehicle(s, 0, k < 10 ? 4.0 : 0.0, 0.0, 0.3);
  CHECK_EQ(s.y[0], 0.0);
  CHECK_EQ(s.heading[0], 0.0);
  CHECK_EQ(s.phi[0], 0.0);
  CHECK(s.x[0] > 100.0);
  // Along another heading the displacement stays on the heading's line.
  BicycleState t = one_car();
  t.v[0] = 5.0, t.heading[0] = 0.7;
  step_vehicle(t, 0, 0.0, 0.0, 0.3);
  CHECK_EQ(t.heading[0], 0.7);
  CHECK(near(t.x[0], 1.5 * std::cos(0.7), 1e-12) && near(t.y[0], 1.5 * std::sin(0.7), 1e-12));
}

TEST(driving_bicycle_sampling_and_noise) {
  Rng rng;
  rng_seed(rng, 7, 0);
  BicycleState s;
  bicycle_resize(s, 2000);
  for (int i = 0; i < 2000; ++i) sample_vehicle(s, i, rng);
  float lo_c = 9, hi_c = 0;
  for (int i = 0; i < 2000; ++i) {
    CHECK(s.length[i] >= kMinLength && s.length[i] <= kMaxLength);
    CHECK(s.width[i] >= kMinWidth && s.width[i] <= std::min(kMaxWidth, s.length[i]));
    CHECK(near(s.wheelbase[i], 0.6 * s.length[i], 1e-5));
    CHECK(s.c_throttle[i] >= 0.8f && s.c_throttle[i] <= 1.25f);
    CHECK(s.c_acc[i] >= 1 / 1.5f - 1e-6f && s.c_acc[i] <= 1.5f);
    lo_c = std::min(lo_c, s.c_vel[i]), hi_c = std::max(hi_c, s.c_vel[i]);
  }
  CHECK(lo_c < 0.7f && hi_c > 1.45f);
  // Noise comes from the world's generator: same seed, same motion; no noise, no draws.
  auto run = [](uint64_t seed, float noise) {
    Rng r;
    rng_seed(r, seed, 3);
    BicycleState b;
    bicycle_resize(b, 4);
    std::vector<float> jl(4, 0.0f), jt(4, 0.0f);
    BicycleParams p;
    p.jerk_noise = noise;
    for (int k = 0; k < 20; ++k) step_bicycle(b, 0, 4, jl.data(), jt.data(), p, r);
    return b.x[2] + 10 * b.y[3];
  };
  CHECK_EQ(run(1, 1.0f), run(1, 1.0f));
  CHECK(run(1, 1.0f) != run(2, 1.0f));
  CHECK_EQ(run(1, 0.0f), 0.0);
}

TEST(driving_bicycle_throughput) {
  const int n = 4096, steps = 200;
  BicycleState s;
  bicycle_resize(s, n);
  Rng rng;
  rng_seed(rng, 1, 1);
  std::vector<float> jl(n), jt(n);
  for (int i = 0; i < n; ++i) decode_action(static_cast<int>(rng_next_u32(rng) % kActionCount), jl[i], jt[i]);
  BicycleParams p;
  auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < steps; ++k) step_bicycle(s, 0, n, jl.data(), jt.data(), p, rng);
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("      bicycle step: %.1f M agent-steps/s (checksum %.3f)\n", n * steps / sec / 1e6, s.x[5]);
}
