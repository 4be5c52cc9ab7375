// A closed circuit as the engine sees it: the centre line resampled at even spacing,
// with widths, elevation, banking and sections per point, and projection of a world
// position onto it. Python (trackfield.racing.track) reads files, checks them, resamples
// and derives every array here; C++ only stores them and answers queries, so a track is
// built once per batch and shared read-only by every world.
//
// Frame: x east, y north, z up, metres; heading in radians anticlockwise from +x.
// d (lateral offset) is positive to the LEFT of the direction of travel.
#ifndef TRACKFIELD_RACING_TRACK_H
#define TRACKFIELD_RACING_TRACK_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/vec2.h"

namespace trackfield::racing {

enum SectionKind : uint8_t { kStraight = 0, kCurve = 1 };

// Point i sits at arc length s[i]; segment i joins point i to point (i + 1) % n.
struct Track {
  std::string name;
  int n = 0;
  float length = 0.0f;  // m, closed
  std::vector<float> x, y, z;                // centre line, m
  std::vector<float> s;                      // arc length at each point, s[0] = 0, m
  std::vector<float> tangent_x, tangent_y;   // unit tangent of segment i (direction of travel)
  std::vector<float> curvature;              // signed, 1/m, + turning left
  std::vector<float> width_left, width_right;// centre line to the painted edge, m (> 0)
  std::vector<float> banking;                // rad, + when the left edge is higher
  std::vector<float> grade;                  // rad, longitudinal inclination, + uphill
  std::vector<int16_t> section;              // named section id of segment i, -1 none
  std::vector<uint8_t> section_kind;         // SectionKind of segment i
  std::vector<std::string> section_names;    // id -> name
  // Unit tangent at point i, the mean of its two segments' (built by finalize()). Normals
  // interpolated from these between points make project() and point_at() exact inverses
  // and d continuous through corners, where per-segment normals would jump.
  std::vector<float> vertex_tangent_x, vertex_tangent_y;
  std::vector<float> vertex_heading;  // atan2 of the vertex tangent, rad (no atan2 per query)
  float kerb_width = 1.0f;   // band beyond each edge that still counts as in bounds, m
  float wall_distance = 6.0f;// walls stand this far beyond each edge, m (> kerb_width)
  bool bridge = false;       // the centre line crosses itself; projection stays near its hint

  // Uniform grid over segments for projection without a hint (built by finalize()).
  float grid_x0 = 0, grid_y0 = 0, grid_cell = 1;
  int grid_nx = 0, grid_ny = 0;
  std::vector<int32_t> grid_start;   // [nx * ny + 1] offsets into grid_segments
  std::vector<int32_t> grid_segments;

  // Checks sizes and values (throws std::invalid_argument naming the array) and builds
  // the derived arrays (s, tangents, grid) that Python did not pass.
  void finalize();
};

// Where a world point lies relative to the centre line. The foot point is where the
// interpolated normal (see vertex_tangent_x) through p meets the line; s and d are
// continuous as p moves, also through corners.
struct TrackPos {
  int segment = 0;      // nearest segment
  float t = 0.0f;       // 0..1 along it
  float s = 0.0f;       // arc length of the foot point, [0, length)
  float d = 0.0f;       // signed lateral offset, + left, m
  float width_left = 0.0f, width_right = 0.0f;  // interpolated at the foot point
  float z = 0.0f, banking = 0.0f, grade = 0.0f; // interpolated at the foot point
  float curvature = 0.0f;  // 1/m, + left, interpolated at the foot point
  float heading = 0.0f; // track heading at the foot point, rad
};

// Length of segment i (from point i to point i + 1, the last one closing the loop), m.
inline float segment_length(const Track& track, int i) {
  return i + 1 < track.n ? track.s[i + 1] - track.s[i] : track.length - track.s[i];
}

// Nearest point of the centre line. With hint >= 0 (the previous segment) the search
// walks from it to the nearest local minimum of distance, at most kProjectWindow
// segments either way (bridges: the level of the hint wins); with hint < 0, or when the
// walk runs out of window (a stale hint), it searches the whole track through the grid.
// Allocates nothing.
constexpr int kProjectWindow = 50;
TrackPos project(const Track& track, Vec2 p, int hint);

// Centre-line point at arc length s (wrapped into [0, length)) with offset d to the left,
// along the interpolated normal: project(point_at(s, d)) gives back s and d while |d| is
// below the local radius of curvature.
Vec2 point_at(const Track& track, float s, float d);

// Signed arc-length difference a - b wrapped into [-length/2, length/2).
float wrap_ds(const Track& track, float a, float b);

// True when lateral offset d at this position is inside the painted edge plus kerb.
inline bool in_bounds(const Track& track, const TrackPos& pos, float d) {
  return d <= pos.width_left + track.kerb_width && d >= -(pos.width_right + track.kerb_width);
}

}  // namespace trackfield::racing

#endif
