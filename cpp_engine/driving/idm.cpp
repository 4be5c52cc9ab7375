// The Intelligent Driver Model (formula and parameter sources in idm.h).
#include "driving/idm.h"

#include <algorithm>
#include <cmath>

namespace trackfield::driving {

float idm_acceleration(float v, float v0, float gap, float dv, const IdmParams& p) {
  if (v0 <= 0.0f) return v > 0.0f ? -p.comfort_decel : 0.0f;
  if (!(gap > 0.0f)) return -p.max_brake;
  float dynamic = v * p.time_headway_s + v * dv / (2.0f * std::sqrt(p.max_accel * p.comfort_decel));
  float desired_gap = p.min_gap_m + std::max(0.0f, dynamic);
  float free = std::pow(std::max(v, 0.0f) / v0, p.exponent);
  float ratio = desired_gap / gap;  // 0 when there is no leader (gap = infinity)
  float accel = p.max_accel * (1.0f - free - ratio * ratio);
  return std::min(p.max_accel, std::max(-p.max_brake, accel));
}

float idm_equilibrium_gap(float v, float v0, const IdmParams& p) {
  float free = std::pow(v / v0, p.exponent);
  if (free >= 1.0f) return kNoLeader;
  return (p.min_gap_m + v * p.time_headway_s) / std::sqrt(1.0f - free);
}

}  // namespace trackfield::driving
