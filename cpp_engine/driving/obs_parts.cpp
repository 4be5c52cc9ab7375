// The observation pieces flat and sets share (obs_parts.h).
#include "driving/obs_parts.h"

#include <limits>

#include "driving/bicycle.h"
#include "driving/obs.h"
#include "driving/obs_view.h"

namespace trackfield::driving::obs {

void write_ego(const DriveWorld& w, const Map& map, int a, const EgoView& ego, const RoutePoint* ahead, float* o) {
  const Vehicles& v = w.veh;
  o[0] = clip1(ego.d / 5.0);
  o[1] = clip1(wrap_angle(ego.heading - w.lane_heading[a]) / M_PI);
  o[2] = ahead ? clip1(wrap_angle(ahead->heading - w.lane_heading[a]) / kObsLaneSpacing / 0.1) : 0.0f;
  o[3] = clip1(ego.v / 30.0);
  o[4] = clip1(map.speed_limit[w.lane[a]] / 30.0);
  o[5] = clip1(v.phi[a] / kSteerMax);
  o[6] = clip1(v.a_long[a] / 5.0);
  o[7] = clip1(v.a_lat[a] / 4.0);
  o[8] = clip1((v.c_throttle[a] - 1.0) / 0.5);
  o[9] = clip1((v.c_steer[a] - 1.0) / 0.5);
  o[10] = clip1((v.c_acc[a] - 1.0) / 0.5);
  o[11] = clip1((v.c_vel[a] - 1.0) / 0.5);
  o[12] = clip1(v.length[a] / 7.0);
  o[13] = clip1(v.width[a] / 3.0);
}

void write_goal(const DriveWorld& w, int a, const EgoView& ego, float* o) {
  const double ox = ego.x, oy = ego.y, c = ego.c, s = ego.s;
  const Goal& current = w.goals[a][w.goal_index[a]];
  const Goal& final_goal = w.goals[a][w.goal_count[a] > 0 ? w.goal_count[a] - 1 : 0];
  ego_xy(ox, oy, c, s, final_goal.x, final_goal.y, 200.0, o);
  ego_xy(ox, oy, c, s, current.x, current.y, 200.0, o + 2);
  o[4] = clip1(w.goal_route_m[a] / 1000.0);
  o[5] = clip1((w.goal_count[a] - 1 - w.goal_index[a]) / 3.0);
}

// An insertion-sorted list over every slot (the live ones, with the world's view). A linear scan of <= 200 slots costs less than
// building and walking a hash at a 200 m radius (a town is not much larger). The distances
// come first in a branch-free loop the compiler vectorises (ourselves at +inf); the
// selection then rejects most slots with one comparison before it looks at their state.
// Same list, same order (ties to the lower slot) as a single branchy pass.
int nearest_vehicles(const DriveWorld& w, int a, double radius, int count, int* near) {
  const Vehicles& v = w.veh;
  if (a < w.erratic.num_agents && is_blind_now(w.erratic, a)) return 0;
  const double ox = v.x[a], oy = v.y[a];
  double d2s[kMaxVehicles];
  const double r2 = radius * radius;
  constexpr double kFar = std::numeric_limits<double>::infinity();
  double worst = r2;  // admits d2 <= worst until the list is full, then only the strictly nearer
  if (const ObsView* view = obs_view_for(w)) {
    // Only the live vehicles (the view's list, ascending slot: the same order and ties as
    // over every slot), then a first cut: the smallest of a few radii holding `count`
    // candidates bounds the answer, so the selection sees few of them. Both loops
    // vectorise; the list is the same as without the cut.
    const int n_live = view->live_count;
    const double* __restrict lx = view->live_x;
    const double* __restrict ly = view->live_y;
    for (int k = 0; k < n_live; ++k) {
      const double dx = lx[k] - ox, dy = ly[k] - oy;
      d2s[k] = dx * dx + dy * dy;
    }
    // Radii about 1.3x apart, so the selection inserts at most ~1.7 count candidates (its
    // shifting was most of this function's time with three radii 2x apart). One pass per
    // radius, each a vectorised count, from the largest down while it still holds enough.
    constexpr int kNumCuts = 7;
    constexpr double kCuts[kNumCuts] = {100.0 * 100.0, 75.0 * 75.0, 56.0 * 56.0, 42.0 * 42.0,
                                        32.0 * 32.0, 24.0 * 24.0, 18.0 * 18.0};
    for (int c = 0; c < kNumCuts; ++c) {
      const double cut = kCuts[c];
      int within = 0;
      for (int k = 0; k < n_live; ++k) within += d2s[k] <= cut;
      // The agent itself (distance 0, counted in every cut) is not a candidate.
      if (within - 1 < count) break;
      if (cut < worst) worst = cut;
    }
    double near_d2[kObsVehicles];
    int n = 0;
    for (int k = 0; k < n_live; ++k) {
      const double d2 = d2s[k];
      const int j = view->live_slot[k];
      if (!(d2 <= worst) || (n == count && d2 >= worst) || j == a) continue;
      int m = n < count ? n++ : n - 1;
      while (m > 0 && near_d2[m - 1] > d2) near[m] = near[m - 1], near_d2[m] = near_d2[m - 1], --m;
      near[m] = j, near_d2[m] = d2;
      if (n == count) worst = near_d2[n - 1];
    }
    return n;
  } else {
    for (int j = 0; j < kMaxVehicles; ++j) {
      const double dx = v.x[j] - ox, dy = v.y[j] - oy;
      d2s[j] = dx * dx + dy * dy;
    }
    d2s[a] = kFar;
  }
  double near_d2[kObsVehicles];
  int n = 0;
  for (int j = 0; j < kMaxVehicles; ++j) {
    const double d2 = d2s[j];
    if (!(d2 <= worst) || (n == count && d2 >= worst) || w.state[j] != kAlive) continue;
    int k = n < count ? n++ : n - 1;
    while (k > 0 && near_d2[k - 1] > d2) near[k] = near[k - 1], near_d2[k] = near_d2[k - 1], --k;
    near[k] = j, near_d2[k] = d2;
    if (n == count) worst = near_d2[n - 1];
  }
  return n;
}

void write_light(const DriveWorld& w, const DriveMap& dm, const StopLineAhead& stop, float* o) {
  const LightColour colour = (stop.light >= 0 && w.lights.enabled) ? light_colour_of_light(w.lights, dm.lights, stop.light)
                                                                    : kNone;
  o[0] = colour != kNone ? 1.0f : 0.0f;
  o[1] = colour != kNone ? clip1(stop.distance / 100.0) : 0.0f;
  o[2] = colour == kGreen, o[3] = colour == kYellow, o[4] = colour == kRed;
}

}  // namespace trackfield::driving::obs
