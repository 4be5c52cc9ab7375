// Spawn buffer, lane poses, and spawning one vehicle with its goals (spawn.h).
#include "driving/spawn.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "driving/bicycle.h"
#include "driving/routing.h"

namespace trackfield::driving {

namespace {

float wrap_angle(float a) { return std::remainder(a, 2.0f * static_cast<float>(M_PI)); }

int rng_index(Rng& rng, int n) { return static_cast<int>(rng_next_u32(rng) % static_cast<uint32_t>(n)); }

// Uniform in [-pi, pi) (a draw that rounds up to pi wraps to -pi).
float uniform_heading(Rng& rng) {
  const float pi = static_cast<float>(M_PI);
  const float h = rng_range(rng, -pi, pi);
  return h < pi ? h : -pi;
}

// Moves `dist` m forward from (lane, s), taking a random successor at each lane end;
// stops at a dead end. Updates (lane, s); returns the distance it fell short by (0 unless
// it stopped at a dead end, or after 64 lanes).
float walk_random(const Map& map, Rng& rng, int& lane, float& s, float dist) {
  for (int hops = 0; hops < 64; ++hops) {
    const float left = map.lane_length[lane] - s;
    if (dist <= left) {
      s += dist;
      return 0.0f;
    }
    dist -= left;
    const int64_t b = map.successor_offsets[lane], e = map.successor_offsets[lane + 1];
    if (b == e) {  // dead end: the waypoint may be nearer than asked (the relaxation)
      s = map.lane_length[lane];
      return dist;
    }
    lane = map.successors[b + rng_index(rng, static_cast<int>(e - b))];
    s = 0.0f;
  }
  return dist;
}

Goal goal_at(const Map& map, int lane, float s) {
  const LanePose p = lane_pose(map, lane, s);
  return {lane, s, static_cast<float>(p.x), static_cast<float>(p.y), p.heading};
}

// The final goal U(goal_distance_min_m, goal_distance_max_m) m on along the lanes from
// (lane, s): a random walk over successors, redrawn until the route distance to it lies in
// the range (a dead end or a shortcut can make it shorter or longer); after kGoalTries the
// draw nearest the range is kept.
Goal goal_along_route(const DriveConfig& cfg, const Map& map, Rng& rng, int lane, float s) {
  const float lo = cfg.goal_distance_min_m, hi = cfg.goal_distance_max_m;
  int best_lane = lane;
  float best_s = s, best_miss = std::numeric_limits<float>::infinity();
  for (int t = 0; t < kGoalTries && best_miss > 0.0f; ++t) {
    int l = lane;
    float ss = s;
    walk_random(map, rng, l, ss, rng_range(rng, lo, hi));
    const float d = route_distance(map, lane, s, l, ss);
    if (!std::isfinite(d)) continue;
    const float miss = d < lo ? lo - d : (d > hi ? d - hi : 0.0f);
    if (miss < best_miss) best_lane = l, best_s = ss, best_miss = miss;
  }
  return goal_at(map, best_lane, best_s);
}

// Appends up to `count` waypoints to agent i's goals (n of them so far) after the point
// (lane, s) whose lane heading is `heading`: each U(waypoint_min_m, waypoint_max_m) m on
// along the lane graph from the previous, redrawn until its lane heading is within
// waypoint_heading_max of the previous point's. After kGoalTries draws the relaxation:
// the draw nearest in heading among those a dead end did not cut below waypoint_min_m
// (roads that curve away within waypoint_max_m); when every draw was cut short (a dead
// end within waypoint_min_m), the route ends at the previous point. (lane, s, heading)
// become the last point's.
void chain_waypoints(DriveWorld& w, const DriveConfig& cfg, const Map& map, int i, int count, int& n, int& lane,
                     float& s, float& heading) {
  for (int k = 0; k < count; ++k) {
    int best_lane = lane;
    float best_s = s, best_turn = std::numeric_limits<float>::infinity();
    bool best_short = true;
    for (int t = 0; t < kGoalTries && (best_short || best_turn > cfg.waypoint_heading_max); ++t) {
      int l = lane;
      float ss = s;
      const float want = rng_range(w.rng, cfg.waypoint_min_m, cfg.waypoint_max_m);
      const bool cut_short = want - walk_random(map, w.rng, l, ss, want) < cfg.waypoint_min_m;
      const float turn = std::fabs(wrap_angle(lane_pose(map, l, ss).heading - heading));
      if ((best_short && !cut_short) || (best_short == cut_short && turn < best_turn))
        best_lane = l, best_s = ss, best_turn = turn, best_short = cut_short;
    }
    if (best_short) return;
    w.goals[i][n++] = goal_at(map, best_lane, best_s);
    lane = best_lane, s = best_s, heading = w.goals[i][n - 1].heading;
  }
}

// A point uniform over the map (the spawn buffer: uniform over the lanes' length) that the
// route from (lane, s) reaches and that lies at least waypoint_min_m from (x, y): up to
// kGoalTries draws; with none found, waypoint_max_m on along the lanes from (lane, s).
Goal point_anywhere(Rng& rng, const DriveConfig& cfg, const DriveMap& dm, int lane, float s, double x, double y) {
  const Map& map = *dm.map;
  const int size = static_cast<int>(dm.spawn_lane.size());
  for (int t = 0; t < kGoalTries; ++t) {
    const int k = rng_index(rng, size);
    const int gl = dm.spawn_lane[k];
    const float gs = dm.spawn_s[k];
    if (!std::isfinite(route_distance(map, lane, s, gl, gs))) continue;
    const Goal g = goal_at(map, gl, gs);
    const double dx = g.x - x, dy = g.y - y;
    if (dx * dx + dy * dy < cfg.waypoint_min_m * cfg.waypoint_min_m) continue;
    return g;
  }
  walk_random(map, rng, lane, s, cfg.waypoint_max_m);
  return goal_at(map, lane, s);
}

// An agent's route: U{0, waypoints_max} waypoints and a final goal (DriveConfig's route
// rule). GIGAFLOW's order: the first point anywhere the route reaches (point_anywhere),
// the rest chained from it (chain_waypoints). With goal_distance: the waypoints chained
// from the spawn, then goal_along_route from the last point.
void draw_goals(DriveWorld& w, const DriveConfig& cfg, const DriveMap& dm, int i) {
  const Map& map = *dm.map;
  int lane = w.lane[i];
  float s = w.s[i], heading = w.lane_heading[i];
  if (i >= cfg.num_controlled()) {  // a built-in driver: one goal along its lanes
    walk_random(map, w.rng, lane, s, rng_range(w.rng, kBuiltinGoalMin, kBuiltinGoalMax));
    // A walk that ended at a dead end: the goal stands back from the road's end, where the
    // driver can stop on it.
    if (map.successor_offsets[lane] == map.successor_offsets[lane + 1])
      s = std::max(0.0f, std::min(s, map.lane_length[lane] - kBuiltinGoalBack));
    w.goals[i][0] = goal_at(map, lane, s);
    w.goal_count[i] = 1;
    w.goal_index[i] = 0;
    return;
  }
  const int waypoints = cfg.waypoints_max > 0 ? rng_index(w.rng, cfg.waypoints_max + 1) : 0;
  int n = 0;
  if (cfg.goal_distance_max_m > 0.0f) {
    chain_waypoints(w, cfg, map, i, waypoints, n, lane, s, heading);
    w.goals[i][n++] = goal_along_route(cfg, map, w.rng, lane, s);
  } else {
    const Goal first = point_anywhere(w.rng, cfg, dm, lane, s, w.veh.x[i], w.veh.y[i]);
    w.goals[i][n++] = first;
    lane = first.lane, s = first.s, heading = first.heading;
    chain_waypoints(w, cfg, map, i, waypoints, n, lane, s, heading);
  }
  w.goal_count[i] = static_cast<int8_t>(n);
  w.goal_index[i] = 0;
}

}  // namespace

namespace {

LanePose pose_on_segment(const Map& map, int64_t k, float s) {
  const double* ps = map.point_s.data();
  const double seg = ps[k + 1] - ps[k];
  const double t = seg > 0 ? (s - ps[k]) / seg : 0.0;
  LanePose p;
  p.x = map.px[k] + t * (map.px[k + 1] - map.px[k]);
  p.y = map.py[k] + t * (map.py[k + 1] - map.py[k]);
  p.z = static_cast<float>(map.pz[k] + t * (map.pz[k + 1] - map.pz[k]));
  p.heading = map.point_heading[k];
  p.half_width = static_cast<float>(0.5 * (map.width[k] + t * (map.width[k + 1] - map.width[k])));
  return p;
}

}  // namespace

LanePose lane_pose(const Map& map, int lane, float s) {
  const int64_t b = map.lane_offsets[lane], e = map.lane_offsets[lane + 1];
  s = std::min(std::max(s, 0.0f), map.lane_length[lane]);
  // The segment [k, k + 1] holding s.
  const double* ps = map.point_s.data();
  int64_t k = std::upper_bound(ps + b, ps + e, static_cast<double>(s)) - ps - 1;
  k = std::min(std::max(k, b), e - 2);
  return pose_on_segment(map, k, s);
}

LanePose lane_pose_from(const Map& map, int lane, float s, int64_t& k) {
  const int64_t b = map.lane_offsets[lane], e = map.lane_offsets[lane + 1];
  s = std::min(std::max(s, 0.0f), map.lane_length[lane]);
  // The last point at or before s (upper_bound - 1, as lane_pose), clamped the same way.
  const double* ps = map.point_s.data();
  k = std::max(k, b);
  while (k + 1 < e && ps[k + 1] <= static_cast<double>(s)) ++k;
  k = std::min(k, e - 2);
  return pose_on_segment(map, k, s);
}

void build_spawn_buffer(DriveMap& dm, uint64_t seed) {
  const Map& map = *dm.map;
  std::vector<double> cumulative(map.lane_count + 1, 0.0);
  for (int l = 0; l < map.lane_count; ++l) cumulative[l + 1] = cumulative[l] + map.lane_length[l];
  Rng rng;
  rng_seed(rng, seed, 0x5350);
  dm.spawn_lane.resize(kSpawnBufferSize);
  dm.spawn_s.resize(kSpawnBufferSize);
  for (int k = 0; k < kSpawnBufferSize; ++k) {
    const double u = rng_uniform(rng) * cumulative.back();
    int l = static_cast<int>(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin()) - 1;
    l = std::min(std::max(l, 0), map.lane_count - 1);
    dm.spawn_lane[k] = l;
    dm.spawn_s[k] = static_cast<float>(std::min(u - cumulative[l], static_cast<double>(map.lane_length[l])));
  }
  dm.min_x = dm.min_y = std::numeric_limits<float>::max();
  dm.max_x = dm.max_y = std::numeric_limits<float>::lowest();
  for (size_t c = 0; c < map.corner_x.size(); ++c) {
    dm.min_x = std::min(dm.min_x, map.corner_x[c]), dm.max_x = std::max(dm.max_x, map.corner_x[c]);
    dm.min_y = std::min(dm.min_y, map.corner_y[c]), dm.max_y = std::max(dm.max_y, map.corner_y[c]);
  }
  dm.max_x = std::max(dm.max_x, dm.min_x + 1.0f), dm.max_y = std::max(dm.max_y, dm.min_y + 1.0f);
}

bool spawn_vehicle(DriveWorld& w, const DriveConfig& cfg, const DriveMap& dm, int i, bool is_static) {
  const Map& map = *dm.map;
  Vehicles& v = w.veh;
  sample_vehicle(v, i, w.rng);
  const double radius = 0.5 * std::hypot(v.length[i], v.width[i]);
  const int size = static_cast<int>(dm.spawn_lane.size());
  const bool builtin = !is_static && i >= cfg.num_controlled();
  const bool random_heading = cfg.random_spawn_heading && !is_static && !builtin;
  w.state[i] = kEmpty;
  for (int t = 0; t < kSpawnTries; ++t) {
    const int k = rng_index(w.rng, size);
    const int lane = dm.spawn_lane[k];
    const float s = dm.spawn_s[k];
    if (builtin && (map.junction[lane] >= 0 || (dm.lane_light[lane] >= 0 && s > map.lane_length[lane] - kBuiltinSpawnBeforeLight)))
      continue;
    const LanePose p = lane_pose(map, lane, s);
    const float heading = random_heading ? uniform_heading(w.rng) : p.heading;
    if (box_off_road(map, p.x, p.y, p.z, heading, v.length[i], v.width[i])) continue;
    const float limit = map.speed_limit[lane];
    // An agent's speed is drawn once its place is found; its clearance allows the most it may get.
    const float top = is_static ? 0.0f
                      : builtin ? std::min(kBuiltinSpawnShare * limit, kBuiltinSpawnSpeed)
                                : std::min(cfg.spawn_speed_max, limit);
    bool clear = true;
    for (int j = 0; j < kMaxVehicles && clear; ++j) {
      if (w.state[j] != kAlive || j == i) continue;
      if (std::fabs(v.z[j] - p.z) > 4.0f) continue;  // another level (overpass)
      const double dx = v.x[j] - p.x, dy = v.y[j] - p.y;
      const float flow = std::max(top, static_cast<float>(std::fabs(v.v[j])));
      const double need = radius + 0.5 * std::hypot(v.length[j], v.width[j]) + spawn_clearance(cfg.spawn_clearance_m, flow);
      clear = dx * dx + dy * dy > need * need;
    }
    if (!clear) continue;
    v.x[i] = p.x, v.y[i] = p.y, v.z[i] = p.z, v.heading[i] = heading;
    v.v[i] = is_static || builtin ? top : rng_range(w.rng, 0.0f, top);
    v.a_long[i] = v.a_lat[i] = v.phi[i] = 0.0;
    v.sign_a_long[i] = v.sign_a_lat[i] = v.sign_v[i] = 1;
    const LanePos pos = localise(map, p.x, p.y, p.z, -1);
    w.lane[i] = pos.lane >= 0 ? pos.lane : lane;
    w.quad[i] = pos.quad;
    w.s[i] = pos.lane >= 0 ? pos.s : s;
    w.d[i] = pos.d;
    w.lane_heading[i] = pos.lane >= 0 ? pos.heading : p.heading;
    w.half_width[i] = pos.lane >= 0 ? pos.half_width : p.half_width;
    w.state[i] = kAlive;
    w.joined_now[i] = 1;
    w.spawn_step[i] = w.steps;
    if (is_static) return true;
    w.agent_id[i] = w.next_agent_id++;
    if (cfg.safe_conditioning) w.reward_params[i] = safe_reward_params();
    else draw_reward_params(w.rng, cfg.reward_ranges, w.reward_params[i]);
    draw_goals(w, cfg, dm, i);
    w.goal_route_m[i] = route_distance(map, w.lane[i], w.s[i], w.goals[i][0].lane, w.goals[i][0].s);
    w.collided[i] = w.off_road[i] = w.reached_goal[i] = w.ran_red[i] = w.waypoint_reached[i] = w.ended_now[i] = 0;
    w.j_long[i] = w.j_lat[i] = 0.0f;
    w.stat_agents += 1;
    return true;
  }
  return false;
}

}  // namespace trackfield::driving
