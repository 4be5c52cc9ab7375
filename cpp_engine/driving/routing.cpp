// All-pairs lane-end -> lane-start distances by Dijkstra from every lane (build time only).
#include "driving/routing.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace trackfield::driving {

void build_route_table(Map& m) {
  const int n = m.lane_count;
  if (n > kMaxRoutingLanes)
    throw std::invalid_argument("lane_offsets: " + std::to_string(n) + " lanes, routing supports at most " +
                                std::to_string(kMaxRoutingLanes));
  constexpr float kInf = std::numeric_limits<float>::infinity();
  m.route_table.assign(static_cast<size_t>(n) * n, kInf);
  using Item = std::pair<float, int>;  // (distance to the start of lane, lane)
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  for (int a = 0; a < n; ++a) {
    float* dist = &m.route_table[static_cast<size_t>(a) * n];
    auto relax = [&](int lane, float d) {
      if (d < dist[lane]) dist[lane] = d, open.push({d, lane});
    };
    auto relax_successors = [&](int from, float d) {
      for (int64_t k = m.successor_offsets[from]; k < m.successor_offsets[from + 1]; ++k)
        relax(m.successors[k], d);
    };
    relax_successors(a, 0.0f);
    if (m.left[a] >= 0) relax_successors(m.left[a], kLaneChangeCost);
    if (m.right[a] >= 0) relax_successors(m.right[a], kLaneChangeCost);
    while (!open.empty()) {
      auto [d, x] = open.top();
      open.pop();
      if (d > dist[x]) continue;  // stale entry
      relax_successors(x, d + m.lane_length[x]);
      if (m.left[x] >= 0) relax(m.left[x], d + kLaneChangeCost);
      if (m.right[x] >= 0) relax(m.right[x], d + kLaneChangeCost);
    }
  }
}

float route_distance(const Map& m, int a, float s_a, int b, float s_b) {
  float best = std::numeric_limits<float>::infinity();
  if (a == b && s_b >= s_a) best = s_b - s_a;
  if ((m.left[a] == b || m.right[a] == b) && s_b >= s_a) best = std::min(best, s_b - s_a + kLaneChangeCost);
  const float via = m.route_table[static_cast<size_t>(a) * m.lane_count + b];
  return std::min(best, std::max(0.0f, m.lane_length[a] - s_a) + via + s_b);
}

}  // namespace trackfield::driving
