// The viewer's frame of a driving world (render.h).
#include "driving/render.h"

#include <algorithm>
#include <cmath>

#include "common/raster.h"
#include "driving/step.h"

namespace trackfield::driving {

namespace {

using raster::Color;
constexpr Color kGround{38, 52, 40}, kLane{88, 88, 94}, kBoundary{210, 210, 200}, kGoalColor{230, 60, 220};
constexpr Color kAgent{245, 140, 40}, kFirstAgent{255, 225, 0}, kBuiltin{60, 130, 235}, kObstacle{140, 140, 140};
constexpr Color kNose{255, 255, 255};
constexpr Color kGreenLight{40, 220, 60}, kYellowLight{250, 210, 30}, kRedLight{240, 40, 40};
constexpr float kMarginM = 5.0f;

struct Frame {
  raster::Canvas canvas;
  RenderView view;
  void to_px(double x, double y, float* u, float* v) const {
    *u = static_cast<float>((x - view.x0) * view.px_per_m);
    *v = static_cast<float>((view.y0 - y) * view.px_per_m);
  }
  void quad(const double* x, const double* y, Color col) const {
    float u[4], v[4];
    for (int k = 0; k < 4; ++k) to_px(x[k], y[k], u + k, v + k);
    raster::fill_triangle_px(canvas, u[0], v[0], u[1], v[1], u[2], v[2], col);
    raster::fill_triangle_px(canvas, u[0], v[0], u[2], v[2], u[3], v[3], col);
  }
  void line(double x0, double y0, double x1, double y1, Color col) const {
    float u0, v0, u1, v1;
    to_px(x0, y0, &u0, &v0), to_px(x1, y1, &u1, &v1);
    raster::line_px(canvas, u0, v0, u1, v1, col);
  }
  void box(double x, double y, double heading, double length, double width, Color col) const {
    const double c = std::cos(heading), s = std::sin(heading), hl = 0.5 * length, hw = 0.5 * width;
    const double fx[4] = {hl, hl, -hl, -hl}, fy[4] = {hw, -hw, -hw, hw};
    double cx[4], cy[4];
    for (int k = 0; k < 4; ++k) cx[k] = x + fx[k] * c - fy[k] * s, cy[k] = y + fx[k] * s + fy[k] * c;
    quad(cx, cy, col);
    float u, v;
    to_px(x, y, &u, &v);
    raster::put(canvas, static_cast<int>(std::floor(u)), static_cast<int>(std::floor(v)), col);
    line(x, y, x + hl * c, y + hl * s, kNose);
  }
};

constexpr Color kRingOutline{0, 0, 0};

// The pixels whose centres lie between radii r0 and r1 of (cx, cy).
void ring_px(const raster::Canvas& c, float cx, float cy, float r0, float r1, Color col) {
  const int y0 = std::max(0, static_cast<int>(std::floor(cy - r1))), y1 = std::min(c.height - 1, static_cast<int>(cy + r1));
  const int x0 = std::max(0, static_cast<int>(std::floor(cx - r1))), x1 = std::min(c.width - 1, static_cast<int>(cx + r1));
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const float dx = x + 0.5f - cx, dy = y + 0.5f - cy, d2 = dx * dx + dy * dy;
      if (d2 >= r0 * r0 && d2 < r1 * r1) raster::put(c, x, y, col);
    }
}

Color light_color(LightColour c) { return c == kRed ? kRedLight : c == kYellow ? kYellowLight : kGreenLight; }

}  // namespace

RenderView render_view(const DriveMap& dm, int size) {
  const double w = dm.max_x - dm.min_x + 2 * kMarginM, h = dm.max_y - dm.min_y + 2 * kMarginM;
  const double ppm = size / std::max(w, h);
  // Centred: the shorter side gets equal bands on both sides.
  const double cx = 0.5 * (dm.min_x + dm.max_x), cy = 0.5 * (dm.min_y + dm.max_y);
  return {cx - 0.5 * size / ppm, cy + 0.5 * size / ppm, ppm};
}

void render_world(const DriveWorld& w, const DriveConfig& cfg, uint8_t* rgb, int size) {
  const DriveMap& dm = world_map(w, cfg);
  const Map& map = *dm.map;
  const Frame f{{rgb, size, size, 3, 1, 1, 0, 0, false}, render_view(dm, size)};
  raster::fill_columns(f.canvas, [](int) { return kGround; });
  for (int q = 0; q < map.quad_count; ++q) {
    const double x[4] = {map.corner_x[4 * q], map.corner_x[4 * q + 1], map.corner_x[4 * q + 2], map.corner_x[4 * q + 3]};
    const double y[4] = {map.corner_y[4 * q], map.corner_y[4 * q + 1], map.corner_y[4 * q + 2], map.corner_y[4 * q + 3]};
    f.quad(x, y, kLane);
  }
  const std::vector<double>& bp = map.boundary_points;
  for (size_t b = 0; b + 1 < map.boundary_offsets.size(); ++b)
    for (int64_t k = map.boundary_offsets[b]; k + 1 < map.boundary_offsets[b + 1]; ++k)
      f.line(bp[3 * k], bp[3 * k + 1], bp[3 * k + 3], bp[3 * k + 4], kBoundary);
  if (w.lights.enabled)
    for (int k = 0; k < dm.lights.num_lights(); ++k) {
      const LightColour c = light_colour_of_light(w.lights, dm.lights, k);
      if (c == kNone) continue;
      const Vec2 a = dm.lights.stop_line_a[k], b = dm.lights.stop_line_b[k];
      const double h = dm.lights.lane_heading[k], bx = -1.5 * std::cos(h), by = -1.5 * std::sin(h);
      const double x[4] = {a.x, b.x, b.x + bx, a.x + bx}, y[4] = {a.y, b.y, b.y + by, a.y + by};
      f.quad(x, y, light_color(c));
    }
  const int controlled = cfg.num_controlled();
  for (int i = 0; i < controlled; ++i) {
    if (w.state[i] != kAlive || w.goal_count[i] < 1) continue;
    const Goal& g = w.goals[i][w.goal_index[i]];
    raster::fill_ellipse_px(f.canvas, static_cast<float>((g.x - f.view.x0) * f.view.px_per_m),
                            static_cast<float>((f.view.y0 - g.y) * f.view.px_per_m),
                            std::max(1.5f, static_cast<float>(cfg.reward.goal_radius_m * f.view.px_per_m)),
                            std::max(1.5f, static_cast<float>(cfg.reward.goal_radius_m * f.view.px_per_m)),
                            kGoalColor);
  }
  const Vehicles& v = w.veh;
  for (int i = 0; i < kMaxVehicles; ++i) {
    if (w.state[i] != kAlive) continue;
    const Color col = i >= kMaxAgents ? kObstacle : i >= controlled ? kBuiltin : i == 0 ? kFirstAgent : kAgent;
    f.box(v.x[i], v.y[i], v.heading[i], v.length[i], v.width[i], col);
  }
  // Slot 0's ring: a fixed pixel size, so the ego shows on a map of any size.
  if (w.state[0] == kAlive && controlled > 0) {
    float u, vv;
    f.to_px(v.x[0], v.y[0], &u, &vv);
    const float r = std::max(6.0f, size / 60.0f), t = std::max(1.5f, size / 320.0f);
    ring_px(f.canvas, u, vv, r + t, r + 2.0f * t, kRingOutline);
    ring_px(f.canvas, u, vv, r, r + t, kFirstAgent);
    ring_px(f.canvas, u, vv, r - t, r, kRingOutline);
  }
}

}  // namespace trackfield::driving
