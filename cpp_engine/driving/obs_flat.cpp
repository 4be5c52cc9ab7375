// The "flat" observation (obs.h). Ego frame: x forward, y left. Each value is divided by
// the scale in its field's description and clipped to [-1, 1]; rows of absent vehicles,
// lane points past a dead end and an absent light are zero with their mask 0.
#include "driving/obs.h"

#include <cmath>

#include "driving/bicycle.h"
#include "driving/observed.h"
#include "driving/route_walk.h"
#include "driving/step.h"

namespace trackfield::driving {

namespace {

constexpr int kEgoSize = 14, kGoalSize = 6, kVehicleCols = 9, kLaneCols = 6, kLightSize = 5;

float clip1(double x) {
  if (!(x == x)) return 0.0f;  // NaN
  return static_cast<float>(x < -1.0 ? -1.0 : (x > 1.0 ? 1.0 : x));
}

float wrap_angle(double a) { return static_cast<float>(std::remainder(a, 2.0 * M_PI)); }

// Writes (x, y) of a world point in the ego frame, divided by `scale`.
void ego_xy(double ox, double oy, double c, double s, double px, double py, double scale, float* out) {
  const double dx = px - ox, dy = py - oy;
  out[0] = clip1((c * dx + s * dy) / scale);
  out[1] = clip1((-s * dx + c * dy) / scale);
}

}  // namespace

const std::vector<FieldSpec>& flat_specs() {
  static const std::vector<FieldSpec> specs = {
      {"ego", {kEgoSize}, "float32", -1, 1,
       "lane offset (/5 m, + left), heading error to the lane (/pi rad), lane curvature ahead (/0.1 1/m), "
       "speed (/30 m/s), speed limit (/30 m/s), steering angle (/0.55 rad), a_long (/5 m/s^2), a_lat (/4 m/s^2), "
       "c_throttle, c_steer, c_acc, c_vel ((c - 1) / 0.5), length (/7 m), width (/3 m)"},
      {"goal", {kGoalSize}, "float32", -1, 1,
       "final goal x, y (/200 m), current goal (next waypoint, or the final goal) x, y (/200 m), "
       "route distance to the current goal (/1000 m), waypoints left (/3)"},
      {"vehicles", {kObsVehicles, kVehicleCols}, "float32", -1, 1,
       "the 20 nearest other vehicles within 200 m, nearest first: mask, x, y (/200 m), cos and sin of the "
       "heading difference, speed (/30 m/s), length (/7 m), width (/3 m), z difference (/10 m); none while blind"},
      {"lane_points", {kObsLanePoints, kLaneCols}, "float32", -1, 1,
       "centre-line points every 5 m ahead along the route to the current goal: mask, x, y (/100 m), cos and "
       "sin of the lane heading minus ours, half width (/5 m)"},
      {"light", {kLightSize}, "float32", -1, 1,
       "the first lit stop line ahead within 100 m: mask, distance (/100 m), green, yellow, red"},
      {"conditioning", {kNumConditioning}, "float32", -1, 1,
       "reward weights and dynamics coefficients mapped from their ranges onto [-1, 1] (reward.h order)"},
  };
  return specs;
}

int flat_size() {
  int n = 0;
  for (const FieldSpec& f : flat_specs()) n += field_size(f);
  return n;
}

void write_flat(const DriveWorld& w, const DriveConfig& cfg, int a, float* out) {
  const DriveMap& dm = world_map(w, cfg);
  const Map& map = *dm.map;
  const Vehicles& v = w.veh;
  const EgoView ego = observed_ego(w, cfg, a);  // with observation noise, if any
  const double ox = ego.x, oy = ego.y, c = ego.c, s = ego.s;
  const int lane = w.lane[a];
  const Goal& current = w.goals[a][w.goal_index[a]];
  const Goal& final_goal = w.goals[a][w.goal_count[a] > 0 ? w.goal_count[a] - 1 : 0];

  RoutePoint pts[kObsLanePoints];
  StopLineAhead stop;
  const int npts = walk_route(dm, lane, w.s[a], current.lane, current.s, kObsLaneSpacing, kObsLanePoints, pts, &stop);

  float* o = out;
  o[0] = clip1(ego.d / 5.0);
  o[1] = clip1(wrap_angle(ego.heading - w.lane_heading[a]) / M_PI);
  o[2] = npts > 0 ? clip1(wrap_angle(pts[0].heading - w.lane_heading[a]) / kObsLaneSpacing / 0.1) : 0.0f;
  o[3] = clip1(ego.v / 30.0);
  o[4] = clip1(map.speed_limit[lane] / 30.0);
  o[5] = clip1(v.phi[a] / kSteerMax);
  o[6] = clip1(v.a_long[a] / 5.0);
  o[7] = clip1(v.a_lat[a] / 4.0);
  o[8] = clip1((v.c_throttle[a] - 1.0) / 0.5);
  o[9] = clip1((v.c_steer[a] - 1.0) / 0.5);
  o[10] = clip1((v.c_acc[a] - 1.0) / 0.5);
  o[11] = clip1((v.c_vel[a] - 1.0) / 0.5);
  o[12] = clip1(v.length[a] / 7.0);
  o[13] = clip1(v.width[a] / 3.0);
  o += kEgoSize;

  ego_xy(ox, oy, c, s, final_goal.x, final_goal.y, 200.0, o);
  ego_xy(ox, oy, c, s, current.x, current.y, 200.0, o + 2);
  o[4] = clip1(w.goal_route_m[a] / 1000.0);
  o[5] = clip1((w.goal_count[a] - 1 - w.goal_index[a]) / 3.0);
  o += kGoalSize;

  // Nearest vehicles: an insertion-sorted list of at most 20 over every slot. A linear scan
  // of <= 200 slots costs less than building and walking a hash at a 200 m radius.
  int near[kObsVehicles];
  double near_d2[kObsVehicles];
  int count = 0;
  const bool blind = a < w.erratic.num_agents && is_blind_now(w.erratic, a);
  const double r2 = kObsVehicleRadius * kObsVehicleRadius;
  for (int j = 0; j < kMaxVehicles && !blind; ++j) {
    if (j == a || w.state[j] != kAlive) continue;
    const double dx = v.x[j] - ox, dy = v.y[j] - oy, d2 = dx * dx + dy * dy;
    if (d2 > r2 || (count == kObsVehicles && d2 >= near_d2[count - 1])) continue;
    int k = count < kObsVehicles ? count++ : count - 1;
    while (k > 0 && near_d2[k - 1] > d2) near[k] = near[k - 1], near_d2[k] = near_d2[k - 1], --k;
    near[k] = j, near_d2[k] = d2;
  }
  for (int k = 0; k < kObsVehicles; ++k, o += kVehicleCols) {
    if (k >= count) {
      for (int q = 0; q < kVehicleCols; ++q) o[q] = 0.0f;
      continue;
    }
    const int j = near[k];
    const double dh = v.heading[j] - ego.heading;
    o[0] = 1.0f;
    ego_xy(ox, oy, c, s, v.x[j], v.y[j], kObsVehicleRadius, o + 1);
    o[3] = static_cast<float>(std::cos(dh)), o[4] = static_cast<float>(std::sin(dh));
    o[5] = clip1(v.v[j] / 30.0);
    o[6] = clip1(observed_size(cfg, v.length[j]) / 7.0), o[7] = clip1(observed_size(cfg, v.width[j]) / 3.0);
    o[8] = clip1((v.z[j] - v.z[a]) / 10.0);
  }

  for (int k = 0; k < kObsLanePoints; ++k, o += kLaneCols) {
    if (k >= npts) {
      for (int q = 0; q < kLaneCols; ++q) o[q] = 0.0f;
      continue;
    }
    const double dh = pts[k].heading - ego.heading;
    o[0] = 1.0f;
    ego_xy(ox, oy, c, s, pts[k].x, pts[k].y, kObsLaneSpacing * kObsLanePoints, o + 1);
    o[3] = static_cast<float>(std::cos(dh)), o[4] = static_cast<float>(std::sin(dh));
    o[5] = clip1(pts[k].half_width / 5.0);
  }

  const LightColour colour = (stop.light >= 0 && w.lights.enabled) ? light_colour_of_light(w.lights, dm.lights, stop.light)
                                                                    : kNone;
  o[0] = colour != kNone ? 1.0f : 0.0f;
  o[1] = colour != kNone ? clip1(stop.distance / 100.0) : 0.0f;
  o[2] = colour == kGreen, o[3] = colour == kYellow, o[4] = colour == kRed;
  o += kLightSize;

  const float coeffs[kNumDynamicsCoeffs] = {v.c_throttle[a], v.c_steer[a], v.c_acc[a], v.c_vel[a]};
  write_conditioning(w.reward_params[a], cfg.reward_ranges, coeffs, o);
}

}  // namespace trackfield::driving
