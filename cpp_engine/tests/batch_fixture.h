// Owned buffers for a Batch<Domain> in C++ tests: what Python's BatchEngine allocates.
#ifndef TRACKFIELD_TESTS_BATCH_FIXTURE_H
#define TRACKFIELD_TESTS_BATCH_FIXTURE_H

#include <cstdint>
#include <memory>
#include <vector>

#include "common/batch.h"

namespace trackfield::testing {

template <typename Domain>
struct BatchFixture {
  BatchLayout layout;
  std::vector<uint8_t> obs, final_obs;
  std::vector<uint32_t> actions;  // 4-byte elements: int32 or float32
  std::vector<float> rewards, components, episode_return;
  std::vector<uint8_t> terminated, truncated, live, agent_terminated, agent_truncated;  // bool-sized
  std::vector<int32_t> episode_length;
  std::vector<double> episode_stats, world_info, agent_info, final_world_info, final_agent_info;
  std::unique_ptr<Batch<Domain>> batch;

  BatchFixture(const typename Domain::Config& cfg, int n, int threads, bool autoreset) {
    layout = Domain::layout(cfg);
    const size_t a = layout.num_agents, obs_bytes = n * a * layout.obs_size() * layout.elem_bytes();
    obs.assign(obs_bytes, 0), final_obs.assign(obs_bytes, 0);
    actions.assign(n * a * layout.action_size, 0);
    rewards.assign(n * a, 0), components.assign(n * a * layout.reward_components.size(), 0);
    episode_return.assign(n * a, 0);
    terminated.assign(n, 0), truncated.assign(n, 0);
    live.assign(n * a, 0), agent_terminated.assign(n * a, 0), agent_truncated.assign(n * a, 0);
    episode_length.assign(n, 0);
    episode_stats.assign(n * fields_size(layout.episode_stats), 0);
    world_info.assign(n * fields_size(layout.world_info), 0);
    final_world_info.assign(world_info.size(), 0);
    agent_info.assign(n * a * fields_size(layout.agent_info), 0);
    final_agent_info.assign(agent_info.size(), 0);
    static_assert(sizeof(bool) == 1, "bool buffers are bytes");
    BatchBuffers b;
    b.obs = obs.data(), b.final_obs = final_obs.data(), b.actions = actions.data();
    b.rewards = rewards.data(), b.reward_components = components.data();
    b.terminated = reinterpret_cast<bool*>(terminated.data());
    b.truncated = reinterpret_cast<bool*>(truncated.data());
    b.live = reinterpret_cast<bool*>(live.data());
    b.agent_terminated = reinterpret_cast<bool*>(agent_terminated.data());
    b.agent_truncated = reinterpret_cast<bool*>(agent_truncated.data());
    b.episode_return = episode_return.data(), b.episode_length = episode_length.data();
    b.episode_stats = episode_stats.data(), b.world_info = world_info.data(), b.agent_info = agent_info.data();
    b.final_world_info = final_world_info.data(), b.final_agent_info = final_agent_info.data();
    batch = std::make_unique<Batch<Domain>>(cfg, n, threads, autoreset, b);
  }

  int32_t* int_actions() { return reinterpret_cast<int32_t*>(actions.data()); }
  float* float_actions() { return reinterpret_cast<float*>(actions.data()); }
};

}  // namespace trackfield::testing

#endif
