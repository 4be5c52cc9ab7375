// Whole racing worlds on a built-in stadium oval: a clean AI lap's progress, launches,
// groups that never touch.
#include <cmath>
#include <memory>
#include <vector>

#include "racing/batch.h"
#include "racing/contact.h"
#include "racing/step.h"
#include "tests/check.h"

using namespace trackfield;
using namespace trackfield::racing;

namespace {

// Two 300 m straights joined by 60 m radius half circles, anticlockwise, 2 m spacing.
std::shared_ptr<Track> stadium() {
  auto t = std::make_shared<Track>();
  const float kPi = 3.14159265f, r = 60.0f, straight = 300.0f, ds = 2.0f;
  auto add = [&](float x, float y, float k) {
    t->x.push_back(x), t->y.push_back(y), t->z.push_back(0);
    t->width_left.push_back(6), t->width_right.push_back(6), t->banking.push_back(0), t->grade.push_back(0);
    t->curvature.push_back(k);
    t->section.push_back(-1);
    t->section_kind.push_back(k > 0 ? kCurve : kStraight);
  };
  for (float s = 0; s < straight; s += ds) add(s, -r, 0);
  for (float a = 0; a < kPi; a += ds / r) add(straight + r * std::sin(a), -r * std::cos(a), 1 / r);
  for (float s = 0; s < straight; s += ds) add(straight - s, r, 0);
  for (float a = 0; a < kPi; a += ds / r) add(-r * std::sin(a), r * std::cos(a), 1 / r);
  t->n = static_cast<int>(t->x.size());
  t->name = "stadium";
  t->finalize();
  return t;
}

RaceConfig stadium_config(int cars) {
  RaceConfig cfg;
  cfg.track = stadium();
  std::vector<float> xy;
  for (int i = 0; i < cfg.track->n; ++i) xy.push_back(cfg.track->x[i]), xy.push_back(cfg.track->y[i]);
  cfg.line = std::make_shared<RacingLine>(build_racing_line(*cfg.track, car_params(cfg.car), xy.data(), cfg.track->n));
  cfg.cars_per_group = cars;
  cfg.agents_per_group = 1;
  cfg.weight[kProgress] = 1.0f;
  return cfg;
}

// The agent driven by the full-skill AI: one control step.
void ai_step(RaceWorld& w, const RaceConfig& cfg) {
  AiDriver full{};
  full.skill = 1.0f;
  Rng rng = w.rng;
  CarControl c = ai_control(w.car[0], car_params(cfg.car), *cfg.track, *cfg.line, full, w.car, cfg.cars_per_group, 0, rng);
  float action[2] = {c.throttle_brake, c.steer};
  step_world(w, cfg, action);
}

}  // namespace

TEST(progress_over_a_clean_ai_lap_sums_to_the_lap_length) {
  RaceConfig cfg = stadium_config(1);
  cfg.start_s_m = 1.0f;
  cfg.speed_min_kmh = cfg.speed_max_kmh = 100.0f;
  RacingDomain::check_config(cfg);
  auto w = std::make_unique<RaceWorld>();
  reset_world(*w, cfg, 7);
  double sum = 0;
  int steps = 0;
  while (w->lap[0] < 1 && steps < 2000) {
    ai_step(*w, cfg);
    sum += w->components[0][kProgress];
    ++steps;
  }
  CHECK(w->lap[0] == 1);
  CHECK(w->off_time[0] == 0.0f);
  CHECK(std::fabs(sum - w->progress[0]) < 1e-2);
  // The lap ends within one step's travel past the line: progress = length - 1 m + overshoot.
  CHECK(w->progress[0] > cfg.track->length - 1.0f && w->progress[0] < cfg.track->length + 10.0f);
}

TEST(grid_start_places_the_agent_in_its_slot) {
  RaceConfig cfg = stadium_config(8);
  cfg.start = StartKind::kGrid;
  for (int slot : {0, 3, 7}) {
    cfg.start_slot = slot;
    auto w = std::make_unique<RaceWorld>();
    reset_world(*w, cfg, 1);
    int place[kMaxCars];
    // On the grid the order is the slot order: the agent has `slot` cars ahead along the centre line.
    int ahead = 0;
    for (int j = 1; j < 8; ++j) ahead += wrap_ds(*cfg.track, w->car[j].s, w->car[0].s) > 0.0f;
    CHECK_EQ(ahead, slot);
    race_places(*w, cfg, place);
    CHECK(place[0] >= 0 && place[0] < 8);
    for (int j = 0; j < 8; ++j) CHECK(std::fabs(w->car[j].vx) < 1e-3f);  // standing start
  }
}

TEST(groups_overlap_without_touching) {
  RaceConfig cfg = stadium_config(2);
  cfg.groups = 2;
  cfg.start = StartKind::kSlipstream;
  cfg.start_s_m = 10.0f;
  cfg.slipstream_gap_m = 200.0f;  // each group's opponent far ahead: any contact would be across groups
  RacingDomain::check_config(cfg);
  auto w = std::make_unique<RaceWorld>();
  reset_world(*w, cfg, 3);
  // Group 1's cars start exactly where group 0's do.
  CHECK(std::fabs(w->car[0].x - w->car[2].x) < 1e-4f && std::fabs(w->car[0].y - w->car[2].y) < 1e-4f);
  float actions[4] = {1, 0, 1, 0};
  for (int t = 0; t < 30; ++t) step_world(*w, cfg, actions);
  for (int i = 0; i < 4; ++i) CHECK(w->contact_time[i] == 0.0f);
}

TEST(off_course_rules_count_tyres_out) {
  for (int rule = 0; rule < 2; ++rule) {
    RaceConfig cfg = stadium_config(1);
    cfg.off_course_rule = static_cast<OffCourseRule>(rule);
    cfg.start_s_m = 10.0f;
    auto w = std::make_unique<RaceWorld>();
    for (int out = 0; out <= 4; ++out) {
      reset_world(*w, cfg, 1);
      for (int t = 0; t < 4; ++t) w->car[0].tyre_out[t] = t < out;
      float old_s[kMaxCars] = {w->car[0].s};
      update_race(*w, cfg, old_s);
      bool expected = rule == static_cast<int>(OffCourseRule::kAnyTyre) ? out >= 1 : out >= 3;
      CHECK(w->off_course[0] == expected);
      for (int t = 0; t < 4; ++t) CHECK((w->tyre_off_time[0][t] > 0.0f) == (t < out));  // per-tyre times always kept
    }
  }
}

TEST(rear_end_contact_is_classed_from_each_side) {
  RaceConfig cfg = stadium_config(2);
  const CarParams& p = car_params(cfg.car);
  CarState a, b;
  place_car(a, p, *cfg.track, 50.0f, 0.0f, 40.0f, 0.0f);
  place_car(b, p, *cfg.track, 54.0f, 0.3f, 30.0f, 0.0f);  // 4 m ahead: the boxes overlap
  CHECK(collide_cars(a, p, b, p));
  CHECK(classify_contact(a, b, p, p) == ContactClass::kRearEnd);
  CHECK(classify_contact(b, a, p, p) == ContactClass::kRearEnded);
  CHECK(a.vx < 40.0f && b.vx > 30.0f);  // the impulse slowed the one behind, pushed the one ahead
  CarState c, e;
  place_car(c, p, *cfg.track, 80.0f, 1.0f, 30.0f, 0.0f);
  place_car(e, p, *cfg.track, 81.0f, -0.8f, 30.0f, 0.0f);  // alongside, overlapping
  CHECK(collide_cars(c, p, e, p));
  CHECK(classify_contact(c, e, p, p) == ContactClass::kSide);
  CHECK(classify_contact(e, c, p, p) == ContactClass::kSide);
  CHECK(c.y - e.y > p.width - 1e-3f);  // pushed apart sideways (the straight runs along +x)
}
