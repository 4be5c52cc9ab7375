// The driving map: quads and localisation on constructed layouts (a straight two-lane
// road, an L-shaped pair of lanes, an overpass), the seam tolerance, out-of-bounds points,
// routing distances, input checks, and a throughput print for localise.
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "driving/map.h"
#include "driving/routing.h"
#include "tests/check.h"

using namespace trackfield::driving;

namespace {

struct LaneSpec {
  std::vector<std::array<double, 3>> points;
  double width = 3.5;
  std::vector<int> successors;
  int left = -1, right = -1;
};

// Points every `step` metres (ends included) from (x0, y0) to (x1, y1) at height z.
std::vector<std::array<double, 3>> line(double x0, double y0, double x1, double y1, double z = 0.0,
                                        double step = 1.0) {
  const int n = std::max(1, static_cast<int>(std::ceil(std::hypot(x1 - x0, y1 - y0) / step - 1e-9)));
  std::vector<std::array<double, 3>> out;
  for (int i = 0; i <= n; ++i) out.push_back({x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n, z});
  return out;
}

Map map_input(const std::vector<LaneSpec>& lanes) {
  Map m;
  m.lane_offsets.push_back(0);
  m.successor_offsets.push_back(0);
  for (const auto& l : lanes) {
    for (const auto& p : l.points) {
      m.px.push_back(p[0]), m.py.push_back(p[1]), m.pz.push_back(p[2]);
      m.width.push_back(l.width);
    }
    m.lane_offsets.push_back(static_cast<int64_t>(m.px.size()));
    for (int s : l.successors) m.successors.push_back(s);
    m.successor_offsets.push_back(static_cast<int64_t>(m.successors.size()));
    m.left.push_back(l.left), m.right.push_back(l.right), m.junction.push_back(-1);
    m.speed_limit.push_back(13.9f);
  }
  return m;
}

Map build(const std::vector<LaneSpec>& lanes) {
  Map m = map_input(lanes);
  build_map(m);
  return m;
}

// Two same-direction lanes along +x, 50 m: lane 0 centred on y = 0, lane 1 (its left) on y = 3.5.
Map two_lane_road() {
  return build({{line(0, 0, 50, 0), 3.5, {}, 1, -1}, {line(0, 3.5, 50, 3.5), 3.5, {}, -1, 0}});
}

// Lane 0 east from (0, 0) to (20, 0), then lane 1 north from (20, 0) to (20, 20).
Map l_shape() { return build({{line(0, 0, 20, 0), 3.5, {1}}, {line(20, 0, 20, 20), 3.5, {}}}); }

bool near(double a, double b, double tol = 1e-4) { return std::fabs(a - b) <= tol; }

}  // namespace

TEST(driving_map_quads_share_edges) {
  Map m = two_lane_road();
  CHECK_EQ(m.quad_count, 100);
  CHECK_EQ(m.lane_count, 2);
  CHECK(near(m.lane_length[0], 50.0));
  // Quad 3's end edge is quad 4's start edge (corners: right start, right end, left end, left start).
  CHECK_EQ(m.corner_x[4 * 3 + 1], m.corner_x[4 * 4 + 0]);
  CHECK_EQ(m.corner_y[4 * 3 + 2], m.corner_y[4 * 4 + 3]);
  CHECK(near(m.corner_y[4 * 3 + 2], 1.75) && near(m.corner_y[4 * 3 + 1], -1.75));
}

TEST(driving_map_localise_straight_road) {
  Map m = two_lane_road();
  LanePos p = localise(m, 10.3, 0.5, 0.0, -1);
  CHECK(p.on_road);
  CHECK_EQ(p.lane, 0);
  CHECK(near(p.s, 10.3) && near(p.d, 0.5) && near(p.heading, 0.0) && near(p.half_width, 1.75));
  p = localise(m, 33.0, 4.0, 0.0, -1);
  CHECK_EQ(p.lane, 1);
  CHECK(near(p.s, 33.0) && near(p.d, 0.5));
  // Where the two lanes' quads overlap (within the seam tolerance) the smaller |d| wins.
  p = localise(m, 10.0, 1.70, 0.0, -1);
  CHECK_EQ(p.lane, 0);
  CHECK(near(p.d, 1.70));
  p = localise(m, 10.0, 1.80, 0.0, 7);
  CHECK_EQ(p.lane, 1);
  CHECK(near(p.d, -1.70));
  // Off the road: the nearest quad, flagged off-road.
  p = localise(m, 10.5, -4.0, 0.0, -1);
  CHECK(!p.on_road);
  CHECK_EQ(p.lane, 0);
  CHECK(near(p.d, -4.0));
  CHECK_EQ(localise(m, 10.0, -40.0, 0.0, -1).lane, -1);
}

TEST(driving_map_localise_l_shape) {
  Map m = l_shape();
  LanePos p = localise(m, 5.5, -1.0, 0.0, -1);
  CHECK_EQ(p.lane, 0);
  CHECK(near(p.s, 5.5) && near(p.d, -1.0));
  p = localise(m, 20.3, 10.0, 0.0, -1);
  CHECK_EQ(p.lane, 1);
  CHECK(near(p.s, 10.0) && near(p.d, -0.3) && near(p.heading, M_PI / 2));
  // In the corner both lanes' end quads overlap: lane 1 is nearer its centre line.
  p = localise(m, 19.8, 0.3, 0.0, -1);
  CHECK_EQ(p.lane, 1);
  CHECK(near(p.d, 0.2) && near(p.s, 0.3));
  p = localise(m, 19.3, 0.1, 0.0, -1);
  CHECK_EQ(p.lane, 0);
  CHECK(near(p.d, 0.1));
}

TEST(driving_map_seam_tolerance) {
  // A straight road in two consecutive lanes: the seam is at x = 20, the right edge at y = -1.75.
  Map m = build({{line(0, 0, 20, 0), 3.5, {1}}, {line(20, 0, 40, 0), 3.5, {}}});
  CHECK(point_on_road(m, 20.0, -1.85, 0.0));   // 10 cm beyond the edge: forgiven
  CHECK(!point_on_road(m, 20.0, -2.05, 0.0));  // 30 cm beyond: off
  CHECK(localise(m, 20.0, -1.85, 0.0, -1).on_road);
  CHECK(!localise(m, 20.0, -2.05, 0.0, -1).on_road);
  // Same at the seam between two side-by-side lanes (the two-lane road's left edge).
  Map two = two_lane_road();
  CHECK(point_on_road(two, 25.0, 5.35, 0.0));
  CHECK(!point_on_road(two, 25.0, 5.55, 0.0));
  // A car-sized box: on the road, then its corner 30 cm over the edge.
  CHECK(!box_off_road(m, 20.0, 0.0, 0.0, 0.0, 4.5, 1.8));
  CHECK(!box_off_road(m, 20.0, -0.75, 0.0, 0.0, 4.5, 1.8));
  CHECK(box_off_road(m, 20.0, -1.15, 0.0, 0.0, 4.5, 1.8));
}

TEST(driving_map_paved_quads_are_road_but_not_lanes) {
  // The two roads of the gap test below, the 1 m gap between them (y = 1.5 .. 2.5) paved
  // from x = 5 to 25 by one quad (corners anticlockwise).
  Map m = map_input({{line(0, 0, 30, 0), 3.0, {}}, {line(30, 4, 0, 4), 3.0, {}}});
  m.paved_corners = {5, 1.5, 0, 25, 1.5, 0, 25, 2.5, 0, 5, 2.5, 0};
  build_map(m);
  CHECK_EQ(m.paved_count, 1);
  CHECK(point_on_road(m, 10.0, 2.0, 0.0) && point_on_paved(m, 10.0, 2.0, 0.0));
  CHECK(!point_on_road(m, 10.0, 2.0, 6.0));               // another level
  CHECK(!point_on_road(m, 28.0, 2.0, 0.0));               // the gap beyond the paving
  const LanePos p = localise(m, 10.0, 2.0, 0.0, -1);      // never a lane
  CHECK(!p.on_road && p.lane >= 0);
  // A box across the paved gap is on the road; no out-of-bounds point lies on the paving.
  CHECK(!box_off_road(m, 10.2, 1.0, 0.0, M_PI / 2, 5.0, 1.0));
  CHECK(box_off_road(m, 28.0, 1.0, 0.0, M_PI / 2, 5.0, 1.0));
  for (size_t k = 0; k < m.oob_x.size(); ++k) CHECK(!point_on_road(m, m.oob_x[k], m.oob_y[k], m.oob_z[k]));
  // Clockwise corners are refused, naming the quad.
  Map bad = map_input({{line(0, 0, 30, 0), 3.0, {}}});
  bad.paved_corners = {5, 2, 0, 5, 3, 0, 25, 3, 0, 25, 2, 0};
  bool threw = false;
  try {
    build_map(bad);
  } catch (const std::invalid_argument& e) {
    threw = std::string(e.what()).find("paved_corners[0]") != std::string::npos;
  }
  CHECK(threw);
}

TEST(driving_map_out_of_bounds_points_catch_a_gap) {
  // Two single-lane roads 3 m wide whose edges are 1 m apart (y = 1.5 and y = 2.5).
  Map m = build({{line(0, 0, 30, 0), 3.0, {}}, {line(30, 4, 0, 4), 3.0, {}}});
  CHECK(!m.oob_x.empty());
  for (size_t k = 0; k < m.oob_x.size(); ++k) CHECK(!point_on_road(m, m.oob_x[k], m.oob_y[k], m.oob_z[k]));
  // Across the gap: centre and all four corners are on a road, the box is not.
  const double x = 10.2, y = 1.0, heading = M_PI / 2, length = 5.0, width = 1.0;
  CHECK(point_on_road(m, x, y, 0) && point_on_road(m, x, y - 2.5, 0) && point_on_road(m, x, y + 2.5, 0));
  CHECK(box_off_road(m, x, y, 0.0, heading, length, width));
  CHECK(!box_off_road(m, x, 0.0, 0.0, heading, 2.5, 1.0));  // the same box, shorter, on road 0
}

TEST(driving_map_overpass_levels) {
  // Lane 0 along x at z = 0, lane 1 along y crossing over it at z = 6.
  Map m = build({{line(0, 0, 40, 0, 0.0), 3.5, {}}, {line(20, -20, 20, 20, 6.0), 3.5, {}}});
  LanePos low = localise(m, 20.2, 0.4, 0.0, -1), high = localise(m, 20.2, 0.4, 6.0, -1);
  CHECK_EQ(low.lane, 0);
  CHECK_EQ(high.lane, 1);
  CHECK(near(high.z, 6.0));
  // The upper lane's edge points are not hidden by the lower road.
  CHECK(!box_off_road(m, 20.0, 5.0, 6.0, M_PI / 2, 4.5, 1.8));
  CHECK(box_off_road(m, 25.0, 0.0, 6.0, 0.0, 4.5, 1.8));  // lower road, upper level: off
}

TEST(driving_routing_distances) {
  // 0 -> 1 -> 2, 10 m each; lane 3 is isolated; lane 4 is lane 0's left neighbour.
  Map m = build({{line(0, 0, 10, 0), 3.5, {1}, 4},
                 {line(10, 0, 20, 0), 3.5, {2}},
                 {line(20, 0, 30, 0), 3.5, {}},
                 {line(0, 50, 10, 50), 3.5, {}},
                 {line(0, 3.5, 10, 3.5), 3.5, {}, -1, 0}});
  CHECK(near(route_distance(m, 0, 0.0f, 2, 5.0f), 25.0));
  float last = 1e9f;
  for (float s = 0; s <= 10.0f; s += 1.0f) {  // falls as the car drives along the route
    const float d = route_distance(m, 0, s, 2, 5.0f);
    CHECK(d < last);
    last = d;
  }
  CHECK(near(route_distance(m, 1, 4.0f, 2, 0.0f), 6.0));
  CHECK(near(route_distance(m, 2, 3.0f, 2, 7.0f), 4.0));
  CHECK(std::isinf(route_distance(m, 2, 7.0f, 2, 3.0f)));  // behind, no loop back
  CHECK(std::isinf(route_distance(m, 0, 0.0f, 3, 1.0f)));
  CHECK(std::isinf(route_distance(m, 2, 0.0f, 0, 1.0f)));
  CHECK(near(route_distance(m, 0, 2.0f, 4, 5.0f), 3.0 + kLaneChangeCost));  // a lane change
  CHECK(near(route_distance(m, 4, 2.0f, 1, 5.0f), 8.0 + kLaneChangeCost + 5.0));
}

TEST(driving_map_rejects_bad_input) {
  std::vector<LaneSpec> lanes = {{line(0, 0, 10, 0), 3.5, {1}}, {line(10, 0, 20, 0), 3.5, {}}};
  Map m = map_input(lanes);
  m.successors[0] = 5;
  CHECK_THROWS(build_map(m), "successors[0]");
  m = map_input(lanes);
  m.width[3] = -1.0;
  CHECK_THROWS(build_map(m), "widths[3]");
  m = map_input(lanes);
  m.py[2] = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS(build_map(m), "points");
  m = map_input(lanes);
  m.left[1] = 2;
  CHECK_THROWS(build_map(m), "left[1]");
  m = map_input(lanes);
  m.lane_offsets[1] = 1;  // a one-point lane
  CHECK_THROWS(build_map(m), "lane_offsets");
  m = map_input(lanes);
  m.speed_limit.pop_back();
  CHECK_THROWS(build_map(m), "speed_limits");
}

TEST(driving_map_localise_throughput) {
  // A grid of 20 x 20 two-way streets 50 m apart, 1 km long: 80 lanes, 80 k quads.
  std::vector<LaneSpec> lanes;
  for (int k = 0; k < 20; ++k) {
    const double c = 50.0 * k;
    lanes.push_back({line(0, c, 1000, c), 3.5, {}});
    lanes.push_back({line(1000, c + 3.5, 0, c + 3.5), 3.5, {}});
    lanes.push_back({line(c, 0, c, 1000), 3.5, {}});
    lanes.push_back({line(c + 3.5, 1000, c + 3.5, 0), 3.5, {}});
  }
  Map m = build(lanes);
  const int n = 200000;
  double sink = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    const double x = std::fmod(i * 7.31, 1000.0), y = 50.0 * (i % 20) + std::fmod(i * 0.37, 3.0);
    sink += localise(m, x, y, 0.0, -1).s;
  }
  auto t1 = std::chrono::steady_clock::now();
  for (int i = 0; i < n / 4; ++i) sink += box_off_road(m, std::fmod(i * 7.31, 1000.0), 50.0 * (i % 20), 0.0, 0.1, 4.5, 1.8);
  auto t2 = std::chrono::steady_clock::now();
  const double s1 = std::chrono::duration<double>(t1 - t0).count(), s2 = std::chrono::duration<double>(t2 - t1).count();
  std::printf("      localise: %.2f M/s, box_off_road: %.2f M/s (%d quads, checksum %.0f)\n", n / s1 / 1e6,
              n / 4 / s2 / 1e6, m.quad_count, sink);
}
