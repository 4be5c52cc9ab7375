// Every field of a restored driving world, checked before a step reads it (see
// common/restore_check.h); map indices are vetted against the map in
// DriveDomain::check_world. Ranges are generous physical bounds.
#include "driving/restore_check.h"

#include <cmath>

#include "common/restore_check.h"

namespace trackfield::driving {
namespace {

constexpr double kPosM = 1e6;    // m: maps span a few km
constexpr double kSpeed = 200.0; // m/s
constexpr double kAccel = 1e3;   // m/s^2, m/s^3
constexpr double kTime = 1e9;    // s
constexpr double kCount = 1 << 30;

}  // namespace

void check_restored_world(const DriveWorld& w) {
  const RestoreCheck rc("driving");
  rc.integer(w.steps, 0, kCount, "steps");
  rc.integer(w.next_agent_id, 0, kCount, "next_agent_id");
  rc.flag(w.terminated, "terminated");
  rc.flag(w.truncated, "truncated");

  const Vehicles& v = w.veh;
  rc.integers(w.state, kEmpty, kEnded, "state");
  for (int i = 0; i < kMaxVehicles; ++i) {
    const bool alive = w.state[i] == kAlive;
    rc.real(v.x[i], -kPosM, kPosM, "veh.x", i);
    rc.real(v.y[i], -kPosM, kPosM, "veh.y", i);
    rc.real(v.heading[i], -8.0, 8.0, "veh.heading", i);
    rc.real(v.z[i], -kPosM, kPosM, "veh.z", i);
    rc.real(v.v[i], -kSpeed, kSpeed, "veh.v", i);
    rc.real(v.a_long[i], -kAccel, kAccel, "veh.a_long", i);
    rc.real(v.a_lat[i], -kAccel, kAccel, "veh.a_lat", i);
    rc.real(v.phi[i], -2.0, 2.0, "veh.phi", i);
    rc.integer(v.sign_a_long[i], -1, 1, "veh.sign_a_long", i);
    rc.integer(v.sign_a_lat[i], -1, 1, "veh.sign_a_lat", i);
    rc.integer(v.sign_v[i], -1, 1, "veh.sign_v", i);
    // A live vehicle's size divides (wheelbase, footprint): strictly positive.
    const double min_size = alive ? 0.1 : 0.0;
    rc.real(v.length[i], min_size, 100.0, "veh.length", i);
    rc.real(v.width[i], min_size, 100.0, "veh.width", i);
    rc.real(v.wheelbase[i], min_size, 100.0, "veh.wheelbase", i);
    rc.real(v.c_throttle[i], 0.0, 100.0, "veh.c_throttle", i);
    rc.real(v.c_steer[i], 0.0, 100.0, "veh.c_steer", i);
    rc.real(v.c_acc[i], 0.0, 100.0, "veh.c_acc", i);
    rc.real(v.c_vel[i], 0.0, 100.0, "veh.c_vel", i);
    rc.integer(w.joined_now[i], 0, 1, "joined_now", i);
    rc.integer(w.agent_id[i], -1, kCount, "agent_id", i);
    rc.integer(w.spawn_step[i], -1, kCount, "spawn_step", i);
    rc.real(w.s[i], -kPosM, kPosM, "s", i);
    rc.real(w.d[i], -kPosM, kPosM, "d", i);
    rc.real(w.lane_heading[i], -8.0, 8.0, "lane_heading", i);
    rc.real(w.half_width[i], 0.0, 1e3, "half_width", i);
  }

  for (int a = 0; a < kMaxAgents; ++a) {
    for (int g = 0; g < kMaxGoals; ++g) {
      const Goal& goal = w.goals[a][g];
      rc.real(goal.s, -kPosM, kPosM, "goals.s", a);
      rc.real(goal.x, -kPosM, kPosM, "goals.x", a);
      rc.real(goal.y, -kPosM, kPosM, "goals.y", a);
      rc.real(goal.heading, -8.0, 8.0, "goals.heading", a);
    }
    rc.integer(w.goal_count[a], 0, kMaxGoals, "goal_count", a);
    rc.integer(w.goal_index[a], 0, kMaxGoals, "goal_index", a);
    // +inf is the route distance to a goal no route reaches.
    if (!(std::isinf(w.goal_route_m[a]) && w.goal_route_m[a] > 0))
      rc.real(w.goal_route_m[a], -kPosM, kPosM, "goal_route_m", a);
    const RewardParams& r = w.reward_params[a];
    rc.real(r.comfort, -1e3, 1e3, "reward_params.comfort", a);
    rc.real(r.lane_align_w1, -1e3, 1e3, "reward_params.lane_align_w1", a);
    rc.real(r.lane_align_w2, -1e3, 1e3, "reward_params.lane_align_w2", a);
    rc.real(r.lane_center, -1e3, 1e3, "reward_params.lane_center", a);
    rc.real(r.lane_center_bias, -1e3, 1e3, "reward_params.lane_center_bias", a);
    rc.real(r.reverse, -1e3, 1e3, "reward_params.reverse", a);
    rc.real(r.stop_line, -1e3, 1e3, "reward_params.stop_line", a);
    rc.real(r.collision, -1e3, 1e3, "reward_params.collision", a);
    for (int k = 0; k < 4; ++k) rc.real(w.obs_noise[a][k], -1e3, 1e3, "obs_noise", a);
    rc.real(w.j_long[a], -kAccel, kAccel, "j_long", a);
    rc.real(w.j_lat[a], -kAccel, kAccel, "j_lat", a);
    rc.integer(w.collided[a], 0, 1, "collided", a);
    rc.integer(w.off_road[a], 0, 1, "off_road", a);
    rc.integer(w.reached_goal[a], 0, 1, "reached_goal", a);
    rc.integer(w.ran_red[a], 0, 1, "ran_red", a);
    rc.integer(w.waypoint_reached[a], 0, 1, "waypoint_reached", a);
    rc.integer(w.ended_now[a], 0, 1, "ended_now", a);
    rc.integer(w.held_red[a], 0, 1, "held_red", a);
    rc.real(w.reward[a], -1e9, 1e9, "reward", a);
    for (int k = 0; k < kNumRewardComponents; ++k) rc.real(w.components[a][k], -1e9, 1e9, "components", a);
  }

  const LightState& l = w.lights;
  rc.real(l.time_s, 0.0, kTime, "lights.time_s");
  rc.integer(l.enabled, 0, 1, "lights.enabled");
  rc.reals(l.junction_offset_s, 0.0, 1e5, "lights.junction_offset_s");
  rc.reals(l.junction_cycle_s, 0.0, 1e4, "lights.junction_cycle_s");
  rc.reals(l.phase_start_s, 0.0, 1e4, "lights.phase_start_s");
  rc.reals(l.phase_green_s, 0.0, 1e4, "lights.phase_green_s");
  rc.reals(l.phase_yellow_s, 0.0, 1e4, "lights.phase_yellow_s");
  rc.integers(l.group_removed, 0, 1, "lights.group_removed");
  rc.integers(l.group_stuck, 0, 1, "lights.group_stuck");
  rc.integers(l.light_removed, 0, 1, "lights.light_removed");
  rc.integers(l.group_colour, kNone, kRed, "lights.group_colour");

  const ErraticState& e = w.erratic;
  rc.integers(e.blind_prone, 0, 1, "erratic.blind_prone");
  rc.integers(e.brake_prone, 0, 1, "erratic.brake_prone");
  rc.reals(e.blind_left_s, 0.0, 1e4, "erratic.blind_left_s");
  rc.reals(e.brake_left_s, 0.0, 1e4, "erratic.brake_left_s");

  const double stats[] = {w.stat_goals, w.stat_waypoints, w.stat_collisions, w.stat_off_road,
                          w.stat_red_lights, w.stat_km, w.stat_agents};
  rc.reals(stats, 0.0, 1e15, "episode statistics");
}

}  // namespace trackfield::driving
