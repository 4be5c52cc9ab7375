// What the shared batch calls on a racing world, and the layout of its buffers.
#include "racing/batch.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/snapshot.h"
#include "racing/obs.h"
#include "racing/race_state.h"
#include "racing/restore_check.h"
#include "racing/step.h"

template class trackfield::Batch<trackfield::racing::RacingDomain>;

namespace trackfield::racing {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

FieldSpec per_agent(const RaceConfig& cfg, const char* name, const char* dtype, float lo, float hi, const char* desc) {
  return {name, {cfg.num_agents()}, dtype, lo, hi, desc};
}

}  // namespace

void RacingDomain::check_config(const Config& c) {
  require(c.track != nullptr && c.track->n >= 10, "racing config needs a track of at least 10 points");
  require(c.line != nullptr && !c.line->speed.empty(), "racing config needs a racing line");
  require(c.groups >= 1 && c.cars_per_group >= 1 && c.num_cars() <= kMaxCars,
          "groups * cars_per_group must be in [1, " + std::to_string(kMaxCars) + "], got " +
              std::to_string(c.groups) + " * " + std::to_string(c.cars_per_group));
  require(c.agents_per_group >= 0 && c.agents_per_group <= c.cars_per_group,
          "agents_per_group must be in [0, cars_per_group]");
  require(c.physics_hz >= 10 && c.physics_hz <= 1000, "physics_hz must be in [10, 1000]");
  require(c.control_hz >= 1 && c.physics_hz % c.control_hz == 0,
          "physics_hz must be a whole multiple of control_hz");
  require(c.max_time_s > 0 && std::isfinite(c.max_time_s), "max_time_s must be positive");
  require(c.action_delay_steps >= 0 && c.action_delay_steps <= kMaxControlDelay * c.substeps(),
          "action_delay_s must be in [0, " + std::to_string(kMaxControlDelay) + " control periods]");
  require(c.observation_delay_steps >= 0 && c.observation_delay_steps < kObservationRing * c.substeps(),
          "observation_delay_s must be under " + std::to_string(kObservationRing) + " control periods");
  require(c.start_slot >= -1 && c.start_slot < c.cars_per_group,
          "start_slot must be in [0, cars in the field), or -1 for a random slot each reset");
  require(c.pixel_width >= 8 && c.pixel_width <= 1024 && c.pixel_height >= 8 && c.pixel_height <= 1024,
          "pixel size must be in [8, 1024]");
  for (int k = 0; k < kNumComponents; ++k)
    require(std::isfinite(c.weight[k]), std::string("reward weight of ") + kComponentNames[k] + " is not finite");
}

BatchLayout RacingDomain::layout(const Config& cfg) {
  BatchLayout l;
  if (cfg.observation == Observation::kPixels) {
    l.frame_shape = {cfg.pixel_height, cfg.pixel_width, 3};
    l.obs_dtype = "uint8";
  } else {
    l.frame_shape = {features_size()};
  }
  l.num_agents = cfg.num_agents();
  l.action_size = 2;
  l.discrete_actions = false;
  l.action_low = {-1.0f, -1.0f};
  l.action_high = {1.0f, 1.0f};
  l.action_name = "car action";
  for (const char* name : kComponentNames) l.reward_components.push_back(name);
  const float big = 1e9f;
  l.episode_stats = {
      per_agent(cfg, "place", "int32", 0, kMaxCars - 1, "final place in the car's group, 0 = first"),
      per_agent(cfg, "laps", "int32", -1, 1 << 20, "start-line crossings"),
      per_agent(cfg, "progress_m", "float32", -big, big, "centre-line distance covered"),
      per_agent(cfg, "off_course_s", "float32", 0, big, "time off course under the rule"),
      per_agent(cfg, "wall_s", "float32", 0, big, "time touching a wall"),
      per_agent(cfg, "contact_s", "float32", 0, big, "time touching another car"),
      per_agent(cfg, "best_lap_s", "float32", 0, big, "best timed lap, 0 if none"),
      per_agent(cfg, "gap_to_leader_m", "float32", 0, big, "centre-line distance behind the group's leader, 0 when leading"),
      per_agent(cfg, "points", "int32", 0, kPoints[0], "race points for the final place (10-8-6-5-4-3-2-1)"),
      per_agent(cfg, "team_points", "int32", 0, 1 << 20, "points of all agents of the car's group together"),
      per_agent(cfg, "penalty_s", "float32", 0, big, "slow-down penalty time given"),
  };
  l.world_info = {{"time_s", {}, "float32", 0, big, "race time"}};
  if (cfg.race_state)
    l.world_info.push_back({"race_state", {race_state_size(cfg)}, "float32", -big, big,
                            "every car's state, rows of trackfield.reward_design.state.RAW_FIELDS"});
  l.agent_info = {
      {"lap", {}, "int32", -1, 1 << 20, "start-line crossings since the start"},
      {"progress_m", {}, "float32", -big, big, "centre-line distance covered since the start"},
      {"s_m", {}, "float32", 0, big, "position along the centre line"},
      {"speed_kmh", {}, "float32", -big, big, "signed speed"},
      {"place", {}, "int32", 0, kMaxCars - 1, "place in the group now, 0 = leading"},
      {"off_course", {}, "bool", 0, 1, "off course under the rule now"},
      {"off_course_s", {}, "float32", 0, big, "cumulative time off course"},
      {"wall_s", {}, "float32", 0, big, "cumulative wall-contact time"},
      {"contact_s", {}, "float32", 0, big, "cumulative car-contact time"},
      {"last_lap_s", {}, "float32", 0, big, "last timed lap, 0 if none"},
      {"best_lap_s", {}, "float32", 0, big, "best timed lap, 0 if none"},
      {"finished", {}, "bool", 0, 1, "completed the race distance"},
      {"gear", {}, "int32", -1, 10, "-1 reverse, 0 neutral"},
      {"slipstream", {}, "float32", 0, 1, "slipstream strength"},
      {"heading_error", {}, "float32", -4, 4, "car heading minus the centre line's, rad (|x| > 1.2: spun)"},
      {"tyres_out", {4}, "bool", 0, 1, "each tyre (FL, FR, RL, RR) beyond the edge plus kerb now"},
      {"tyre_off_s", {4}, "float32", 0, big, "each tyre's cumulative time out"},
      {"penalty_s", {}, "float32", 0, big, "slow-down penalty time still to serve"},
  };
  return l;
}

uint64_t RacingDomain::fingerprint(const Config& cfg) {
  uint64_t h = kFnvOffsetBasis;
  auto mix = [&h](const auto& v) { h = fingerprint_bytes(&v, sizeof(v), h); };
  auto mix_vec = [&h](const std::vector<float>& v) { h = fingerprint_bytes(v.data(), v.size() * sizeof(float), h); };
  const Track& t = *cfg.track;
  mix(t.n);
  mix(t.length);
  mix_vec(t.x);
  mix_vec(t.y);
  mix_vec(t.width_left);
  mix_vec(t.width_right);
  mix(cfg.car);
  mix(cfg.groups), mix(cfg.cars_per_group), mix(cfg.agents_per_group);
  mix(cfg.physics_hz), mix(cfg.control_hz), mix(cfg.max_time_s), mix(cfg.laps), mix(cfg.finish_distance_m);
  mix(cfg.start), mix(cfg.start_s_m), mix(cfg.start_slot), mix(cfg.allow_reverse), mix(cfg.penalties), mix(cfg.off_course_rule);
  mix(cfg.action_delay_steps), mix(cfg.observation_delay_steps), mix(cfg.observation);
  mix(cfg.pixel_width), mix(cfg.pixel_height);
  return h;
}

void RacingDomain::reset(World& w, const Config& cfg, uint64_t seed, int) { reset_world(w, cfg, seed); }

void RacingDomain::step(World& w, const Config& cfg, const void* actions) {
  step_world(w, cfg, static_cast<const float*>(actions));
}

void RacingDomain::write_frame(const World& w, const Config& cfg, int agent, void* frame) {
  if (cfg.observation == Observation::kPixels)
    write_pixels(w, cfg, agent, static_cast<uint8_t*>(frame));
  else
    write_features(w, cfg, agent, static_cast<float*>(frame));
}

void RacingDomain::write_live(const World&, const Config& cfg, bool* live) {
  for (int a = 0; a < cfg.num_agents(); ++a) live[a] = true;
}

void RacingDomain::write_step_results(const World& w, const Config& cfg, float* rewards, float* components,
                                      bool* agent_terminated, bool* agent_truncated) {
  for (int a = 0; a < cfg.num_agents(); ++a) {
    int car = cfg.agent_car(a);
    rewards[a] = w.reward[car];
    for (int k = 0; k < kNumComponents; ++k) components[a * kNumComponents + k] = w.components[car][k];
    agent_terminated[a] = w.terminated;
    agent_truncated[a] = w.truncated;
  }
}

void race_places(const RaceWorld& w, const RaceConfig& cfg, int* place) {
  for (int i = 0; i < cfg.num_cars(); ++i) {
    int g0 = (i / cfg.cars_per_group) * cfg.cars_per_group;
    int ahead = 0;
    for (int j = g0; j < g0 + cfg.cars_per_group; ++j) {
      if (j == i) continue;
      bool j_first;
      if (w.finished[i] && w.finished[j]) j_first = w.finish_time[j] < w.finish_time[i] || (w.finish_time[j] == w.finish_time[i] && j < i);
      else if (w.finished[i] != w.finished[j]) j_first = w.finished[j];
      else {
        float dj = w.start_offset[j] + w.progress[j], di = w.start_offset[i] + w.progress[i];
        j_first = dj > di || (dj == di && j < i);
      }
      ahead += j_first;
    }
    place[i] = ahead;
  }
}

void RacingDomain::write_episode_stats(const World& w, const Config& cfg, double* out) {
  int place[kMaxCars];
  race_places(w, cfg, place);
  const int A = cfg.num_agents();
  for (int a = 0; a < A; ++a) {
    int i = cfg.agent_car(a);
    out[0 * A + a] = place[i];
    out[1 * A + a] = w.lap[i];
    out[2 * A + a] = w.progress[i];
    out[3 * A + a] = w.off_time[i];
    out[4 * A + a] = w.wall_time[i];
    out[5 * A + a] = w.contact_time[i];
    out[6 * A + a] = w.best_lap_s[i];
    float mine = w.start_offset[i] + w.progress[i], leader = mine;
    int g0 = group_start(cfg, i);
    for (int j = g0; j < g0 + cfg.cars_per_group; ++j) leader = std::max(leader, w.start_offset[j] + w.progress[j]);
    out[7 * A + a] = leader - mine;
    out[8 * A + a] = place[i] < kPointsPaid ? kPoints[place[i]] : 0;
    out[10 * A + a] = w.penalty_total_s[i];
  }
  for (int a = 0; a < A; ++a) {  // team: the agents of one group
    double team = 0;
    for (int b = 0; b < A; ++b)
      if (b / cfg.agents_per_group == a / cfg.agents_per_group) team += out[8 * A + b];
    out[9 * A + a] = team;
  }
}

constexpr int kAgentInfoSize = 24;  // the agent_info entries above, flattened

void RacingDomain::write_info(const World& w, const Config& cfg, double* world_info, double* agent_info) {
  world_info[0] = w.time_s;
  if (cfg.race_state) write_race_state(w, cfg, world_info + 1);
  int place[kMaxCars];
  race_places(w, cfg, place);
  for (int a = 0; a < cfg.num_agents(); ++a) {
    int i = cfg.agent_car(a);
    const CarState& c = w.car[i];
    double* o = agent_info + a * kAgentInfoSize;
    o[0] = w.lap[i];
    o[1] = w.progress[i];
    o[2] = c.s;
    o[3] = c.signed_speed * 3.6;
    o[4] = place[i];
    o[5] = w.off_course[i];
    o[6] = w.off_time[i];
    o[7] = w.wall_time[i];
    o[8] = w.contact_time[i];
    o[9] = w.last_lap_s[i];
    o[10] = w.best_lap_s[i];
    o[11] = w.finished[i];
    o[12] = c.in_reverse ? -1 : c.gear;
    o[13] = w.slipstream[i];
    o[14] = c.heading_error;
    for (int t = 0; t < 4; ++t) {
      o[15 + t] = c.tyre_out[t];
      o[19 + t] = w.tyre_off_time[i][t];
    }
    o[23] = w.penalty_s[i];
  }
}

void RacingDomain::check_world(const World& w, const Config& cfg) {
  check_restored_world(w, cfg);
  const int n = cfg.track->n;
  for (int i = 0; i < cfg.num_cars(); ++i)
    for (const auto& row : w.seen)
      require(row[i].car.track_segment >= 0 && row[i].car.track_segment < n, "snapshot: an observed car's track segment is out of range");
}

}  // namespace trackfield::racing
