// GT Sophy's reward components for each agent's car over one control step s -> s'.
// Units km/h, m, s. Components are stored unweighted; the reward is their sum with the
// config's weights, each scaled by the modifier of the section the car is in.
#include <algorithm>
#include <cmath>

#include "racing/contact.h"
#include "racing/step.h"

namespace trackfield::racing {

namespace {

constexpr float kKmh = 3.6f;

float speed_kmh(const CarState& c) { return car_speed(c) * kKmh; }

// World-frame velocity in km/h.
void velocity_kmh(const CarState& c, float* vx, float* vy) {
  Vec2 v = world_velocity(c);
  *vx = v.x * kKmh;
  *vy = v.y * kKmh;
}

bool in_window(const RaceConfig& cfg, float d) { return d >= -cfg.passing_behind_m && d <= cfg.passing_ahead_m; }


}  // namespace

// Whether a contact of class `cls` is unsporting on a straight (rear-ending or side
// contact) or in a curve (anything but being rear-ended).
bool unsporting_contact(uint8_t cls, SectionKind kind) {
  auto c = static_cast<ContactClass>(cls);
  if (c == ContactClass::kNone) return false;
  if (kind == kStraight) return c == ContactClass::kRearEnd || c == ContactClass::kSide;
  return c != ContactClass::kRearEnded;
}

void car_components(const RaceWorld& w, const RaceConfig& cfg, int i, float* out) {
  const CarState& c = w.car[i];
  const Track& track = *cfg.track;
  float v = speed_kmh(c);
  float d_off = w.off_time[i] - w.prev_off_time[i];
  out[kProgress] = w.off_course[i] ? 0.0f : w.progress[i] - w.prev_progress[i];
  out[kOffCourseSq] = -d_off * v * v;
  out[kOffCourseLin] = -d_off * v;
  out[kWall] = -(w.wall_time[i] - w.prev_wall_time[i]) * v * v;
  float slip = 0.0f;
  for (int t = 0; t < 4; ++t) slip += std::min(std::fabs(c.slip_ratio[t]), 1.0f) * std::fabs(c.slip_angle[t]);
  out[kTyreSlip] = -slip;

  float passing = 0.0f, any = 0.0f, rear_end = 0.0f, unsporting = 0.0f;
  float vx, vy;
  velocity_kmh(c, &vx, &vy);
  SectionKind kind = static_cast<SectionKind>(track.section_kind[segment_of(track, c)]);
  int g0 = group_start(cfg, i);
  for (int j = g0; j < g0 + cfg.cars_per_group; ++j) {
    if (j == i) continue;
    // Signed centre-line distance to car j, from where each started (rolling starts spread them).
    float d0 = (w.start_offset[j] + w.prev_progress[j]) - (w.start_offset[i] + w.prev_progress[i]);
    float d1 = (w.start_offset[j] + w.progress[j]) - (w.start_offset[i] + w.progress[i]);
    if (in_window(cfg, d0) || in_window(cfg, d1)) passing += d0 - d1;
    uint8_t cls = w.contact[i][j];
    if (cls == 0) continue;
    any = 1.0f;
    if (d1 > 0.0f) {  // hitting a car ahead costs the closing speed squared
      float ox, oy;
      velocity_kmh(w.car[j], &ox, &oy);
      rear_end += (vx - ox) * (vx - ox) + (vy - oy) * (vy - oy);
    }
    if (unsporting_contact(cls, kind)) unsporting = 1.0f;
  }
  out[kPassing] = passing;
  out[kAnyCollision] = -any;
  out[kRearEnd] = -rear_end;
  out[kUnsporting] = -unsporting;
}

void compute_rewards(RaceWorld& w, const RaceConfig& cfg) {
  const Track& track = *cfg.track;
  for (int a = 0; a < cfg.num_agents(); ++a) {
    int i = cfg.agent_car(a);
    float* comp = w.components[i];
    car_components(w, cfg, i, comp);
    int section = track.section[segment_of(track, w.car[i])];
    const float* scale = section >= 0 && section < kMaxSections ? cfg.section_scale[section] : nullptr;
    float total = 0.0f;
    for (int k = 0; k < kNumComponents; ++k) total += cfg.weight[k] * (scale ? scale[k] : 1.0f) * comp[k];
    w.reward[i] = total;
  }
}

}  // namespace trackfield::racing
