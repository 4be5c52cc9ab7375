// Building the map's observation sets (map_sets.h states the rules). Build time only.
#include "driving/map_sets.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "common/spatial_hash.h"
#include "driving/map.h"
#include "driving/spawn.h"

namespace trackfield::driving {

namespace {

void sample_lanes(const Map& m, MapSets& s) {
  for (int l = 0; l < m.lane_count; ++l) {
    const float length = m.lane_length[l];
    const int n = std::max(1, static_cast<int>(std::ceil(length / kSetLaneSpacing - 1e-4f)));
    for (int k = 0; k < n; ++k) {
      const float at = (static_cast<float>(k) + 0.5f) * length / static_cast<float>(n);
      const LanePose p = lane_pose(m, l, at);
      s.lane_x.push_back(static_cast<float>(p.x)), s.lane_y.push_back(static_cast<float>(p.y));
      s.lane_z.push_back(p.z);
      s.lane_cos.push_back(std::cos(p.heading)), s.lane_sin.push_back(std::sin(p.heading));
      s.lane_half_width.push_back(p.half_width);
      s.lane_s.push_back(at);
      s.lane_lane.push_back(l);
    }
  }
}

void sample_boundaries(const Map& m, MapSets& s) {
  const std::vector<double>& bp = m.boundary_points;
  for (size_t b = 0; b + 1 < m.boundary_offsets.size(); ++b) {
    const int64_t begin = m.boundary_offsets[b], end = m.boundary_offsets[b + 1];
    double next = 0.0, at = 0.0;  // next sample's arc length; arc length at point k
    for (int64_t k = begin; k < end; ++k) {
      const double* p = &bp[3 * k];
      if (k + 1 == end) {  // a lone point, or the end landing on a sample
        if (next <= at + 1e-9) s.bnd_x.push_back(static_cast<float>(p[0])), s.bnd_y.push_back(static_cast<float>(p[1])),
                               s.bnd_z.push_back(static_cast<float>(p[2]));
        break;
      }
      const double* q = p + 3;
      const double seg = std::hypot(q[0] - p[0], q[1] - p[1]);
      while (next < at + seg) {
        const double t = seg > 0 ? (next - at) / seg : 0.0;
        s.bnd_x.push_back(static_cast<float>(p[0] + t * (q[0] - p[0])));
        s.bnd_y.push_back(static_cast<float>(p[1] + t * (q[1] - p[1])));
        s.bnd_z.push_back(static_cast<float>(p[2] + t * (q[2] - p[2])));
        next += kSetBoundarySpacing;
      }
      at += seg;
    }
  }
}

void make_groups(const Map& m, MapSets& s) {
  s.quad_group.resize(m.quad_count);
  int last_lane = -1, last_k = -1;
  for (int q = 0; q < m.quad_count; ++q) {
    const int l = m.quad_lane[q];
    const int k = static_cast<int>(m.point_s[m.quad_point[q]] / kSetGroupLength);
    if (l != last_lane || k != last_k) {
      const float at = std::min((static_cast<float>(k) + 0.5f) * kSetGroupLength, m.lane_length[l]);
      const LanePose p = lane_pose(m, l, at);
      s.group_x.push_back(static_cast<float>(p.x)), s.group_y.push_back(static_cast<float>(p.y));
      last_lane = l, last_k = k;
    }
    s.quad_group[q] = s.group_count() - 1;
  }
}

// For every group, the `count` samples nearest its centre within `radius`, nearest first.
void nearest_sets(const MapSets& s, const std::vector<float>& xs, const std::vector<float>& ys, int count,
                  float radius, std::vector<int32_t>& offsets, std::vector<int32_t>& out) {
  offsets.assign(1, 0);
  out.clear();
  const int n = static_cast<int>(xs.size());
  if (n == 0) {
    offsets.resize(s.group_count() + 1, 0);
    return;
  }
  float lo_x = xs[0], hi_x = xs[0], lo_y = ys[0], hi_y = ys[0];
  for (int i = 1; i < n; ++i)
    lo_x = std::min(lo_x, xs[i]), hi_x = std::max(hi_x, xs[i]), lo_y = std::min(lo_y, ys[i]), hi_y = std::max(hi_y, ys[i]);
  SpatialHash hash;
  // Cells of a quarter of the radius: a query visits ~80 cells, few of them empty.
  spatial_hash_init(hash, lo_x - 1.0f, lo_y - 1.0f, hi_x + 1.0f, hi_y + 1.0f, radius / 4.0f, n);
  spatial_hash_rebuild(hash, xs.data(), ys.data(), n);
  std::vector<std::pair<float, int32_t>> found;
  for (int g = 0; g < s.group_count(); ++g) {
    found.clear();
    spatial_hash_query(hash, xs.data(), ys.data(), s.group_x[g], s.group_y[g], radius,
                       [&](int id, float d2) { found.emplace_back(d2, id); });
    const size_t keep = std::min(found.size(), static_cast<size_t>(count));
    // Selection then a sort of the kept few: a heap-based partial_sort over ~1000
    // candidates was most of the build time.
    if (keep < found.size()) std::nth_element(found.begin(), found.begin() + keep, found.end());
    std::sort(found.begin(), found.begin() + keep);
    for (size_t k = 0; k < keep; ++k) out.push_back(found[k].second);
    offsets.push_back(static_cast<int32_t>(out.size()));
  }
}

void pack_records(const Map& m, MapSets& s) {
  s.lane_records.resize(s.lane_x.size());
  for (size_t p = 0; p < s.lane_x.size(); ++p) {
    LaneSampleRecord& r = s.lane_records[p];
    const int l = s.lane_lane[p];
    r.x = s.lane_x[p], r.y = s.lane_y[p], r.z = s.lane_z[p], r.cos = s.lane_cos[p];
    r.sin = s.lane_sin[p], r.half_width = s.lane_half_width[p], r.s = s.lane_s[p];
    r.rest = std::max(0.0f, m.lane_length[l] - s.lane_s[p]);
    r.lane = l, r.left = m.left[l], r.right = m.right[l], r.pad = 0;
  }
  s.bnd_records.resize(s.bnd_x.size());
  for (size_t p = 0; p < s.bnd_x.size(); ++p) s.bnd_records[p] = {s.bnd_x[p], s.bnd_y[p], s.bnd_z[p], 0.0f};
}

template <typename T>
size_t bytes(const std::vector<T>& v) { return v.size() * sizeof(T); }

}  // namespace

size_t MapSets::memory_bytes() const {
  return bytes(lane_x) + bytes(lane_y) + bytes(lane_z) + bytes(lane_cos) + bytes(lane_sin) + bytes(lane_half_width) +
         bytes(lane_s) + bytes(lane_lane) + bytes(bnd_x) + bytes(bnd_y) + bytes(bnd_z) + bytes(quad_group) +
         bytes(group_x) + bytes(group_y) + bytes(lane_set_offsets) + bytes(lane_set) + bytes(bnd_set_offsets) +
         bytes(bnd_set) + bytes(lane_records) + bytes(bnd_records);
}

void build_map_sets(Map& m) {
  MapSets& s = m.sets;
  s = MapSets{};
  sample_lanes(m, s);
  sample_boundaries(m, s);
  pack_records(m, s);
  make_groups(m, s);
  const size_t L = static_cast<size_t>(m.lane_count);
  s.route_to.resize(L * L);
  for (size_t a = 0; a < L; ++a)
    for (size_t b = 0; b < L; ++b) s.route_to[b * L + a] = m.route_table[a * L + b];
  nearest_sets(s, s.lane_x, s.lane_y, kSetLanePoints, kSetLaneRadius, s.lane_set_offsets, s.lane_set);
  nearest_sets(s, s.bnd_x, s.bnd_y, kSetBoundaryPoints, kSetBoundaryRadius, s.bnd_set_offsets, s.bnd_set);
}

}  // namespace trackfield::driving
