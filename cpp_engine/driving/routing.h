// Routing distance on the lane graph, precomputed so a per-step query is a lookup.
//
// Graph: a node is the start of a lane. From the start of lane x one reaches the start of
// each successor at cost length(x), and the start of its left / right neighbour at cost
// kLaneChangeCost (a lane change is a detour the route should avoid when it can, not a
// distance travelled). build_route_table runs Dijkstra from the end of every lane:
// route_table[a * L + b] is the shortest distance from the end of lane a to the start of
// lane b (the successors of a at 0, and of a's neighbours at kLaneChangeCost, since a car
// may change lanes before a ends), +inf when b cannot be reached.
//
// Memory: L x L float32, 36 MB at L = 3000 (the largest towns); build_route_table refuses
// maps above kMaxRoutingLanes rather than allocate gigabytes. Time: L Dijkstra runs of
// O(E log L) each, about a second at L = 3000, once per map.
#ifndef TRACKFIELD_DRIVING_ROUTING_H
#define TRACKFIELD_DRIVING_ROUTING_H

#include "driving/map.h"

namespace trackfield::driving {

constexpr float kLaneChangeCost = 10.0f;  // m
constexpr int kMaxRoutingLanes = 8000;    // 256 MB of table

void build_route_table(Map& map);

// Shortest distance along the lane graph from (lane_a, s_a) to (lane_b, s_b), m:
// s_b - s_a on the same lane when b lies ahead; s_b - s_a + kLaneChangeCost when b is a's
// left or right neighbour and lies ahead; otherwise the rest of a + route_table[a][b] + s_b
// (the least of these). +inf when unreachable. Lane ids must be valid.
float route_distance(const Map& map, int lane_a, float s_a, int lane_b, float s_b);

}  // namespace trackfield::driving

#endif
