// A driving map as the engine sees it: lanes cut into quads (one centre-point pair each,
// about 1 m long and a lane wide), a static uniform grid over them, out-of-bounds points
// beside the outer lane edges, and the routing table (routing.h). Python
// (trackfield.driving.engine_map) flattens a RoadMap into the input arrays; build_map()
// checks them and derives everything else once, so a Map is shared read-only by every
// world that drives on it.
//
// Frame: x east, y north, z up, metres; heading in radians anticlockwise from +x.
// d (lateral offset) is positive to the LEFT of the lane's direction of travel.
//
// Several maps (towns and their augmented variants) live side by side in a MapSet; a world
// holds the id of its map. Each Map owns its grid, so (map id, cell) -> quad ids is
// maps[id]->grid: no shared table has to be rebuilt when a map is added.
#ifndef TRACKFIELD_DRIVING_MAP_H
#define TRACKFIELD_DRIVING_MAP_H

#include <cstdint>
#include <memory>
#include <vector>

#include "common/spatial_hash.h"
#include "driving/map_sets.h"

namespace trackfield::driving {

// A point within this distance of a quad counts as on it: closes the slivers between the
// quads of adjacent lanes and of a lane and its successor (RoadMap.SEAM_TOLERANCE).
constexpr float kSeamTolerance = 0.15f;
// Out-of-bounds points sit this far beyond the midpoint of each outer quad edge: more than
// the seam tolerance, so a vehicle touching the edge is not caught, and less than half of
// the narrowest gap between roads that a vehicle (>= 0.8 m wide) could straddle.
constexpr float kOutOfBoundsPush = 0.3f;
// Longest vehicle the dynamics sample (bicycle.h); grid cells are at least twice that, so
// a vehicle's box touches at most four cells.
constexpr float kMaxVehicleLength = 7.0f;
constexpr float kMapCellSize = 2.0f * kMaxVehicleLength;
// A quad serves a point whose z is within this height of the quad's (interpolated) z.
// Overpasses stand >= 5 m above the road below, so each level only sees its own quads.
constexpr float kLocaliseZWindow = 2.5f;
// Off-road points are matched to the nearest quad within this radius (else lane = -1).
constexpr float kOffRoadSearchRadius = 10.0f;

struct Map {
  // ---- input (build_map checks these) ----
  std::vector<int64_t> lane_offsets;      // L + 1, into the per-point arrays
  std::vector<double> px, py, pz;         // centre points, m
  std::vector<double> width;              // full lane width per point, m (> 0)
  std::vector<float> speed_limit;         // L, m/s
  std::vector<int64_t> successor_offsets; // L + 1, into successors
  std::vector<int32_t> successors;        // lane ids
  std::vector<int32_t> left, right;       // L, same-direction neighbour or -1
  std::vector<int32_t> junction;          // L, junction id or -1
  std::vector<int64_t> boundary_offsets;  // B + 1, into boundary_points (stored for observations)
  std::vector<double> boundary_points;    // (M, 3) row-major
  // Paved surface that is not a lane (a junction's floor between its connecting lanes):
  // (P, 4, 3) row-major quads (Python passes (P, 12)), corners anticlockwise. It counts as road for the on-road
  // tests, the out-of-bounds points and the raster, never for localisation, routing,
  // observations or spawning. Optional (empty: no paved quads).
  std::vector<double> paved_corners;

  // ---- derived ----
  int lane_count = 0;
  std::vector<double> point_s;   // arc length of each centre point along its lane, m
  // Heading of the segment from centre point i to i + 1 (a lane's last point: its last
  // segment's), computed once here rather than by an atan2 per lane_pose call.
  std::vector<float> point_heading;
  // Its cosine and sine (of the float heading): observations turn lane points into the ego
  // frame with a product instead of a sincos per point.
  std::vector<double> point_cos, point_sin;
  std::vector<float> lane_length;
  // Quad q joins centre points quad_point[q] and quad_point[q] + 1 of lane quad_lane[q].
  // Corners, anticlockwise: right at start, right at end, left at end, left at start.
  int quad_count = 0;
  std::vector<int32_t> quad_lane, quad_point;
  std::vector<float> corner_x, corner_y;  // 4 per quad
  std::vector<float> quad_z0, quad_z1;    // z at the start and end of the quad
  std::vector<float> quad_tx, quad_ty;    // unit tangent of the centre segment
  std::vector<float> quad_len, quad_heading;
  // Distance from the centre segment's midpoint to the farthest corner, plus the seam
  // tolerance: points farther away skip the polygon test.
  std::vector<float> quad_reach;
  // What a foot point and the reach test read of each quad, packed in one cache line per
  // quad (copies of the arrays above: px, py of its first point, quad_tx, quad_ty,
  // quad_len, quad_z0, quad_z1, quad_reach), so a quad visited costs one line, not eight.
  struct alignas(64) QuadFoot {
    double x0, y0;
    float tx, ty, len, z0, z1, reach;
  };
  std::vector<QuadFoot> quad_foot;
  // Static grid over quads: each quad is listed in every cell its box (grown by the seam
  // tolerance) touches, so a point's own cell holds every quad that can contain it.
  float grid_x0 = 0, grid_y0 = 0;
  int grid_cols = 1, grid_rows = 1;
  std::vector<int32_t> grid_start;  // cols * rows + 1
  std::vector<int32_t> grid_quads;
  // Rivals of quad q: rivals[rival_start[q] .. rival_start[q + 1]), ascending, the quads
  // (q included) whose boxes grown by the seam tolerance overlap q's. Every quad that
  // holds a point lying on q is among them, so once a quad holding the point is known
  // (near the vehicle's last quad), localise and the on-road test scan these few instead
  // of the point's whole grid cell, with the same answer.
  std::vector<int32_t> rival_start, rivals;
  // Out-of-bounds points and their own (static) hash.
  std::vector<float> oob_x, oob_y, oob_z;
  SpatialHash oob_hash;
  // Paved quads: corners (4 per quad, as corner_x / corner_y), mean z, and their own
  // static grid over the lane grid's cells (paved_grid_start: cols * rows + 1).
  int paved_count = 0;
  std::vector<float> paved_x, paved_y, paved_z;
  std::vector<int32_t> paved_grid_start, paved_grid_quads;
  // Routing (routing.h): lane-end -> lane-start distances, L x L float32.
  std::vector<float> route_table;
  // The observation sets of each group of quads (map_sets.h).
  MapSets sets;
  // Junction lanes whose centre lines cross or merge (closer than 0.8 of their two half
  // widths summed, and not starting together): conflicts[conflict_start[l] ..
  // conflict_start[l + 1]), ascending, for the built-in driver's right of way (driver.h).
  std::vector<int32_t> conflict_start, conflicts;
};

using MapSet = std::vector<std::shared_ptr<const Map>>;  // indexed by map id

// Checks the input arrays (std::invalid_argument naming the array and index) and builds
// quads, grid, out-of-bounds points, the routing table and the observation sets.
void build_map(Map& map);

// Fills Map::conflict_start and conflicts (junction_conflicts.cpp); build_map calls it.
void build_junction_conflicts(Map& map);
// Whether junction lanes a and b conflict (a lane conflicts with itself; -1 with nothing).
bool junction_lanes_conflict(const Map& map, int a, int b);

// Where a point lies on the map.
struct LanePos {
  int lane = -1;        // -1: no quad within kOffRoadSearchRadius
  int quad = -1;
  float s = 0.0f;       // arc length along the lane, m
  float d = 0.0f;       // signed lateral offset from the centre line, + left, m
  float heading = 0.0f; // lane heading at the quad, rad
  float z = 0.0f;       // road height under the point, m
  float half_width = 0.0f;  // lane half width at the foot point, m
  bool on_road = false; // within kSeamTolerance of a quad in the z window
};

// The quad containing (x, y) (within the seam tolerance and z window) with the smallest
// |d|; where none does, the nearest quad within kOffRoadSearchRadius (on_road = false).
// hint_quad (the agent's last quad, or -1) breaks exact ties and is where the search
// starts (its lane, then its rivals); the answer never depends on it otherwise.
// Allocates nothing.
LanePos localise(const Map& map, double x, double y, double z, int hint_quad);

// True when (x, y, z) is within the seam tolerance of some quad, lane or paved, in the z
// window.
bool point_on_road(const Map& map, double x, double y, double z);

// A vehicle box (centre, heading, length, width) is off-road when its centre or any corner
// is on no quad (lane or paved), or it contains an out-of-bounds point in the z window (a box straddling a
// gap narrower than itself between two roads). Allocates nothing.
// hint_quad (the quad under the centre, or -1) only speeds the search up; centre_on_road
// says the caller already knows a quad holds the centre at this z (localise found it), so
// only the corners and out-of-bounds points are tested.
bool box_off_road(const Map& map, double x, double y, double z, double heading, double length,
                  double width, int hint_quad = -1, bool centre_on_road = false);
// The same with the heading's cosine and sine given (cos_h = std::cos(heading), ...).
bool box_off_road_cs(const Map& map, double x, double y, double z, double cos_h, double sin_h, double length,
                     double width, int hint_quad, bool centre_on_road);

// True when (x, y, z) is within the seam tolerance of a paved quad in the z window.
bool point_on_paved(const Map& map, double x, double y, double z);

// Distance from (x, y) to quad q's polygon (0 inside).
float quad_distance(const Map& map, int q, float x, float y);
// Distance from (x, y) to the convex quad with corners (cx[k], cy[k]), k = 0..3,
// anticlockwise (0 inside).
float polygon4_distance(const float* cx, const float* cy, float x, float y);

}  // namespace trackfield::driving

#endif
