#include "racing/race_state.h"

#include <algorithm>

#include "racing/batch.h"
#include "racing/step.h"

namespace trackfield::racing {

void write_race_state(const RaceWorld& w, const RaceConfig& cfg, double* out) {
  const int n = cfg.num_cars();
  const Track& track = *cfg.track;
  int place[kMaxCars];
  race_places(w, cfg, place);
  float along[kMaxCars];  // distance along the centre line from the race's reference point
  for (int i = 0; i < n; ++i) along[i] = w.start_offset[i] + w.progress[i];
  const int row = kRaceStateScalars + 2 * n;
  for (int i = 0; i < n; ++i) {
    const CarState& c = w.car[i];
    double* o = out + i * row;
    int g0 = group_start(cfg, i);
    float ahead = 0.0f, leader = 0.0f;
    for (int j = g0; j < g0 + cfg.cars_per_group; ++j) {
      if (place[j] == place[i] - 1) ahead = along[j] - along[i];
      if (place[j] == 0) leader = along[j] - along[i];
    }
    Vec2 v = world_velocity(c);
    int seg = segment_of(track, c);
    bool in_contact = false;
    for (int j = 0; j < n; ++j) in_contact = in_contact || w.contact[i][j] != 0;
    int k = 0;
    o[k++] = cfg.is_agent_car(i);
    o[k++] = w.lap[i];
    o[k++] = c.s;
    o[k++] = w.progress[i];
    o[k++] = place[i];
    o[k++] = ahead;
    o[k++] = leader;
    o[k++] = c.d;
    o[k++] = c.heading_error;
    o[k++] = c.signed_speed * 3.6f;
    o[k++] = c.x; o[k++] = c.y; o[k++] = c.z;
    o[k++] = v.x * 3.6f; o[k++] = v.y * 3.6f; o[k++] = c.vz * 3.6f;
    o[k++] = c.ax; o[k++] = c.ay;
    o[k++] = c.yaw_rate;
    o[k++] = c.yaw;
    for (int t = 0; t < 4; ++t) o[k++] = c.tyre_out[t];
    for (int t = 0; t < 4; ++t) o[k++] = w.tyre_off_time[i][t];
    o[k++] = w.off_course[i];
    o[k++] = w.off_time[i];
    o[k++] = c.wall_contact;
    o[k++] = w.wall_time[i];
    o[k++] = in_contact;
    o[k++] = w.contact_time[i];
    o[k++] = c.steer_input; o[k++] = c.throttle; o[k++] = c.brake;
    for (int h = 0; h < kSteerHistory; ++h) o[k++] = w.steer_history[i][h];
    for (int t = 0; t < 4; ++t) o[k++] = c.slip_angle[t];
    for (int t = 0; t < 4; ++t) o[k++] = c.slip_ratio[t];
    for (int t = 0; t < 4; ++t) o[k++] = c.tyre_load[t];
    o[k++] = w.slipstream[i];
    o[k++] = track.section[seg];
    o[k++] = track.section_kind[seg];
    o[k++] = w.time_s;
    o[k++] = w.finished[i];
    o[k++] = c.in_reverse ? -1 : c.gear;
    o[k++] = c.wall_impact_speed * 3.6f;
    o[k++] = w.penalty_s[i];
    o[k++] = w.start_offset[i];
    o[k++] = group_of(cfg, i);
    o[k++] = c.vx * 3.6f;
    o[k++] = c.vy * 3.6f;
    for (int j = 0; j < n; ++j) o[kRaceStateScalars + j] = w.contact[i][j];
    // 0 to itself and to cars of other groups (they never meet): terms summed over cars need no mask.
    for (int j = 0; j < n; ++j) o[kRaceStateScalars + n + j] = group_of(cfg, j) == group_of(cfg, i) ? along[j] - along[i] : 0.0f;
  }
}

}  // namespace trackfield::racing
