// Fixed maxima of a driving world, in one place: every per-world array is sized by these,
// so a world is plain data (copied by snapshots) and a step never allocates.
#ifndef TRACKFIELD_DRIVING_LIMITS_H
#define TRACKFIELD_DRIVING_LIMITS_H

namespace trackfield::driving {

constexpr int kMaxAgents = 150;           // agent slots per world (GIGAFLOW's largest worlds)
constexpr int kMaxStaticObstacles = 50;   // immobile vehicles per world, after the agent slots
constexpr int kMaxVehicles = kMaxAgents + kMaxStaticObstacles;
constexpr int kMaxWaypoints = 3;          // intermediate goals before the final one
constexpr int kMaxGoals = kMaxWaypoints + 1;

}  // namespace trackfield::driving

#endif
