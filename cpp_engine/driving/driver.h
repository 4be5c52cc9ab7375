// The built-in driver: town_drive's traffic and env.ai_action() (the ego driven the same way).
//
// Longitudinal: the least of several IDM accelerations (idm.h), one per thing to stop or
// slow for, each a standing or moving "leader":
//   - the nearest vehicle whose box lies on the route ahead (the route's centre line,
//     followed through junctions, not a straight line), at its speed along the route;
//   - the stop line of a red light, or of a yellow one when it can stop there at no more
//     than kYellowStopDecel;
//   - the entry of the next junction while it must yield there (below);
//   - the final goal (a standing leader placed so that it comes to rest kGoalStopShort
//     before the goal, inside the goal radius, so it arrives under the goal speed), and the
//     end of a lane without successors;
// and a speed limit from the curvature of the route ahead: at each route point k (every
// kDriverSpacing m) the speed sqrt(kMaxLateralAccel / kappa_k), reached by braking at
// kCurveDecel over the distance to it.
//
// Right of way at a junction (GIGAFLOW's towns: lights, else first come): a vehicle about
// to enter junction J on connector c yields to every vehicle on a connector of J that
// conflicts with c (the two centre lines cross or merge, junction_conflicts in map.h)
// and that is already in J, or is nearer to its entry and free to go (not held by a red
// or yellow light); equal distances go to the lower slot. A vehicle that could not stop
// before the entry at kCommitDecel is committed and goes. Without a junction ahead,
// nothing changes.
//
// Lateral: pure pursuit on the route point max(6 m, 1 s) ahead.
#ifndef TRACKFIELD_DRIVING_DRIVER_H
#define TRACKFIELD_DRIVING_DRIVER_H

#include <cstdint>

#include "driving/config.h"
#include "driving/limits.h"
#include "driving/world.h"

namespace trackfield::driving {

constexpr float kMaxLateralAccel = 1.5f;  // m/s^2 planned in curves (tracking adds some)
constexpr float kCurveDecel = 2.0f;       // m/s^2 braking for a curve ahead
constexpr float kYellowStopDecel = 4.0f;  // m/s^2: stops for yellow when it needs no more
constexpr float kCommitDecel = 4.0f;      // m/s^2: past this a junction entry is not yielded
constexpr float kDriverSpacing = 2.5f;    // m between route points
constexpr int kDriverPoints = 32;         // route points looked at (80 m)
constexpr float kJunctionLook = 60.0f;
constexpr float kGoalStopShort = 1.0f;    // m: where the driver comes to rest before its final goal    // m: junctions farther ahead are not planned for

// Where every agent slot stands towards its next junction, computed once per step before
// the built-in drivers act (plan_junctions).
struct JunctionPlan {
  int32_t junction[kMaxAgents];  // -1: none within kJunctionLook
  int32_t connector[kMaxAgents]; // the junction lane it is on or will take
  float entry[kMaxAgents];       // m from its front bumper to the entry (<= 0: inside)
  uint8_t free_to_go[kMaxAgents];
};

void plan_junctions(const DriveWorld& w, const DriveConfig& cfg, JunctionPlan& plan);

// Slot i's jerks; held_red says whether a red or yellow light holds it (directly or
// through the vehicle it follows).
void drive_builtin(const DriveWorld& w, const DriveConfig& cfg, const JunctionPlan& plan, int i, float& j_long,
                   float& j_lat, uint8_t& held_red);

}  // namespace trackfield::driving

#endif
