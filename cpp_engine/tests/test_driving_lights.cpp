// Driving traffic lights: phases, order and durations, the red cap, removals at their rates,
// stuck green, fixed timings, and stop-line violations checked by hand.
#include <cmath>
#include <vector>

#include "driving/lights.h"
#include "tests/check.h"

using namespace trackfield;
using namespace trackfield::driving;

namespace {

constexpr float kPi = 3.14159265f;

// Two junctions: junction 0 with three groups (0, 1, 2) whose lanes head east, north and
// west (0 and 2 face each other: one phase; 1 crosses them), junction 1 with two (3, 4)
// heading east and south. One light per group.
LightLayout two_junctions() {
  LightLayout l;
  l.num_junctions = 2;
  l.group_junction = {0, 0, 0, 1, 1};
  const float heading[5] = {0.0f, kPi / 2, kPi, 0.05f, -kPi / 2};
  for (int g = 0; g < 5; ++g) {
    l.light_group.push_back(g);
    l.stop_line_a.push_back({0.0f, -2.0f});
    l.stop_line_b.push_back({0.0f, 2.0f});
    l.lane_heading.push_back(heading[g]);
  }
  build_light_layout(l);
  return l;
}

LightConfig no_removals() {
  LightConfig c;
  c.p_light_removed = c.p_group_removed = c.p_episode_without_lights = c.p_stuck_green = 0.0f;
  return c;
}

bool active(const LightState& s, int g) { return light_colour(s, g) == kGreen || light_colour(s, g) == kYellow; }

// Lengths of the complete runs of `colour` shown by group g over `seconds` from now.
std::vector<double> runs_of(LightState s, const LightLayout& layout, int g, LightColour colour, double seconds,
                            float dt) {
  std::vector<double> out;
  LightColour last = light_colour(s, g);
  double since = -1.0;
  for (int step = 0; step < static_cast<int>(seconds / dt); ++step) {
    advance_lights(s, layout, dt);
    LightColour now = light_colour(s, g);
    if (since >= 0.0) since += dt;
    if (now == last) continue;
    if (since >= 0.0 && last == colour) out.push_back(since);
    since = 0.0;
    last = now;
  }
  return out;
}

}  // namespace

TEST(driving_lights_phases_pair_facing_approaches) {
  LightLayout layout = two_junctions();
  CHECK_EQ(layout.num_phases(), 4);
  CHECK_EQ(layout.group_phase[0], layout.group_phase[2]);
  CHECK(layout.group_phase[0] != layout.group_phase[1]);
  CHECK(layout.group_phase[3] != layout.group_phase[4]);
  CHECK_EQ(layout.junction_phases[0], 2);
  CHECK_EQ(layout.junction_phases[1], 2);
}

TEST(driving_lights_durations_in_ranges) {
  LightLayout layout = two_junctions();
  LightConfig cfg;
  Rng rng;
  rng_seed(rng, 1, 0);
  LightState s;
  for (int e = 0; e < 2000; ++e) {
    reset_lights(s, layout, cfg, rng);
    for (int p = 0; p < layout.num_phases(); ++p) {
      CHECK(s.phase_yellow_s[p] >= 1.5f - 1e-5f && s.phase_yellow_s[p] <= 2.25f + 1e-5f);
      CHECK(s.phase_green_s[p] >= 1.0f - 1e-5f && s.phase_green_s[p] <= 10.0f);
      // Two phases: green at most 10 s - 2 clearances - yellow, so the other's red is <= 10 s.
      CHECK(s.phase_green_s[p] <= 10.0f - 2 * cfg.clearance_s - s.phase_yellow_s[p] + 1e-4f);
    }
  }
}

TEST(driving_lights_cycle_in_order_crossing_never_together_red_at_most_10s) {
  LightLayout layout = two_junctions();
  LightConfig cfg = no_removals();
  Rng rng;
  rng_seed(rng, 7, 3);
  for (int episode = 0; episode < 50; ++episode) {
    LightState s;
    reset_lights(s, layout, cfg, rng);
    const float dt = 0.01f;
    LightColour last = light_colour(s, 1);
    for (int step = 0; step < static_cast<int>(60.0f / dt); ++step) {
      advance_lights(s, layout, dt);
      // Crossing phases never green or yellow together; facing groups show one colour.
      CHECK(!(active(s, 0) && active(s, 1)) && !(active(s, 2) && active(s, 1)));
      CHECK(!(active(s, 3) && active(s, 4)));
      CHECK_EQ(light_colour(s, 0), light_colour(s, 2));
      LightColour now = light_colour(s, 1);
      if (now != last)
        CHECK((last == kGreen && now == kYellow) || (last == kYellow && now == kRed) ||
              (last == kRed && now == kGreen));
      last = now;
    }
    for (int g = 0; g < 5; ++g) {
      const int p = layout.group_phase[g];
      std::vector<double> reds = runs_of(s, layout, g, kRed, 80.0, dt);
      std::vector<double> greens = runs_of(s, layout, g, kGreen, 80.0, dt);
      std::vector<double> yellows = runs_of(s, layout, g, kYellow, 80.0, dt);
      CHECK(reds.size() >= 2 && greens.size() >= 2);
      for (double r : reds) CHECK(r <= 10.0 + 0.02);
      for (double r : greens) CHECK(std::fabs(r - s.phase_green_s[p]) < 0.02);
      for (double r : yellows) CHECK(std::fabs(r - s.phase_yellow_s[p]) < 0.02);
    }
  }
}

TEST(driving_lights_junctions_and_phases_draw_their_own_timings) {
  LightLayout layout = two_junctions();
  LightConfig cfg = no_removals();
  Rng rng;
  rng_seed(rng, 3, 0);
  LightState s;
  int differ = 0;
  for (int e = 0; e < 100; ++e) {
    reset_lights(s, layout, cfg, rng);
    const int p0 = layout.group_phase[0], p3 = layout.group_phase[3];
    differ += s.phase_green_s[p0] != s.phase_green_s[p3] && s.phase_yellow_s[p0] != s.phase_yellow_s[p3] &&
              s.junction_offset_s[0] != s.junction_offset_s[1];
  }
  CHECK_EQ(differ, 100);
}

TEST(driving_lights_fixed_timings_are_carlas_defaults_without_removals) {
  LightLayout layout = two_junctions();
  LightConfig cfg;  // training removal rates, but fixed timings ignore them
  cfg.randomised = false;
  Rng rng;
  rng_seed(rng, 2, 0);
  LightState s;
  for (int e = 0; e < 200; ++e) {
    reset_lights(s, layout, cfg, rng);
    CHECK_EQ(s.enabled, 1);
    for (int g = 0; g < 5; ++g) CHECK(!s.group_removed[g] && !s.group_stuck[g]);
    for (int l = 0; l < 5; ++l) CHECK(!s.light_removed[l]);
    for (int p = 0; p < layout.num_phases(); ++p)
      CHECK(s.phase_green_s[p] == 10.0f && s.phase_yellow_s[p] == 3.0f);
    CHECK(s.junction_offset_s[0] == 0.0f && s.junction_offset_s[1] == 0.0f);
  }
  // Green 10 s, yellow 3 s, red: the other phase's turn and two 2 s all-reds, 17 s.
  const std::vector<double> greens = runs_of(s, layout, 1, kGreen, 100.0, 0.01f);
  const std::vector<double> reds = runs_of(s, layout, 1, kRed, 100.0, 0.01f);
  CHECK(!greens.empty() && !reds.empty());
  for (double r : greens) CHECK(std::fabs(r - 10.0) < 0.02);
  for (double r : reds) CHECK(std::fabs(r - 17.0) < 0.02);
}

TEST(driving_lights_removal_rates) {
  LightLayout layout = two_junctions();
  LightConfig cfg;  // GIGAFLOW's rates: 0.2, 0.2, 0.2, 0.05
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
