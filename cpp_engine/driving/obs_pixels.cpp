// The "pixels" observation (obs.h): the map's static picture sampled through the agent's
// pose, then the moving things drawn over it, each in its own channel.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/raster.h"
#include "driving/obs.h"
#include "driving/observed.h"
#include "driving/route_walk.h"
#include "driving/step.h"

namespace trackfield::driving {

namespace {

constexpr int N = kPixelSize, C = kPixelChannels;
constexpr float kHalf = 0.5f * N;  // the ego's centre, px from the top-left corner
// Farther than this from the ego (m), nothing of a vehicle or stop line reaches the frame:
// the half diagonal plus half the longest vehicle, with room.
constexpr double kReach = kHalf * kPixelMetres * 1.415 + 6.0;
constexpr int kRoutePoints = 10;       // 5 m apart: the route 50 m ahead
constexpr float kRouteSpacing = 5.0f;  // m
constexpr float kStopBandDepth = 1.5f; // m behind a stop line

struct EgoFrame {
  uint8_t* out;
  double ox, oy, c, s;

  void to_px(double x, double y, float* u, float* v) const {
    const double dx = x - ox, dy = y - oy;
    const double fwd = c * dx + s * dy, left = -s * dx + c * dy;
    *u = static_cast<float>(kHalf - left / kPixelMetres);
    *v = static_cast<float>(kHalf - fwd / kPixelMetres);
  }
  bool near(double x, double y, double reach) const { return std::fabs(x - ox) <= reach && std::fabs(y - oy) <= reach; }
  void set(int ch, int x, int y, uint8_t value) const {
    if (x >= 0 && y >= 0 && x < N && y < N) out[(y * N + x) * C + ch] = value;
  }
  void triangle(int ch, uint8_t value, const float* u, const float* v, int i, int j, int k) const {
    raster::scan_triangle_px(N, N, u[i], v[i], u[j], v[j], u[k], v[k], [&](int x, int y) { set(ch, x, y, value); });
  }
  // A quad given by its corners in order (world frame).
  void quad(int ch, uint8_t value, const double* x, const double* y) const {
    float u[4], v[4];
    for (int k = 0; k < 4; ++k) to_px(x[k], y[k], u + k, v + k);
    triangle(ch, value, u, v, 0, 1, 2);
    triangle(ch, value, u, v, 0, 2, 3);
  }
  // An oriented box, drawn at least a little over a pixel wide and long (a box narrower than
  // a pixel can cover no pixel centre), and its centre's pixel always, so that a narrow
  // vehicle never vanishes and keeps its length.
  void box(int ch, double x, double y, double heading, double length, double width) const {
    const double min_half = 0.51 * kPixelMetres;
    const double hc = std::cos(heading), hs = std::sin(heading);
    const double hl = std::max(0.5 * length, min_half), hw = std::max(0.5 * width, min_half);
    const double fx[4] = {hl, hl, -hl, -hl}, fy[4] = {hw, -hw, -hw, hw};
    double cx[4], cy[4];
    for (int k = 0; k < 4; ++k) cx[k] = x + fx[k] * hc - fy[k] * hs, cy[k] = y + fx[k] * hs + fy[k] * hc;
    quad(ch, 255, cx, cy);
    float u, v;
    to_px(x, y, &u, &v);
    set(ch, static_cast<int>(std::floor(u)), static_cast<int>(std::floor(v)), 255);
  }
  void line(int ch, uint8_t value, float u0, float v0, float u1, float v1) const {
    const int n = static_cast<int>(std::min(4.0f * N, std::max(std::fabs(u1 - u0), std::fabs(v1 - v0)))) + 1;
    for (int i = 0; i <= n; ++i) {
      const float t = static_cast<float>(i) / n;
      set(ch, static_cast<int>(std::floor(u0 + (u1 - u0) * t)), static_cast<int>(std::floor(v0 + (v1 - v0) * t)), value);
    }
  }
  void disc(int ch, uint8_t value, double x, double y, double radius_m) const {
    float u, v;
    to_px(x, y, &u, &v);
    const float r = static_cast<float>(radius_m / kPixelMetres);
    const int x0 = std::max(0, static_cast<int>(std::floor(u - r))), x1 = std::min(N - 1, static_cast<int>(std::floor(u + r)));
    const int y0 = std::max(0, static_cast<int>(std::floor(v - r))), y1 = std::min(N - 1, static_cast<int>(std::floor(v + r)));
    for (int py = y0; py <= y1; ++py)
      for (int px = x0; px <= x1; ++px) {
        const float du = px + 0.5f - u, dv = py + 0.5f - v;
        if (du * du + dv * dv <= r * r) set(ch, px, py, value);
      }
    set(ch, static_cast<int>(std::floor(u)), static_cast<int>(std::floor(v)), value);
  }
};

// A pixel's six channels from its raster bits: drivable and boundary set, the rest zero.
constexpr uint8_t kStaticPixel[4][C] = {
    {0, 0, 0, 0, 0, 0}, {255, 0, 0, 0, 0, 0}, {0, 255, 0, 0, 0, 0}, {255, 255, 0, 0, 0, 0}};
static_assert(kRasterDrivable == 1 && kRasterBoundary == 2 && kPixelDrivable == 0 && kPixelBoundary == 1,
              "kStaticPixel is indexed by the raster bits");

// Drivable and boundary channels from the map's raster, every other channel zeroed.
// Cell coordinates in 32.32 fixed point: one unsigned comparison per axis rejects both
// sides of the picture, and the raster's fields live in locals (the uint8_t stores to
// `out` may alias anything, so members would be reloaded at every pixel).
void sample_static(const MapRaster& r, const EgoFrame& f, uint8_t* out) {
  const double inv = 1.0 / r.cell, m = kPixelMetres, one = 4294967296.0;
  const uint64_t cols = static_cast<uint64_t>(r.cols) << 32, rows = static_cast<uint64_t>(r.rows) << 32;
  const uint8_t* __restrict packed = r.packed.data();
  const size_t stride = static_cast<size_t>(r.stride);
  // Pixel (col, row) centre: forward = (kHalf - row - 0.5) m, left = (kHalf - col - 0.5) m.
  const int64_t du = std::llround(m * f.s * inv * one), dv = std::llround(-m * f.c * inv * one);
  const double left0 = (kHalf - 0.5) * m;
  for (int row = 0; row < N; ++row) {
    const double fwd = (kHalf - row - 0.5) * m;
    // Clamped far outside any picture, so that the fixed-point values cannot overflow.
    const double cu = std::min(std::max((f.ox + fwd * f.c - left0 * f.s - r.x0) * inv, -1e6), 1e8);
    const double cv = std::min(std::max((f.oy + fwd * f.s + left0 * f.c - r.y0) * inv, -1e6), 1e8);
    uint64_t u = static_cast<uint64_t>(std::llround(cu * one)), v = static_cast<uint64_t>(std::llround(cv * one));
    uint8_t* p = out + row * N * C;
    for (int col = 0; col < N; ++col, p += C, u += static_cast<uint64_t>(du), v += static_cast<uint64_t>(dv)) {
      uint8_t bits = 0;
      if (u < cols && v < rows) {
        const uint32_t iu = static_cast<uint32_t>(u >> 32), iv = static_cast<uint32_t>(v >> 32);
        bits = (packed[iv * stride + (iu >> 2)] >> ((iu & 3) * 2)) & 3;
      }
      std::memcpy(p, kStaticPixel[bits], C);  // one 4-byte and one 2-byte store
    }
  }
}

uint8_t light_value(LightColour colour) {
  return colour == kRed ? 255 : colour == kYellow ? 170 : colour == kGreen ? 85 : 0;
}

}  // namespace

void write_pixels(const DriveWorld& w, const DriveConfig& cfg, int a, uint8_t* out) {
  const DriveMap& dm = world_map(w, cfg);
  const Vehicles& v = w.veh;
  const EgoView ego = observed_ego(w, cfg, a);
  const EgoFrame f{out, ego.x, ego.y, ego.c, ego.s};
  sample_static(*dm.raster, f, out);

  if (w.lights.enabled)
    for (int k = 0; k < dm.lights.num_lights(); ++k) {
      const Vec2 pa = dm.lights.stop_line_a[k], pb = dm.lights.stop_line_b[k];
      if (!f.near(0.5 * (pa.x + pb.x), 0.5 * (pa.y + pb.y), kReach)) continue;
      const uint8_t value = light_value(light_colour_of_light(w.lights, dm.lights, k));
      if (!value) continue;
      const double h = dm.lights.lane_heading[k];
      const double bx = -kStopBandDepth * std::cos(h), by = -kStopBandDepth * std::sin(h);
      const double x[4] = {pa.x, pb.x, pb.x + bx, pa.x + bx}, y[4] = {pa.y, pb.y, pb.y + by, pa.y + by};
      f.quad(kPixelLights, value, x, y);
    }

  const Goal& goal = w.goals[a][w.goal_index[a]];
  RoutePoint pts[kRoutePoints];
  const int npts = walk_route(dm, w.lane[a], w.s[a], goal.lane, goal.s, kRouteSpacing, kRoutePoints, pts, nullptr,
                               quad_start_point(*dm.map, w.quad[a]));
  float u0, v0;
  f.to_px(ego.x, ego.y, &u0, &v0);
  for (int k = 0; k < npts; ++k) {
    float u1, v1;
    f.to_px(pts[k].x, pts[k].y, &u1, &v1);
    f.line(kPixelRoute, 128, u0, v0, u1, v1);
    u0 = u1, v0 = v1;
  }
  const double goal_r = cfg.reward.goal_radius_m;
  if (f.near(goal.x, goal.y, kReach + goal_r)) f.disc(kPixelRoute, 255, goal.x, goal.y, goal_r);

  if (!(a < w.erratic.num_agents && is_blind_now(w.erratic, a)))
    for (int j = 0; j < kMaxVehicles; ++j) {
      if (j == a || w.state[j] != kAlive || !f.near(v.x[j], v.y[j], kReach)) continue;
      f.box(kPixelVehicles, v.x[j], v.y[j], v.heading[j], observed_size(cfg, v.length[j]), observed_size(cfg, v.width[j]));
    }
  f.box(kPixelEgo, ego.x, ego.y, ego.heading, v.length[a], v.width[a]);
}

}  // namespace trackfield::driving
