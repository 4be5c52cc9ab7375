// The map's precomputed observation sets (GIGAFLOW's key to speed): which lane points
// and boundary points a vehicle sees, chosen once per map so that at run time the "sets"
// observation only moves them into the agent's frame.
//
// Rules (one place; obs_sets.cpp and the tests rely on them):
// - Lane samples: each lane's centre line is cut into n = ceil(length / kSetLaneSpacing)
//   equal pieces and sampled at each piece's middle, so consecutive samples of a lane are
//   at most 40 m apart (exactly 40 m when the length is a multiple of 40) and every lane,
//   however short (junction connectors), has at least one sample of its own.
// - Boundary samples: every boundary polyline of the map resampled at 1 m of arc length
//   (s = 0, 1, 2, ... up to its length). Maps without boundary polylines have none.
// - Groups: quads share sets with their neighbours along the lane. Quad q belongs to the
//   group of its lane holding its start's arc length s in [k g, (k + 1) g), g =
//   kSetGroupLength; the group's centre is the lane's centre point at s = (k + 1/2) g
//   (clamped to the lane). Per-quad sets cost ~640 B each in indices (Town03: ~10 MB for
//   nothing: neighbouring 1 m quads hold almost the same points); per 4 m they stay small
//   and a set is at most 2 m (plus the lane offset) from where the agent is.
// - A group's lane set: the kSetLanePoints lane samples nearest to its centre within
//   kSetLaneRadius, nearest first (ties: lower sample index). Its boundary set: the
//   kSetBoundaryPoints nearest boundary samples within kSetBoundaryRadius, nearest first.
//   Distances are planar (x, y); the observation carries z so overpasses stay apart.
// Sets are stored as indices (int32) into the sample arrays, with offsets per group:
// a gather from small arrays that stay in cache, instead of 80 copied points per group.
#ifndef TRACKFIELD_DRIVING_MAP_SETS_H
#define TRACKFIELD_DRIVING_MAP_SETS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace trackfield::driving {

struct Map;

constexpr int kSetLanePoints = 80;
constexpr float kSetLaneSpacing = 40.0f;    // m, along each lane
constexpr float kSetLaneRadius = 200.0f;    // m
constexpr int kSetBoundaryPoints = 80;
constexpr float kSetBoundarySpacing = 1.0f; // m, along each boundary polyline
constexpr float kSetBoundaryRadius = 50.0f; // m
constexpr float kSetGroupLength = 4.0f;     // m of lane per group of quads

// One lane sample as the sets writer reads it: a cache line holding everything its row
// needs, loaded four floats at a time (three loads instead of ~ten scattered ones).
// rest = max(0, lane length - s): the route distance's first term, computed once here the
// way route_distance computes it.
struct alignas(64) LaneSampleRecord {
  float x, y, z, cos;
  float sin, half_width, s, rest;
  int32_t lane, left, right, pad;
};

// One boundary sample: x, y, z and a pad, one 16-byte load.
struct alignas(16) BoundarySampleRecord {
  float x, y, z, pad;
};

struct MapSets {
  // Lane samples (map frame).
  std::vector<float> lane_x, lane_y, lane_z, lane_cos, lane_sin, lane_half_width, lane_s;
  std::vector<int32_t> lane_lane;
  // Boundary samples (map frame).
  std::vector<float> bnd_x, bnd_y, bnd_z;
  // The same samples packed per sample (the sets writer's gathers).
  std::vector<LaneSampleRecord> lane_records;
  std::vector<BoundarySampleRecord> bnd_records;
  // Groups of quads and their sets: group g's lane set is lane_set[lane_set_offsets[g] ..
  // lane_set_offsets[g + 1]), nearest first; likewise for boundaries.
  std::vector<int32_t> quad_group;  // quad -> group
  std::vector<float> group_x, group_y;
  std::vector<int32_t> lane_set_offsets, lane_set;
  std::vector<int32_t> bnd_set_offsets, bnd_set;
  // The routing table transposed, route_to[b * L + a] = route_table[a * L + b]: an agent's
  // 80 lane points look up their distance to its one goal lane b in one row (a few KB that
  // stay in cache) instead of in 80 rows scattered over the L x L table.
  std::vector<float> route_to;

  int group_count() const { return static_cast<int>(group_x.size()); }
  // Bytes held by the samples and sets, route_to not included (the map binding reports both).
  size_t memory_bytes() const;
};

// Fills map.sets from the map's lanes, quads, boundary polylines and routing table
// (build_map calls it last). Allocates only here, once per map.
void build_map_sets(Map& map);

}  // namespace trackfield::driving

#endif
