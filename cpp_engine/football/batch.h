// A batch of football worlds stepped together. Python allocates every buffer once
// and hands it over at construction; step() reads `actions` and writes observations,
// rewards, flags and statistics in place, splitting worlds over a persistent thread
// pool. One world is always stepped by one thread, and its RNG lives in the world,
// so results are bit-identical for any thread count.
#ifndef TRACKFIELD_FOOTBALL_BATCH_H
#define TRACKFIELD_FOOTBALL_BATCH_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/thread_pool.h"
#include "football/env_config.h"
#include "football/world.h"

namespace trackfield::football {

// Per-world episode statistics, written when an episode ends.
enum EpisodeStat : int { kStatReturn = 0, kStatLength, kStatScoreLeft, kStatScoreRight, kNumEpisodeStats };

enum Status : int { kStatusScoreLeft = 0, kStatusScoreRight, kStatusSteps, kStatusGameMode, kStatusBallOwnedTeam, kNumStatus };

struct BatchBuffers {
  void* obs = nullptr;             // [N, A, obs...] float32 (uint8 for smm)
  void* final_obs = nullptr;       // like obs: the last observation of an episode that ended
  int32_t* actions = nullptr;      // [N, A]
  float* rewards = nullptr;        // [N, A]
  float* reward_components = nullptr;  // [N, A, kNumRewardComponents]
  bool* terminated = nullptr;      // [N]
  bool* truncated = nullptr;       // [N]
  float* episode_stats = nullptr;  // [N, kNumEpisodeStats]
  int32_t* status = nullptr;       // [N, kNumStatus]: the match state behind `info`
};

class Batch {
 public:
  Batch(const EnvConfig& cfg, int num_envs, int num_threads, bool autoreset, const BatchBuffers& buffers);

  int num_envs() const { return num_envs_; }
  int num_agents() const { return num_agents_; }
  int num_threads() const { return pool_.size(); }
  // Elements of one agent's observation (frames stacked).
  int obs_size() const { return frame_size_ * cfg_.stack; }

  // Resets every world; world i is seeded from (seed, i).
  void reset_all(uint64_t seed);
  // Resets one world, seeded from (seed, i), or from its own generator if !seeded.
  void reset_one(int i, uint64_t seed, bool seeded);
  // Throws std::invalid_argument naming the first action outside [0, 19).
  void check_actions() const;
  void step();

  std::string get_state(int i) const;
  void set_state(int i, const std::string& bytes);

  const World& world(int i) const { return worlds_[i]; }
  World& mutable_world(int i) { return worlds_[i]; }
  // Rewrites world i's observation after its state was edited from outside.
  void refresh_obs(int i);

 private:
  void step_range(int begin, int end);
  void start_episode(int i, uint64_t seed);
  void write_obs(int i, bool fresh, void* out);
  template <typename T>
  void write_obs_typed(int i, bool fresh, T* out);
  void write_frame(int i, int agent, void* frame);
  void compose_stack(int i);
  void write_status(int i);
  void* obs_ptr(void* base, int i) const;

  EnvConfig cfg_;
  int num_envs_, num_agents_;
  bool autoreset_;
  BatchBuffers buf_;
  int frame_size_;     // elements of one agent's single frame
  int frame_pixels_;   // rows*cols for smm, 1 for vectors
  int frame_channels_;
  size_t elem_bytes_;  // 4 (float32) or 1 (uint8)
  std::vector<World> worlds_;
  std::vector<int> next_episode_;
  std::vector<float> returns_;
  std::vector<uint8_t> history_;  // stacked frames: [N][A][stack][frame] of elem_bytes_
  uint64_t fingerprint_;
  ThreadPool pool_;
};

uint64_t config_fingerprint(const EnvConfig& cfg);

}  // namespace trackfield::football

#endif
