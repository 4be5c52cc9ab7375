// The racing control step: controls through the delay line, physics substeps with
// car-car contacts, slipstream and race bookkeeping, then rewards and the episode end.
#include "racing/step.h"

#include <cmath>
#include <cstring>

#include "racing/contact.h"
#include "racing/slipstream.h"

namespace trackfield::racing {

namespace {

constexpr int kRing = kMaxControlDelay + 1;

// The control a car applies at physics step `substep` of this period: issued
// ceil((delay - substep) / substeps) periods ago when the delay reaches back past the
// period's start, else this period's.
CarControl delayed_control(const RaceWorld& w, const RaceConfig& cfg, int car, int substep) {
  int back = 0;
  int k = cfg.action_delay_steps;
  if (k > substep) back = (k - substep + cfg.substeps() - 1) / cfg.substeps();
  return w.issued[(w.control_head - back + kRing) % kRing][car];
}

// Slipstream per car from the cars of its group ahead of it; the strongest wake counts.
void update_slipstream(RaceWorld& w, const RaceConfig& cfg) {
  const CarParams& params = car_params(cfg.car);
  for (int i = 0; i < cfg.num_cars(); ++i) {
    float best = 0.0f;
    int g0 = group_start(cfg, i);
    for (int j = g0; j < g0 + cfg.cars_per_group; ++j) {
      if (j == i) continue;
      float s = slipstream_strength(w.car[i], w.car[j], params);
      if (s > best) best = s;
    }
    w.slipstream[i] = best;
  }
}

// Contacts between the cars of each group after a physics step (boxes, impulses);
// the class of the first contact between a pair in this control step is kept.
void resolve_contacts(RaceWorld& w, const RaceConfig& cfg, bool* touching) {
  const CarParams& params = car_params(cfg.car);
  // Two cars can only touch when their centres are within a body diagonal.
  const float reach = params.length * params.length + params.width * params.width;
  for (int g = 0; g < cfg.groups; ++g) {
    int g0 = g * cfg.cars_per_group, g1 = g0 + cfg.cars_per_group;
    for (int i = g0; i < g1; ++i) {
      for (int j = i + 1; j < g1; ++j) {
        float dx = w.car[i].x - w.car[j].x, dy = w.car[i].y - w.car[j].y;
        if (dx * dx + dy * dy > reach) continue;
        if (!collide_cars(w.car[i], params, w.car[j], params)) continue;
        touching[i] = touching[j] = true;
        if (w.contact[i][j] == 0) {
          w.contact[i][j] = static_cast<uint8_t>(classify_contact(w.car[i], w.car[j], params, params));
          w.contact[j][i] = static_cast<uint8_t>(classify_contact(w.car[j], w.car[i], params, params));
        }
      }
    }
  }
}

// A car serving a penalty on a straight is held to kPenaltySpeed: no throttle above it,
// light braking well above it.
CarControl limited(const RaceWorld& w, const Track& track, int i, CarControl c) {
  if (w.penalty_s[i] <= 0.0f) return c;
  const CarState& car = w.car[i];
  if (track.section_kind[segment_of(track, car)] != kStraight) return c;
  float v = car_speed(car);
  if (v > kPenaltySpeed + 2.0f) c.throttle_brake = std::min(c.throttle_brake, -0.3f);
  else if (v > kPenaltySpeed) c.throttle_brake = std::min(c.throttle_brake, 0.0f);
  return c;
}

// Slow-down penalties for contacts that began in this control step and were unsporting.
void penalise_contacts(RaceWorld& w, const RaceConfig& cfg) {
  const Track& track = *cfg.track;
  for (int i = 0; i < cfg.num_cars(); ++i) {
    auto kind = static_cast<SectionKind>(track.section_kind[segment_of(track, w.car[i])]);
    for (int j = 0; j < cfg.num_cars(); ++j) {
      if (w.contact[i][j] == 0 || w.prev_contact[i][j] != 0) continue;
      if (!unsporting_contact(w.contact[i][j], kind)) continue;
      w.penalty_s[i] += kUnsportingPenaltyS;
      w.penalty_total_s[i] += kUnsportingPenaltyS;
    }
  }
}

void snapshot_seen(RaceWorld& w, const RaceConfig& cfg) {
  SeenCar* row = w.seen[w.seen_head];
  for (int i = 0; i < cfg.num_cars(); ++i) {
    row[i].car = w.car[i];
    row[i].progress = w.start_offset[i] + w.progress[i];
    row[i].slipstream = w.slipstream[i];
    row[i].off_course = w.off_course[i];
    bool touching = false;
    for (int j = 0; j < cfg.num_cars(); ++j) touching |= w.contact[i][j] != 0;
    row[i].in_contact = touching;
  }
}

bool episode_finished(const RaceWorld& w, const RaceConfig& cfg) {
  if (cfg.max_off_course_s >= 0.0f)
    for (int a = 0; a < cfg.num_agents(); ++a)
      if (w.off_time[cfg.agent_car(a)] > cfg.max_off_course_s) return true;
  if (cfg.laps <= 0 && cfg.finish_distance_m <= 0.0f) return false;
  for (int a = 0; a < cfg.num_agents(); ++a)
    if (!w.finished[cfg.agent_car(a)]) return false;
  return true;
}

}  // namespace

void update_race(RaceWorld& w, const RaceConfig& cfg, const float* old_s) {
  const Track& track = *cfg.track;
  const float dt = cfg.dt();
  const int need_out = cfg.off_course_rule == OffCourseRule::kAnyTyre ? 1 : 3;
  for (int i = 0; i < cfg.num_cars(); ++i) {
    const CarState& c = w.car[i];
    float ds = wrap_ds(track, c.s, old_s[i]);
    w.progress[i] += ds;
    // The start line is s = 0: wrapping forward past it completes a lap, backward undoes one.
    if (ds > 0.0f && c.s < old_s[i]) {
      w.lap[i] += 1;
      // Timed only after a lap's distance since the last forward crossing (negative until
      // the first: a launch is not a lap); a car that backs over the line and crosses it
      // again has not driven one.
      const bool drove_a_lap = w.progress[i] - w.lap_start_progress[i] > 0.5f * track.length;
      if (w.lap_start_time[i] >= 0.0f && drove_a_lap) {
        float lap_s = w.time_s - w.lap_start_time[i];
        w.last_lap_s[i] = lap_s;
        if (w.best_lap_s[i] <= 0.0f || lap_s < w.best_lap_s[i]) w.best_lap_s[i] = lap_s;
      }
      w.lap_start_time[i] = w.time_s;
      w.lap_start_progress[i] = w.progress[i];
      if (cfg.laps > 0 && w.lap[i] >= cfg.laps && !w.finished[i]) {
        w.finished[i] = true;
        w.finish_time[i] = w.time_s;
      }
    } else if (ds < 0.0f && c.s > old_s[i]) {
      w.lap[i] -= 1;
    }
    int out = 0;
    for (int t = 0; t < 4; ++t) {
      if (c.tyre_out[t]) {
        ++out;
        w.tyre_off_time[i][t] += dt;
      }
    }
    w.off_course[i] = out >= need_out;
    if (w.off_course[i]) w.off_time[i] += dt;
    if (cfg.penalties && w.off_course[i] && car_speed(c) > kPenaltySpeed) {  // time gained cutting the course
      w.penalty_s[i] += dt;
      w.penalty_total_s[i] += dt;
    }
    // Penalties are served on track on straights (the penalty zones), where the limiter holds the car.
    if (w.penalty_s[i] > 0.0f && !w.off_course[i] && track.section_kind[segment_of(track, c)] == kStraight)
      w.penalty_s[i] = std::max(0.0f, w.penalty_s[i] - dt);
    if (c.wall_contact) w.wall_time[i] += dt;
    // Section runs end for a car once it has covered the distance past the section's exit.
    if (cfg.finish_distance_m > 0.0f && w.progress[i] >= cfg.finish_distance_m && !w.finished[i]) {
      w.finished[i] = true;
      w.finish_time[i] = w.time_s;
    }
  }
}

void step_world(RaceWorld& w, const RaceConfig& cfg, const float* actions) {
  const Track& track = *cfg.track;
  const CarParams& params = car_params(cfg.car);
  const int n = cfg.num_cars();
  const int substeps = cfg.substeps();
  const float dt = cfg.dt();

  for (int i = 0; i < n; ++i) {
    w.prev_progress[i] = w.progress[i];
    w.prev_off_time[i] = w.off_time[i];
    w.prev_wall_time[i] = w.wall_time[i];
  }
  std::memcpy(w.prev_contact, w.contact, sizeof(w.contact));
  std::memset(w.contact, 0, sizeof(w.contact));

  // Issue this period's controls: agents' actions, the AI's decisions on what it sees now.
  w.control_head = (w.control_head + 1) % kRing;
  CarControl* issued = w.issued[w.control_head];
  for (int i = 0; i < n; ++i) {
    int g0 = group_start(cfg, i);
    if (cfg.is_agent_car(i)) continue;
    issued[i] = ai_control(w.car[i], params, track, *cfg.line, w.driver[i], w.car + g0, cfg.cars_per_group,
                           i - g0, w.rng);
  }
  for (int a = 0; a < cfg.num_agents(); ++a) {
    int car = cfg.agent_car(a);
    issued[car].throttle_brake = actions[2 * a];
    issued[car].steer = actions[2 * a + 1];
    w.ai_reverse[car] = w.ai_suggested_valid[car] && issued[car].throttle_brake == w.ai_suggested[car].throttle_brake &&
                        issued[car].steer == w.ai_suggested[car].steer;
    w.ai_suggested_valid[car] = false;
  }
  update_slipstream(w, cfg);

  const int seen_at = substeps - cfg.observation_delay_steps % substeps;  // physics step to snapshot after
  float old_s[kMaxCars];
  for (int sub = 0; sub < substeps; ++sub) {
    for (int i = 0; i < n; ++i) {
      old_s[i] = w.car[i].s;
      float drag_scale = 1.0f - kSlipstreamDragCut * w.slipstream[i];
      // The AI may always reverse: it backs out when stuck against a wall.
      // So may an agent's car driven by the AI's own suggestion (env.ai_action()).
      bool reverse = cfg.allow_reverse || !cfg.is_agent_car(i) || w.ai_reverse[i];
      step_car(w.car[i], params, track, limited(w, track, i, delayed_control(w, cfg, i, sub)), drag_scale, reverse, dt);
    }
    bool touching[kMaxCars] = {};
    if (cfg.cars_per_group > 1) resolve_contacts(w, cfg, touching);
    w.time_s += dt;
    update_race(w, cfg, old_s);
    for (int i = 0; i < n; ++i)
      if (touching[i]) w.contact_time[i] += dt;
    if (sub + 1 == seen_at) {
      w.seen_head = (w.seen_head + 1) % kObservationRing;
      snapshot_seen(w, cfg);
    }
  }
  if (cfg.penalties) penalise_contacts(w, cfg);
  for (int i = 0; i < n; ++i) {
    std::memmove(w.steer_history[i] + 1, w.steer_history[i], sizeof(float) * (kSteerHistory - 1));
    w.steer_history[i][0] = w.car[i].steer_input;
  }
  w.steps += 1;
  compute_rewards(w, cfg);
  w.terminated = episode_finished(w, cfg);
  w.truncated = !w.terminated && w.time_s >= cfg.max_time_s - 0.5f * dt;
}

const SeenCar* seen_cars(const RaceWorld& w, const RaceConfig& cfg) {
  // Delay k = q * substeps + r: the snapshot taken r steps before the end of the
  // period q periods ago (r = 0: at its end).
  int q = cfg.observation_delay_steps / cfg.substeps();
  return w.seen[(w.seen_head - q + kObservationRing) % kObservationRing];
}

}  // namespace trackfield::racing
