// Driving traffic lights: phase order and durations, removals at their rates, stuck green,
// and stop-line violations checked by hand.
#include <cmath>

#include "driving/lights.h"
#include "tests/check.h"

using namespace trackfield;
using namespace trackfield::driving;

namespace {

// Two junctions: junction 0 with three groups (0, 1, 2), junction 1 with two (3, 4);
// one light per group, stop lines across +x-bound lanes.
LightLayout two_junctions() {
  LightLayout l;
  l.num_junctions = 2;
  l.group_junction = {0, 0, 0, 1, 1};
  for (int g = 0; g < 5; ++g) {
    l.light_group.push_back(g);
    l.stop_line_a.push_back({0.0f, -2.0f});
    l.stop_line_b.push_back({0.0f, 2.0f});
    l.lane_heading.push_back(0.0f);
  }
  build_light_layout(l);
  return l;
}

LightConfig no_removals() {
  LightConfig c;
  c.p_light_removed = c.p_group_removed = c.p_episode_without_lights = c.p_stuck_green = 0.0f;
  return c;
}

}  // namespace

TEST(driving_lights_durations_in_ranges) {
  LightLayout layout = two_junctions();
  LightConfig cfg;
  Rng rng;
  rng_seed(rng, 1, 0);
  LightState s;
  for (int e = 0; e < 2000; ++e) {
    reset_lights(s, layout, cfg, rng);
    CHECK(s.red_s >= 2.0f * 0.15f - 1e-5f && s.red_s <= 10.0f);
    CHECK(s.yellow_s >= 1.5f - 1e-5f && s.yellow_s <= 2.25f);
    CHECK(s.green_s >= 1.0f - 1e-5f && s.green_s <= 10.0f);
  }
}

TEST(driving_lights_cycle_in_order_with_drawn_durations) {
  LightLayout layout = two_junctions();
  LightConfig cfg = no_removals();
  Rng rng;
  rng_seed(rng, 7, 3);
  for (int episode = 0; episode < 20; ++episode) {
    LightState s;
    reset_lights(s, layout, cfg, rng);
    const float dt = 0.005f;
    float period = s.green_s + s.yellow_s + s.red_s;
    // Follow group 0: every change must go green -> yellow -> red -> green, and each
    // colour must last its drawn time (red: the two other turns plus three clearances).
    LightColour last = light_colour(s, 0);
    double since = -1.0;  // time since the last change; -1 until the first one
    int changes = 0;
    for (int step = 0; step < static_cast<int>(3.0f * 3.0f * period / dt); ++step) {
      advance_lights(s, layout, dt);
      // Never two groups of one junction green or yellow together.
      int active0 = 0, active1 = 0;
      for (int g = 0; g < 3; ++g) active0 += light_colour(s, g) != kRed;
      for (int g = 3; g < 5; ++g) active1 += light_colour(s, g) != kRed;
      CHECK(active0 <= 1 && active1 <= 1);
      LightColour now = light_colour(s, 0);
      if (since >= 0.0f) since += dt;
      if (now == last) continue;
      CHECK((last == kGreen && now == kYellow) || (last == kYellow && now == kRed) ||
            (last == kRed && now == kGreen));
      if (since >= 0.0f) {
        double expected = last == kGreen ? s.green_s : last == kYellow ? s.yellow_s : 2 * period + s.red_s;
        CHECK(std::fabs(since - expected) < 0.02f);
        ++changes;
      }
      since = 0.0f;
      last = now;
    }
    CHECK(changes >= 5);
  }
}

TEST(driving_lights_removal_rates) {
  LightLayout layout = two_junctions();
  LightConfig cfg;  // the rates: 0.2, 0.2, 0.2, 0.05
  Rng rng;
  rng_seed(rng, 11, 0);
  const int episodes = 20000;
  int without = 0, lit_episodes = 0, group_removed = 0, light_removed = 0, stuck = 0, kept_groups = 0;
  LightState s;
  for (int e = 0; e < episodes; ++e) {
    reset_lights(s, layout, cfg, rng);
    if (!s.enabled) {
      ++without;
      for (int g = 0; g < 5; ++g) CHECK_EQ(light_colour(s, g), kNone);
      continue;
    }
    ++lit_episodes;
    for (int g = 0; g < 5; ++g) {
      group_removed += s.group_removed[g];
      if (s.group_removed[g]) CHECK_EQ(light_colour(s, g), kNone);
      else ++kept_groups, stuck += s.group_stuck[g];
    }
    for (int l = 0; l < 5; ++l) {
      light_removed += s.light_removed[l];
      if (s.light_removed[l]) CHECK_EQ(light_colour_of_light(s, layout, l), kNone);
    }
  }
  // Fixed seed; the tolerances are over 5 standard deviations.
  CHECK(std::fabs(without / double(episodes) - 0.2) < 0.015);
  CHECK(std::fabs(group_removed / (5.0 * lit_episodes) - 0.2) < 0.01);
  CHECK(std::fabs(light_removed / (5.0 * lit_episodes) - 0.2) < 0.01);
  CHECK(std::fabs(stuck / double(kept_groups) - 0.05) < 0.006);
}

TEST(driving_lights_stuck_green_stays_green) {
  LightLayout layout = two_junctions();
  LightConfig cfg = no_removals();
  cfg.p_stuck_green = 1.0f;
  Rng rng;
  rng_seed(rng, 5, 0);
  LightState s;
  reset_lights(s, layout, cfg, rng);
  for (int step = 0; step < 2000; ++step) {
    advance_lights(s, layout, 0.1f);
    for (int g = 0; g < 5; ++g) CHECK_EQ(light_colour(s, g), kGreen);
  }
}

TEST(driving_lights_removed_group_keeps_its_turn) {
  LightLayout layout = two_junctions();
  LightConfig cfg = no_removals();
  Rng a, b;
  rng_seed(a, 9, 0);
  rng_seed(b, 9, 0);
  LightState full, removed;
  reset_lights(full, layout, cfg, a);
  reset_lights(removed, layout, cfg, b);
  removed.group_removed[1] = 1;
  for (int step = 0; step < 1000; ++step) {
    advance_lights(full, layout, 0.05f);
    advance_lights(removed, layout, 0.05f);
    CHECK_EQ(light_colour(removed, 1), kNone);
    CHECK_EQ(light_colour(removed, 0), light_colour(full, 0));
    CHECK_EQ(light_colour(removed, 2), light_colour(full, 2));
  }
}

TEST(driving_lights_layout_errors) {
  LightLayout l = two_junctions();
  l.group_junction[2] = 5;
  CHECK_THROWS(build_light_layout(l), "group 2 names junction 5");
  LightLayout m = two_junctions();
  m.light_group[0] = 9;
  CHECK_THROWS(build_light_layout(m), "light 0 names group 9");
}

TEST(driving_stop_line_violation_by_hand) {
  // Stop line x = 0 for y in [-2, 2]; the lane runs along +x.
  Vec2 a{0.0f, -2.0f}, b{0.0f, 2.0f};
  Vec2 before{-0.3f, 0.5f}, after{0.4f, 0.5f};
  CHECK(crossed_stop_line(before, after, a, b, 0.0f));
  CHECK(stop_line_violation(kRed, before, after, a, b, 0.0f));
  CHECK(!stop_line_violation(kYellow, before, after, a, b, 0.0f));
  CHECK(!stop_line_violation(kGreen, before, after, a, b, 0.0f));
  CHECK(!stop_line_violation(kNone, before, after, a, b, 0.0f));
  // Outside the segment's extent (the next lane over, y = 3).
  CHECK(!stop_line_violation(kRed, {-0.3f, 3.0f}, {0.4f, 3.0f}, a, b, 0.0f));
  // Against the lane: from beyond to behind, and crossing -x on a lane heading -x reversed.
  CHECK(!stop_line_violation(kRed, after, before, a, b, 0.0f));
  CHECK(!stop_line_violation(kRed, before, after, a, b, 3.14159265f));
  // Already beyond, or still behind: no crossing this step.
  CHECK(!stop_line_violation(kRed, {0.1f, 0.0f}, {0.5f, 0.0f}, a, b, 0.0f));
  CHECK(!stop_line_violation(kRed, {-0.9f, 0.0f}, {-0.1f, 0.0f}, a, b, 0.0f));
  // The segment's orientation (a <-> b) does not matter; the lane's heading does.
  CHECK(stop_line_violation(kRed, before, after, b, a, 0.0f));
  // A line across a +y lane, crossed diagonally but with the lane.
  CHECK(stop_line_violation(kRed, {0.0f, 9.8f}, {0.3f, 10.2f}, {-2.0f, 10.0f}, {2.0f, 10.0f}, 1.5707963f));
}
