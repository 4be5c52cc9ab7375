// The ego-following view of a driving world (render.h): about 60 m around one agent, its
// heading up, with the markings a person reads a road by.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/raster.h"
#include "driving/map.h"
#include "driving/render.h"
#include "driving/route_walk.h"
#include "driving/step.h"

namespace trackfield::driving {

namespace {

using raster::Color;
constexpr Color kGrass{46, 66, 44}, kRoad{72, 72, 78}, kJunctionRoad{78, 78, 84};
constexpr Color kEdge{235, 235, 228}, kDivider{225, 225, 218}, kCentre{235, 190, 40}, kArrow{150, 150, 158};
constexpr Color kRoute{70, 200, 255}, kGoalColor{230, 60, 220}, kGoalDarkColor{90, 20, 90}, kOutline{15, 15, 18};
constexpr Color kEgo{255, 225, 0}, kAgent{245, 140, 40}, kBuiltin{60, 130, 235}, kObstacle{140, 140, 140};
constexpr Color kWindscreen{230, 240, 250}, kText{240, 240, 240};
constexpr Color kGreenLight{40, 220, 60}, kYellowLight{250, 210, 30}, kRedLight{240, 40, 40};

constexpr double kDashMetres = 3.0;     // dashes and gaps of a divider between same-direction lanes
constexpr double kArrowSpacing = 16.0;  // m between direction arrows along a lane
constexpr double kShortestArrowedLane = 6.0;  // m
constexpr double kBeyondEdgeMetres = 0.6;      // where a lane's side looks for road beyond it
constexpr float kRouteSpacing = 2.0f;   // m between the route line's points
constexpr int kRoutePoints = 64;        // the route line's budget (all legs together)

Color light_color(LightColour c) { return c == kRed ? kRedLight : c == kYellow ? kYellowLight : kGreenLight; }

struct EgoFrame {
  raster::Canvas canvas;
  double ox, oy, c, s, ppm, half, reach;

  void to_px(double x, double y, float* u, float* v) const {
    const double dx = x - ox, dy = y - oy;
    *u = static_cast<float>(half + (s * dx - c * dy) * ppm);  // right of the heading goes right
    *v = static_cast<float>(half - (c * dx + s * dy) * ppm);  // ahead goes up
  }
  bool near(double x, double y, double margin = 0.0) const {
    return std::fabs(x - ox) <= reach + margin && std::fabs(y - oy) <= reach + margin;
  }
  void convex(const double* x, const double* y, int n, Color col) const {
    float u[8], v[8];
    for (int k = 0; k < n; ++k) to_px(x[k], y[k], u + k, v + k);
    raster::fill_convex_px(canvas, u, v, n, col);
  }
  // A segment `half_px` pixels either side of its centre line (at least a pixel wide).
  void thick(double x0, double y0, double x1, double y1, float half_px, Color col) const {
    float u0, v0, u1, v1;
    to_px(x0, y0, &u0, &v0), to_px(x1, y1, &u1, &v1);
    const float du = u1 - u0, dv = v1 - v0, len = std::sqrt(du * du + dv * dv);
    if (len < 1e-4f) return;
    const float nu = -dv / len * half_px, nv = du / len * half_px;
    const float pu[4] = {u0 + nu, u1 + nu, u1 - nu, u0 - nu}, pv[4] = {v0 + nv, v1 + nv, v1 - nv, v0 - nv};
    raster::fill_convex_px(canvas, pu, pv, 4, col);
  }
  void disc(double x, double y, double radius_m, Color col) const {
    float u, v;
    to_px(x, y, &u, &v);
    const float r = std::max(1.5f, static_cast<float>(radius_m * ppm));
    raster::fill_ellipse_px(canvas, u, v, r, r, col);
  }
  // An oriented box (at least 2 px each way) with a light windscreen band at its front.
  void vehicle(double x, double y, double heading, double length, double width, Color col) const {
    const double hc = std::cos(heading), hs = std::sin(heading);
    const double hl = std::max(0.5 * length, 1.0 / ppm), hw = std::max(0.5 * width, 1.0 / ppm);
    const double grow = 1.0 / ppm;  // a one-pixel dark outline
    auto box = [&](double f0, double f1, double w, Color fill) {
      const double fx[4] = {f1, f1, f0, f0}, fy[4] = {w, -w, -w, w};
      double bx[4], by[4];
      for (int k = 0; k < 4; ++k) bx[k] = x + fx[k] * hc - fy[k] * hs, by[k] = y + fx[k] * hs + fy[k] * hc;
      convex(bx, by, 4, fill);
    };
    box(-hl - grow, hl + grow, hw + grow, kOutline);
    box(-hl, hl, hw, col);
    const double band = std::min(0.2 * length, 0.8);  // from 0.1 length ahead of the centre
    box(hl - 2.0 * band, hl - band, 0.8 * hw, kWindscreen);
  }
};

// The route from the agent's pose through its remaining goals, as far as the frame shows.
void draw_route(const EgoFrame& f, const DriveWorld& w, const DriveMap& dm, int a, float half_px) {
  RoutePoint pts[kRoutePoints];
  double x0 = w.veh.x[a], y0 = w.veh.y[a];
  int lane = w.lane[a], budget = kRoutePoints;
  float s = w.s[a];
  int64_t start = quad_start_point(*dm.map, w.quad[a]);
  for (int g = w.goal_index[a]; g < w.goal_count[a] && budget > 0 && lane >= 0; ++g) {
    const Goal& goal = w.goals[a][g];
    const int n = walk_route(dm, lane, s, goal.lane, goal.s, kRouteSpacing, budget, pts, nullptr, start);
    int k = 0;
    // The walk goes on past the goal: stop where it comes within one spacing of it (the
    // first leg's route distance is known, so it stops there).
    const float legs = w.goal_route_m[a] / kRouteSpacing;  // +inf when the goal is unreachable
    const int first_leg = g == w.goal_index[a] && legs >= 0.0f && legs < n ? static_cast<int>(legs) : n;
    for (; k < std::min(n, first_leg); ++k) {
      const double dx = pts[k].x - goal.x, dy = pts[k].y - goal.y;
      if (dx * dx + dy * dy < kRouteSpacing * kRouteSpacing) break;
      f.thick(x0, y0, pts[k].x, pts[k].y, half_px, kRoute);
      x0 = pts[k].x, y0 = pts[k].y;
      if (!f.near(x0, y0, 10.0)) return;  // left the frame
    }
    f.thick(x0, y0, goal.x, goal.y, half_px, kRoute);
    budget -= k + 1;
    x0 = goal.x, y0 = goal.y, lane = goal.lane, s = goal.s, start = -1;
    if (!f.near(x0, y0, 10.0)) return;
  }
}

// Whether road lies just beyond one side of lane l at its middle point (side +1: left, -1:
// right): the lanes of the other direction, so that edge is the centre line.
bool road_beyond(const Map& map, int l, int side) {
  const int64_t k = (map.lane_offsets[l] + map.lane_offsets[l + 1] - 1) / 2;
  const double out = side * (0.5 * map.width[k] + kBeyondEdgeMetres);
  return point_on_road(map, map.px[k] - map.point_sin[k] * out, map.py[k] + map.point_cos[k] * out, map.pz[k]);
}

// Dividers, edges and direction arrows of one lane, from its centre points and widths. A
// side with a same-direction neighbour gets a dashed divider (drawn from the right-hand
// lane of the two); one without gets a solid line, yellow where the other direction's
// lanes lie beyond it (the centre line, on the left in right-hand traffic and on the
// right in left-hand traffic), white at the road's edge.
void draw_lane_markings(const EgoFrame& f, const Map& map, int l, float line_px) {
  const int64_t p0 = map.lane_offsets[l], p1 = map.lane_offsets[l + 1];
  if (map.junction[l] >= 0) return;  // junction lanes cross each other: no markings
  const bool dashed = map.left[l] >= 0, right_line = map.right[l] < 0;
  Color left_colour = kEdge, right_colour = kEdge;
  bool sides_known = false;
  for (int64_t k = p0; k + 1 < p1; ++k) {
    if (!f.near(map.px[k], map.py[k], 0.5 * map.width[k] + 2.0)) continue;
    if (!sides_known) {  // once per lane in view
      if (!dashed && road_beyond(map, l, 1)) left_colour = kCentre;
      if (right_line && road_beyond(map, l, -1)) right_colour = kCentre;
      sides_known = true;
    }
    const double c0 = map.point_cos[k], s0 = map.point_sin[k];
    const double c1 = k + 2 < p1 ? map.point_cos[k + 1] : c0, s1 = k + 2 < p1 ? map.point_sin[k + 1] : s0;
    const double h0 = 0.5 * map.width[k], h1 = 0.5 * map.width[k + 1];
    const double lx0 = map.px[k] - s0 * h0, ly0 = map.py[k] + c0 * h0;
    const double lx1 = map.px[k + 1] - s1 * h1, ly1 = map.py[k + 1] + c1 * h1;
    if (!dashed) {
      f.thick(lx0, ly0, lx1, ly1, line_px, left_colour);
    } else {
      const double sa = map.point_s[k], sb = map.point_s[k + 1];
      // Only the parts of [sa, sb] inside a dash: dash j covers [2j, 2j + 1) x kDashMetres.
      for (double d0 = std::floor(sa / (2 * kDashMetres)) * 2 * kDashMetres; d0 < sb; d0 += 2 * kDashMetres) {
        const double a = std::max(sa, d0), b = std::min(sb, d0 + kDashMetres);
        if (b <= a || sb <= sa) continue;
        const double ta = (a - sa) / (sb - sa), tb = (b - sa) / (sb - sa);
        f.thick(lx0 + (lx1 - lx0) * ta, ly0 + (ly1 - ly0) * ta, lx0 + (lx1 - lx0) * tb, ly0 + (ly1 - ly0) * tb,
                line_px, kDivider);
      }
    }
    if (right_line) {
      f.thick(map.px[k] + s0 * h0, map.py[k] - c0 * h0, map.px[k + 1] + s1 * h1, map.py[k + 1] - c1 * h1, line_px,
              right_colour);
    }
  }
  // Direction arrows, kArrowSpacing apart, half a spacing in from the lane's start (a lane
  // shorter than a spacing gets one in its middle, one shorter than kShortestArrowedLane none).
  const double length = map.lane_length[l];
  if (length < kShortestArrowedLane) return;  // a short piece between two others: its neighbours' arrows do
  double at = length < kArrowSpacing ? 0.5 * length : 0.5 * kArrowSpacing;
  int64_t k = p0;
  for (; at < length; at += kArrowSpacing) {
    while (k + 2 < p1 && map.point_s[k + 1] <= at) ++k;
    const double t = std::min(1.0, std::max(0.0, (at - map.point_s[k]) / std::max(1e-6, map.point_s[k + 1] - map.point_s[k])));
    const double x = map.px[k] + (map.px[k + 1] - map.px[k]) * t, y = map.py[k] + (map.py[k + 1] - map.py[k]) * t;
    if (!f.near(x, y, 3.0)) continue;
    const double c = map.point_cos[k], s = map.point_sin[k];
    const double hw = std::min(0.5, 0.18 * map.width[k]);
    // Shaft from 1.6 m behind to 0.2 m ahead of (x, y), head from there to 1.4 m ahead.
    const double sx[4] = {x - 1.6 * c + hw * 0.4 * s, x + 0.2 * c + hw * 0.4 * s, x + 0.2 * c - hw * 0.4 * s,
                          x - 1.6 * c - hw * 0.4 * s};
    const double sy[4] = {y - 1.6 * s - hw * 0.4 * c, y + 0.2 * s - hw * 0.4 * c, y + 0.2 * s + hw * 0.4 * c,
                          y - 1.6 * s + hw * 0.4 * c};
    f.convex(sx, sy, 4, kArrow);
    const double tx[3] = {x + 1.4 * c, x + 0.2 * c - 2 * hw * s, x + 0.2 * c + 2 * hw * s};
    const double ty[3] = {y + 1.4 * s, y + 0.2 * s + 2 * hw * c, y + 0.2 * s - 2 * hw * c};
    f.convex(tx, ty, 3, kArrow);
  }
}

// Where the current goal lies outside the frame: a magenta arrowhead at the frame's edge,
// on the straight line from the ego towards it.
void draw_goal_pointer(const EgoFrame& f, const Goal& goal, int size) {
  float u, v;
  f.to_px(goal.x, goal.y, &u, &v);
  const float h = static_cast<float>(f.half), du = u - h, dv = v - h;
  if (std::fabs(du) < h && std::fabs(dv) < h) return;  // on the frame: its disc shows
  const float len = std::sqrt(du * du + dv * dv), ux = du / len, uy = dv / len;
  const float unit = std::max(1.0f, size / 480.0f), margin = 4.0f * unit;
  const float reach = std::min((h - margin) / std::max(std::fabs(ux), 1e-6f), (h - margin) / std::max(std::fabs(uy), 1e-6f));
  const float tx = h + ux * reach, ty = h + uy * reach, back = 16.0f * unit, wide = 8.0f * unit;
  const float bx = tx - ux * back, by = ty - uy * back;
  const float xs[3] = {tx, bx - uy * wide, bx + uy * wide}, ys[3] = {ty, by + ux * wide, by - ux * wide};
  const float ox[3] = {tx + ux * 2 * unit, bx - uy * (wide + 2 * unit) - ux * unit, bx + uy * (wide + 2 * unit) - ux * unit};
  const float oy[3] = {ty + uy * 2 * unit, by + ux * (wide + 2 * unit) - uy * unit, by - ux * (wide + 2 * unit) - uy * unit};
  raster::fill_convex_px(f.canvas, ox, oy, 3, kOutline);
  raster::fill_convex_px(f.canvas, xs, ys, 3, kGoalColor);
}

}  // namespace

int render_ego_slot(const DriveWorld& w, const DriveConfig& cfg, int slot) {
  if (slot >= 0 && slot < kMaxAgents && w.state[slot] == kAlive) return slot;
  for (int i = 0; i < cfg.num_controlled(); ++i)
    if (w.state[i] == kAlive) return i;
  return std::min(std::max(slot, 0), kMaxAgents - 1);
}

void render_ego(const DriveWorld& w, const DriveConfig& cfg, int slot, uint8_t* rgb, int size) {
  const DriveMap& dm = world_map(w, cfg);
  const Map& map = *dm.map;
  const Vehicles& v = w.veh;
  const int a = render_ego_slot(w, cfg, slot);
  const double ppm = size / kEgoViewMetres, half = 0.5 * size;
  const EgoFrame f{{rgb, size, size, 3, 1, 1, 0, 0, false},
                   v.x[a], v.y[a], std::cos(v.heading[a]), std::sin(v.heading[a]), ppm, half,
                   0.5 * kEgoViewMetres * 1.415};
  const float line_px = std::max(0.7f, static_cast<float>(0.09 * ppm));

  raster::fill_columns(f.canvas, [](int) { return kGrass; });
  for (int q = 0; q < map.quad_count; ++q) {
    const double x[4] = {map.corner_x[4 * q], map.corner_x[4 * q + 1], map.corner_x[4 * q + 2], map.corner_x[4 * q + 3]};
    const double y[4] = {map.corner_y[4 * q], map.corner_y[4 * q + 1], map.corner_y[4 * q + 2], map.corner_y[4 * q + 3]};
    if (!f.near(x[0], y[0], 8.0)) continue;
    f.convex(x, y, 4, map.junction[map.quad_lane[q]] >= 0 ? kJunctionRoad : kRoad);
  }
  for (int l = 0; l < map.lane_count; ++l) draw_lane_markings(f, map, l, line_px);

  // Traffic lights: a band behind each lit stop line and a disc just past its middle.
  if (w.lights.enabled)
    for (int k = 0; k < dm.lights.num_lights(); ++k) {
      const LightColour colour = light_colour_of_light(w.lights, dm.lights, k);
      const Vec2 pa = dm.lights.stop_line_a[k], pb = dm.lights.stop_line_b[k];
      const double mx = 0.5 * (pa.x + pb.x), my = 0.5 * (pa.y + pb.y);
      if (colour == kNone || !f.near(mx, my, 4.0)) continue;
      const double h = dm.lights.lane_heading[k], hc = std::cos(h), hs = std::sin(h);
      const double x[4] = {pa.x, pb.x, pb.x - 0.6 * hc, pa.x - 0.6 * hc};
      const double y[4] = {pa.y, pb.y, pb.y - 0.6 * hs, pa.y - 0.6 * hs};
      f.convex(x, y, 4, light_color(colour));
      f.disc(mx + 1.2 * hc, my + 1.2 * hs, 1.05, kOutline);
      f.disc(mx + 1.2 * hc, my + 1.2 * hs, 0.8, light_color(colour));
    }

  const bool has_goal = a < cfg.num_controlled() && w.goal_count[a] > 0 && w.goal_index[a] < w.goal_count[a];
  if (has_goal) {
    draw_route(f, w, dm, a, std::max(1.0f, static_cast<float>(0.3 * ppm)));
    const double r = cfg.reward.goal_radius_m;
    for (int g = w.goal_count[a] - 1; g >= w.goal_index[a]; --g) {
      const Goal& goal = w.goals[a][g];
      if (!f.near(goal.x, goal.y, r + 1.0)) continue;
      const bool final_goal = g == w.goal_count[a] - 1, current = g == w.goal_index[a];
      f.disc(goal.x, goal.y, r + 0.25, kGoalDarkColor);
      f.disc(goal.x, goal.y, r, current ? kGoalColor : kGoalDarkColor);
      if (final_goal) {  // a dark centre and a light dot: the final goal's target
        f.disc(goal.x, goal.y, 0.5 * r, current ? kGoalDarkColor : kGoalColor);
        f.disc(goal.x, goal.y, 0.2 * r, current ? kGoalColor : kGoalDarkColor);
      }
    }
  }

  const int controlled = cfg.num_controlled();
  for (int i = 0; i < kMaxVehicles; ++i) {
    if (i == a || w.state[i] != kAlive || !f.near(v.x[i], v.y[i], 4.0)) continue;
    const Color col = i >= kMaxAgents ? kObstacle : i >= controlled ? kBuiltin : kAgent;
    f.vehicle(v.x[i], v.y[i], v.heading[i], v.length[i], v.width[i], col);
  }
  f.vehicle(v.x[a], v.y[a], v.heading[a], v.length[a], v.width[a], kEgo);

  // Speed and, with a goal, the route distance to it, in the top-left corner.
  char speed[32], goal[48];
  const int ts = std::max(1, size / 240), gh = raster::kGlyphHeight * ts;
  std::snprintf(speed, sizeof speed, "%.1f M/S", v.v[a]);
  if (has_goal)
    std::snprintf(goal, sizeof goal, std::isfinite(w.goal_route_m[a]) ? "GOAL %d/%d %.0f M" : "GOAL %d/%d --",
                  w.goal_index[a] + 1, w.goal_count[a], w.goal_route_m[a]);
  const int text_w = std::max(raster::text_width(speed, ts), has_goal ? raster::text_width(goal, ts) : 0);
  raster::fill_rect_px(f.canvas, 0, 0, text_w + 7 * ts, (has_goal ? 2 * gh + 9 * ts : gh + 7 * ts), kOutline);
  raster::text(f.canvas, 4 * ts, 4 * ts, speed, ts, kText);
  if (has_goal) raster::text(f.canvas, 4 * ts, 6 * ts + gh, goal, ts, kText);
  if (has_goal) draw_goal_pointer(f, w.goals[a][w.goal_index[a]], size);
}

}  // namespace trackfield::driving
