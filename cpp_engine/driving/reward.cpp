// GIGAFLOW's reward terms (GIGAFLOW's Table A2; weights and the 30-s bound in reward.h).
#include "driving/reward.h"

#include <algorithm>
#include <cmath>

namespace trackfield::driving {

namespace {

constexpr float kHalfPi = 1.57079632679f;

float draw(Rng& rng, Range r) { return rng_range(rng, r.lo, r.hi); }

float normalise(float x, Range r) {
  if (!(r.hi > r.lo)) return 0.0f;
  float u = 2.0f * (x - r.lo) / (r.hi - r.lo) - 1.0f;
  return std::min(1.0f, std::max(-1.0f, u));
}

float indicator(bool b) { return b ? 1.0f : 0.0f; }

}  // namespace

void draw_reward_params(Rng& rng, const RewardRanges& ranges, RewardParams& p) {
  p.comfort = draw(rng, ranges.comfort);
  p.lane_align_w1 = draw(rng, ranges.lane_align_w1);
  p.lane_align_w2 = draw(rng, ranges.lane_align_w2);
  p.lane_center = draw(rng, ranges.lane_center);
  p.lane_center_bias = draw(rng, ranges.lane_center_bias);
  p.reverse = draw(rng, ranges.reverse);
  p.stop_line = draw(rng, ranges.stop_line);
  p.collision = draw(rng, ranges.collision);
}

void write_conditioning(const RewardParams& p, const RewardRanges& ranges,
                        const float dyn_coeffs[kNumDynamicsCoeffs], float* out) {
  out[0] = normalise(p.comfort, ranges.comfort);
  out[1] = normalise(p.lane_align_w1, ranges.lane_align_w1);
  out[2] = normalise(p.lane_align_w2, ranges.lane_align_w2);
  out[3] = normalise(p.lane_center, ranges.lane_center);
  out[4] = normalise(p.lane_center_bias, ranges.lane_center_bias);
  out[5] = normalise(p.reverse, ranges.reverse);
  out[6] = normalise(p.stop_line, ranges.stop_line);
  out[7] = normalise(p.collision, ranges.collision);
  for (int i = 0; i < kNumDynamicsCoeffs; ++i) out[kNumRewardConditioning + i] = normalise(dyn_coeffs[i], ranges.dynamics[i]);
}

void compute_reward_components(const RewardInputs& in, const RewardParams& p, const RewardConfig& cfg,
                               float* out) {
  float cos_f = std::cos(in.theta_f);
  float speed = std::fabs(in.v);
  bool at_goal = in.goal_distance < cfg.goal_radius_m && (in.goal_is_waypoint || speed < cfg.goal_speed_mps);
  out[kGoal] = cfg.goal * indicator(at_goal);
  // A harder crash costs more; even a touch costs the full base weight.
  out[kCollision] = in.collided ? -cfg.collision * p.collision * (1.0f + std::fabs(in.collision_speed) / cfg.collision_speed_ref_mps)
                                : 0.0f;
  out[kOffRoad] = -cfg.off_road * indicator(in.off_road);
  float jerky = indicator(std::fabs(in.j_long) > 5.0f || std::fabs(in.j_lat) > 5.0f);
  out[kComfort] = -p.comfort * (indicator(std::fabs(in.a_long) > 3.0f) + indicator(std::fabs(in.a_lat) > 3.0f) + jerky);
  out[kLaneAlign] = p.lane_align_w1 * in.dt * std::min(cos_f, 0.0f) + p.lane_align_w2 * std::min(in.v * cos_f, 0.0f) +
                    cfg.lane_align_bonus * (1.0f - std::fabs(in.theta_f) / kHalfPi);
  float off_centre = std::fabs(in.x_f - p.lane_center_bias);
  out[kLaneCenter] = -p.lane_center * in.dt * indicator(cos_f > 0.5f) * off_centre;
  out[kVelocity] = cfg.velocity * in.dt * std::max(cos_f, 0.0f) * indicator(speed > 2.5f);
  out[kReverse] = -p.reverse * in.dt * indicator(in.v < 0.0f);
  out[kStopLine] = -p.stop_line * indicator(in.stop_line_violation);
  // Nothing while standing still, so waiting at a red light is free.
  out[kTimestep] = -cfg.timestep * in.dt * indicator(speed > 0.0f || std::fabs(in.a_long) > 0.0f);
  out[kCentring] = cfg.centring ? -cfg.centring_weight * std::exp(off_centre - 0.5f) : 0.0f;
}

RewardParams safe_reward_params() {
  // Cautious driving for evaluation: every penalty at the top of its range (smooth, well
  // aligned, centred, never reversing, always stopping at red), and no lateral bias.
  RewardRanges r;
  RewardParams p;
  p.comfort = r.comfort.hi;
  p.lane_align_w1 = r.lane_align_w1.hi;
  p.lane_align_w2 = r.lane_align_w2.hi;
  p.lane_center = r.lane_center.hi;
  p.lane_center_bias = 0.0f;
  p.reverse = r.reverse.hi;
  p.stop_line = r.stop_line.hi;
  p.collision = r.collision.hi;
  return p;
}

float max_positive_reward(const RewardConfig& cfg, float horizon_s, float dt) {
  float goals = 1.0f + std::floor(cfg.speed_max_mps * horizon_s / cfg.goal_spacing_min_m);
  float steps = std::ceil(horizon_s / dt - 1e-4f);
  return goals * cfg.goal + steps * cfg.lane_align_bonus + cfg.velocity * horizon_s;
}

}  // namespace trackfield::driving
