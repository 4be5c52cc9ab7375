// GT Sophy's reward components in constructed situations, checked by hand.
#include <array>
#include <cmath>
#include <memory>

#include "racing/batch.h"
#include "racing/contact.h"
#include "racing/step.h"
#include "tests/check.h"

using namespace trackfield;
using namespace trackfield::racing;

namespace {

// A 1 km straight loop's first half as straight, second half as curve, with one named
// section over [100, 200) m. Only the per-segment arrays the rewards read matter.
std::shared_ptr<Track> reward_track() {
  auto t = std::make_shared<Track>();
  t->n = 100;
  t->length = 1000.0f;
  const float kPi = 3.14159265f;
  for (int i = 0; i < t->n; ++i) {
    float a = 2 * kPi * i / t->n;
    t->x.push_back(159.15f * std::cos(a));
    t->y.push_back(159.15f * std::sin(a));
    t->z.push_back(0);
    t->width_left.push_back(6);
    t->width_right.push_back(6);
    t->banking.push_back(0);
    t->grade.push_back(0);
    t->curvature.push_back(1.0f / 159.15f);
    t->section.push_back(i >= 10 && i < 20 ? 0 : -1);
    t->section_kind.push_back(i < 50 ? kStraight : kCurve);
  }
  t->section_names = {"final_chicane"};
  t->finalize();
  return t;
}

struct Fixture {
  RaceConfig cfg;
  RaceWorld w{};
  Fixture(int cars) {
    cfg.track = reward_track();
    cfg.cars_per_group = cars;
    cfg.agents_per_group = 1;
  }
  std::array<float, kNumComponents> components(int car = 0) {
    std::array<float, kNumComponents> out{};
    car_components(w, cfg, car, out.data());
    return out;
  }
  void speed(int car, float vx_kmh, float vy_kmh) {  // world velocity with the car facing +x
    w.car[car].yaw = 0;
    w.car[car].vx = vx_kmh / 3.6f;
    w.car[car].vy = vy_kmh / 3.6f;
  }
};

bool near(float a, float b, float tol = 1e-3f) { return std::fabs(a - b) <= tol * std::max(1.0f, std::fabs(b)); }

}  // namespace

TEST(passing_pays_the_gap_closed_inside_the_window) {
  Fixture f(2);
  f.w.prev_progress[0] = 0, f.w.progress[0] = 0;
  f.w.prev_progress[1] = 45, f.w.progress[1] = 35;  // the car ahead came back from 45 m to 35 m
  CHECK(near(f.components()[kPassing], 10.0f));
  f.w.prev_progress[1] = 50, f.w.progress[1] = 45;  // both outside [-20, 40]
  CHECK(near(f.components()[kPassing], 0.0f));
}

TEST(rear_end_costs_the_closing_velocity_squared) {
  Fixture f(2);
  f.speed(0, 100, 0);
  f.speed(1, 80, 10);
  f.w.progress[0] = 10, f.w.progress[1] = 14;  // car 1 is ahead
  f.w.contact[0][1] = static_cast<uint8_t>(ContactClass::kRearEnd);
  f.w.contact[1][0] = static_cast<uint8_t>(ContactClass::kRearEnded);
  auto c = f.components(0);
  CHECK(near(c[kRearEnd], -500.0f));  // |(20, -10)|^2, not the 400 of the speed difference
  CHECK(near(c[kAnyCollision], -1.0f));
  CHECK(near(f.components(1)[kRearEnd], 0.0f));  // car 1 was hit from behind: nobody ahead of it touched
}

TEST(tyre_slip_sums_capped_ratio_times_angle) {
  Fixture f(1);
  const float ratio[4] = {0.5f, 2.0f, 0.0f, 0.0f}, angle[4] = {0.1f, 0.2f, 0.3f, 0.0f};
  for (int k = 0; k < 4; ++k) f.w.car[0].slip_ratio[k] = ratio[k], f.w.car[0].slip_angle[k] = angle[k];
  CHECK(near(f.components()[kTyreSlip], -0.25f));
}

TEST(off_course_costs_time_off_times_speed_squared) {
  Fixture f(1);
  f.speed(0, 36, 0);  // 10 m/s
  f.w.prev_off_time[0] = 1.0f, f.w.off_time[0] = 1.1f;
  f.w.off_course[0] = true;
  f.w.prev_progress[0] = 0, f.w.progress[0] = 1;
  auto c = f.components();
  CHECK(near(c[kOffCourseSq], -129.6f));
  CHECK(near(c[kOffCourseLin], -3.6f));
  CHECK(near(c[kProgress], 0.0f));  // no progress while off course
}

TEST(unsporting_depends_on_contact_class_and_section_kind) {
  Fixture f(2);
  f.w.progress[1] = 5;
  auto set = [&](int seg, ContactClass cls) {
    f.w.car[0].track_segment = seg;
    f.w.contact[0][1] = static_cast<uint8_t>(cls);
  };
  set(5, ContactClass::kSide);  // straight
  CHECK(near(f.components()[kUnsporting], -1.0f));
  set(60, ContactClass::kSide);  // curve
  CHECK(near(f.components()[kUnsporting], -1.0f));
  set(60, ContactClass::kRearEnded);  // being rear-ended in a curve is not our fault
  CHECK(near(f.components()[kUnsporting], 0.0f));
  set(5, ContactClass::kRearEnded);
  CHECK(near(f.components()[kUnsporting], 0.0f));
}

TEST(section_modifiers_scale_only_inside_their_section) {
  Fixture f(1);
  f.cfg.weight[kProgress] = 1.0f;
  f.cfg.section_scale[0][kProgress] = 3.0f;
  f.w.prev_progress[0] = 0, f.w.progress[0] = 2;
  f.w.car[0].track_segment = 15;  // inside final_chicane
  compute_rewards(f.w, f.cfg);
  CHECK(near(f.w.reward[0], 6.0f));
  CHECK(near(f.w.components[0][kProgress], 2.0f));  // components stay unscaled
  f.w.car[0].track_segment = 30;
  compute_rewards(f.w, f.cfg);
  CHECK(near(f.w.reward[0], 2.0f));
}
