// What the shared batch calls on a driving world, and the layout of its buffers.
#include "driving/batch.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "common/snapshot.h"
#include "driving/bicycle.h"
#include "driving/obs.h"
#include "driving/obs_view.h"
#include "driving/observed.h"
#include "driving/step.h"
#include "driving/restore_check.h"

template class trackfield::Batch<trackfield::driving::DriveDomain>;

namespace trackfield::driving {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

constexpr int kAgentInfoSize = 15;  // the agent_info fields below

}  // namespace

void DriveDomain::check_config(const Config& c) {
  require(!c.maps.empty(), "driving config needs at least one map");
  for (const auto& m : c.maps) {
    require(m && m->map && m->map->lane_count > 0, "driving config: a map is missing or has no lanes");
    require(static_cast<int>(m->lane_light.size()) == m->map->lane_count, "driving config: lane_light needs one entry per lane");
    require(!m->spawn_lane.empty(), "driving config: a map has no spawn buffer");
    for (int32_t l : m->lane_light) require(l >= -1 && l < m->lights.num_lights(), "driving config: lane_light out of range");
  }
  require(std::isfinite(c.dt) && c.dt > 0.0 && c.dt <= 1.0, "dt must be in (0, 1] s, got " + std::to_string(c.dt));
  require(c.slots >= 1 && c.slots <= kMaxAgents, "slots must be in [1, " + std::to_string(kMaxAgents) + "], got " + std::to_string(c.slots));
  require(c.agents_min >= 1 && c.agents_min <= c.agents_max,
          "agents: the minimum must be in [1, maximum], got " + std::to_string(c.agents_min) + ".." + std::to_string(c.agents_max));
  require(c.agents_max <= c.slots, "agents: at most slots = " + std::to_string(c.slots) + " agents, got " + std::to_string(c.agents_max));
  require(c.controlled == -1 || (c.controlled >= 1 && c.controlled <= c.agents_min),
          "controlled must be -1 (all slots) or in [1, agents_min]");
  require(c.static_obstacles >= 0 && c.static_obstacles <= kMaxStaticObstacles,
          "static_obstacles must be in [0, " + std::to_string(kMaxStaticObstacles) + "]");
  require(c.episode_steps >= 1, "episode_steps must be at least 1");
  require(c.waypoints_max >= 0 && c.waypoints_max <= kMaxWaypoints, "waypoints_max must be in [0, 3]");
  require(c.waypoint_min_m > 0 && c.waypoint_min_m <= c.waypoint_max_m, "waypoint distances: need 0 < min <= max");
  require(std::isfinite(c.jerk_noise) && c.jerk_noise >= 0, "jerk_noise must be >= 0");
  require(std::isfinite(c.spawn_speed_max) && c.spawn_speed_max >= 0, "spawn_speed_max must be >= 0");
  require(std::isfinite(c.spawn_clearance_m) && c.spawn_clearance_m >= 0, "spawn_clearance must be >= 0");
  for (float n : {c.obs_noise_pos_m, c.obs_noise_heading_rad, c.obs_noise_speed_mps})
    require(std::isfinite(n) && n >= 0, "obs_noise: every standard deviation must be finite and >= 0");
  require(std::isfinite(c.obs_inflate_m) && c.obs_inflate_m >= 0 && c.obs_inflate_m <= 5,
          "obs_inflate must be in [0, 5] m");
  require(c.observation == DriveObservation::kFlat || c.observation == DriveObservation::kSets ||
              c.observation == DriveObservation::kPixels,
          "observation must be flat, sets or pixels");
  if (c.observation == DriveObservation::kPixels)
    for (const auto& m : c.maps) require(m->raster != nullptr, "observation pixels: a map has no raster (DriveMap.build_raster())");
  require(c.reward.goal_radius_m > 0 && c.reward.goal_speed_mps > 0, "goal_radius and goal_speed must be positive");
}

BatchLayout DriveDomain::layout(const Config& cfg) {
  BatchLayout l;
  if (cfg.observation == DriveObservation::kPixels) {
    l.frame_shape = {kPixelSize, kPixelSize, kPixelChannels};
    l.obs_dtype = "uint8";
  } else {
    int size = 0;
    for (const FieldSpec& f : observation_specs(cfg)) size += field_size(f);
    l.frame_shape = {size};
  }
  l.num_agents = cfg.num_controlled();
  l.action_name = "driving action";
  if (cfg.action == ActionKind::kDiscrete) {
    l.action_size = 1;
    l.discrete_actions = true;
    l.action_low = {0};
    l.action_high = {kActionCount - 1};
  } else {
    l.action_size = 2;
    l.discrete_actions = false;
    l.action_low = {kJerkLongMin, -kJerkLatMax};
    l.action_high = {kJerkLongMax, kJerkLatMax};
  }
  for (const char* name : kRewardComponentNames) l.reward_components.push_back(name);
  const float big = 1e9f;
  l.episode_stats = {
      {"goals", {}, "int32", 0, big, "final goals reached by the controlled agents"},
      {"waypoints", {}, "int32", 0, big, "waypoints reached"},
      {"collisions", {}, "int32", 0, big, "agents that collided"},
      {"off_road", {}, "int32", 0, big, "agents that left the road"},
      {"red_lights", {}, "int32", 0, big, "stop lines crossed on red"},
      {"km_driven", {}, "float32", 0, big, "distance driven by the controlled agents, km"},
      {"agents", {}, "int32", 0, big, "agents that took part (respawns included)"},
  };
  l.world_info = {
      {"steps", {}, "int32", 0, big, "steps since reset"},
      {"live_agents", {}, "int32", 0, kMaxAgents, "agent slots in play"},
      {"map_id", {}, "int32", 0, big, "which of the config's maps this episode drives on"},
      {"lights_on", {}, "bool", 0, 1, "this episode has traffic lights"},
  };
  l.agent_info = {
      {"agent_id", {}, "int32", -1, big, "identity of the slot's occupant this episode (-1: none)"},
      {"alive", {}, "bool", 0, 1, "a vehicle is in the slot"},
      {"lane", {}, "int32", -1, big, "lane id"},
      {"s", {}, "float32", 0, big, "position along the lane, m"},
      {"d", {}, "float32", -big, big, "offset from the lane centre, m, + left"},
      {"speed", {}, "float32", -big, big, "signed speed, m/s"},
      {"goal_distance", {}, "float32", 0, big, "route distance to the current goal, m (inf: unreachable)"},
      {"goal_index", {}, "int32", 0, kMaxWaypoints, "goals reached so far (the final goal is the last)"},
      {"erratic", {}, "bool", 0, 1, "an erratic driver this episode (blind spells or sudden braking)"},
      {"collided", {}, "bool", 0, 1, "collided in the last step"},
      {"off_road", {}, "bool", 0, 1, "left the road in the last step"},
      {"reached_goal", {}, "bool", 0, 1, "reached its final goal in the last step"},
      {"ran_red", {}, "bool", 0, 1, "crossed a stop line on red in the last step"},
      {"x", {}, "float32", -big, big, "position east, m"},
      {"y", {}, "float32", -big, big, "position north, m"},
  };
  return l;
}

uint64_t DriveDomain::fingerprint(const Config& c) {
  uint64_t h = kFnvOffsetBasis;
  auto mix = [&h](const auto& v) { h = fingerprint_bytes(&v, sizeof(v), h); };
  mix(c.maps.size());
  for (const auto& m : c.maps) {
    mix(m->map->lane_count), mix(m->map->quad_count);
    h = fingerprint_bytes(m->map->px.data(), m->map->px.size() * sizeof(double), h);
    h = fingerprint_bytes(m->map->py.data(), m->map->py.size() * sizeof(double), h);
    mix(m->lights.num_lights());
  }
  mix(c.dt), mix(c.slots), mix(c.agents_min), mix(c.agents_max), mix(c.controlled), mix(c.static_obstacles);
  mix(c.episode_steps), mix(c.agent_end), mix(c.jerk_noise), mix(c.spawn_speed_max), mix(c.waypoints_max);
  mix(c.waypoint_min_m), mix(c.waypoint_max_m), mix(c.reward), mix(c.lights_enabled), mix(c.erratic_enabled);
  // Not the observation kind nor feature dropout: an observation is a view of the world,
  // so a state saved under one can be restored (and observed, trackfield.driving.observe)
  // under another.
  mix(c.action);
  mix(c.spawn_clearance_m), mix(c.obs_noise_pos_m), mix(c.obs_noise_heading_rad), mix(c.obs_noise_speed_mps);
  mix(c.obs_inflate_m), mix(c.safe_conditioning);
  return h;
}

void DriveDomain::reset(World& w, const Config& cfg, uint64_t seed, int) {
  reset_world(w, cfg, seed);
  reset_obs_noise(w, cfg, seed);
}

void DriveDomain::step(World& w, const Config& cfg, const void* actions) {
  step_world(w, cfg, actions);
  draw_obs_noise(w, cfg);
}

void DriveDomain::write_frame(const World& w, const Config& cfg, int agent, void* frame) {
  if (cfg.observation == DriveObservation::kPixels) write_pixels(w, cfg, agent, static_cast<uint8_t*>(frame));
  else write_observation(w, cfg, agent, static_cast<float*>(frame));
}

void DriveDomain::write_live(const World& w, const Config& cfg, bool* live) {
  // The shared batch calls this right before write_obs on every path (reset, step,
  // set_state): the one per-world moment to build what all agents' observations share.
  prepare_obs_view(w, cfg);
  for (int a = 0; a < cfg.num_controlled(); ++a) live[a] = w.state[a] == kAlive && !w.truncated && !w.terminated;
}

void DriveDomain::write_step_results(const World& w, const Config& cfg, float* rewards, float* components,
                                     bool* agent_terminated, bool* agent_truncated) {
  for (int a = 0; a < cfg.num_controlled(); ++a) {
    rewards[a] = w.reward[a];
    for (int k = 0; k < kNumRewardComponents; ++k) components[a * kNumRewardComponents + k] = w.components[a][k];
    agent_terminated[a] = w.ended_now[a];
    agent_truncated[a] = !w.ended_now[a] && w.truncated && w.state[a] == kAlive;
  }
}

void DriveDomain::write_episode_stats(const World& w, const Config&, double* out) {
  out[0] = w.stat_goals, out[1] = w.stat_waypoints, out[2] = w.stat_collisions, out[3] = w.stat_off_road;
  out[4] = w.stat_red_lights, out[5] = w.stat_km, out[6] = w.stat_agents;
}

void DriveDomain::write_info(const World& w, const Config& cfg, double* world_info, double* agent_info) {
  const int A = cfg.num_controlled();
  int live = 0;
  for (int a = 0; a < A; ++a) live += w.state[a] == kAlive;
  world_info[0] = w.steps, world_info[1] = live, world_info[2] = w.map_id, world_info[3] = w.lights.enabled;
  for (int a = 0; a < A; ++a) {
    double* o = agent_info + a * kAgentInfoSize;
    const bool present = w.state[a] != kEmpty || w.ended_now[a];
    o[0] = present ? w.agent_id[a] : -1;
    o[1] = w.state[a] == kAlive;
    o[2] = present ? w.lane[a] : -1;
    o[3] = w.s[a], o[4] = w.d[a], o[5] = w.veh.v[a], o[6] = w.goal_route_m[a], o[7] = w.goal_index[a];
    o[8] = a < w.erratic.num_agents && is_erratic(w.erratic, a);
    o[9] = w.collided[a], o[10] = w.off_road[a], o[11] = w.reached_goal[a], o[12] = w.ran_red[a];
    o[13] = w.veh.x[a], o[14] = w.veh.y[a];
  }
}

void DriveDomain::check_world(const World& w, const Config& cfg) {
  check_restored_world(w);
  require(w.map_id >= 0 && w.map_id < static_cast<int>(cfg.maps.size()), "snapshot: map id out of range");
  const Map& map = *cfg.maps[w.map_id]->map;
  require(w.erratic.num_agents >= 0 && w.erratic.num_agents <= kMaxAgents, "snapshot: erratic agent count out of range");
  for (int i = 0; i < kMaxVehicles; ++i) {
    require(w.state[i] <= kEnded, "snapshot: a slot state is out of range");
    if (w.state[i] != kAlive) continue;
    require(w.lane[i] >= 0 && w.lane[i] < map.lane_count, "snapshot: a vehicle's lane is out of range");
    require(w.quad[i] >= -1 && w.quad[i] < map.quad_count, "snapshot: a vehicle's quad is out of range");
    require(std::isfinite(w.veh.x[i]) && std::isfinite(w.veh.y[i]), "snapshot: a vehicle's position is not finite");
    if (i >= kMaxAgents) continue;
    require(w.goal_count[i] >= 1 && w.goal_count[i] <= kMaxGoals && w.goal_index[i] >= 0 &&
                w.goal_index[i] < w.goal_count[i], "snapshot: goal indices out of range");
    for (int g = 0; g < w.goal_count[i]; ++g)
      require(w.goals[i][g].lane >= 0 && w.goals[i][g].lane < map.lane_count, "snapshot: a goal lane is out of range");
  }
}

}  // namespace trackfield::driving
