// ProbeDomain: the smallest domain that uses every feature of Batch<Domain>, so the
// shared batch and Python adapters are tested on continuous actions, agents that join
// and leave mid-episode, per-agent rewards and info, and image-like stacking, apart
// from any real domain. It is a test fixture (bound as trackfield._engine.probe),
// not a simulation anyone trains on.
//
// Agent slot a joins the episode at step join_every * a and runs along a line from a
// random start in [-0.5, 0.5): action [push, brake] in [-1, 1]^2 sets its velocity to
// (push - max(brake, 0)) * 0.1 per step. It leaves, terminated, on reaching x >= 1. The
// episode ends when every slot has joined and left (terminated) or after
// max_steps (truncated).
#ifndef TRACKFIELD_COMMON_PROBE_DOMAIN_H
#define TRACKFIELD_COMMON_PROBE_DOMAIN_H

#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "common/batch.h"
#include "common/rng.h"
#include "common/snapshot.h"

namespace trackfield::probe {

constexpr int kMaxAgents = 8;
constexpr int kFrameSize = 4;  // x, velocity, time fraction, slot index

struct ProbeConfig {
  int num_agents = 2;
  int join_every = 3;  // steps between slots joining (0: all at reset)
  int max_steps = 50;
  int stack = 1;
  bool image = false;  // uint8 frames of 2 x 2 x 1 instead of float32 (4,), to test image stacking
};

struct ProbeWorld {
  Rng rng;
  int steps;
  int num_agents;
  float x[kMaxAgents], v[kMaxAgents], last_push[kMaxAgents];
  int8_t state[kMaxAgents];  // 0 waiting to join, 1 in play, 2 left (reached the goal)
  float reward[kMaxAgents];
  bool left_now[kMaxAgents];
  bool terminated, truncated;
};

struct ProbeDomain {
  using World = ProbeWorld;
  using Config = ProbeConfig;
  static constexpr const char* kName = "probe";
  static constexpr uint32_t kSnapshotMagic = 0x424f5250;  // "PROB"
  static constexpr uint32_t kSnapshotVersion = 1;

  static void check_config(const Config& c) {
    if (c.num_agents < 1 || c.num_agents > kMaxAgents) throw std::invalid_argument("num_agents must be in [1, 8]");
    if (c.join_every < 0 || c.max_steps < 1) throw std::invalid_argument("join_every >= 0 and max_steps >= 1 needed");
    if (c.stack < 1 || c.stack > 16) throw std::invalid_argument("stack must be in [1, 16]");
  }

  static BatchLayout layout(const Config& c) {
    BatchLayout l;
    l.frame_shape = c.image ? std::vector<int>{2, 2, 1} : std::vector<int>{kFrameSize};
    l.obs_dtype = c.image ? "uint8" : "float32";
    l.stack = c.stack;
    l.num_agents = c.num_agents;
    l.action_size = 2;
    l.discrete_actions = false;
    l.action_low = {-1, -1};
    l.action_high = {1, 1};
    l.action_name = "probe action";
    l.reward_components = {"push", "alive"};
    l.episode_stats = {{"finished", {}, "int32", 0, kMaxAgents, "slots that reached the goal"}};
    l.world_info = {{"steps", {}, "int32", 0, 1 << 30, "steps since reset"},
                    {"in_play", {}, "int32", 0, kMaxAgents, "slots in play"}};
    l.agent_info = {{"x", {}, "float32", -10, 10, "position"}, {"state", {}, "int32", 0, 2, "0 waiting, 1 in play, 2 left"}};
    return l;
  }

  static uint64_t fingerprint(const Config& c) {
    uint64_t h = kFnvOffsetBasis;
    auto mix = [&h](const auto& v) { h = fingerprint_bytes(&v, sizeof(v), h); };
    mix(c.num_agents), mix(c.join_every), mix(c.max_steps), mix(c.stack), mix(c.image);
    return h;
  }

  static void reset(World& w, const Config& c, uint64_t seed, int) {
    w = World{};
    rng_seed(w.rng, seed, 0);
    w.num_agents = c.num_agents;
    for (int a = 0; a < c.num_agents; ++a) {
      w.x[a] = rng_range(w.rng, -0.5f, 0.5f);
      w.state[a] = c.join_every * a == 0 ? 1 : 0;
    }
  }

  static void step(World& w, const Config& c, const void* actions) {
    const float* act = static_cast<const float*>(actions);
    ++w.steps;
    for (int a = 0; a < w.num_agents; ++a) {
      w.reward[a] = 0.0f;
      w.left_now[a] = false;
      w.last_push[a] = 0.0f;
      if (w.state[a] == 0 && w.steps >= c.join_every * a) {
        w.state[a] = 1;  // joins now; acts from the next step
        continue;
      }
      if (w.state[a] != 1) continue;
      const float push = act[2 * a], brake = act[2 * a + 1] > 0 ? act[2 * a + 1] : 0.0f;
      w.v[a] = (push - brake) * 0.1f;
      w.x[a] += w.v[a];
      w.last_push[a] = push;
      w.reward[a] = push + 1.0f;
      if (w.x[a] >= 1.0f) {
        w.state[a] = 2;
        w.left_now[a] = true;
      }
    }
    bool all_left = true;
    for (int a = 0; a < w.num_agents; ++a) all_left = all_left && w.state[a] == 2;
    w.terminated = all_left;
    w.truncated = !all_left && w.steps >= c.max_steps;
  }

  static Rng& rng(World& w) { return w.rng; }

  static void write_frame(const World& w, const Config& c, int a, void* frame) {
    const float values[kFrameSize] = {w.x[a], w.v[a], static_cast<float>(w.steps) / c.max_steps, static_cast<float>(a)};
    if (!c.image) {
      std::memcpy(frame, values, sizeof(values));
      return;
    }
    uint8_t* px = static_cast<uint8_t*>(frame);
    for (int k = 0; k < kFrameSize; ++k) {
      float q = (values[k] + 2.0f) * 50.0f;
      px[k] = static_cast<uint8_t>(q < 0 ? 0 : (q > 255 ? 255 : q));
    }
  }

  static void write_live(const World& w, const Config&, bool* live) {
    for (int a = 0; a < w.num_agents; ++a) live[a] = w.state[a] == 1 && !w.truncated;
  }

  static void write_step_results(const World& w, const Config&, float* rewards, float* components,
                                 bool* agent_terminated, bool* agent_truncated) {
    for (int a = 0; a < w.num_agents; ++a) {
      rewards[a] = w.reward[a];
      components[2 * a] = w.last_push[a];
      components[2 * a + 1] = w.reward[a] != 0.0f ? 1.0f : 0.0f;
      agent_terminated[a] = w.left_now[a];
      agent_truncated[a] = w.truncated && w.state[a] == 1;
    }
  }

  static bool terminated(const World& w) { return w.terminated; }
  static bool truncated(const World& w) { return w.truncated; }

  static void write_episode_stats(const World& w, const Config&, double* out) {
    int finished = 0;
    for (int a = 0; a < w.num_agents; ++a) finished += w.state[a] == 2;
    out[0] = finished;
  }

  static void write_info(const World& w, const Config&, double* world, double* agents) {
    int in_play = 0;
    for (int a = 0; a < w.num_agents; ++a) {
      in_play += w.state[a] == 1;
      agents[2 * a] = w.x[a];
      agents[2 * a + 1] = w.state[a];
    }
    world[0] = w.steps;
    world[1] = in_play;
  }

  static void check_world(const World& w, const Config& c) {
    if (w.num_agents != c.num_agents || w.steps < 0) throw std::invalid_argument("set_state: corrupted snapshot (probe)");
    for (int a = 0; a < w.num_agents; ++a)
      if (w.state[a] < 0 || w.state[a] > 2) throw std::invalid_argument("set_state: corrupted snapshot (probe state)");
  }
};

}  // namespace trackfield::probe

#endif
