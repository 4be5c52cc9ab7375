// The "flat" observation (obs.h). Ego frame: x forward, y left. Each value is divided by
// the scale in its field's description and clipped to [-1, 1]; rows of absent vehicles,
// lane points past a dead end and an absent light are zero with their mask 0.
#include "driving/obs.h"

#include <cmath>

#include "common/batch_layout.h"
#include "driving/obs_parts.h"
#include "driving/obs_view.h"
#include "driving/observed.h"
#include "driving/route_walk.h"
#include "driving/step.h"

namespace trackfield::driving {

using obs::clip1;
using obs::ego_xy;
using obs::kEgoSize;
using obs::kGoalSize;
using obs::kLightSize;

namespace {

constexpr int kVehicleCols = 9, kLaneCols = 6;

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

int flat_size() { return fields_size(flat_specs()); }

void write_flat(const DriveWorld& w, const DriveConfig& cfg, int a, float* out) {
  const DriveMap& dm = world_map(w, cfg);
  const Map& map = *dm.map;
  const Vehicles& v = w.veh;
  const EgoView ego = observed_ego(w, cfg, a);  // with observation noise, if any
  const double ox = ego.x, oy = ego.y, c = ego.c, s = ego.s;
  const Goal& current = w.goals[a][w.goal_index[a]];

  RoutePoint pts[kObsLanePoints];
  StopLineAhead stop;
  const int npts = walk_route(dm, w.lane[a], w.s[a], current.lane, current.s, kObsLaneSpacing, kObsLanePoints, pts, &stop,
                               quad_start_point(map, w.quad[a]));

  float* o = out;
  obs::write_ego(w, map, a, ego, npts > 0 ? &pts[0] : nullptr, o);
  o += kEgoSize;
  obs::write_goal(w, a, ego, o);
  o += kGoalSize;

  int near[kObsVehicles];
  const int count = obs::nearest_vehicles(w, a, kObsVehicleRadius, kObsVehicles, near);
  // cos and sin of a heading difference as products of each heading's own (the world's
  // view holds the vehicles'; lane points carry theirs): no trigonometry per pair.
  const ObsView* view = obs_view_for(w);
  for (int k = 0; k < kObsVehicles; ++k, o += kVehicleCols) {
    if (k >= count) {
      for (int q = 0; q < kVehicleCols; ++q) o[q] = 0.0f;
      continue;
    }
    const int j = near[k];
    const double cj = view ? view->cos_h[j] : std::cos(v.heading[j]), sj = view ? view->sin_h[j] : std::sin(v.heading[j]);
    o[0] = 1.0f;
    ego_xy(ox, oy, c, s, v.x[j], v.y[j], kObsVehicleRadius, o + 1);
    o[3] = clip1(cj * c + sj * s), o[4] = clip1(sj * c - cj * s);
    if (view) {
      o[5] = view->speed_col[j], o[6] = view->length_col[j], o[7] = view->width_col[j];
    } else {
      o[5] = clip1(v.v[j] / 30.0);
      o[6] = clip1(observed_size(cfg, v.length[j]) / 7.0), o[7] = clip1(observed_size(cfg, v.width[j]) / 3.0);
    }
    o[8] = clip1((v.z[j] - v.z[a]) / 10.0);
  }

  for (int k = 0; k < kObsLanePoints; ++k, o += kLaneCols) {
    if (k >= npts) {
      for (int q = 0; q < kLaneCols; ++q) o[q] = 0.0f;
      continue;
    }
    o[0] = 1.0f;
    ego_xy(ox, oy, c, s, pts[k].x, pts[k].y, kObsLaneSpacing * kObsLanePoints, o + 1);
    o[3] = clip1(pts[k].cos_h * c + pts[k].sin_h * s), o[4] = clip1(pts[k].sin_h * c - pts[k].cos_h * s);
    o[5] = clip1(pts[k].half_width / 5.0);
  }

  obs::write_light(w, dm, stop, o);
  o += kLightSize;

  const float coeffs[kNumDynamicsCoeffs] = {v.c_throttle[a], v.c_steer[a], v.c_acc[a], v.c_vel[a]};
  write_conditioning(w.reward_params[a], cfg.reward_ranges, coeffs, o);
}

}  // namespace trackfield::driving
