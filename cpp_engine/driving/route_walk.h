// Following the lane graph ahead of a vehicle: points along its lane and the successors
// that lead to its goal, and the first stop line on the way. The observation's lane
// points and the built-in driver's look-ahead both read it.
#ifndef TRACKFIELD_DRIVING_ROUTE_WALK_H
#define TRACKFIELD_DRIVING_ROUTE_WALK_H

#include <cstdint>

#include "driving/config.h"

namespace trackfield::driving {

struct RoutePoint {
  double x, y;
  float heading, half_width;
  double cos_h, sin_h;  // of heading (Map::point_cos, point_sin)
};

struct StopLineAhead {
  int light = -1;        // -1: none within the walk
  float distance = 0.0f; // m along the route to the end of the lane it stops
};

// The successor of `lane` to follow towards (goal_lane, goal_s): the one with the least
// route distance (first on ties; any when none reaches the goal); -1 at a dead end.
int next_lane_towards(const Map& map, int lane, int goal_lane, float goal_s);

// Writes up to `count` points `spacing` m apart starting `spacing` ahead of (lane, s);
// returns how many (fewer at a dead end). `stop` (may be null) gets the first lane end on
// the way that a light stops, within count * spacing. `out` may be null: the walk then
// only looks for the stop line (the same arithmetic, so the same answer, without the
// points' poses). Allocates nothing.
// start_point (-1: none) is a centre point of `lane` at or before s, such as the first
// point of the vehicle's quad (quad_start_point): the first lane's pose search starts
// there instead of at the lane's first point (the same poses; a hint that is not on the
// lane or lies beyond s is ignored).
int walk_route(const DriveMap& dm, int lane, float s, int goal_lane, float goal_s, float spacing, int count,
               RoutePoint* out, StopLineAhead* stop, int64_t start_point = -1);

// start_point if it is a centre point of `lane` at or before s (clamped to the lane), else
// -1: a walk along the lane may start its pose search there.
int64_t usable_start_point(const Map& map, int lane, float s, int64_t start_point);

// The first centre point of quad q, or -1 for no quad (walk_route's start_point).
inline int64_t quad_start_point(const Map& map, int q) { return q >= 0 && q < map.quad_count ? map.quad_point[q] : -1; }

}  // namespace trackfield::driving

#endif
