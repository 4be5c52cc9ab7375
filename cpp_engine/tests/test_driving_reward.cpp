// Driving reward terms in constructed situations with known weights, the conditioning layout,
// and the crash-outweighs-30-s property of the defaults.
#include <array>
#include <cmath>
#include <cstring>

#include "driving/reward.h"
#include "tests/check.h"

using namespace trackfield;
using namespace trackfield::driving;

namespace {

using Components = std::array<float, kNumRewardComponents>;

RewardParams known_params() {
  RewardParams p;
  p.comfort = 0.05f;
  p.lane_align_w1 = 0.01f;
  p.lane_align_w2 = 0.5f;
  p.lane_center = 0.004f;
  p.lane_center_bias = 0.25f;
  p.reverse = 0.005f;
  p.stop_line = 0.7f;
  return p;
}

Components components(const RewardInputs& in, const RewardParams& p = known_params(),
                      const RewardConfig& cfg = RewardConfig()) {
  Components out{};
  compute_reward_components(in, p, cfg, out.data());
  return out;
}

// One component by value (CHECK_EQ binds a reference; an element of a temporary would dangle).
float component(const RewardInputs& in, int k, const RewardConfig& cfg = RewardConfig()) {
  return components(in, known_params(), cfg)[k];
}

bool near(float a, float b, float tol = 1e-6f) { return std::fabs(a - b) <= tol; }

}  // namespace

TEST(driving_reward_names_fixed) {
  CHECK_EQ(std::strcmp(kRewardComponentNames[kGoal], "goal"), 0);
  CHECK_EQ(std::strcmp(kRewardComponentNames[kTimestep], "timestep"), 0);
  CHECK_EQ(std::strcmp(kRewardComponentNames[kCentring], "centring"), 0);
  CHECK_EQ(std::strcmp(kConditioningNames[0], "comfort"), 0);
  CHECK_EQ(std::strcmp(kConditioningNames[6], "stop_line"), 0);
  CHECK_EQ(std::strcmp(kConditioningNames[7], "collision"), 0);
  CHECK_EQ(std::strcmp(kConditioningNames[11], "c_vel"), 0);
  CHECK_EQ(kNumConditioning, 12);
}

TEST(driving_reward_comfort) {
  RewardInputs in;
  in.a_long = 3.5f, in.a_lat = 1.0f, in.j_long = 6.0f;
  CHECK(near(component(in, kComfort), -2 * 0.05f));
  in.a_lat = -3.5f, in.j_long = 0.0f, in.j_lat = -5.5f;
  CHECK(near(component(in, kComfort), -3 * 0.05f));
  in = RewardInputs();
  in.a_long = 3.0f, in.j_long = 5.0f;  // at the thresholds: not over them
  CHECK_EQ(component(in, kComfort), 0.0f);
}

TEST(driving_reward_lane_align) {
  RewardInputs in;
  in.dt = 0.1f, in.v = 5.0f, in.theta_f = 3.14159265f;  // reversed against the lane
  float expected = 0.01f * 0.1f * -1.0f + 0.5f * -5.0f + 0.0025f * (1.0f - 2.0f);
  CHECK(near(component(in, kLaneAlign), expected, 1e-5f));
  in.theta_f = 0.0f;  // aligned: only the bonus
  CHECK(near(component(in, kLaneAlign), 0.0025f));
  in.theta_f = 0.5f;  // partly off but forward: the bonus shrinks linearly, no penalty
  CHECK(near(component(in, kLaneAlign), 0.0025f * (1.0f - 0.5f / 1.5707963f)));
}

TEST(driving_reward_lane_center_with_bias) {
  RewardInputs in;
  in.dt = 0.1f, in.x_f = -0.5f;
  CHECK(near(component(in, kLaneCenter), -0.004f * 0.1f * 0.75f));
  in.x_f = 0.25f;  // on the agent's preferred line
  CHECK_EQ(component(in, kLaneCenter), 0.0f);
  in.x_f = -0.5f, in.theta_f = 1.2f;  // cos < 0.5: not counted
  CHECK_EQ(component(in, kLaneCenter), 0.0f);
}

TEST(driving_reward_velocity_and_reverse) {
  RewardInputs in;
  in.dt = 0.1f, in.v = 2.0f;
  CHECK_EQ(component(in, kVelocity), 0.0f);
  in.v = 3.0f;
  CHECK(near(component(in, kVelocity), 2.5e-3f * 0.1f));
  CHECK_EQ(component(in, kReverse), 0.0f);
  in.v = -3.0f;
  CHECK(near(component(in, kReverse), -0.005f * 0.1f));
}

TEST(driving_reward_timestep_none_when_stationary) {
  RewardInputs in;
  in.dt = 0.1f;
  CHECK_EQ(component(in, kTimestep), 0.0f);
  in.a_long = 0.5f;
  CHECK(near(component(in, kTimestep), -2.5e-5f * 0.1f));
  in.a_long = 0.0f, in.v = 0.1f;
  CHECK(near(component(in, kTimestep), -2.5e-5f * 0.1f));
}

TEST(driving_reward_goal_slow_arrival) {
  RewardInputs in;
  in.goal_distance = 1.0f;
  in.v = 1.0f;  // final goal, slow: pays
  CHECK_EQ(component(in, kGoal), 1.0f);
  in.v = 5.0f;  // final goal, fast: does not
  CHECK_EQ(component(in, kGoal), 0.0f);
  in.goal_is_waypoint = true;  // a waypoint pays at speed
  CHECK_EQ(component(in, kGoal), 1.0f);
  in.goal_distance = 2.5f;  // outside r
  CHECK_EQ(component(in, kGoal), 0.0f);
}

TEST(driving_reward_collision_off_road_stop_line) {
  RewardInputs in;
  in.collided = true, in.collision_speed = 0.0f;
  CHECK_EQ(component(in, kCollision), -25.0f);
  in.collision_speed = 10.0f;
  CHECK_EQ(component(in, kCollision), -50.0f);
  RewardParams careful = known_params();
  careful.collision = 3.0f;  // the agent's own factor on the weight
  const float careful_penalty = components(in, careful)[kCollision];
  CHECK_EQ(careful_penalty, -150.0f);
  in = RewardInputs();
  in.off_road = true;
  CHECK_EQ(component(in, kOffRoad), -25.0f);
  in = RewardInputs();
  in.stop_line_violation = true;
  CHECK(near(component(in, kStopLine), -0.7f));
}

TEST(driving_reward_centring_flag) {
  RewardInputs in;
  in.x_f = 1.25f;
  CHECK_EQ(component(in, kCentring), 0.0f);
  RewardConfig cfg;
  cfg.centring = true;
  CHECK(near(component(in, kCentring, cfg), -0.05f * std::exp(1.0f - 0.5f)));
}

TEST(driving_reward_crash_outweighs_30_s) {
  RewardConfig cfg;
  CHECK(near(max_positive_reward(cfg, 30.0f, 0.1f), 19.825f, 1e-3f));
  for (float dt : {0.05f, 0.1f, 0.2f}) {
    float best = max_positive_reward(cfg, 30.0f, dt);
    CHECK(best < cfg.collision);
    CHECK(best < cfg.off_road);
    // The bound really bounds: a perfect step earns exactly its per-step part.
    RewardInputs in;
    in.dt = dt, in.v = cfg.speed_max_mps;
    Components c = components(in, safe_reward_params(), cfg);
    float sum = 0.0f;
    for (float x : c) sum += x;
    CHECK(sum <= cfg.lane_align_bonus + cfg.velocity * dt + 1e-7f);
  }
}

TEST(driving_reward_conditioning_in_range_and_order) {
  RewardRanges ranges;
  Rng rng;
  rng_seed(rng, 3, 0);
  float dyn[kNumDynamicsCoeffs] = {0.5f, 1.0f, 1.5f, 1.25f};
  for (int i = 0; i < 1000; ++i) {
    RewardParams p;
    draw_reward_params(rng, ranges, p);
    CHECK(p.comfort >= 0.0f && p.comfort <= 0.1f);
    CHECK(p.lane_center_bias >= -0.5f && p.lane_center_bias <= 0.5f);
    float out[kNumConditioning];
    write_conditioning(p, ranges, dyn, out);
    for (float x : out) CHECK(x >= -1.0f && x <= 1.0f);
    CHECK(near(out[0], 2.0f * p.comfort / 0.1f - 1.0f, 1e-5f));
    CHECK(near(out[4], 2.0f * p.lane_center_bias, 1e-5f));
    CHECK(near(out[6], 2.0f * p.stop_line - 1.0f, 1e-5f));
    CHECK(p.collision >= 1.0f && p.collision <= 4.0f);
    CHECK(near(out[7], 2.0f * (p.collision - 1.0f) / 3.0f - 1.0f, 1e-5f));
  }
  RewardParams safe = safe_reward_params();
  float out[kNumConditioning];
  write_conditioning(safe, ranges, dyn, out);
  // Safe preset: every penalty weight at its top, no bias; dynamics in their documented slots.
  for (int i : {0, 1, 2, 3, 5, 6, 7}) CHECK_EQ(out[i], 1.0f);
  CHECK_EQ(out[4], 0.0f);
  CHECK_EQ(out[8], -1.0f);
  CHECK_EQ(out[9], 0.0f);
  CHECK_EQ(out[10], 1.0f);
  CHECK(near(out[11], 0.5f));
}
