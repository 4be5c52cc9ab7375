// Track storage checks, the projection grid, and the queries the engine asks per step.
#include "racing/track.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace trackfield::racing {

namespace {

constexpr float kPi = 3.14159265358979f;
constexpr float kTwoPi = 2.0f * kPi;

[[noreturn]] void invalid(const Track& track, const std::string& what) {
  throw std::invalid_argument("track '" + track.name + "': " + what);
}

template <typename T>
void check_size(const Track& track, const std::vector<T>& v, const char* name) {
  if (static_cast<int>(v.size()) != track.n)
    invalid(track, std::string(name) + " has " + std::to_string(v.size()) + " entries, expected " +
                       std::to_string(track.n) + " (one per point of x)");
}

// Optional per-point arrays default to a constant; present ones must match x.
template <typename T>
void default_or_check(const Track& track, std::vector<T>& v, const char* name, T fill) {
  if (v.empty()) v.assign(track.n, fill);
  check_size(track, v, name);
}

void check_finite(const Track& track, const std::vector<float>& v, const char* name) {
  for (int i = 0; i < track.n; ++i)
    if (!std::isfinite(v[i])) invalid(track, std::string(name) + "[" + std::to_string(i) + "] is not finite");
}

Vec2 point(const Track& t, int i) { return {t.x[i], t.y[i]}; }

int next(const Track& t, int i) { return i + 1 < t.n ? i + 1 : 0; }
int prev(const Track& t, int i) { return i > 0 ? i - 1 : t.n - 1; }

// Squared distance from p to segment i and the clamped parameter of the foot point.
inline __attribute__((always_inline)) float segment_distance_sq(const Track& t, int i, Vec2 p, float& u) {
  Vec2 a = point(t, i), b = point(t, next(t, i));
  Vec2 ab = b - a;
  float len_sq = length_sq(ab);
  u = len_sq > 0.0f ? clampf(dot(p - a, ab) / len_sq, 0.0f, 1.0f) : 0.0f;
  return distance_sq(p, a + ab * u);
}

void compute_arc_length_and_tangents(Track& t) {
  bool want_s = t.s.empty(), want_tangent = t.tangent_x.empty() || t.tangent_y.empty();
  if (want_s) t.s.assign(t.n, 0.0f);
  if (want_tangent) t.tangent_x.assign(t.n, 0.0f), t.tangent_y.assign(t.n, 0.0f);
  check_size(t, t.s, "s");
  check_size(t, t.tangent_x, "tangent_x");
  check_size(t, t.tangent_y, "tangent_y");
  double acc = 0.0;  // double: 3000 float additions would drift by centimetres
  for (int i = 0; i < t.n; ++i) {
    Vec2 ab = point(t, next(t, i)) - point(t, i);
    float len = length(ab);
    if (!(len > 1e-4f))
      invalid(t, "points " + std::to_string(i) + " and " + std::to_string(next(t, i)) +
                     " coincide (segment of zero length)");
    if (want_s) t.s[i] = static_cast<float>(acc);
    if (want_tangent) t.tangent_x[i] = ab.x / len, t.tangent_y[i] = ab.y / len;
    acc += len;
  }
  t.length = static_cast<float>(acc);
  t.vertex_tangent_x.assign(t.n, 0.0f), t.vertex_tangent_y.assign(t.n, 0.0f);
  t.vertex_heading.assign(t.n, 0.0f);
  for (int i = 0; i < t.n; ++i) {
    int h = prev(t, i);
    Vec2 v = normalized(Vec2{t.tangent_x[h] + t.tangent_x[i], t.tangent_y[h] + t.tangent_y[i]},
                        Vec2{t.tangent_x[i], t.tangent_y[i]});
    t.vertex_tangent_x[i] = v.x, t.vertex_tangent_y[i] = v.y;
    t.vertex_heading[i] = std::atan2(v.y, v.x);
  }
  if (t.s[0] != 0.0f) invalid(t, "s[0] must be 0");
  for (int i = 1; i < t.n; ++i)
    if (!(t.s[i] > t.s[i - 1])) invalid(t, "s must increase (s[" + std::to_string(i) + "])");
  if (!(t.s[t.n - 1] < t.length)) invalid(t, "s[n-1] must be below the closed length");
}

// Cells of about four segments across keep a query near the line to a few dozen
// segment tests; the cap bounds memory for sparse, sprawling layouts.
void build_grid(Track& t) {
  float lo_x = t.x[0], hi_x = t.x[0], lo_y = t.y[0], hi_y = t.y[0];
  for (int i = 1; i < t.n; ++i) {
    lo_x = std::min(lo_x, t.x[i]), hi_x = std::max(hi_x, t.x[i]);
    lo_y = std::min(lo_y, t.y[i]), hi_y = std::max(hi_y, t.y[i]);
  }
  float cell = std::max(4.0f * t.length / t.n, 1.0f);
  auto cells_along = [&](float extent) { return static_cast<int>(extent / cell) + 1; };
  while (static_cast<double>(cells_along(hi_x - lo_x)) * cells_along(hi_y - lo_y) > (1 << 20)) cell *= 2.0f;
  t.grid_x0 = lo_x, t.grid_y0 = lo_y, t.grid_cell = cell;
  t.grid_nx = cells_along(hi_x - lo_x), t.grid_ny = cells_along(hi_y - lo_y);

  auto cell_range = [&](int i, int& x0, int& x1, int& y0, int& y1) {
    Vec2 a = point(t, i), b = point(t, next(t, i));
    x0 = static_cast<int>((std::min(a.x, b.x) - lo_x) / cell);
    x1 = std::min(static_cast<int>((std::max(a.x, b.x) - lo_x) / cell), t.grid_nx - 1);
    y0 = static_cast<int>((std::min(a.y, b.y) - lo_y) / cell);
    y1 = std::min(static_cast<int>((std::max(a.y, b.y) - lo_y) / cell), t.grid_ny - 1);
  };
  // Counting pass, prefix sum, fill pass: one flat array, no per-cell vectors.
  t.grid_start.assign(static_cast<size_t>(t.grid_nx) * t.grid_ny + 1, 0);
  int x0, x1, y0, y1;
  for (int i = 0; i < t.n; ++i) {
    cell_range(i, x0, x1, y0, y1);
    for (int cy = y0; cy <= y1; ++cy)
      for (int cx = x0; cx <= x1; ++cx) ++t.grid_start[cy * t.grid_nx + cx + 1];
  }
  for (size_t c = 1; c < t.grid_start.size(); ++c) t.grid_start[c] += t.grid_start[c - 1];
  t.grid_segments.assign(t.grid_start.back(), 0);
  std::vector<int32_t> fill(t.grid_start.begin(), t.grid_start.end() - 1);
  for (int i = 0; i < t.n; ++i) {
    cell_range(i, x0, x1, y0, y1);
    for (int cy = y0; cy <= y1; ++cy)
      for (int cx = x0; cx <= x1; ++cx) t.grid_segments[fill[cy * t.grid_nx + cx]++] = i;
  }
}

// Whole-track nearest segment: rings of cells around p until no unvisited cell can
// hold anything nearer. A segment lies inside the cells its bounding box touches, so
// every segment first met in ring r + 1 or later is at least r cells away.
int nearest_segment_grid(const Track& t, Vec2 p) {
  int cx = static_cast<int>(std::floor((p.x - t.grid_x0) / t.grid_cell));
  int cy = static_cast<int>(std::floor((p.y - t.grid_y0) / t.grid_cell));
  cx = std::clamp(cx, 0, t.grid_nx - 1), cy = std::clamp(cy, 0, t.grid_ny - 1);
  int best = 0;
  float best_sq = INFINITY, u;
  int max_ring = std::max(t.grid_nx, t.grid_ny);
  for (int r = 0; r <= max_ring; ++r) {
    for (int y = cy - r; y <= cy + r; ++y) {
      if (y < 0 || y >= t.grid_ny) continue;
      bool edge_row = y == cy - r || y == cy + r;
      for (int x = cx - r; x <= cx + r; x += edge_row ? 1 : 2 * r) {
        if (x >= 0 && x < t.grid_nx) {
          int c = y * t.grid_nx + x;
          for (int k = t.grid_start[c]; k < t.grid_start[c + 1]; ++k) {
            int i = t.grid_segments[k];
            float d_sq = segment_distance_sq(t, i, p, u);
            if (d_sq < best_sq || (d_sq == best_sq && i < best)) best_sq = d_sq, best = i;
          }
        }
        if (r == 0) break;
      }
    }
    float reach = r * t.grid_cell;
    if (best_sq <= reach * reach) break;
  }
  return best;
}

// Walks from the hint while the next segment is nearer. Returns -1 when the walk
// would leave the window: the hint is stale, and only a global search can say where p is.
int nearest_segment_walk(const Track& t, Vec2 p, int hint) {
  float u;
  int i = hint;
  float best_sq = segment_distance_sq(t, i, p, u);
  for (int dir : {+1, -1}) {
    int steps = 0;
    for (;;) {
      int j = dir > 0 ? next(t, i) : prev(t, i);
      float d_sq = segment_distance_sq(t, j, p, u);
      if (!(d_sq < best_sq)) break;
      if (++steps > kProjectWindow) return -1;
      i = j, best_sq = d_sq;
    }
    if (steps > 0) break;  // moved forward: the backward side is farther by construction
  }
  return i;
}

float lerp(float a, float b, float u) { return a + (b - a) * u; }

Vec2 vertex_tangent(const Track& t, int i) { return {t.vertex_tangent_x[i], t.vertex_tangent_y[i]}; }

// Tangent at parameter u of segment i, blended from its end points (not unit length).
Vec2 blended_tangent(const Track& t, int i, float u) {
  return vertex_tangent(t, i) * (1.0f - u) + vertex_tangent(t, next(t, i)) * u;
}

// Solves (p - c(u)) . T(u) = 0 for the foot parameter, c linear along segment i and T the
// blended tangent: the foot point whose interpolated normal passes through p. A root outside [0, 1] belongs to a neighbour segment; moves
// go one way only, so a point in no segment's span (inside a kink) settles on the end.
void refine_foot(const Track& t, Vec2 p, int& i, float& u) {
  u = 0.5f;
  int moved = 0;
  for (int attempt = 0; attempt < 4; ++attempt) {
    Vec2 a = point(t, i), ab = point(t, next(t, i)) - a, q = p - a;
    Vec2 t0 = vertex_tangent(t, i), dt = vertex_tangent(t, next(t, i)) - t0;
    float c2 = -dot(ab, dt), c1 = dot(q, dt) - dot(ab, t0), c0 = dot(q, t0);
    // The root that tends to the linear one -c0/c1 as c2 -> 0 (c2 is second order on
    // smooth lines, large only at kinks), in the form that does not cancel.
    float disc = c1 * c1 - 4.0f * c0 * c2;
    float root = disc > 0.0f ? std::sqrt(disc) : 0.0f;
    u = -2.0f * c0 / (c1 + (c1 >= 0.0f ? root : -root));
    if (!std::isfinite(u)) u = 0.5f;
    if (u < 0.0f && moved <= 0 && attempt < 3) {
      i = prev(t, i), u = 1.0f, moved = -1;
    } else if (u > 1.0f && moved >= 0 && attempt < 3) {
      i = next(t, i), u = 0.0f, moved = +1;
    } else {
      break;
    }
  }
  u = clampf(u, 0.0f, 1.0f);
}

}  // namespace

void Track::finalize() {
  n = static_cast<int>(x.size());
  if (n < 4) invalid(*this, "needs at least 4 points, got " + std::to_string(n));
  check_size(*this, y, "y");
  check_size(*this, width_left, "width_left");
  check_size(*this, width_right, "width_right");
  default_or_check(*this, z, "z", 0.0f);
  default_or_check(*this, banking, "banking", 0.0f);
  default_or_check(*this, grade, "grade", 0.0f);
  default_or_check(*this, curvature, "curvature", 0.0f);
  default_or_check(*this, section, "section", int16_t{-1});
  default_or_check(*this, section_kind, "section_kind", uint8_t{kStraight});
  const std::pair<const std::vector<float>*, const char*> per_point[] = {
      {&x, "x"}, {&y, "y"}, {&z, "z"}, {&width_left, "width_left"}, {&width_right, "width_right"},
      {&banking, "banking"}, {&grade, "grade"}, {&curvature, "curvature"}};
  for (const auto& [v, name] : per_point) check_finite(*this, *v, name);
  for (int i = 0; i < n; ++i) {
    if (!(width_left[i] > 0.0f)) invalid(*this, "width_left[" + std::to_string(i) + "] must be > 0");
    if (!(width_right[i] > 0.0f)) invalid(*this, "width_right[" + std::to_string(i) + "] must be > 0");
    if (section[i] < -1 || section[i] >= static_cast<int>(section_names.size()))
      invalid(*this, "section[" + std::to_string(i) + "] = " + std::to_string(section[i]) +
                         " names no entry of section_names");
    if (section_kind[i] > kCurve)
      invalid(*this, "section_kind[" + std::to_string(i) + "] must be 0 (straight) or 1 (curve)");
  }
  if (!(kerb_width >= 0.0f) || !std::isfinite(kerb_width)) invalid(*this, "kerb_width must be >= 0");
  if (!(wall_distance > kerb_width) || !std::isfinite(wall_distance))
    invalid(*this, "wall_distance must be finite and greater than kerb_width");
  compute_arc_length_and_tangents(*this);
  build_grid(*this);
}

TrackPos project(const Track& track, Vec2 p, int hint) {
  int i = -1;
  if (hint >= 0) i = nearest_segment_walk(track, p, hint % track.n);
  if (i < 0) i = nearest_segment_grid(track, p);

  float u;
  refine_foot(track, p, i, u);
  int j = next(track, i);
  Vec2 a = point(track, i), b = point(track, j);
  Vec2 foot = a + (b - a) * u;
  Vec2 tangent = normalized(blended_tangent(track, i, u), Vec2{track.tangent_x[i], track.tangent_y[i]});

  TrackPos pos;
  pos.segment = i;
  pos.t = u;
  pos.s = track.s[i] + u * segment_length(track, i);
  if (pos.s >= track.length) pos.s -= track.length;
  pos.d = cross(tangent, p - foot);
  pos.width_left = lerp(track.width_left[i], track.width_left[j], u);
  pos.width_right = lerp(track.width_right[i], track.width_right[j], u);
  pos.z = lerp(track.z[i], track.z[j], u);
  pos.banking = lerp(track.banking[i], track.banking[j], u);
  pos.grade = lerp(track.grade[i], track.grade[j], u);
  pos.curvature = lerp(track.curvature[i], track.curvature[j], u);
  float turn = track.vertex_heading[j] - track.vertex_heading[i];
  turn = turn > kPi ? turn - kTwoPi : (turn < -kPi ? turn + kTwoPi : turn);
  float heading = track.vertex_heading[i] + u * turn;
  pos.heading = heading > kPi ? heading - kTwoPi : (heading <= -kPi ? heading + kTwoPi : heading);
  return pos;
}

Vec2 point_at(const Track& track, float s, float d) {
  s = std::fmod(s, track.length);
  if (s < 0.0f) s += track.length;
  int i = static_cast<int>(std::upper_bound(track.s.begin(), track.s.end(), s) - track.s.begin()) - 1;
  i = std::clamp(i, 0, track.n - 1);
  float u = clampf((s - track.s[i]) / segment_length(track, i), 0.0f, 1.0f);
  Vec2 a = point(track, i), b = point(track, next(track, i));
  Vec2 tangent = normalized(blended_tangent(track, i, u), Vec2{track.tangent_x[i], track.tangent_y[i]});
  return a + (b - a) * u + Vec2{-tangent.y, tangent.x} * d;
}

float wrap_ds(const Track& track, float a, float b) {
  float half = 0.5f * track.length;
  float ds = std::fmod(a - b, track.length);
  if (ds >= half) ds -= track.length;
  if (ds < -half) ds += track.length;
  return ds;
}

}  // namespace trackfield::racing
