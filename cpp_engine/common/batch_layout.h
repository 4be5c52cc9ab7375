// What a batch's buffers hold, declared once by the domain and read by Python to
// allocate them, and the raw views of those buffers the engine writes into.
#ifndef TRACKFIELD_COMMON_BATCH_LAYOUT_H
#define TRACKFIELD_COMMON_BATCH_LAYOUT_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/field_spec.h"

namespace trackfield {

// Per-world sizes. Agents are slots: a world has `num_agents` of them, and a live
// mask says which are in play (agents may come and go mid-episode).
struct BatchLayout {
  // One agent's observation frame, e.g. {115} or {72, 96, 4}. Stacking multiplies the
  // last axis: vectors are concatenated, images get their channels grouped in time.
  std::vector<int> frame_shape;
  std::string obs_dtype = "float32";  // "float32" or "uint8"
  int stack = 1;
  int num_agents = 1;
  // Each agent's action: `action_size` int32 (discrete) or float32 (continuous)
  // elements; element j must lie in [action_low[j], action_high[j]].
  int action_size = 1;
  bool discrete_actions = true;
  std::vector<float> action_low, action_high;
  std::string action_name = "action";  // how error messages call one element
  std::vector<std::string> reward_components;
  // Values stored as float64 whatever their dtype (Python shows them with it).
  std::vector<FieldSpec> episode_stats;  // per world, of the episode that just ended
  std::vector<FieldSpec> world_info;     // per world, after every step and reset
  std::vector<FieldSpec> agent_info;     // per agent slot

  int frame_channels() const { return frame_shape.empty() ? 1 : frame_shape.back(); }
  int frame_size() const {
    int n = 1;
    for (int d : frame_shape) n *= d;
    return n;
  }
  int frame_pixels() const { return frame_size() / frame_channels(); }
  int obs_size() const { return frame_size() * stack; }  // elements per agent
  size_t elem_bytes() const { return obs_dtype == "uint8" ? 1 : 4; }
};

inline int fields_size(const std::vector<FieldSpec>& fields) {
  int n = 0;
  for (const FieldSpec& f : fields) n += field_size(f);
  return n;
}

// Raw views of the caller-owned buffers (numpy arrays, C-contiguous). N worlds, A
// agent slots, K reward components, S/W/G episode-stat / world-info / agent-info values.
struct BatchBuffers {
  void* obs = nullptr;                // [N, A, obs_size] of obs_dtype
  void* final_obs = nullptr;          // like obs: the last observation of an ended episode
  void* actions = nullptr;            // [N, A, action_size] int32 or float32
  float* rewards = nullptr;           // [N, A]
  float* reward_components = nullptr; // [N, A, K] unweighted
  bool* terminated = nullptr;         // [N] the world's episode ended (terminal state)
  bool* truncated = nullptr;          // [N] ... or was cut off (time limit)
  bool* live = nullptr;               // [N, A] slots in play in the current observation
  bool* agent_terminated = nullptr;   // [N, A] the agent left in this step, terminally
  bool* agent_truncated = nullptr;    // [N, A] ... or cut off
  float* episode_return = nullptr;    // [N, A] of the episode that just ended
  int32_t* episode_length = nullptr;  // [N] steps of the episode that just ended
  double* episode_stats = nullptr;    // [N, S]
  double* world_info = nullptr;       // [N, W] of the current state
  double* agent_info = nullptr;       // [N, A, G]
  double* final_world_info = nullptr; // [N, W] of an ended episode's last state
  double* final_agent_info = nullptr; // [N, A, G]
};

}  // namespace trackfield

#endif
