// Map building (checks, quads, grid, out-of-bounds points) and the per-step queries
// (localise, on-road tests), which allocate nothing.
#include "driving/map.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "driving/routing.h"

namespace trackfield::driving {

namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument(what); }

std::string at(const char* name, size_t i) { return std::string(name) + "[" + std::to_string(i) + "]"; }

void check_size(size_t got, size_t want, const char* name) {
  if (got != want)
    bad(std::string(name) + ": expected " + std::to_string(want) + " values, got " + std::to_string(got));
}

template <typename T>
void check_finite(const std::vector<T>& v, const char* name) {
  for (size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(static_cast<double>(v[i]))) bad(at(name, i) + " is not finite");
}

// Offsets into an array of `total` items: start at 0, never decrease, end at total.
void check_offsets(const std::vector<int64_t>& off, size_t total, const char* name, int64_t min_step) {
  if (off.empty() || off[0] != 0) bad(std::string(name) + ": must start with 0");
  for (size_t i = 1; i < off.size(); ++i)
    if (off[i] - off[i - 1] < min_step)
      bad(at(name, i) + " = " + std::to_string(off[i]) + ": each entry must exceed the previous by at least " +
          std::to_string(min_step));
  if (off.back() != static_cast<int64_t>(total))
    bad(std::string(name) + ": last entry " + std::to_string(off.back()) + " != " + std::to_string(total) +
        " items");
}

void check_lane_ids(const std::vector<int32_t>& v, const char* name, int lanes, int lo) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] < lo || v[i] >= lanes)
      bad(at(name, i) + " = " + std::to_string(v[i]) + " is outside [" + std::to_string(lo) + ", " +
          std::to_string(lanes) + ")");
}

// Paved quads: (P, 4, 3), finite, corners anticlockwise and convex (a corner may repeat:
// a strip that tapers to nothing ends in a triangle).
void check_paved(const std::vector<double>& c) {
  if (c.size() % 12 != 0) bad("paved_corners: expected shape (P, 4, 3)");
  check_finite(c, "paved_corners");
  for (size_t q = 0; q < c.size() / 12; ++q) {
    const double* p = &c[12 * q];
    double area = 0, scale = 0;
    for (int k = 0; k < 4; ++k) {
      const double* a = p + 3 * k;
      const double* b = p + 3 * ((k + 1) & 3);
      const double* d = p + 3 * ((k + 2) & 3);
      area += a[0] * b[1] - b[0] * a[1];
      const double turn = (b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0]);
      scale = std::max(scale, std::hypot(b[0] - a[0], b[1] - a[1]));
      if (turn < -1e-9 * (1.0 + scale * scale))
        bad(at("paved_corners", q) + ": corners are not convex and anticlockwise (corner " + std::to_string((k + 1) & 3) +
            " turns right)");
    }
    if (!(area > 0)) bad(at("paved_corners", q) + ": corners enclose no area anticlockwise");
  }
}

void check_input(const Map& m) {
  if (m.lane_offsets.size() < 2) bad("lane_offsets: need at least one lane (2 offsets)");
  const size_t n = m.px.size();
  check_size(m.py.size(), n, "points (y)");
  check_size(m.pz.size(), n, "points (z)");
  check_size(m.width.size(), n, "widths");
  check_offsets(m.lane_offsets, n, "lane_offsets", 2);  // a lane needs two points
  check_finite(m.px, "points"), check_finite(m.py, "points"), check_finite(m.pz, "points");
  check_finite(m.width, "widths");
  for (size_t i = 0; i < n; ++i)
    if (!(m.width[i] > 0)) bad(at("widths", i) + " = " + std::to_string(m.width[i]) + " is not positive");
  const int lanes = static_cast<int>(m.lane_offsets.size() - 1);
  check_size(m.speed_limit.size(), lanes, "speed_limits");
  for (size_t i = 0; i < m.speed_limit.size(); ++i)
    if (!(m.speed_limit[i] > 0) || !std::isfinite(m.speed_limit[i]))
      bad(at("speed_limits", i) + " is not a positive finite speed");
  check_size(m.successor_offsets.size(), lanes + 1, "successor_offsets");
  check_offsets(m.successor_offsets, m.successors.size(), "successor_offsets", 0);
  check_lane_ids(m.successors, "successors", lanes, 0);
  check_size(m.left.size(), lanes, "left"), check_size(m.right.size(), lanes, "right");
  check_size(m.junction.size(), lanes, "junction");
  check_lane_ids(m.left, "left", lanes, -1), check_lane_ids(m.right, "right", lanes, -1);
  for (size_t i = 0; i < m.junction.size(); ++i)
    if (m.junction[i] < -1) bad(at("junction", i) + " must be >= -1");
  if (m.boundary_points.size() % 3 != 0) bad("boundary_points: expected shape (M, 3)");
  if (!m.boundary_offsets.empty())
    check_offsets(m.boundary_offsets, m.boundary_points.size() / 3, "boundary_offsets", 0);
  else if (!m.boundary_points.empty())
    bad("boundary_offsets: empty while boundary_points has points");
  check_finite(m.boundary_points, "boundary_points");
  check_paved(m.paved_corners);
}

// Unit tangent of centre point i of the lane [a, b): the mean of its two segments' at
// interior points, so adjacent quads of a lane share their edge (no gap inside a curve).
void point_tangent(const Map& m, int64_t i, int64_t a, int64_t b, double& tx, double& ty) {
  int64_t i0 = std::max(a, i - 1), i1 = std::min(b - 1, i + 1);
  double sx = 0, sy = 0;
  if (i > a) {
    double dx = m.px[i] - m.px[i0], dy = m.py[i] - m.py[i0], len = std::hypot(dx, dy);
    if (len > 1e-9) sx += dx / len, sy += dy / len;
  }
  if (i < b - 1) {
    double dx = m.px[i1] - m.px[i], dy = m.py[i1] - m.py[i], len = std::hypot(dx, dy);
    if (len > 1e-9) sx += dx / len, sy += dy / len;
  }
  double len = std::hypot(sx, sy);
  if (len < 1e-9) sx = 1, sy = 0, len = 1;
  tx = sx / len, ty = sy / len;
}

void build_quads(Map& m) {
  m.lane_count = static_cast<int>(m.lane_offsets.size() - 1);
  const size_t n = m.px.size();
  m.point_s.assign(n, 0.0);
  m.point_heading.assign(n, 0.0f);
  m.point_cos.assign(n, 1.0), m.point_sin.assign(n, 0.0);
  m.lane_length.assign(m.lane_count, 0.0f);
  m.quad_count = static_cast<int>(n) - m.lane_count;
  const size_t q_n = static_cast<size_t>(m.quad_count);
  m.quad_lane.resize(q_n), m.quad_point.resize(q_n);
  m.corner_x.resize(4 * q_n), m.corner_y.resize(4 * q_n);
  m.quad_z0.resize(q_n), m.quad_z1.resize(q_n), m.quad_tx.resize(q_n), m.quad_ty.resize(q_n);
  m.quad_len.resize(q_n), m.quad_heading.resize(q_n), m.quad_reach.resize(q_n);
  int q = 0;
  for (int l = 0; l < m.lane_count; ++l) {
    const int64_t a = m.lane_offsets[l], b = m.lane_offsets[l + 1];
    for (int64_t i = a + 1; i < b; ++i)
      m.point_s[i] = m.point_s[i - 1] + std::hypot(m.px[i] - m.px[i - 1], m.py[i] - m.py[i - 1]);
    m.lane_length[l] = static_cast<float>(m.point_s[b - 1]);
    for (int64_t i = a; i + 1 < b; ++i)
      m.point_heading[i] = static_cast<float>(std::atan2(m.py[i + 1] - m.py[i], m.px[i + 1] - m.px[i]));
    m.point_heading[b - 1] = m.point_heading[b - 2];
    for (int64_t i = a; i < b; ++i)
      m.point_cos[i] = std::cos(static_cast<double>(m.point_heading[i])),
      m.point_sin[i] = std::sin(static_cast<double>(m.point_heading[i]));
    for (int64_t i = a; i + 1 < b; ++i, ++q) {
      m.quad_lane[q] = l;
      m.quad_point[q] = static_cast<int32_t>(i);
      double dx = m.px[i + 1] - m.px[i], dy = m.py[i + 1] - m.py[i], len = std::hypot(dx, dy);
      double tx = len > 1e-9 ? dx / len : 1.0, ty = len > 1e-9 ? dy / len : 0.0;
      m.quad_tx[q] = static_cast<float>(tx), m.quad_ty[q] = static_cast<float>(ty);
      m.quad_len[q] = static_cast<float>(len);
      m.quad_heading[q] = static_cast<float>(std::atan2(ty, tx));
      m.quad_z0[q] = static_cast<float>(m.pz[i]), m.quad_z1[q] = static_cast<float>(m.pz[i + 1]);
      const int64_t ends[2] = {i, i + 1};
      double nx[2], ny[2];
      for (int e = 0; e < 2; ++e) {
        double ux, uy;
        point_tangent(m, ends[e], a, b, ux, uy);
        nx[e] = -uy, ny[e] = ux;
      }
      const double hw0 = 0.5 * m.width[i], hw1 = 0.5 * m.width[i + 1];
      const double cx[4] = {m.px[i] - nx[0] * hw0, m.px[i + 1] - nx[1] * hw1, m.px[i + 1] + nx[1] * hw1,
                            m.px[i] + nx[0] * hw0};
      const double cy[4] = {m.py[i] - ny[0] * hw0, m.py[i + 1] - ny[1] * hw1, m.py[i + 1] + ny[1] * hw1,
                            m.py[i] + ny[0] * hw0};
      double reach = 0.0;
      for (int k = 0; k < 4; ++k) {
        m.corner_x[4 * q + k] = static_cast<float>(cx[k]), m.corner_y[4 * q + k] = static_cast<float>(cy[k]);
        reach = std::max(reach, std::hypot(cx[k] - 0.5 * (m.px[i] + m.px[i + 1]), cy[k] - 0.5 * (m.py[i] + m.py[i + 1])));
      }
      m.quad_reach[q] = static_cast<float>(reach) + kSeamTolerance + 1e-3f;
    }
  }
  m.quad_foot.resize(q_n);
  for (size_t k = 0; k < q_n; ++k) {
    const int p = m.quad_point[k];
    m.quad_foot[k] = {m.px[p], m.py[p], m.quad_tx[k], m.quad_ty[k], m.quad_len[k], m.quad_z0[k], m.quad_z1[k],
                      m.quad_reach[k]};
  }
}

int grid_cell(const Map& m, float x, float y) {
  int cx = static_cast<int>(std::floor((x - m.grid_x0) / kMapCellSize));
  int cy = static_cast<int>(std::floor((y - m.grid_y0) / kMapCellSize));
  cx = std::min(std::max(cx, 0), m.grid_cols - 1);
  cy = std::min(std::max(cy, 0), m.grid_rows - 1);
  return cy * m.grid_cols + cx;
}

// Cell range [x0, x1] x [y0, y1] covering a box, clamped to the grid.
void cell_range(const Map& m, float lo_x, float lo_y, float hi_x, float hi_y, int& x0, int& y0, int& x1,
                int& y1) {
  auto clamp_to = [](int v, int n) { return std::min(std::max(v, 0), n - 1); };
  x0 = clamp_to(static_cast<int>(std::floor((lo_x - m.grid_x0) / kMapCellSize)), m.grid_cols);
  x1 = clamp_to(static_cast<int>(std::floor((hi_x - m.grid_x0) / kMapCellSize)), m.grid_cols);
  y0 = clamp_to(static_cast<int>(std::floor((lo_y - m.grid_y0) / kMapCellSize)), m.grid_rows);
  y1 = clamp_to(static_cast<int>(std::floor((hi_y - m.grid_y0) / kMapCellSize)), m.grid_rows);
}

void quad_box(const Map& m, int q, float grow, float& lo_x, float& lo_y, float& hi_x, float& hi_y) {
  const float* cx = &m.corner_x[4 * q];
  const float* cy = &m.corner_y[4 * q];
  lo_x = std::min({cx[0], cx[1], cx[2], cx[3]}) - grow, hi_x = std::max({cx[0], cx[1], cx[2], cx[3]}) + grow;
  lo_y = std::min({cy[0], cy[1], cy[2], cy[3]}) - grow, hi_y = std::max({cy[0], cy[1], cy[2], cy[3]}) + grow;
}

// Counting sort of (cell, quad) pairs: count, prefix-sum, scatter.
void build_grid(Map& m) {
  float lo_x = 1e30f, lo_y = 1e30f, hi_x = -1e30f, hi_y = -1e30f;
  for (size_t k = 0; k < m.corner_x.size(); ++k) {
    lo_x = std::min(lo_x, m.corner_x[k]), hi_x = std::max(hi_x, m.corner_x[k]);
    lo_y = std::min(lo_y, m.corner_y[k]), hi_y = std::max(hi_y, m.corner_y[k]);
  }
  const float margin = kSeamTolerance + kOutOfBoundsPush + 1.0f;
  m.grid_x0 = lo_x - margin, m.grid_y0 = lo_y - margin;
  m.grid_cols = std::max(1, static_cast<int>(std::ceil((hi_x + margin - m.grid_x0) / kMapCellSize)));
  m.grid_rows = std::max(1, static_cast<int>(std::ceil((hi_y + margin - m.grid_y0) / kMapCellSize)));
  if (static_cast<double>(m.grid_cols) * m.grid_rows > 5e7) bad("points: map extent too large for the grid");
  m.grid_start.assign(static_cast<size_t>(m.grid_cols) * m.grid_rows + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      for (size_t c = 1; c < m.grid_start.size(); ++c) m.grid_start[c] += m.grid_start[c - 1];
      m.grid_quads.assign(m.grid_start.back(), 0);
    }
    std::vector<int32_t> cursor(pass == 1 ? m.grid_start : std::vector<int32_t>{});
    for (int q = 0; q < m.quad_count; ++q) {
      float bx0, by0, bx1, by1;
      int x0, y0, x1, y1;
      quad_box(m, q, kSeamTolerance, bx0, by0, bx1, by1);
      cell_range(m, bx0, by0, bx1, by1, x0, y0, x1, y1);
      for (int cy = y0; cy <= y1; ++cy)
        for (int cx = x0; cx <= x1; ++cx) {
          int c = cy * m.grid_cols + cx;
          if (pass == 0) ++m.grid_start[c + 1];
          else m.grid_quads[cursor[c]++] = q;
        }
    }
  }
}

// Rivals by box overlap (map.h). The boxes grow by a centimetre more than the seam
// tolerance, so rounding in the on-quad test can never leave a holding quad out.
void build_rivals(Map& m) {
  const float grow = kSeamTolerance + 0.01f;
  m.rival_start.assign(1, 0);
  m.rivals.clear();
  std::vector<int32_t> seen(m.quad_count, -1);
  std::vector<int32_t> found;
  for (int q = 0; q < m.quad_count; ++q) {
    float ax0, ay0, ax1, ay1;
    int x0, y0, x1, y1;
    quad_box(m, q, grow, ax0, ay0, ax1, ay1);
    cell_range(m, ax0, ay0, ax1, ay1, x0, y0, x1, y1);
    found.clear();
    for (int cy = y0; cy <= y1; ++cy)
      for (int cx = x0; cx <= x1; ++cx) {
        const int c = cy * m.grid_cols + cx;
        for (int k = m.grid_start[c]; k < m.grid_start[c + 1]; ++k) {
          const int r = m.grid_quads[k];
          if (seen[r] == q) continue;
          seen[r] = q;
          float bx0, by0, bx1, by1;
          quad_box(m, r, grow, bx0, by0, bx1, by1);
          if (bx0 <= ax1 && ax0 <= bx1 && by0 <= ay1 && ay0 <= by1) found.push_back(r);
        }
      }
    std::sort(found.begin(), found.end());
    m.rivals.insert(m.rivals.end(), found.begin(), found.end());
    m.rival_start.push_back(static_cast<int32_t>(m.rivals.size()));
  }
}

// Paved quads and their grid (a counting sort, as build_grid's) over the lane grid's cells.
void build_paved(Map& m) {
  const size_t n = m.paved_corners.size() / 12;
  m.paved_count = static_cast<int>(n);
  m.paved_x.resize(4 * n), m.paved_y.resize(4 * n), m.paved_z.resize(n);
  for (size_t q = 0; q < n; ++q) {
    const double* p = &m.paved_corners[12 * q];
    double z = 0;
    for (int k = 0; k < 4; ++k)
      m.paved_x[4 * q + k] = static_cast<float>(p[3 * k]), m.paved_y[4 * q + k] = static_cast<float>(p[3 * k + 1]),
      z += 0.25 * p[3 * k + 2];
    m.paved_z[q] = static_cast<float>(z);
  }
  m.paved_grid_start.assign(static_cast<size_t>(m.grid_cols) * m.grid_rows + 1, 0);
  m.paved_grid_quads.clear();
  if (n == 0) return;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      for (size_t c = 1; c < m.paved_grid_start.size(); ++c) m.paved_grid_start[c] += m.paved_grid_start[c - 1];
      m.paved_grid_quads.assign(m.paved_grid_start.back(), 0);
    }
    std::vector<int32_t> cursor(pass == 1 ? m.paved_grid_start : std::vector<int32_t>{});
    for (int q = 0; q < m.paved_count; ++q) {
      const float* cx = &m.paved_x[4 * q];
      const float* cy = &m.paved_y[4 * q];
      int x0, y0, x1, y1;
      cell_range(m, std::min({cx[0], cx[1], cx[2], cx[3]}) - kSeamTolerance,
                 std::min({cy[0], cy[1], cy[2], cy[3]}) - kSeamTolerance,
                 std::max({cx[0], cx[1], cx[2], cx[3]}) + kSeamTolerance,
                 std::max({cy[0], cy[1], cy[2], cy[3]}) + kSeamTolerance, x0, y0, x1, y1);
      for (int cy_ = y0; cy_ <= y1; ++cy_)
        for (int cx_ = x0; cx_ <= x1; ++cx_) {
          const int c = cy_ * m.grid_cols + cx_;
          if (pass == 0) ++m.paved_grid_start[c + 1];
          else m.paved_grid_quads[cursor[c]++] = q;
        }
    }
  }
}

void build_out_of_bounds(Map& m) {
  m.oob_x.clear(), m.oob_y.clear(), m.oob_z.clear();
  for (int q = 0; q < m.quad_count; ++q) {
    const int l = m.quad_lane[q];
    const float nx = -m.quad_ty[q], ny = m.quad_tx[q];  // left normal
    const float z = 0.5f * (m.quad_z0[q] + m.quad_z1[q]);
    const float* cx = &m.corner_x[4 * q];
    const float* cy = &m.corner_y[4 * q];
    for (int side = 0; side < 2; ++side) {  // 0: right edge (corners 0, 1), 1: left edge (2, 3)
      if ((side == 0 ? m.right[l] : m.left[l]) >= 0) continue;
      const float sign = side == 0 ? -1.0f : 1.0f;
      const int k = 2 * side;
      float x = 0.5f * (cx[k] + cx[k + 1]) + sign * kOutOfBoundsPush * nx;
      float y = 0.5f * (cy[k] + cy[k + 1]) + sign * kOutOfBoundsPush * ny;
      if (point_on_road(m, x, y, z)) continue;
      m.oob_x.push_back(x), m.oob_y.push_back(y), m.oob_z.push_back(z);
    }
  }
  spatial_hash_init(m.oob_hash, m.grid_x0, m.grid_y0, m.grid_x0 + m.grid_cols * kMapCellSize,
                    m.grid_y0 + m.grid_rows * kMapCellSize, kMapCellSize, static_cast<int>(m.oob_x.size()));
  spatial_hash_rebuild(m.oob_hash, m.oob_x.data(), m.oob_y.data(), static_cast<int>(m.oob_x.size()));
}

// Foot point of (x, y) on quad q's centre segment.
struct Foot {
  float along, d, z;
};

// True when the foot (along, d) is too far from quad q's midpoint to be within the seam
// tolerance of it: most of a cell's quads are rejected here without the polygon test.
bool beyond_reach(const Map& m, int q, const Foot& f) {
  const Map::QuadFoot& r = m.quad_foot[q];
  const float a = f.along - 0.5f * r.len;
  return a * a + f.d * f.d > r.reach * r.reach;
}

Foot foot_on_quad(const Map& m, int q, double x, double y) {
  const Map::QuadFoot& r = m.quad_foot[q];
  const float dx = static_cast<float>(x - r.x0), dy = static_cast<float>(y - r.y0);
  const float tx = r.tx, ty = r.ty;
  const float along = dx * tx + dy * ty;
  const float z0 = r.z0, z1 = r.z1;
  // A level quad's z is z0 + t * 0 = z0 for every t in [0, 1] (but -0 + +0 = +0): the
  // division for t, a fifth of localisation, is only needed on slopes.
  if (z0 == z1 && (z0 != 0.0f || !std::signbit(z0))) return {along, tx * dy - ty * dx, z0};
  const float t = r.len > 0 ? std::min(std::max(along / r.len, 0.0f), 1.0f) : 0.0f;
  return {along, tx * dy - ty * dx, z0 + t * (z1 - z0)};
}

float segment_distance_sq(float px, float py, float ax, float ay, float bx, float by) {
  const float ex = bx - ax, ey = by - ay, wx = px - ax, wy = py - ay;
  const float len2 = ex * ex + ey * ey;
  float t = len2 > 0 ? (wx * ex + wy * ey) / len2 : 0.0f;
  t = std::min(std::max(t, 0.0f), 1.0f);
  const float rx = wx - t * ex, ry = wy - t * ey;
  return rx * rx + ry * ry;
}

LanePos lane_pos(const Map& m, int q, const Foot& f, bool on_road) {
  LanePos pos;
  pos.quad = q;
  pos.lane = m.quad_lane[q];
  const int p = m.quad_point[q];
  const float t = m.quad_len[q] > 0 ? std::min(std::max(f.along / m.quad_len[q], 0.0f), 1.0f) : 0.0f;
  pos.s = static_cast<float>(m.point_s[p]) + t * m.quad_len[q];
  pos.d = f.d;
  pos.z = f.z;
  pos.heading = m.quad_heading[q];
  pos.half_width = static_cast<float>(0.5 * (m.width[p] + t * (m.width[p + 1] - m.width[p])));
  pos.on_road = on_road;
  return pos;
}

// The quad of hint's lane whose span holds the foot of (x, y): walks from hint along the
// lane (quads of a lane have consecutive ids) while the foot lies beyond the quad's end
// or before its start. A vehicle moves at most ~12 quads a step. `foot` gets the foot on
// the quad returned (computed once per quad visited; callers test that quad next).
int walk_lane(const Map& m, int q, double x, double y, Foot& foot) {
  const int lane = m.quad_lane[q];
  const int hint = q;
  const Foot at_hint = foot_on_quad(m, q, x, y);
  // First a jump by arc length (one comparison per quad passed), then feet settle it.
  const double target = m.point_s[m.quad_point[q]] + at_hint.along;
  while (q + 1 < m.quad_count && m.quad_lane[q + 1] == lane && m.point_s[m.quad_point[q] + 1] <= target) ++q;
  while (q > 0 && m.quad_lane[q - 1] == lane && m.point_s[m.quad_point[q]] > target) --q;
  Foot f = at_hint;
  int f_quad = hint;
  for (int steps = 0; steps < 48; ++steps) {
    if (f_quad != q) f = foot_on_quad(m, q, x, y), f_quad = q;
    if (f.along > m.quad_len[q] && q + 1 < m.quad_count && m.quad_lane[q + 1] == lane) ++q;
    else if (f.along < 0.0f && q > 0 && m.quad_lane[q - 1] == lane) --q;
    else break;
  }
  foot = f_quad == q ? f : foot_on_quad(m, q, x, y);
  return q;
}

// Whether quad q holds the point, given its foot on q.
bool holds_foot(const Map& m, int q, const Foot& f, double x, double y, float fz) {
  if (beyond_reach(m, q, f) || std::fabs(fz - f.z) > kLocaliseZWindow) return false;
  return quad_distance(m, q, static_cast<float>(x), static_cast<float>(y)) <= kSeamTolerance;
}

bool holds(const Map& m, int q, double x, double y, float fz) {
  return holds_foot(m, q, foot_on_quad(m, q, x, y), x, y, fz);
}

// True when quad q (foot f) or a rival of it holds the point: exact when true (false: ask
// the grid).
bool rival_holds(const Map& m, int q, const Foot& f, double x, double y, float fz) {
  if (holds_foot(m, q, f, x, y, fz)) return true;  // the usual case
  for (int k = m.rival_start[q]; k < m.rival_start[q + 1]; ++k)
    if (holds(m, m.rivals[k], x, y, fz)) return true;
  return false;
}

}  // namespace

float quad_distance(const Map& m, int q, float x, float y) {
  return polygon4_distance(&m.corner_x[4 * q], &m.corner_y[4 * q], x, y);
}

float polygon4_distance(const float* cx, const float* cy, float x, float y) {
  bool inside = true;
  for (int k = 0; k < 4 && inside; ++k) {
    const int k1 = (k + 1) & 3;
    inside = (cx[k1] - cx[k]) * (y - cy[k]) - (cy[k1] - cy[k]) * (x - cx[k]) >= 0.0f;
  }
  if (inside) return 0.0f;
  float best = 1e30f;
  for (int k = 0; k < 4; ++k) {
    const int k1 = (k + 1) & 3;
    best = std::min(best, segment_distance_sq(x, y, cx[k], cy[k], cx[k1], cy[k1]));
  }
  return std::sqrt(best);
}

bool point_on_road(const Map& m, double x, double y, double z) {
  const float fx = static_cast<float>(x), fy = static_cast<float>(y);
  const int c = grid_cell(m, fx, fy);
  for (int k = m.grid_start[c]; k < m.grid_start[c + 1]; ++k) {
    const int q = m.grid_quads[k];
    const Foot f = foot_on_quad(m, q, x, y);
    if (beyond_reach(m, q, f) || std::fabs(static_cast<float>(z) - f.z) > kLocaliseZWindow) continue;
    if (quad_distance(m, q, fx, fy) <= kSeamTolerance) return true;
  }
  return m.paved_count > 0 && point_on_paved(m, x, y, z);
}

bool point_on_paved(const Map& m, double x, double y, double z) {
  if (m.paved_count == 0) return false;
  const float fx = static_cast<float>(x), fy = static_cast<float>(y);
  const int c = grid_cell(m, fx, fy);
  for (int k = m.paved_grid_start[c]; k < m.paved_grid_start[c + 1]; ++k) {
    const int q = m.paved_grid_quads[k];
    if (std::fabs(static_cast<float>(z) - m.paved_z[q]) > kLocaliseZWindow) continue;
    if (polygon4_distance(&m.paved_x[4 * q], &m.paved_y[4 * q], fx, fy) <= kSeamTolerance) return true;
  }
  return false;
}

LanePos localise(const Map& m, double x, double y, double z, int hint_quad) {
  const float fx = static_cast<float>(x), fy = static_cast<float>(y), fz = static_cast<float>(z);
  int best = -1;
  Foot best_foot{0, 0, 0};
  float best_abs_d = 1e30f;
  // Candidates: where a quad along the hint's lane holds the point, its rivals (every quad
  // that can hold the point, ascending like a grid cell's list, so the scan below picks
  // the same quad); else the point's grid cell.
  // The winner is the holder least in (|d|, not the hint, id): a scan in ascending id that
  // keeps the first of equal |d| unless a later one is the hint. Starting from the quad
  // near the hint that holds the point (usually the winner) lets most rivals fail the
  // cheap |d| test before the polygon test; the order-free comparison keeps the answer.
  const int32_t* list = nullptr;
  int list_size = 0;
  if (hint_quad >= 0) {
    Foot f;
    const int q = walk_lane(m, hint_quad, x, y, f);
    if (holds_foot(m, q, f, x, y, fz)) {
      list = &m.rivals[m.rival_start[q]], list_size = m.rival_start[q + 1] - m.rival_start[q];
      best = q, best_foot = f, best_abs_d = std::fabs(f.d);
    }
  }
  if (!list) {
    const int c = grid_cell(m, fx, fy);
    list = &m.grid_quads[m.grid_start[c]], list_size = m.grid_start[c + 1] - m.grid_start[c];
  }
  for (int k = 0; k < list_size; ++k) {
    const int q = list[k];
    if (q == best) continue;
    const Foot f = foot_on_quad(m, q, x, y);
    if (std::fabs(fz - f.z) > kLocaliseZWindow) continue;
    const float ad = std::fabs(f.d);
    if (ad > best_abs_d) continue;
    if (ad == best_abs_d && q != hint_quad && (best == hint_quad || q > best)) continue;
    if (beyond_reach(m, q, f) || quad_distance(m, q, fx, fy) > kSeamTolerance) continue;
    best = q, best_foot = f, best_abs_d = ad;
  }
  if (best >= 0) return lane_pos(m, best, best_foot, true);
  // Off-road: the nearest quad within the search radius (in the z window).
  int x0, y0, x1, y1;
  cell_range(m, fx - kOffRoadSearchRadius, fy - kOffRoadSearchRadius, fx + kOffRoadSearchRadius,
             fy + kOffRoadSearchRadius, x0, y0, x1, y1);
  float best_dist = kOffRoadSearchRadius;
  for (int cy = y0; cy <= y1; ++cy)
    for (int cx = x0; cx <= x1; ++cx) {
      const int cell = cy * m.grid_cols + cx;
      for (int k = m.grid_start[cell]; k < m.grid_start[cell + 1]; ++k) {
        const int q = m.grid_quads[k];
        const Foot f = foot_on_quad(m, q, x, y);
        if (std::fabs(fz - f.z) > kLocaliseZWindow) continue;
        const float dist = quad_distance(m, q, fx, fy);
        if (dist < best_dist || (dist == best_dist && q == hint_quad)) best = q, best_foot = f, best_dist = dist;
      }
    }
  if (best >= 0) return lane_pos(m, best, best_foot, false);
  return LanePos{};
}

bool box_off_road(const Map& m, double x, double y, double z, double heading, double length,
                  double width, int hint_quad, bool centre_on_road) {
  return box_off_road_cs(m, x, y, z, std::cos(heading), std::sin(heading), length, width, hint_quad, centre_on_road);
}

bool box_off_road_cs(const Map& m, double x, double y, double z, double c, double s, double length,
                     double width, int hint_quad, bool centre_on_road) {
  const double hl = 0.5 * length, hw = 0.5 * width;
  // On-road is "some quad holds the point": a quad found near the hint settles it; only a
  // point that none of those holds asks the grid.
  const float fz = static_cast<float>(z);
  auto on_road = [&](double px, double py) {
    if (hint_quad >= 0) {
      Foot f;
      const int q = walk_lane(m, hint_quad, px, py, f);
      if (rival_holds(m, q, f, px, py, fz)) return true;
    }
    return point_on_road(m, px, py, z);
  };
  if (!centre_on_road && !on_road(x, y)) return true;
  for (int k = 0; k < 4; ++k) {
    const double lx = (k & 1) ? hl : -hl, ly = (k & 2) ? hw : -hw;
    if (!on_road(x + c * lx - s * ly, y + s * lx + c * ly)) return true;
  }
  bool hit = false;
  const float radius = static_cast<float>(std::hypot(hl, hw));
  spatial_hash_query(m.oob_hash, m.oob_x.data(), m.oob_y.data(), static_cast<float>(x),
                     static_cast<float>(y), radius, [&](int id, float) {
                       if (hit || std::fabs(static_cast<float>(z) - m.oob_z[id]) > kLocaliseZWindow) return;
                       const double dx = m.oob_x[id] - x, dy = m.oob_y[id] - y;
                       const double lx = c * dx + s * dy, ly = -s * dx + c * dy;
                       hit = std::fabs(lx) <= hl && std::fabs(ly) <= hw;
                     });
  return hit;
}

void build_map(Map& m) {
  check_input(m);
  build_quads(m);
  build_grid(m);
  build_rivals(m);
  build_paved(m);
  build_out_of_bounds(m);
  build_route_table(m);
  build_map_sets(m);
  build_junction_conflicts(m);
}

}  // namespace trackfield::driving
