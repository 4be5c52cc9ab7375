#include "racing/slipstream.h"

#include <algorithm>
#include <cmath>

namespace trackfield::racing {

float slipstream_strength(const CarState& self, const CarState& lead, const CarParams& lead_params) {
  float lead_speed = car_speed(lead);
  if (lead_speed < 1.0f) return 0.0f;
  // Self's centre in the lead car's frame, the wake trailing along its velocity.
  Vec2 heading = world_velocity(lead);
  float ux = heading.x / lead_speed, uy = heading.y / lead_speed;
  float dx = self.x - lead.x, dy = self.y - lead.y;
  float behind = -(dx * ux + dy * uy) - 0.5f * lead_params.length;
  if (behind <= 0.0f || behind > kWakeRange) return 0.0f;
  float aside = -dx * uy + dy * ux;
  float half = 0.5f * lead_params.width;
  float lateral = std::exp(-(aside * aside) / (half * half * 2.0f));
  float along = std::exp(-behind / kWakeLength);
  float pace = std::min(1.0f, (lead_speed / kWakeSpeed) * (lead_speed / kWakeSpeed));
  return along * lateral * pace;
}

}  // namespace trackfield::racing
