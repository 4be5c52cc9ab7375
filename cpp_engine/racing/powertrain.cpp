// Engine torque curve and automatic gearbox.
#include <algorithm>

#include "racing/car.h"

namespace trackfield::racing {

namespace {
constexpr float kRadPerSecToRpm = 60.0f / (2.0f * 3.14159265f);
}

float engine_torque(const CarParams& p, float rpm) {
  if (rpm >= p.max_rpm) return 0.0f;  // rev limiter
  if (rpm <= p.idle_rpm) return p.torque_at_idle;
  if (rpm <= p.peak_torque_rpm)
    return p.torque_at_idle + (p.peak_torque - p.torque_at_idle) * (rpm - p.idle_rpm) / (p.peak_torque_rpm - p.idle_rpm);
  return p.peak_torque + (p.torque_at_max - p.peak_torque) * (rpm - p.peak_torque_rpm) / (p.max_rpm - p.peak_torque_rpm);
}

float engine_rpm(const CarParams& p, int gear, float speed) {
  float wheel = std::abs(speed) / p.wheel_radius;
  float rpm = wheel * p.gear_ratio[std::clamp(gear, 1, p.gears) - 1] * p.final_drive * kRadPerSecToRpm;
  return std::max(rpm, p.idle_rpm);  // the clutch slips below idle
}

int shift_gear(const CarParams& p, int gear, float speed) {
  gear = std::clamp(gear, 1, p.gears);
  while (gear < p.gears && engine_rpm(p, gear, speed) > p.upshift_rpm) ++gear;
  while (gear > 1 && engine_rpm(p, gear, speed) < p.downshift_rpm &&
         engine_rpm(p, gear - 1, speed) < p.upshift_rpm)
    --gear;
  return gear;
}

float drive_force_limit(const CarParams& p, float speed) {
  float best = 0.0f;
  for (int g = 1; g <= p.gears; ++g) {
    float rpm = engine_rpm(p, g, speed);
    float force = engine_torque(p, rpm) * p.gear_ratio[g - 1] * p.final_drive * p.driveline_efficiency / p.wheel_radius;
    best = std::max(best, force);
  }
  return best;
}

}  // namespace trackfield::racing
