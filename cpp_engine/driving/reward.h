// GIGAFLOW's reward terms for one driving agent and one step, with the randomised weights drawn
// per agent per episode and exposed to the policy as conditioning.
//
// Each component already carries its weight and sign, so an agent's reward is the plain sum of
// its components (kNumRewardComponents floats, in kRewardComponentNames order).
#ifndef TRACKFIELD_DRIVING_REWARD_H
#define TRACKFIELD_DRIVING_REWARD_H

#include <type_traits>

#include "common/rng.h"

namespace trackfield::driving {

enum RewardComponent {
  kGoal, kCollision, kOffRoad, kComfort, kLaneAlign, kLaneCenter,
  kVelocity, kReverse, kStopLine, kTimestep, kCentring, kNumRewardComponents
};
// A fixed list: kCentring stays in it (always 0 while RewardConfig::centring is off), so the
// width of info["reward_components"] never depends on the config.
constexpr const char* kRewardComponentNames[kNumRewardComponents] = {
    "goal", "collision", "off_road", "comfort", "lane_align", "lane_center",
    "velocity", "reverse", "stop_line", "timestep", "centring"};

// The randomised weights of one agent for one episode (GIGAFLOW's table).
struct RewardParams {
  float comfort = 0.0f;           // U(0, 0.1)
  float lane_align_w1 = 0.0f;     // U(2.5e-4, 2.5e-2)
  float lane_align_w2 = 0.0f;     // U(0, 1)
  float lane_center = 0.0f;       // U(2.5e-4, 7.5e-3)
  float lane_center_bias = 0.0f;  // U(-0.5, 0.5) m
  float reverse = 0.0f;           // U(2.5e-4, 7.5e-3)
  float stop_line = 0.0f;         // U(0, 1)
  // The collision weight's factor on RewardConfig::collision, from aggressive (1) to
  // conservative (4): at least 1, so a crash still outweighs any 30 s (the bound below).
  float collision = 1.0f;         // U(1, 4)
};

static_assert(std::is_trivially_copyable<RewardParams>::value, "stored per agent in a world");

struct Range {
  float lo, hi;
};

// Dynamics coefficients of the jerk bicycle model, randomised per agent elsewhere; their ranges
// live here only to normalise the conditioning. The world builder copies the dynamics config's
// ranges in; these defaults are placeholders that map a coefficient of 1 to 0.
constexpr int kNumDynamicsCoeffs = 4;  // C_throttle, C_steer, C_acc, C_vel

struct RewardRanges {
  Range comfort{0.0f, 0.1f};
  Range lane_align_w1{2.5e-4f, 2.5e-2f};
  Range lane_align_w2{0.0f, 1.0f};
  Range lane_center{2.5e-4f, 7.5e-3f};
  Range lane_center_bias{-0.5f, 0.5f};
  Range reverse{2.5e-4f, 7.5e-3f};
  Range stop_line{0.0f, 1.0f};
  Range collision{1.0f, 4.0f};
  Range dynamics[kNumDynamicsCoeffs] = {{0.5f, 1.5f}, {0.5f, 1.5f}, {0.5f, 1.5f}, {0.5f, 1.5f}};
};

// Conditioning: the eight randomised reward parameters, then the four dynamics coefficients
// (GIGAFLOW's 12 numbers).
constexpr int kNumRewardConditioning = 8;
constexpr int kNumConditioning = kNumRewardConditioning + kNumDynamicsCoeffs;
constexpr const char* kConditioningNames[kNumConditioning] = {
    "comfort", "lane_align_w1", "lane_align_w2", "lane_center", "lane_center_bias",
    "reverse", "stop_line", "collision", "c_throttle", "c_steer", "c_acc", "c_vel"};

// The unrandomised weights and thresholds ("ours" where GIGAFLOW did not publish them).
//
// Why a crash outweighs any 30 s (at dt >= 0.05 s, the defaults): the only positive terms are
//   goal:       1.0 per goal. Goals are the route's waypoints, at least goal_spacing_min_m = 50 m
//               apart, reached at most at speed_max_mps = 30 m/s: at most 1 + 30*30/50 = 19
//               goals in 30 s -> 19.0
//   lane_align: 0.0025 per step at most (theta_f = 0; the w1, w2 parts are never positive):
//               30 s / 0.1 s * 0.0025 = 0.75 at dt = 0.1, 1.5 at dt = 0.05
//   velocity:   2.5e-3 * dt per step -> 2.5e-3 * 30 = 0.075
// so at most 19.0 + 1.5 + 0.075 = 20.575 (19.825 at dt = 0.1), while the smallest crash costs
// 25 (a collision at zero relative speed with the smallest drawn factor 1, or going off the road). max_positive_reward() does
// this sum; a test checks it against the defaults.
struct RewardConfig {
  float goal = 1.0f;
  float goal_radius_m = 2.0f;    // r: reached when |x - g| < r
  float goal_speed_mps = 2.0f;   // v_goal: a final goal also needs |v| < v_goal (a slow arrival)
  float collision = 25.0f;       // -collision * factor * (1 + relative speed / collision_speed_ref_mps)
  float collision_speed_ref_mps = 10.0f;
  float off_road = 25.0f;
  float velocity = 2.5e-3f;
  float timestep = 2.5e-5f;
  float lane_align_bonus = 2.5e-3f;  // the 0.0025 (1 - |theta_f| / (pi/2)) term
  bool centring = false;             // the optional -w exp(|x_f - bias| - 0.5) term
  float centring_weight = 0.05f;
  // Assumptions of the 30-s bound (see above), not used by the reward itself.
  float goal_spacing_min_m = 50.0f;
  float speed_max_mps = 30.0f;
};

// One agent's quantities over one step.
struct RewardInputs {
  float theta_f = 0.0f;   // heading error to the lane centre (rad, in [-pi, pi])
  float x_f = 0.0f;       // lateral offset to the lane centre (m)
  float v = 0.0f;         // signed longitudinal speed (m/s; < 0 reversing)
  float a_long = 0.0f, a_lat = 0.0f;  // m/s^2
  float j_long = 0.0f, j_lat = 0.0f;  // m/s^3
  float dt = 0.1f;        // s
  bool collided = false;
  float collision_speed = 0.0f;  // relative speed at the collision (m/s)
  bool off_road = false;
  // m, to the current goal. The goal term pays on every step its condition holds: the caller
  // moves to the next waypoint (or ends the agent's episode at the final goal) once it pays,
  // so each goal pays once; the 30-s bound above counts on that.
  float goal_distance = 1e9f;
  bool goal_is_waypoint = false; // false: the route's final goal
  bool stop_line_violation = false;
};

// Draws one agent's weights for one episode; the draw order is the field order.
void draw_reward_params(Rng& rng, const RewardRanges& ranges, RewardParams& params);
// Writes kNumConditioning floats: each value mapped linearly from its range onto [-1, 1]
// (lo -> -1, hi -> 1, clamped; a range with lo == hi gives 0).
void write_conditioning(const RewardParams& params, const RewardRanges& ranges,
                        const float dyn_coeffs[kNumDynamicsCoeffs], float* out);
// Writes kNumRewardComponents weighted, signed components; the reward is their sum.
void compute_reward_components(const RewardInputs& in, const RewardParams& params,
                               const RewardConfig& cfg, float* components);
// The evaluation preset's cautious weights: the top of every penalty range, no lane bias.
RewardParams safe_reward_params();
// The most positive reward `horizon_s` seconds can earn at step dt (the comment on RewardConfig).
float max_positive_reward(const RewardConfig& cfg, float horizon_s, float dt);

}  // namespace trackfield::driving

#endif
