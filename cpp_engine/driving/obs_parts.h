// Pieces the flat and sets observations share (ego, goal, nearest vehicles, light,
// scaling), so the two agree bit for bit on the fields they have in common. Internal to
// obs_flat.cpp and obs_sets.cpp.
#ifndef TRACKFIELD_DRIVING_OBS_PARTS_H
#define TRACKFIELD_DRIVING_OBS_PARTS_H

#include <cmath>

#include "driving/config.h"
#include "driving/observed.h"
#include "driving/route_walk.h"
#include "driving/world.h"

namespace trackfield::driving::obs {

constexpr int kEgoSize = 14, kGoalSize = 6, kLightSize = 5;

inline float clip1(double x) {
  if (!(x == x)) return 0.0f;  // NaN
  return static_cast<float>(x < -1.0 ? -1.0 : (x > 1.0 ? 1.0 : x));
}

inline float wrap_angle(double a) { return static_cast<float>(std::remainder(a, 2.0 * M_PI)); }

// Writes (x, y) of a world point in the ego frame, divided by `scale`.
inline void ego_xy(double ox, double oy, double c, double s, double px, double py, double scale, float* out) {
  const double dx = px - ox, dy = py - oy;
  out[0] = clip1((c * dx + s * dy) / scale);
  out[1] = clip1((-s * dx + c * dy) / scale);
}

// The ego field as `ego` (observed_ego: with observation noise) sees itself; `ahead` is the
// first lane point 5 m along the route, or null at a dead end.
void write_ego(const DriveWorld& w, const Map& map, int a, const EgoView& ego, const RoutePoint* ahead, float* o);

// The goal field, in the observed ego's frame.
void write_goal(const DriveWorld& w, int a, const EgoView& ego, float* o);

// The (at most kCount) nearest other live vehicles within `radius`, nearest first; none
// while the agent is blind. Returns how many.
int nearest_vehicles(const DriveWorld& w, int a, double radius, int count, int* near);

// The light field from the stop line found ahead.
void write_light(const DriveWorld& w, const DriveMap& dm, const StopLineAhead& stop, float* o);

}  // namespace trackfield::driving::obs

#endif
