// The racing track: checks in finalize(), projection (with and without a hint) against
// brute force, point_at/project round trips, wrap_ds, and the hint at a crossing.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>

#include "common/rng.h"
#include "racing/track.h"
#include "tests/check.h"

using namespace trackfield;
using namespace trackfield::racing;

namespace {

constexpr float kPi = 3.14159265358979f;

Track circle_track(float radius, int n) {
  Track t;
  t.name = "circle";
  for (int i = 0; i < n; ++i) {
    float a = 2 * kPi * i / n;
    t.x.push_back(radius * std::cos(a));
    t.y.push_back(radius * std::sin(a));
    t.width_left.push_back(5), t.width_right.push_back(6);
    t.z.push_back(0.5f * i);  // a ramp, so interpolation is visible
  }
  t.finalize();
  return t;
}

// A long thin rectangle: two straights joined by sharp ends, travelled anticlockwise.
Track stadium_track() {
  Track t;
  t.name = "stadium";
  auto add = [&](float x, float y) { t.x.push_back(x), t.y.push_back(y); };
  for (int i = 0; i < 100; ++i) add(2.0f * i, 0.0f);
  for (int i = 0; i < 10; ++i) add(200.0f, 5.0f * i);
  for (int i = 0; i < 100; ++i) add(200.0f - 2.0f * i, 50.0f);
  for (int i = 0; i < 10; ++i) add(0.0f, 50.0f - 5.0f * i);
  t.width_left.assign(t.x.size(), 4), t.width_right.assign(t.x.size(), 4);
  t.finalize();
  return t;
}

// A figure of eight (lemniscate of Gerono): the line crosses itself at the origin.
Track eight_track(int n) {
  Track t;
  t.name = "eight";
  for (int i = 0; i < n; ++i) {
    float a = 2 * kPi * i / n + 0.01f;  // offset so no point sits exactly on the crossing
    t.x.push_back(300 * std::sin(a));
    t.y.push_back(150 * std::sin(a) * std::cos(a));
    t.width_left.push_back(6), t.width_right.push_back(6);
    t.z.push_back(std::cos(a) > 0 ? 8.0f : 0.0f);  // the a ~ 0 branch runs over the bridge
  }
  t.bridge = true;
  t.finalize();
  return t;
}

int brute_force_segment(const Track& t, Vec2 p) {
  int best = 0;
  float best_sq = INFINITY;
  for (int i = 0; i < t.n; ++i) {
    Vec2 a{t.x[i], t.y[i]}, b{t.x[(i + 1) % t.n], t.y[(i + 1) % t.n]};
    float u = clampf(dot(p - a, b - a) / length_sq(b - a), 0, 1);
    float d_sq = distance_sq(p, a + (b - a) * u);
    if (d_sq < best_sq) best_sq = d_sq, best = i;
  }
  return best;
}

float segment_distance(const Track& t, int i, Vec2 p) {
  Vec2 a{t.x[i], t.y[i]}, b{t.x[(i + 1) % t.n], t.y[(i + 1) % t.n]};
  float u = clampf(dot(p - a, b - a) / length_sq(b - a), 0, 1);
  return distance(p, a + (b - a) * u);
}

}  // namespace

TEST(track_finalize_computes_length_and_tangents) {
  Track t = circle_track(100, 360);
  CHECK(std::fabs(t.length - 2 * 360 * 100 * std::sin(kPi / 360)) < 0.05f);
  CHECK(t.s[0] == 0.0f && std::fabs(t.s[180] - t.length / 2) < 0.05f);
  CHECK(std::fabs(t.tangent_x[0]) < 0.01f && std::fabs(t.tangent_y[0] - 1) < 0.001f);
  CHECK(!t.grid_start.empty() && t.grid_start.back() >= t.n);
}

TEST(track_finalize_rejects_bad_arrays_naming_them) {
  Track t = circle_track(50, 40);
  Track bad = t;
  bad.s.clear(), bad.tangent_x.clear(), bad.tangent_y.clear();
  bad.width_left.pop_back();
  CHECK_THROWS(bad.finalize(), "width_left has 39 entries");
  bad = t;
  bad.width_right[3] = 0;
  CHECK_THROWS(bad.finalize(), "width_right[3] must be > 0");
  bad = t;
  bad.z[7] = NAN;
  CHECK_THROWS(bad.finalize(), "z[7] is not finite");
  bad = t;
  bad.section[2] = 0;  // no names
  CHECK_THROWS(bad.finalize(), "section[2]");
  bad = t;
  bad.wall_distance = 0.5f;
  CHECK_THROWS(bad.finalize(), "wall_distance");
  bad = t;
  bad.s.clear(), bad.x[5] = bad.x[4], bad.y[5] = bad.y[4];
  CHECK_THROWS(bad.finalize(), "points 4 and 5 coincide");
  bad = Track{};
  CHECK_THROWS(bad.finalize(), "at least 4 points");
}

TEST(track_projection_without_hint_equals_brute_force) {
  Track tracks[] = {circle_track(80, 100), stadium_track(), eight_track(400)};
  Rng rng;
  rng_seed(rng, 3, 0);
  for (const Track& t : tracks) {
    for (int q = 0; q < 2000; ++q) {
      Vec2 p{rng_range(rng, -400, 400), rng_range(rng, -200, 200)};
      TrackPos pos = project(t, p, -1);
      int expected = brute_force_segment(t, p);
      // Ties (equidistant segments) may pick either, and the foot along interpolated
      // normals may sit on a neighbour of the nearest segment; a few neighbours away
      // when p is farther out than the radius of curvature, where normals fan apart.
      int gap = std::abs(pos.segment - expected);
      gap = std::min(gap, t.n - gap);
      float nearest = segment_distance(t, expected, p);
      bool tie = std::fabs(segment_distance(t, pos.segment, p) - nearest) < 1e-3f;
      if (!(tie || gap <= (nearest < 10.0f ? 1 : 3))) std::printf("%s p=(%g,%g) seg %d vs %d nearest %g\n", t.name.c_str(), p.x, p.y, pos.segment, expected, nearest);
      CHECK(tie || gap <= (nearest < 10.0f ? 1 : 3));
    }
  }
}

TEST(track_point_at_and_project_round_trip) {
  Track t = circle_track(100, 200);
  for (float s = 0; s < t.length; s += 7.3f) {
    for (float d : {-5.0f, -1.0f, 0.0f, 2.5f, 5.0f}) {
      Vec2 p = point_at(t, s, d);
      TrackPos pos = project(t, p, -1);
      CHECK(std::fabs(wrap_ds(t, pos.s, s)) < 0.05f);
      CHECK(std::fabs(pos.d - d) < 0.01f);
      TrackPos hinted = project(t, p, (pos.segment + 3) % t.n);
      CHECK(hinted.segment == pos.segment);
    }
  }
  // Interpolated fields: widths, z ramp, heading along the circle (tangent + 90 deg).
  TrackPos pos = project(t, point_at(t, t.s[10] + 0.5f * segment_length(t, 10), 1.0f), 10);
  CHECK_EQ(pos.segment, 10);
  CHECK(std::fabs(pos.width_left - 5) < 1e-5f && std::fabs(pos.width_right - 6) < 1e-5f);
  CHECK(std::fabs(pos.z - 5.25f) < 1e-4f);
  float expected_heading = 2 * kPi * 10.5f / 200 + kPi / 2;
  CHECK(std::fabs(pos.heading - expected_heading) < 1e-3f);
  CHECK(pos.d > 0);  // inside a left-turning circle is left of travel
  CHECK(in_bounds(t, pos, pos.d) && !in_bounds(t, pos, 6.1f) && !in_bounds(t, pos, -7.1f));
}

TEST(track_point_at_wraps_and_wrap_ds_is_signed) {
  Track t = stadium_track();
  Vec2 a = point_at(t, t.length + 10, 0), b = point_at(t, 10, 0);
  CHECK(distance(a, b) < 1e-3f);
  Vec2 c = point_at(t, -10, 0), e = point_at(t, t.length - 10, 0);
  CHECK(distance(c, e) < 1e-2f);
  CHECK(std::fabs(wrap_ds(t, 5, t.length - 5) - 10) < 1e-3f);
  CHECK(std::fabs(wrap_ds(t, t.length - 5, 5) + 10) < 1e-3f);
  CHECK(std::fabs(wrap_ds(t, 100, 40) - 60) < 1e-3f);
  // Right of travel on the bottom straight (travel +x) is -y, and d is negative there.
  TrackPos pos = project(t, {50, -3}, -1);
  CHECK(std::fabs(pos.d + 3) < 1e-4f && std::fabs(pos.s - 50) < 1e-4f);
}

TEST(track_hint_keeps_the_level_at_a_crossing) {
  Track t = eight_track(800);
  // Drive each branch through the crossing with hints: s must advance smoothly and
  // z must stay on that branch's level although the other branch is just as near.
  for (int start : {780, 380}) {
    int hint = start;
    float last_s = t.s[start];
    float level = t.z[start];
    for (int k = 0; k < 40; ++k) {
      int i = (start + k) % t.n;
      Vec2 p = point_at(t, t.s[i] + 0.3f, 0.4f);
      TrackPos pos = project(t, p, hint);
      CHECK(std::fabs(wrap_ds(t, pos.s, last_s)) < 5.0f);
      CHECK_EQ(pos.z, level);
      last_s = pos.s, hint = pos.segment;
    }
  }
}

TEST(track_stale_hint_falls_back_to_global_search) {
  Track t = stadium_track();
  // From segment 0 the distance to (180, 50) keeps falling for 90 segments along the
  // bottom straight: past the window, so the global search answers (the top straight).
  TrackPos pos = project(t, {180, 50}, 0);
  CHECK(std::fabs(pos.s - (200 + 50 + 20)) < 1e-3f);
  CHECK(std::fabs(pos.d) < 1e-4f);
}

TEST(track_projection_cost) {
  // Not a timed assertion: prints ns per call so regressions are visible in the log.
  Track t = circle_track(600, 1900);
  Rng rng;
  rng_seed(rng, 1, 0);
  const int n = 200000;
  std::vector<Vec2> pts(n);
  for (int i = 0; i < n; ++i) pts[i] = point_at(t, t.length * i / n, rng_range(rng, -8, 8));
  float sink = 0;
  auto t0 = std::chrono::steady_clock::now();
  int hint = 0;
  for (int i = 0; i < n; ++i) {
    TrackPos pos = project(t, pts[i], hint);
    hint = pos.segment, sink += pos.d;
  }
  auto t1 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) sink += project(t, pts[i], -1).d;
  auto t2 = std::chrono::steady_clock::now();
  double hinted = std::chrono::duration<double, std::nano>(t1 - t0).count() / n;
  double global = std::chrono::duration<double, std::nano>(t2 - t1).count() / n;
  std::printf("      project: %.1f ns with hint, %.1f ns without (sink %g)\n", hinted, global, sink);
  CHECK(std::isfinite(sink));
}
