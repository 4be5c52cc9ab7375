// The map's precomputed observation sets (map_sets.h) on a constructed straight road, and
// the hinted localise / off-road search (rivals) against a brute force over every quad.
#include <algorithm>
#include <cmath>
#include <vector>

#include "common/rng.h"
#include "driving/map.h"
#include "tests/check.h"

using namespace trackfield;
using namespace trackfield::driving;

namespace {

void add_lane(Map& m, double x0, double y0, double x1, double y1, int left, int right) {
  const int n = static_cast<int>(std::ceil(std::hypot(x1 - x0, y1 - y0)));
  for (int i = 0; i <= n; ++i) {
    m.px.push_back(x0 + (x1 - x0) * i / n), m.py.push_back(y0 + (y1 - y0) * i / n), m.pz.push_back(0.0);
    m.width.push_back(3.5);
  }
  m.lane_offsets.push_back(static_cast<int64_t>(m.px.size()));
  m.successor_offsets.push_back(static_cast<int64_t>(m.successors.size()));
  m.left.push_back(left), m.right.push_back(right), m.junction.push_back(-1), m.speed_limit.push_back(13.9f);
}

// Two same-direction 400 m lanes along +x (y = 0 and 3.5) between boundaries at y = -1.75
// and 5.25, and a 60 m lane crossing them at x = 200 (a junction-like overlap).
Map straight_road() {
  Map m;
  m.lane_offsets.push_back(0), m.successor_offsets.push_back(0);
  add_lane(m, 0, 0, 400, 0, 1, -1);
  add_lane(m, 0, 3.5, 400, 3.5, -1, 0);
  add_lane(m, 200, -30, 200, 30, -1, -1);
  m.boundary_offsets = {0, 2, 4};
  m.boundary_points = {0, -1.75, 0, 400, -1.75, 0, 0, 5.25, 0, 400, 5.25, 0};
  build_map(m);
  return m;
}

}  // namespace

TEST(driving_map_sets_samples_follow_the_rules) {
  Map m = straight_road();
  const MapSets& s = m.sets;
  // 400 m lanes: ten 40 m pieces, sampled at their middles; the 60 m lane: two 30 m pieces.
  CHECK_EQ(static_cast<int>(s.lane_x.size()), 10 + 10 + 2);
  for (int k = 0; k < 10; ++k) CHECK(std::fabs(s.lane_x[k] - (20.0f + 40.0f * k)) < 1e-3f && s.lane_y[k] == 0.0f);
  CHECK(std::fabs(s.lane_y[20] - (-15.0f)) < 1e-3f && std::fabs(s.lane_y[21] - 15.0f) < 1e-3f);
  // Boundaries every metre, both ends included (401 samples each).
  CHECK_EQ(static_cast<int>(s.bnd_x.size()), 802);
  CHECK(s.bnd_x[1] == 1.0f && s.bnd_x[400] == 400.0f && s.bnd_y[401] == 5.25f);
  // Groups of 4 m of lane; sets nearest to the group centre first, within their radii.
  CHECK_EQ(s.group_count() + 1, static_cast<int>(s.lane_set_offsets.size()));
  for (int g = 0; g < s.group_count(); ++g) {
    const int b = s.bnd_set_offsets[g], e = s.bnd_set_offsets[g + 1];
    CHECK(e - b <= kSetBoundaryPoints);
    float last = 0.0f;
    for (int k = b; k < e; ++k) {
      const float d = std::hypot(s.bnd_x[s.bnd_set[k]] - s.group_x[g], s.bnd_y[s.bnd_set[k]] - s.group_y[g]);
      CHECK(d >= last - 1e-4f && d <= kSetBoundaryRadius);
      last = d;
    }
    CHECK(s.lane_set_offsets[g + 1] - s.lane_set_offsets[g] <= kSetLanePoints);
  }
  // Quad 100 of lane 0 starts at s = 100: group 25 of the lane, centred at x = 102.
  const int g = s.quad_group[100];
  CHECK(std::fabs(s.group_x[g] - 102.0f) < 1e-3f && s.group_y[g] == 0.0f);
  CHECK_EQ(s.quad_group[101], g);
  CHECK(s.quad_group[104] == g + 1);
  // Transposed routing table.
  const int L = m.lane_count;
  for (int a = 0; a < L; ++a)
    for (int b = 0; b < L; ++b) CHECK(s.route_to[b * L + a] == m.route_table[a * L + b] ||
                                      (std::isinf(s.route_to[b * L + a]) && std::isinf(m.route_table[a * L + b])));
}

// The selection rule of map.h over every quad, in id order: the holding quad with the
// least |d|, the hint winning ties. The engine scans fewer quads and must agree exactly.
int brute_force_quad(const Map& m, double x, double y, int hint) {
  int best = -1;
  float best_abs_d = 1e30f;
  for (int q = 0; q < m.quad_count; ++q) {
    if (quad_distance(m, q, static_cast<float>(x), static_cast<float>(y)) > kSeamTolerance) continue;
    const int p = m.quad_point[q];
    const float dx = static_cast<float>(x - m.px[p]), dy = static_cast<float>(y - m.py[p]);
    const float ad = std::fabs(m.quad_tx[q] * dy - m.quad_ty[q] * dx);
    if (ad > best_abs_d || (ad == best_abs_d && q != hint)) continue;
    best = q, best_abs_d = ad;
  }
  return best;
}

TEST(driving_map_hinted_search_matches_brute_force) {
  Map m = straight_road();
  Rng rng;
  rng_seed(rng, 7, 0);
  int on_road = 0, off = 0;
  for (int i = 0; i < 4000; ++i) {
    const double x = 190.0 + 20.0 * rng_uniform(rng), y = -4.0 + 12.0 * rng_uniform(rng);
    const int hint = static_cast<int>(rng_next_u32(rng) % static_cast<uint32_t>(m.quad_count));
    const LanePos hinted = localise(m, x, y, 0.0, hint), plain = localise(m, x, y, 0.0, -1);
    const int want = brute_force_quad(m, x, y, hint);
    if (want >= 0) {
      ++on_road;
      CHECK(hinted.on_road);
      CHECK_EQ(hinted.quad, want);
      CHECK_EQ(plain.quad, brute_force_quad(m, x, y, -1));
    } else {
      CHECK(!hinted.on_road && hinted.quad == plain.quad);
    }
    const double heading = 6.283 * rng_uniform(rng);
    const bool a = box_off_road(m, x, y, 0.0, heading, 4.5, 1.8, hint);
    const bool b = box_off_road(m, x, y, 0.0, heading, 4.5, 1.8, -1);
    CHECK(a == b);
    off += a;
  }
  CHECK(on_road > 1000 && off > 500 && off < 3500);
}
