// A driving batch's settings: the maps (built once, shared read-only by every world) with
// their light layouts and spawn buffers, the agent counts, the episode rules and the
// reward, light and erratic-driver configs. Python (trackfield.driving.engine) fills it
// from a DrivingConfig and a scenario.
#ifndef TRACKFIELD_DRIVING_CONFIG_H
#define TRACKFIELD_DRIVING_CONFIG_H

#include <cstdint>
#include <memory>
#include <vector>

#include "driving/erratic.h"
#include "driving/idm.h"
#include "driving/lights.h"
#include "driving/limits.h"
#include "driving/map.h"
#include "driving/map_raster.h"
#include "driving/reward.h"

namespace trackfield::driving {

// Candidate (lane, s) points drawn once per map, lane-length-weighted (so a point is
// uniform over the road's length, not its area: wide roads get no extra agents). Spawns
// and goals index this buffer, so a reset allocates nothing.
constexpr int kSpawnBufferSize = 4096;

// One map of the batch: the engine map, its lights, and what spawning needs.
struct DriveMap {
  std::shared_ptr<const Map> map;
  LightLayout lights;              // built (build_light_layout) before use
  std::vector<int32_t> lane_light; // lane -> the light stopping its end, or -1
  // The spawn buffer (build_spawn_buffer in spawn.h).
  std::vector<int32_t> spawn_lane;
  std::vector<float> spawn_s;
  // Bounds of the map's quads, m (the collision hash covers them).
  float min_x = 0, min_y = 0, max_x = 1, max_y = 1;
  // The static picture the pixels observation samples (map_raster.h); built on demand
  // (DriveMap.build_raster) since only a pixels config needs it.
  std::shared_ptr<const MapRaster> raster;
};

// What happens when an agent collides, leaves the road or reaches its final goal.
enum class AgentEnd : int {
  kRespawn = 0,   // a new agent (new identity) takes the slot from the next step
  kEndWorld = 1,  // the slot stays empty; the world ends when every controlled agent has ended
};

enum class ActionKind : int { kDiscrete = 0, kBox = 1 };
enum class DriveObservation : int { kFlat = 0, kSets = 1, kPixels = 2 };

struct DriveConfig {
  std::vector<std::shared_ptr<const DriveMap>> maps;  // each episode drives on one, uniformly drawn

  double dt = 0.3;          // s
  int slots = kMaxAgents;   // agent slots per world, <= kMaxAgents
  // Agents at reset: U{agents_min, agents_max}, <= slots. The other slots stay empty.
  int agents_min = 1, agents_max = kMaxAgents;
  // Only the first `controlled` slots take actions (the layout's agents); the rest follow
  // their lanes with the built-in IDM + pure-pursuit driver. -1: every slot is controlled.
  int controlled = -1;
  int static_obstacles = 0;   // immobile vehicles, <= kMaxStaticObstacles
  int episode_steps = 300;    // truncation: 90 s at dt 0.3
  AgentEnd agent_end = AgentEnd::kRespawn;
  // Built-in drivers end like agents (collision, off-road, goal) and always respawn.

  float jerk_noise = 0.0f;    // std of Gaussian noise on each jerk, m/s^3
  float spawn_speed_max = 0.0f;  // m/s: an agent starts at U(0, min(this, lane limit))
  int waypoints_max = kMaxWaypoints;  // waypoints per agent: U{0, waypoints_max}
  float waypoint_min_m = 20.0f, waypoint_max_m = 200.0f;
  float waypoint_heading_max = 1.0471976f;  // rad (60 degrees)
  // An agent's route (spawn.cpp), GIGAFLOW's order while goal_distance_max_m is 0: the
  // first point uniform over the map (a point the route can reach from the spawn), each
  // next one waypoint_min_m..waypoint_max_m on along the lanes from the previous with its
  // lane heading within waypoint_heading_max of the previous point's (relaxed where no
  // draw meets it; a dead end ends the chain); the last point is the final goal. Else the waypoints follow that rule from the
  // spawn and the final goal lies U(goal_distance_min_m, goal_distance_max_m) m on along
  // the lanes from the route's last point (the spawn or the last waypoint), a random
  // successor at each lane end.
  float goal_distance_min_m = 0.0f, goal_distance_max_m = 0.0f;
  float spawn_clearance_m = 1.0f;  // free space between a new vehicle's box circle and others'
  // Controlled agents spawn facing uniformly in [-pi, pi) (GIGAFLOW's random headings)
  // instead of along their lane; built-in drivers and static obstacles always face along it.
  bool random_spawn_heading = false;

  // Observations (observed.h): Gaussian noise on the ego's observed position (per axis),
  // heading and speed, redrawn every step; others' boxes seen this much larger per side.
  float obs_noise_pos_m = 0.0f, obs_noise_heading_rad = 0.0f, obs_noise_speed_mps = 0.0f;
  float obs_inflate_m = 0.0f;
  // Every agent gets safe_reward_params() (reward.h) as its reward weights and conditioning
  // instead of a random draw (the evaluation preset's "safe conditioning").
  bool safe_conditioning = false;

  RewardConfig reward;
  RewardRanges reward_ranges;
  LightConfig lights;
  bool lights_enabled = true;
  ErraticConfig erratic;
  bool erratic_enabled = true;
  IdmParams idm;

  ActionKind action = ActionKind::kDiscrete;
  DriveObservation observation = DriveObservation::kFlat;
  // "sets" only: per agent per step, each lane point is dropped with probability 0.5 and
  // each boundary point with 0.4 (mask and values 0), GIGAFLOW's feature dropout.
  bool feature_dropout = false;

  int num_controlled() const { return controlled < 0 ? slots : controlled; }
};

}  // namespace trackfield::driving

#endif
