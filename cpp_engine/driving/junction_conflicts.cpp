// Which junction lanes cross or merge (map.h: Map::conflict_start, conflicts).
#include <algorithm>
#include <cmath>
#include <vector>

#include "driving/map.h"

namespace trackfield::driving {

namespace {

// Connectors that start together (one approach lane splitting) do not conflict: the
// vehicles on them already follow one another.
constexpr double kSameStart = 1.0;        // m
constexpr double kConflictShare = 0.8;    // of the two half widths summed: closer centre lines cross

bool lanes_conflict(const Map& m, int a, int b) {
  const int64_t ab = m.lane_offsets[a], ae = m.lane_offsets[a + 1], bb = m.lane_offsets[b], be = m.lane_offsets[b + 1];
  if (std::hypot(m.px[ab] - m.px[bb], m.py[ab] - m.py[bb]) < kSameStart) return false;
  for (int64_t i = ab; i < ae; ++i)
    for (int64_t j = bb; j < be; ++j) {
      if (std::fabs(m.pz[i] - m.pz[j]) > kLocaliseZWindow) continue;
      const double reach = kConflictShare * 0.5 * (m.width[i] + m.width[j]);
      const double dx = m.px[i] - m.px[j], dy = m.py[i] - m.py[j];
      if (dx * dx + dy * dy < reach * reach) return true;
    }
  return false;
}

}  // namespace

void build_junction_conflicts(Map& m) {
  int junctions = 0;
  for (int32_t j : m.junction) junctions = std::max(junctions, j + 1);
  std::vector<std::vector<int>> members(junctions);
  for (int l = 0; l < m.lane_count; ++l)
    if (m.junction[l] >= 0) members[m.junction[l]].push_back(l);
  std::vector<std::vector<int>> out(m.lane_count);
  for (const auto& lanes : members)
    for (size_t x = 0; x < lanes.size(); ++x)
      for (size_t y = x + 1; y < lanes.size(); ++y)
        if (lanes_conflict(m, lanes[x], lanes[y])) out[lanes[x]].push_back(lanes[y]), out[lanes[y]].push_back(lanes[x]);
  m.conflict_start.assign(m.lane_count + 1, 0);
  m.conflicts.clear();
  for (int l = 0; l < m.lane_count; ++l) {
    std::sort(out[l].begin(), out[l].end());
    m.conflicts.insert(m.conflicts.end(), out[l].begin(), out[l].end());
    m.conflict_start[l + 1] = static_cast<int32_t>(m.conflicts.size());
  }
}

bool junction_lanes_conflict(const Map& m, int a, int b) {
  if (a == b) return true;
  if (a < 0 || b < 0) return false;
  const int32_t* begin = m.conflicts.data() + m.conflict_start[a];
  const int32_t* end = m.conflicts.data() + m.conflict_start[a + 1];
  return std::binary_search(begin, end, b);
}

}  // namespace trackfield::driving
