// The whole state of one driving world as plain arrays over vehicle slots, the RNG
// included, so a world can be copied, snapshotted and stepped on any thread with identical
// results. Slots [0, slots) are agents (controlled or built-in drivers); slots
// [kMaxAgents, kMaxAgents + static_obstacles) are immobile vehicles.
#ifndef TRACKFIELD_DRIVING_WORLD_H
#define TRACKFIELD_DRIVING_WORLD_H

#include <cstdint>
#include <type_traits>

#include "common/rng.h"
#include "driving/erratic.h"
#include "driving/lights.h"
#include "driving/limits.h"
#include "driving/reward.h"

namespace trackfield::driving {

// The bicycle state (bicycle.h's BicycleState fields) in fixed arrays.
struct Vehicles {
  double x[kMaxVehicles], y[kMaxVehicles], heading[kMaxVehicles];
  float z[kMaxVehicles];
  double v[kMaxVehicles], a_long[kMaxVehicles], a_lat[kMaxVehicles], phi[kMaxVehicles];
  int8_t sign_a_long[kMaxVehicles], sign_a_lat[kMaxVehicles], sign_v[kMaxVehicles];
  float length[kMaxVehicles], width[kMaxVehicles], wheelbase[kMaxVehicles];
  float c_throttle[kMaxVehicles], c_steer[kMaxVehicles], c_acc[kMaxVehicles], c_vel[kMaxVehicles];
};

enum SlotState : uint8_t {
  kEmpty = 0,   // no vehicle (beyond the episode's agent count, or a spawn that found no room yet)
  kAlive = 1,
  kEnded = 2,   // ended in the last step: respawns in the next (AgentEnd::kRespawn) or stays
};

// Where a vehicle is heading: goals[0 .. goal_count - 1], the last one final.
struct Goal {
  int32_t lane;
  float s, x, y, heading;
};

struct DriveWorld {
  Rng rng;
  int map_id;
  int steps;
  int next_agent_id;   // identities handed out this episode
  bool terminated, truncated;

  Vehicles veh;
  uint8_t state[kMaxVehicles];       // SlotState
  uint8_t joined_now[kMaxVehicles];  // spawned during this step: it acts from the next one
  int32_t agent_id[kMaxVehicles];    // identity of the slot's current occupant (PettingZoo names)
  int32_t spawn_step[kMaxVehicles];

  // Where each vehicle is on the map after the last step.
  int32_t lane[kMaxVehicles], quad[kMaxVehicles];
  float s[kMaxVehicles], d[kMaxVehicles], lane_heading[kMaxVehicles], half_width[kMaxVehicles];

  // Goals (agent slots only).
  Goal goals[kMaxAgents][kMaxGoals];
  int8_t goal_count[kMaxAgents], goal_index[kMaxAgents];
  float goal_route_m[kMaxAgents];  // route distance to the current goal after the last step

  RewardParams reward_params[kMaxAgents];
  // This step's observation noise of each agent: dx, dy (m), dheading (rad), dv (m/s)
  // (observed.h; zero unless DriveConfig::obs_noise_* is set), and its own generator, so
  // the noise never changes what happens in the world.
  float obs_noise[kMaxAgents][4];
  Rng obs_rng;

  // The last step's events and results per agent slot.
  float j_long[kMaxAgents], j_lat[kMaxAgents];  // applied jerks
  uint8_t collided[kMaxAgents], off_road[kMaxAgents], reached_goal[kMaxAgents], ran_red[kMaxAgents];
  uint8_t waypoint_reached[kMaxAgents];
  uint8_t ended_now[kMaxAgents];
  // The built-in driver held back by a red or yellow light: stopping for its stop line, or
  // queued behind a vehicle that is (driver.h).
  uint8_t held_red[kMaxAgents];
  float reward[kMaxAgents];
  float components[kMaxAgents][kNumRewardComponents];

  LightState lights;
  ErraticState erratic;

  // Episode statistics, summed over every agent that drove in the episode.
  double stat_goals, stat_waypoints, stat_collisions, stat_off_road, stat_red_lights, stat_km, stat_agents;
};

static_assert(std::is_trivially_copyable<DriveWorld>::value, "a world is plain data (snapshots copy it)");

}  // namespace trackfield::driving

#endif
