// A driving world's reset and its step, ordered in one place (step_world):
//   respawn -> actions (erratic braking overrides) -> bicycle -> localise -> off-road ->
//   collisions -> lights + stop lines -> goals -> rewards -> ends -> erratic events.
#include "driving/step.h"

#include <algorithm>
#include <cmath>

#include "driving/bicycle.h"
#include "driving/collision.h"
#include "driving/driver.h"
#include "driving/heading_trig.h"
#include "driving/route_walk.h"
#include "driving/routing.h"
#include "driving/spawn.h"

namespace trackfield::driving {

namespace {

float wrap_angle(float a) { return std::remainder(a, 2.0f * static_cast<float>(M_PI)); }
float clampf(float v, float lo, float hi) { return std::min(std::max(v, lo), hi); }

// The collision hash belongs to the thread, not the world (a world is plain data): it is
// sized once per thread and map, so a step allocates nothing.
struct ThreadScratch {
  const DriveMap* map = nullptr;
  CollisionScratch collision;
  int index[kMaxVehicles];  // compact id -> slot
  double x0[kMaxVehicles], y0[kMaxVehicles], h0[kMaxVehicles], x1[kMaxVehicles], y1[kMaxVehicles], h1[kMaxVehicles];
  float z[kMaxVehicles], length[kMaxVehicles], width[kMaxVehicles];
  uint8_t collided[kMaxVehicles];
  int32_t partner[kMaxVehicles];
};

ThreadScratch& scratch_for(const DriveMap& dm) {
  thread_local ThreadScratch s;
  if (s.map != &dm) {
    collision_scratch_init(s.collision, kMaxVehicles, dm.min_x, dm.min_y, dm.max_x, dm.max_y);
    s.map = &dm;
  }
  return s;
}

Vec2 front_point(const Vehicles& v, int i) {
  const double h = 0.5 * v.length[i];
  return {static_cast<float>(v.x[i] + h * std::cos(v.heading[i])), static_cast<float>(v.y[i] + h * std::sin(v.heading[i]))};
}

int rng_index(Rng& rng, int n) { return static_cast<int>(rng_next_u32(rng) % static_cast<uint32_t>(n)); }

void agent_jerks(const DriveConfig& cfg, const void* actions, int i, float& jl, float& jt) {
  if (cfg.action == ActionKind::kDiscrete) {
    decode_action(static_cast<const int32_t*>(actions)[i], jl, jt);
  } else {
    const float* a = static_cast<const float*>(actions) + 2 * i;
    jl = a[0], jt = a[1];
  }
}

}  // namespace

const DriveMap& world_map(const DriveWorld& w, const DriveConfig& cfg) { return *cfg.maps[w.map_id]; }

void reset_world(DriveWorld& w, const DriveConfig& cfg, uint64_t seed) {
  w = DriveWorld{};
  rng_seed(w.rng, seed, 0);
  w.map_id = cfg.maps.size() > 1 ? rng_index(w.rng, static_cast<int>(cfg.maps.size())) : 0;
  const DriveMap& dm = world_map(w, cfg);
  if (cfg.lights_enabled && dm.lights.num_lights() > 0) reset_lights(w.lights, dm.lights, cfg.lights, w.rng);
  const int agents = cfg.agents_min + rng_index(w.rng, cfg.agents_max - cfg.agents_min + 1);
  if (cfg.erratic_enabled) reset_erratic(w.erratic, agents, cfg.erratic, w.rng);
  // One at a time, each clear of those already placed; a slot that finds no room retries
  // in the next step.
  for (int i = 0; i < agents; ++i)
    if (!spawn_vehicle(w, cfg, dm, i, false)) w.state[i] = kEnded;
  for (int k = 0; k < cfg.static_obstacles; ++k) spawn_vehicle(w, cfg, dm, kMaxAgents + k, true);
}

void ai_jerks(const DriveWorld& w, const DriveConfig& cfg, float* out) {
  JunctionPlan plan;
  plan_junctions(w, cfg, plan);
  for (int i = 0; i < cfg.num_controlled(); ++i) {
    out[2 * i] = out[2 * i + 1] = 0.0f;
    uint8_t held = 0;
    if (w.state[i] == kAlive) drive_builtin(w, cfg, plan, i, out[2 * i], out[2 * i + 1], held);
  }
}

void step_world(DriveWorld& w, const DriveConfig& cfg, const void* actions) {
  const DriveMap& dm = world_map(w, cfg);
  const Map& map = *dm.map;
  Vehicles& v = w.veh;
  const int A = cfg.slots, C = cfg.num_controlled();
  const double dt = cfg.dt;
  ++w.steps;

  // 0. Last step's ended slots take new agents; flags clear.
  for (int i = 0; i < kMaxVehicles; ++i) w.joined_now[i] = 0;
  for (int i = 0; i < A; ++i) {
    w.collided[i] = w.off_road[i] = w.reached_goal[i] = w.ran_red[i] = w.waypoint_reached[i] = w.ended_now[i] = 0;
    w.reward[i] = 0.0f;
    std::fill_n(w.components[i], kNumRewardComponents, 0.0f);
    if (w.state[i] == kEnded && !spawn_vehicle(w, cfg, dm, i, false)) w.state[i] = kEnded;
  }

  // 1. Actions: the policy's for controlled slots, the built-in driver's for the others;
  // an erratic driver's braking event overrides the longitudinal jerk.
  JunctionPlan plan;
  uint8_t held_red[kMaxAgents];
  if (C < A) plan_junctions(w, cfg, plan);
  for (int i = 0; i < A; ++i) {
    held_red[i] = 0;
    if (w.state[i] != kAlive || w.joined_now[i]) continue;
    float jl, jt;
    if (i < C) agent_jerks(cfg, actions, i, jl, jt);
    else drive_builtin(w, cfg, plan, i, jl, jt, held_red[i]);
    if (i < w.erratic.num_agents && forced_brake_now(w.erratic, i)) jl = cfg.erratic.brake_jerk;
    if (cfg.jerk_noise > 0.0f) jl += cfg.jerk_noise * rng_normal(w.rng), jt += cfg.jerk_noise * rng_normal(w.rng);
    w.j_long[i] = clampf(jl, kJerkLongMin, kJerkLongMax);
    w.j_lat[i] = clampf(jt, -kJerkLatMax, kJerkLatMax);
  }

  std::copy_n(held_red, A, w.held_red);

  // 2. Dynamics, keeping each vehicle's start pose for collisions and stop lines.
  ThreadScratch& sc = scratch_for(dm);
  int prev_lane[kMaxAgents];
  Vec2 front0[kMaxAgents];
  double travelled[kMaxAgents];
  int n = 0;
  for (int i = 0; i < kMaxVehicles; ++i) {
    if (w.state[i] != kAlive) continue;
    sc.index[n] = i;
    sc.x0[n] = v.x[i], sc.y0[n] = v.y[i], sc.h0[n] = v.heading[i];
    if (i < A && !w.joined_now[i]) {
      prev_lane[i] = w.lane[i];
      // Only a lane with a light needs its front point (a sincos) for the stop-line test.
      if (w.lights.enabled && dm.lane_light[prev_lane[i]] >= 0) front0[i] = front_point(v, i);
      step_vehicle(v, i, w.j_long[i], w.j_lat[i], dt);
      travelled[i] = std::hypot(v.x[i] - sc.x0[n], v.y[i] - sc.y0[n]);
      // 3. Localise (the last quad only breaks ties) and 4. off-road.
      const LanePos pos = localise(map, v.x[i], v.y[i], v.z[i], w.quad[i]);
      if (pos.lane >= 0) {
        w.lane[i] = pos.lane, w.quad[i] = pos.quad, w.s[i] = pos.s, w.d[i] = pos.d;
        w.lane_heading[i] = pos.heading, w.half_width[i] = pos.half_width, v.z[i] = pos.z;
      }
      // The centre is on the road exactly when localise found a quad holding it, and that
      // quad's height is now v.z: box_off_road need not test the centre again.
      if (pos.lane < 0) {
        w.off_road[i] = 1;
      } else {
        double c, s;
        heading_cos_sin(i, v.heading[i], c, s);  // the observation view asks for the same
        w.off_road[i] = box_off_road_cs(map, v.x[i], v.y[i], v.z[i], c, s, v.length[i], v.width[i], w.quad[i],
                                        pos.on_road);
      }
    }
    sc.x1[n] = v.x[i], sc.y1[n] = v.y[i], sc.h1[n] = v.heading[i];
    sc.z[n] = v.z[i], sc.length[n] = v.length[i], sc.width[n] = v.width[i];
    ++n;
  }

  // 5. Collisions among every present vehicle (static obstacles have equal poses).
  CollisionInput in;
  in.count = n;
  in.x0 = sc.x0, in.y0 = sc.y0, in.heading0 = sc.h0, in.x1 = sc.x1, in.y1 = sc.y1, in.heading1 = sc.h1;
  in.z = sc.z, in.length = sc.length, in.width = sc.width;
  detect_collisions(in, sc.collision, sc.collided, sc.partner);
  float collision_speed[kMaxAgents] = {};
  for (int k = 0; k < n; ++k) {
    const int i = sc.index[k];
    if (i >= A || !sc.collided[k]) continue;
    const int j = sc.index[sc.partner[k]];
    w.collided[i] = 1;
    const double vx = v.v[i] * std::cos(v.heading[i]) - v.v[j] * std::cos(v.heading[j]);
    const double vy = v.v[i] * std::sin(v.heading[i]) - v.v[j] * std::sin(v.heading[j]);
    collision_speed[i] = static_cast<float>(std::hypot(vx, vy));
  }

  // 6. Lights advance; crossing the stop line of the lane a vehicle was on, on red.
  if (w.lights.enabled) advance_lights(w.lights, dm.lights, static_cast<float>(dt));
  for (int i = 0; i < A; ++i) {
    if (w.state[i] != kAlive || w.joined_now[i] || !w.lights.enabled) continue;
    const int light = dm.lane_light[prev_lane[i]];
    if (light < 0) continue;
    w.ran_red[i] = stop_line_violation(light_colour_of_light(w.lights, dm.lights, light), front0[i], front_point(v, i),
                                       dm.lights.stop_line_a[light], dm.lights.stop_line_b[light],
                                       dm.lights.lane_heading[light]);
  }

  // 7. Goals, 8. rewards, 9. ends.
  for (int i = 0; i < A; ++i) {
    if (w.state[i] != kAlive || w.joined_now[i]) continue;
    const int gi = w.goal_index[i];
    const Goal& g = w.goals[i][gi];
    const float dist = static_cast<float>(std::hypot(v.x[i] - g.x, v.y[i] - g.y));
    const bool waypoint = gi < w.goal_count[i] - 1;
    const float r = cfg.reward.goal_radius_m;
    if (dist < r && (waypoint || std::fabs(v.v[i]) < cfg.reward.goal_speed_mps)) {
      if (waypoint) w.goal_index[i] = static_cast<int8_t>(gi + 1), w.waypoint_reached[i] = 1;
      else w.reached_goal[i] = 1;
    }
    if (i < C) {
      RewardInputs ri;
      ri.theta_f = wrap_angle(static_cast<float>(v.heading[i]) - w.lane_heading[i]);
      ri.x_f = w.d[i];
      ri.v = static_cast<float>(v.v[i]);
      ri.a_long = static_cast<float>(v.a_long[i]), ri.a_lat = static_cast<float>(v.a_lat[i]);
      ri.j_long = w.j_long[i], ri.j_lat = w.j_lat[i];
      ri.dt = static_cast<float>(dt);
      ri.collided = w.collided[i];
      ri.collision_speed = collision_speed[i];
      ri.off_road = w.off_road[i];
      ri.goal_distance = dist;
      ri.goal_is_waypoint = waypoint;
      ri.stop_line_violation = w.ran_red[i];
      compute_reward_components(ri, w.reward_params[i], cfg.reward, w.components[i]);
      float total = 0.0f;
      for (int k = 0; k < kNumRewardComponents; ++k) total += w.components[i][k];
      w.reward[i] = total;
      w.stat_waypoints += w.waypoint_reached[i];
      w.stat_goals += w.reached_goal[i];
      w.stat_collisions += w.collided[i];
      w.stat_off_road += w.off_road[i];
      w.stat_red_lights += w.ran_red[i];
      w.stat_km += travelled[i] / 1000.0;
    }
    const Goal& now = w.goals[i][w.goal_index[i]];
    w.goal_route_m[i] = route_distance(map, w.lane[i], w.s[i], now.lane, now.s);
    if (w.collided[i] || w.off_road[i] || w.reached_goal[i]) {
      w.ended_now[i] = 1;
      w.state[i] = (i >= C || cfg.agent_end == AgentEnd::kRespawn) ? kEnded : kEmpty;
    }
  }

  // 10. Erratic drivers' events for the next step.
  if (cfg.erratic_enabled) advance_erratic(w.erratic, cfg.erratic, static_cast<float>(dt), w.rng);

  // 11. The world's episode.
  bool any = false;
  for (int i = 0; i < C; ++i) any = any || w.state[i] != kEmpty;
  w.terminated = cfg.agent_end == AgentEnd::kEndWorld && !any;
  w.truncated = !w.terminated && w.steps >= cfg.episode_steps;
}

}  // namespace trackfield::driving
