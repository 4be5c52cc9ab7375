// Walking the lane graph ahead along the route (route_walk.h).
#include "driving/route_walk.h"

#include <algorithm>

#include "driving/routing.h"
#include "driving/spawn.h"

namespace trackfield::driving {

int next_lane_towards(const Map& map, int lane, int goal_lane, float goal_s) {
  const int64_t b = map.successor_offsets[lane], e = map.successor_offsets[lane + 1];
  if (b == e) return -1;
  int best = map.successors[b];
  float best_d = route_distance(map, best, 0.0f, goal_lane, goal_s);
  for (int64_t k = b + 1; k < e; ++k) {
    const float d = route_distance(map, map.successors[k], 0.0f, goal_lane, goal_s);
    if (d < best_d) best = map.successors[k], best_d = d;
  }
  return best;
}

int64_t usable_start_point(const Map& map, int lane, float s, int64_t start_point) {
  if (start_point < map.lane_offsets[lane] || start_point >= map.lane_offsets[lane + 1] ||
      !(map.point_s[start_point] <= static_cast<double>(std::min(std::max(s, 0.0f), map.lane_length[lane]))))
    return -1;
  return start_point;
}

int walk_route(const DriveMap& dm, int lane, float s, int goal_lane, float goal_s, float spacing, int count,
               RoutePoint* out, StopLineAhead* stop, int64_t start_point) {
  const Map& map = *dm.map;
  // lane_pose_from scans forward from `segment` to the last point at or before each
  // (clamped) s; from a point at or before the first one it reaches the same point, since
  // the later ones only grow.
  start_point = usable_start_point(map, lane, s, start_point);
  const float horizon = spacing * count;
  float travelled = 0.0f, next_at = spacing;
  int n = 0;
  for (int hops = 0; n < count && hops < 256; ++hops) {
    int64_t segment = hops == 0 && start_point >= 0 ? start_point : map.lane_offsets[lane];
    const float left = map.lane_length[lane] - s;
    if (stop && stop->light < 0 && dm.lane_light[lane] >= 0 && travelled + left <= horizon)
      stop->light = dm.lane_light[lane], stop->distance = travelled + left;
    while (n < count && travelled + (map.lane_length[lane] - s) >= next_at) {
      s += next_at - travelled;
      travelled = next_at;
      if (out) {
        const LanePose p = lane_pose_from(map, lane, s, segment);
        out[n] = {p.x, p.y, p.heading, p.half_width, map.point_cos[segment], map.point_sin[segment]};
      }
      ++n;
      next_at += spacing;
    }
    if (n >= count) break;
    travelled += map.lane_length[lane] - s;
    const int next = next_lane_towards(map, lane, goal_lane, goal_s);
    if (next < 0) break;
    lane = next;
    s = 0.0f;
  }
  return n;
}

}  // namespace trackfield::driving
