// The built-in driver (driver.h).
#include "driving/driver.h"

#include <algorithm>
#include <cmath>

#include "driving/bicycle.h"
#include "driving/collision.h"
#include "driving/route_walk.h"
#include "driving/spawn.h"

namespace trackfield::driving {

namespace {

float wrap_angle(float a) { return std::remainder(a, 2.0f * static_cast<float>(M_PI)); }
float clampf(float v, float lo, float hi) { return std::min(std::max(v, lo), hi); }

// The route ahead of one vehicle: points every kDriverSpacing m, the first stop line, the
// next junction and the final goal when they lie on it.
struct Ahead {
  int n = 0;
  double x[kDriverPoints], y[kDriverPoints];
  float heading[kDriverPoints], dist[kDriverPoints];
  int stop_light = -1;
  float stop_dist = 0.0f;     // from the vehicle's centre to the lane end the light stops
  int junction = -1, connector = -1;
  float junction_dist = 0.0f; // from the centre to the connector's start (0: on it)
  float goal_dist = -1.0f;    // from the centre to the goal along the walk (-1: not on it)
  float dead_end = -1.0f;     // from the centre to the end of a lane without successors (-1: none)
};

void walk_ahead(const DriveMap& dm, int lane, float s, const Goal& goal, int64_t start_point, bool points, Ahead& a) {
  const Map& map = *dm.map;
  start_point = usable_start_point(map, lane, s, start_point);
  const float horizon = kDriverSpacing * kDriverPoints;
  float travelled = 0.0f, next_at = kDriverSpacing;
  for (int hops = 0; hops < 64 && travelled < horizon; ++hops) {
    int64_t segment = hops == 0 && start_point >= 0 ? start_point : map.lane_offsets[lane];
    const float left = map.lane_length[lane] - s;
    if (a.junction < 0 && map.junction[lane] >= 0)
      a.junction = map.junction[lane], a.connector = lane, a.junction_dist = travelled;
    if (a.goal_dist < 0.0f && lane == goal.lane && goal.s >= s - 0.5f) a.goal_dist = travelled + std::max(goal.s - s, 0.0f);
    if (a.stop_light < 0 && dm.lane_light[lane] >= 0) {
      // The stop line may stand before the lane's end: stop at the line.
      const int light = dm.lane_light[lane];
      const int64_t e = map.lane_offsets[lane + 1] - 1;
      const Vec2 m = {0.5f * (dm.lights.stop_line_a[light].x + dm.lights.stop_line_b[light].x),
                      0.5f * (dm.lights.stop_line_a[light].y + dm.lights.stop_line_b[light].y)};
      const float h = dm.lights.lane_heading[light];
      const float back = static_cast<float>((map.px[e] - m.x) * std::cos(h) + (map.py[e] - m.y) * std::sin(h));
      a.stop_light = light, a.stop_dist = travelled + left - std::min(std::max(back, 0.0f), left + travelled);
    }
    while (points && a.n < kDriverPoints && travelled + (map.lane_length[lane] - s) >= next_at) {
      s += next_at - travelled;
      travelled = next_at;
      const LanePose p = lane_pose_from(map, lane, s, segment);
      a.x[a.n] = p.x, a.y[a.n] = p.y, a.heading[a.n] = p.heading, a.dist[a.n] = travelled;
      ++a.n;
      next_at += kDriverSpacing;
    }
    travelled += map.lane_length[lane] - s;
    if (!points && (a.junction >= 0 || travelled > kJunctionLook)) break;
    const int next = next_lane_towards(map, lane, goal.lane, goal.s);
    if (next < 0) {
      a.dead_end = travelled;
      break;
    }
    lane = next;
    s = 0.0f;
  }
}

// Whether the light stopping `light` holds a vehicle `dist` m (front bumper) before it at `speed`.
bool light_holds(const DriveWorld& w, const DriveMap& dm, int light, float dist, float speed) {
  if (!w.lights.enabled || light < 0 || dist < -1.0f) return false;
  const LightColour col = light_colour_of_light(w.lights, dm.lights, light);
  if (col == kRed) return true;
  return col == kYellow && speed * speed <= 2.0f * kYellowStopDecel * std::max(dist, 0.1f);
}

const Goal& current_goal(const DriveWorld& w, int i) { return w.goals[i][w.goal_index[i]]; }

}  // namespace

void plan_junctions(const DriveWorld& w, const DriveConfig& cfg, JunctionPlan& plan) {
  const DriveMap& dm = *cfg.maps[w.map_id];
  const Map& map = *dm.map;
  for (int i = 0; i < cfg.slots; ++i) {
    plan.junction[i] = -1;
    if (w.state[i] != kAlive) continue;
    Ahead a;
    walk_ahead(dm, w.lane[i], w.s[i], current_goal(w, i), quad_start_point(map, w.quad[i]), false, a);
    if (a.junction < 0 || a.junction_dist > kJunctionLook) continue;
    const float half = 0.5f * w.veh.length[i];
    plan.junction[i] = a.junction, plan.connector[i] = a.connector;
    plan.entry[i] = a.junction_dist > 0.0f ? a.junction_dist - half : -1.0f;
    const bool held = a.junction_dist > 0.0f && a.stop_light >= 0 && a.stop_dist <= a.junction_dist + 0.5f &&
                      light_holds(w, dm, a.stop_light, a.stop_dist - half, static_cast<float>(w.veh.v[i]));
    plan.free_to_go[i] = !held;
  }
}

void drive_builtin(const DriveWorld& w, const DriveConfig& cfg, const JunctionPlan& plan, int i, float& j_long,
                   float& j_lat, uint8_t& held_red) {
  const DriveMap& dm = *cfg.maps[w.map_id];
  const Map& map = *dm.map;
  const Vehicles& v = w.veh;
  const float speed = std::max(static_cast<float>(v.v[i]), 0.0f);
  const float half = 0.5f * v.length[i];
  const IdmParams& idm = cfg.idm;
  Ahead a;
  walk_ahead(dm, w.lane[i], w.s[i], current_goal(w, i), quad_start_point(map, w.quad[i]), true, a);

  // Speed: the lane's limit, the vehicle's own, and the curves ahead.
  float v0 = std::min(map.speed_limit[w.lane[i]], static_cast<float>(kSpeedLimit) * v.c_vel[i]);
  float curve_accel = idm.max_accel;
  for (int k = 0; k < a.n; ++k) {
    const int lo = std::max(k - 2, 0), hi = std::min(k + 2, a.n - 1);
    if (hi <= lo) break;
    const float kappa = std::fabs(wrap_angle(a.heading[hi] - a.heading[lo])) / (a.dist[hi] - a.dist[lo]);
    const float v_curve = std::sqrt(kMaxLateralAccel / std::max(kappa, 1e-4f));
    const float d = std::max(a.dist[lo] - half, 0.0f);
    v0 = std::min(v0, std::sqrt(v_curve * v_curve + 2.0f * kCurveDecel * d));
    // Over the curve's speed: brake to reach it there (the IDM's free term alone is soft).
    if (speed > v_curve) curve_accel = std::min(curve_accel, (v_curve * v_curve - speed * speed) / (2.0f * std::max(d, 1.0f)));
  }
  v0 = std::max(v0, 1.0f);
  float accel = std::min(idm_acceleration(speed, v0, kNoLeader, 0.0f, idm), curve_accel);
  held_red = 0;

  // The nearest vehicle on the route ahead (none while blind).
  const bool blind = i < w.erratic.num_agents && is_blind_now(w.erratic, i);
  if (!blind && a.n > 0) {
    const float reach = a.dist[a.n - 1] + 8.0f;
    float best_gap = kNoLeader, best_dv = 0.0f;
    int leader = -1;
    for (int j = 0; j < kMaxVehicles; ++j) {
      if (j == i || w.state[j] != kAlive || std::fabs(v.z[j] - v.z[i]) > kCollisionHeight) continue;
      const double rx = v.x[j] - v.x[i], ry = v.y[j] - v.y[i];
      if (rx * rx + ry * ry > static_cast<double>(reach) * reach) continue;
      // Nearest route segment (the first runs from our centre to point 0).
      double px = v.x[i], py = v.y[i];
      float pd = 0.0f, best_lat = 1e9f, along = 0.0f, seg_heading = 0.0f;
      for (int k = 0; k < a.n; ++k) {
        const double sx = a.x[k] - px, sy = a.y[k] - py, len2 = sx * sx + sy * sy;
        const double qx = v.x[j] - px, qy = v.y[j] - py;
        const double t = len2 > 0 ? std::min(std::max((qx * sx + qy * sy) / len2, 0.0), 1.0) : 0.0;
        const float lat = static_cast<float>(std::hypot(qx - t * sx, qy - t * sy));
        if (lat < best_lat) best_lat = lat, along = pd + static_cast<float>(t) * (a.dist[k] - pd), seg_heading = a.heading[k];
        px = a.x[k], py = a.y[k], pd = a.dist[k];
      }
      if (along <= 0.0f) continue;
      const float rel = static_cast<float>(v.heading[j]) - seg_heading;
      const float c = std::fabs(std::cos(rel)), s = std::fabs(std::sin(rel));
      const float across = 0.5f * (v.width[j] * c + v.length[j] * s);
      if (best_lat > 0.5f * v.width[i] + across + 0.3f) continue;
      // Two vehicles across each other's paths would each wait for the other: the lower
      // slot goes (j's path taken as straight ahead of it).
      if (c < 0.7f && i < j) {
        const double hc = std::cos(v.heading[j]), hs = std::sin(v.heading[j]);
        const double ahead_j = -(hc * rx + hs * ry), lat_j = std::fabs(hs * rx - hc * ry);
        if (ahead_j > 0.0 && lat_j < 0.5 * (v.width[j] + v.length[i]) + 0.3) continue;
      }
      const float gap = along - half - 0.5f * (v.length[j] * c + v.width[j] * s);
      if (gap < best_gap) {
        best_gap = gap, leader = j;
        best_dv = speed - static_cast<float>(v.v[j]) * std::cos(rel);
      }
    }
    if (leader >= 0) {
      const float f = idm_acceleration(speed, v0, best_gap, best_dv, idm);
      if (f < accel) accel = f, held_red = leader < kMaxAgents && w.held_red[leader] && best_gap < 40.0f;
    }
  }

  // Red, and yellow when it can stop.
  if (a.stop_light >= 0 && light_holds(w, dm, a.stop_light, a.stop_dist - half, speed)) {
    const float f = idm_acceleration(speed, v0, std::max(a.stop_dist - half + 1.0f, 0.1f), speed, idm);
    if (f < accel) accel = f;
    held_red = 1;
  }

  // Right of way at the next junction.
  const int J = plan.junction[i];
  if (J >= 0 && plan.entry[i] > 0.0f && speed * speed <= 2.0f * kCommitDecel * plan.entry[i]) {
    bool yield = false;
    for (int k = 0; k < cfg.slots && !yield; ++k) {
      if (k == i || w.state[k] != kAlive || plan.junction[k] != J || plan.connector[k] == plan.connector[i]) continue;
      if (!junction_lanes_conflict(map, plan.connector[i], plan.connector[k])) continue;
      const float ek = plan.entry[k];
      yield = ek <= 0.0f || (plan.free_to_go[k] && (ek < plan.entry[i] - 0.5f || (ek <= plan.entry[i] + 0.5f && k < i)));
    }
    if (yield) accel = std::min(accel, idm_acceleration(speed, v0, plan.entry[i] + 1.0f, speed, idm));
  }

  // The final goal: come to rest kGoalStopShort before it (within the goal radius; a goal
  // at a dead end is then still on the road). The end of a lane without successors: stop
  // with the front bumper at it.
  if (w.goal_index[i] == w.goal_count[i] - 1 && a.goal_dist >= 0.0f)
    accel = std::min(accel, idm_acceleration(speed, v0, std::max(a.goal_dist - kGoalStopShort + idm.min_gap_m, 0.1f),
                                             speed, idm));
  if (a.dead_end >= 0.0f)
    accel = std::min(accel, idm_acceleration(speed, v0, std::max(a.dead_end - half - 0.5f + idm.min_gap_m, 0.1f), speed, idm));

  const float dt = static_cast<float>(cfg.dt);
  j_long = clampf((accel - static_cast<float>(v.a_long[i])) / (v.c_throttle[i] * dt), kJerkLongMin, kJerkLongMax);

  // Pure pursuit: the arc through the route point `look` ahead has curvature 2 sin(alpha) / L.
  float a_lat_want = 0.0f;
  if (a.n > 0) {
    const float look = std::max(6.0f, speed);
    const int k = std::min(std::max(static_cast<int>(std::lround(look / kDriverSpacing)) - 1, 0), a.n - 1);
    const double c = std::cos(v.heading[i]), s = std::sin(v.heading[i]);
    const double dx = a.x[k] - v.x[i], dy = a.y[k] - v.y[i];
    const double lx = c * dx + s * dy, ly = -s * dx + c * dy;
    const double dist = std::max(std::hypot(lx, ly), 1.0);
    a_lat_want = static_cast<float>(speed * speed * 2.0 * ly / (dist * dist));
  }
  j_lat = clampf((a_lat_want - static_cast<float>(v.a_lat[i])) / (v.c_steer[i] * dt), -kJerkLatMax, kJerkLatMax);
}

}  // namespace trackfield::driving
