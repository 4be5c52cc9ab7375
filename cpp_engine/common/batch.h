// Batch<Domain>: N worlds of one domain stepped together, the same for football,
// racing and driving. Python allocates every buffer once (BatchBuffers); step() reads
// the actions and writes observations, rewards, flags, statistics and info in place,
// splitting worlds over a persistent thread pool. One world is always stepped by one
// thread from start to finish and its RNG lives in the world, so results are
// bit-identical for any thread count. Worlds that end reset in the same step
// (autoreset), their last observation going to final_obs.
//
// A Domain is a struct of static functions over its plain-data World:
//   using World, Config;                    World trivially copyable (snapshots)
//   static constexpr const char* kName;     static constexpr uint32_t kSnapshotMagic, kSnapshotVersion;
//   static void check_config(const Config&);                 throws std::invalid_argument
//   static BatchLayout layout(const Config&);
//   static uint64_t fingerprint(const Config&);             snapshots refuse other configs
//   static void reset(World&, const Config&, uint64_t seed, int episode);
//   static void step(World&, const Config&, const void* actions);   [A, action_size]
//   static Rng& rng(World&);
//   static void write_frame(const World&, const Config&, int agent, void* frame);
//   static void write_live(const World&, const Config&, bool* live);            [A] slots in play
//   static void write_step_results(const World&, const Config&, float* rewards, float* components,
//                                  bool* agent_terminated, bool* agent_truncated);   [A], [A, K]
//   static bool terminated(const World&), truncated(const World&);
//   static void write_episode_stats(const World&, const Config&, double* out);
//   static void write_info(const World&, const Config&, double* world, double* agents);
//   static void check_world(const World&, const Config&);   a restored snapshot's indices
#ifndef TRACKFIELD_COMMON_BATCH_H
#define TRACKFIELD_COMMON_BATCH_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/batch_layout.h"
#include "common/rng.h"
#include "common/snapshot.h"
#include "common/thread_pool.h"

namespace trackfield {

// World i's generator seed for a batch reset with `seed` (EnvPool's (seed, id) rule).
inline uint64_t world_seed(uint64_t seed, int i) {
  return splitmix64(seed ^ splitmix64(static_cast<uint64_t>(i) + 1));
}

template <typename Domain>
class Batch {
 public:
  using World = typename Domain::World;
  using Config = typename Domain::Config;
  static_assert(std::is_trivially_copyable<World>::value, "a World must be plain data (snapshots copy it)");

  Batch(const Config& cfg, int num_envs, int num_threads, bool autoreset, const BatchBuffers& buffers)
      : cfg_(cfg), num_envs_(num_envs), autoreset_(autoreset), buf_(buffers), pool_(num_threads) {
    Domain::check_config(cfg_);
    if (num_envs < 1) throw std::invalid_argument("num_envs must be at least 1");
    layout_ = Domain::layout(cfg_);
    A_ = layout_.num_agents;
    K_ = static_cast<int>(layout_.reward_components.size());
    S_ = fields_size(layout_.episode_stats);
    W_ = fields_size(layout_.world_info);
    G_ = fields_size(layout_.agent_info);
    frame_size_ = layout_.frame_size();
    elem_bytes_ = layout_.elem_bytes();
    worlds_.resize(num_envs);
    next_episode_.assign(num_envs, 0);
    lengths_.assign(num_envs, 0);
    returns_.assign(static_cast<size_t>(num_envs) * A_, 0.0f);
    was_live_.assign(static_cast<size_t>(num_envs) * A_, 0);
    zeroed_.assign(static_cast<size_t>(num_envs) * A_, 0);
    if (layout_.stack > 1) history_.assign(static_cast<size_t>(num_envs) * A_ * layout_.stack * frame_size_ * elem_bytes_, 0);
    fingerprint_ = Domain::fingerprint(cfg_);
  }

  const BatchLayout& layout() const { return layout_; }
  const Config& config() const { return cfg_; }
  int num_envs() const { return num_envs_; }
  int num_agents() const { return A_; }
  int num_threads() const { return pool_.size(); }

  // Resets every world; world i is seeded from (seed, i).
  void reset_all(uint64_t seed) {
    for (int i = 0; i < num_envs_; ++i) reset_one(i, seed, true);
  }

  // Resets one world, seeded from (seed, i), or from its own generator if !seeded (so
  // a run of unseeded resets stays reproducible from the first seed).
  void reset_one(int i, uint64_t seed, bool seeded) {
    check_index(i);
    uint64_t s = seeded ? world_seed(seed, i) : rng_next_u64(Domain::rng(worlds_[i]));
    if (seeded) next_episode_[i] = 0;
    start_episode(i, s);
    buf_.terminated[i] = false;
    buf_.truncated[i] = false;
    std::fill_n(buf_.agent_terminated + i * A_, A_, false);
    std::fill_n(buf_.agent_truncated + i * A_, A_, false);
    std::fill_n(buf_.rewards + i * A_, A_, 0.0f);
    std::fill_n(buf_.reward_components + static_cast<size_t>(i) * A_ * K_, A_ * K_, 0.0f);
  }

  // Throws std::invalid_argument naming the first action of a live agent outside its
  // bounds (NaN and inf included). The binding calls it before releasing the GIL.
  void check_actions() const {
    const int size = layout_.action_size;
    for (int i = 0; i < num_envs_; ++i)
      for (int a = 0; a < A_; ++a) {
        if (!buf_.live[i * A_ + a]) continue;
        for (int j = 0; j < size; ++j) {
          size_t k = (static_cast<size_t>(i) * A_ + a) * size + j;
          double v = layout_.discrete_actions ? static_cast<const int32_t*>(buf_.actions)[k]
                                              : static_cast<const float*>(buf_.actions)[k];
          if (std::isfinite(v) && v >= layout_.action_low[j] && v <= layout_.action_high[j]) continue;
          throw std::invalid_argument(layout_.action_name + " " + format_value(v) + " of world " + std::to_string(i) +
                                      ", agent " + std::to_string(a) + (size > 1 ? ", element " + std::to_string(j) : "") +
                                      " is outside [" + format_value(layout_.action_low[j]) + ", " +
                                      format_value(layout_.action_high[j]) + "]");
        }
      }
  }

  void step() {
    int chunk = std::max(1, num_envs_ / (pool_.size() * 8));
    pool_.parallel_for(num_envs_, chunk, [this](int b, int e) { step_range(b, e); });
  }

  std::string get_state(int i) const {
    check_index(i);
    SnapshotWriter out(Domain::kSnapshotMagic, Domain::kSnapshotVersion, fingerprint_);
    out.write(worlds_[i]);
    out.write(next_episode_[i]);
    out.write(lengths_[i]);
    out.write_bytes(returns_.data() + static_cast<size_t>(i) * A_, sizeof(float) * A_);
    out.write_bytes(was_live_.data() + static_cast<size_t>(i) * A_, A_);
    if (!history_.empty()) out.write_bytes(history_.data() + i * history_bytes(), history_bytes());
    return out.finish();
  }

  void set_state(int i, const std::string& bytes) {
    check_index(i);
    SnapshotReader in(bytes, Domain::kSnapshotMagic, Domain::kSnapshotVersion, fingerprint_, Domain::kName);
    World w;
    int episode, length;
    std::vector<float> returns(A_);
    std::vector<uint8_t> live(A_), hist(history_.empty() ? 0 : history_bytes());
    in.read(w);
    in.read(episode);
    in.read(length);
    in.read_bytes(returns.data(), sizeof(float) * A_);
    in.read_bytes(live.data(), A_);
    if (!hist.empty()) in.read_bytes(hist.data(), hist.size());
    if (!in.done()) throw std::invalid_argument("set_state: snapshot has trailing bytes");
    if (episode < 0 || length < 0) throw std::invalid_argument("set_state: corrupted snapshot (episode counters)");
    Domain::check_world(w, cfg_);
    worlds_[i] = w;
    next_episode_[i] = episode;
    lengths_[i] = length;
    std::copy(returns.begin(), returns.end(), returns_.begin() + static_cast<size_t>(i) * A_);
    for (int a = 0; a < A_; ++a) was_live_[static_cast<size_t>(i) * A_ + a] = live[a] ? 1 : 0;
    if (!hist.empty()) std::memcpy(history_.data() + i * history_bytes(), hist.data(), hist.size());
    Domain::write_live(w, cfg_, buf_.live + static_cast<size_t>(i) * A_);
    std::fill_n(buf_.agent_terminated + i * A_, A_, false);
    std::fill_n(buf_.agent_truncated + i * A_, A_, false);
    // The current observation, from the restored state (and frame history).
    if (history_.empty()) write_obs(i, true);
    else compose_stack(i);
    buf_.terminated[i] = Domain::terminated(w);
    buf_.truncated[i] = Domain::truncated(w);
    Domain::write_info(w, cfg_, buf_.world_info + static_cast<size_t>(i) * W_,
                       buf_.agent_info + static_cast<size_t>(i) * A_ * G_);
  }

  const World& world(int i) const { return worlds_[i]; }
  World& mutable_world(int i) { return worlds_[i]; }

 private:
  void check_index(int i) const {
    if (i < 0 || i >= num_envs_) throw std::out_of_range("env index " + std::to_string(i) + " out of range");
  }
  static std::string format_value(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    return std::to_string(v);
  }
  size_t obs_bytes_per_world() const { return static_cast<size_t>(A_) * layout_.obs_size() * elem_bytes_; }
  size_t history_bytes() const { return static_cast<size_t>(A_) * layout_.stack * frame_size_ * elem_bytes_; }
  uint8_t* obs_of(void* base, int i) const { return static_cast<uint8_t*>(base) + i * obs_bytes_per_world(); }

  // A new episode: the world, its live mask, observation and info. The rewards and
  // flags of the step that ended the last episode are left as they are (autoreset).
  void start_episode(int i, uint64_t seed) {
    Domain::reset(worlds_[i], cfg_, seed, next_episode_[i]++);
    lengths_[i] = 0;
    const size_t k = static_cast<size_t>(i) * A_;
    std::fill_n(returns_.begin() + k, A_, 0.0f);
    Domain::write_live(worlds_[i], cfg_, buf_.live + k);
    write_obs(i, true);
    Domain::write_info(worlds_[i], cfg_, buf_.world_info + static_cast<size_t>(i) * W_, buf_.agent_info + k * G_);
  }

  void step_range(int begin, int end) {
    const size_t action_stride = static_cast<size_t>(A_) * layout_.action_size * 4;
    for (int i = begin; i < end; ++i) {
      World& w = worlds_[i];
      const size_t k = static_cast<size_t>(i) * A_;
      Domain::step(w, cfg_, static_cast<const uint8_t*>(buf_.actions) + i * action_stride);
      Domain::write_step_results(w, cfg_, buf_.rewards + k, buf_.reward_components + k * K_,
                                 buf_.agent_terminated + k, buf_.agent_truncated + k);
      Domain::write_live(w, cfg_, buf_.live + k);
      ++lengths_[i];
      for (int a = 0; a < A_; ++a) returns_[k + a] += buf_.rewards[k + a];
      const bool term = Domain::terminated(w), trunc = Domain::truncated(w);
      buf_.terminated[i] = term;
      buf_.truncated[i] = trunc;
      write_obs(i, false);
      double* info = buf_.world_info + static_cast<size_t>(i) * W_;
      double* agent_info = buf_.agent_info + k * G_;
      Domain::write_info(w, cfg_, info, agent_info);
      if (!(term || trunc)) continue;
      Domain::write_episode_stats(w, cfg_, buf_.episode_stats + static_cast<size_t>(i) * S_);
      buf_.episode_length[i] = lengths_[i];
      std::copy_n(returns_.begin() + k, A_, buf_.episode_return + k);
      if (!autoreset_) continue;
      std::memcpy(obs_of(buf_.final_obs, i), obs_of(buf_.obs, i), obs_bytes_per_world());
      std::copy_n(info, W_, buf_.final_world_info + static_cast<size_t>(i) * W_);
      std::copy_n(agent_info, static_cast<size_t>(A_) * G_, buf_.final_agent_info + k * G_);
      start_episode(i, rng_next_u64(Domain::rng(w)));
    }
  }

  // Observations: one frame per agent slot in play, and a last one for a slot that
  // has just left (its terminal observation); zeros for every other slot. With
  // stacking, frames live in history_ as [stack][frame] (oldest first) and are
  // interleaved into the output as [pixel][stack][channel]: for vectors that is the
  // frames concatenated, for images the channels of each pixel grouped in time. A
  // slot that (re)joins starts its history with copies of its first frame.
  void write_obs(int i, bool fresh) {
    const int stack = layout_.stack;
    const size_t frame_bytes = frame_size_ * elem_bytes_;
    uint8_t* out = obs_of(buf_.obs, i);
    const size_t k = static_cast<size_t>(i) * A_;
    for (int a = 0; a < A_; ++a) {
      const bool live = buf_.live[k + a];
      const bool was_live = !fresh && was_live_[k + a];
      was_live_[k + a] = live ? 1 : 0;
      const bool shown = live || was_live;
      if (stack == 1) {
        uint8_t* frame = out + a * frame_bytes;
        // An empty slot is zeroed once, when it empties (or the world is reset or
        // restored), not every step: the batch is the only writer of buf_.obs (the
        // vector env's views of it are read-only), so zeros stay zeros.
        if (shown) {
          Domain::write_frame(worlds_[i], cfg_, a, frame);
          zeroed_[k + a] = 0;
        } else if (fresh || !zeroed_[k + a]) {
          std::memset(frame, 0, frame_bytes);
          zeroed_[k + a] = 1;
        }
        continue;
      }
      uint8_t* hist = history_.data() + (k + a) * stack * frame_bytes;
      uint8_t* newest = hist + (stack - 1) * frame_bytes;
      if (!shown) {
        std::memset(hist, 0, stack * frame_bytes);
        continue;
      }
      if (was_live) std::memmove(hist, hist + frame_bytes, frame_bytes * (stack - 1));
      Domain::write_frame(worlds_[i], cfg_, a, newest);
      if (!was_live)
        for (int t = 0; t < stack - 1; ++t) std::memcpy(hist + t * frame_bytes, newest, frame_bytes);
    }
    if (stack > 1) compose_stack(i);
  }

  void compose_stack(int i) {
    const int stack = layout_.stack;
    const int pixels = layout_.frame_pixels();
    const size_t C = layout_.frame_channels() * elem_bytes_;
    const size_t frame_bytes = frame_size_ * elem_bytes_;
    uint8_t* out = obs_of(buf_.obs, i);
    const uint8_t* hist = history_.data() + i * history_bytes();
    for (int a = 0; a < A_; ++a) {
      uint8_t* agent_out = out + static_cast<size_t>(a) * stack * frame_bytes;
      const uint8_t* agent_hist = hist + static_cast<size_t>(a) * stack * frame_bytes;
      for (int px = 0; px < pixels; ++px)
        for (int t = 0; t < stack; ++t)
          std::memcpy(agent_out + (static_cast<size_t>(px) * stack + t) * C,
                      agent_hist + t * frame_bytes + static_cast<size_t>(px) * C, C);
    }
  }

  Config cfg_;
  BatchLayout layout_;
  int num_envs_;
  int A_ = 1, K_ = 0, S_ = 0, W_ = 0, G_ = 0;
  bool autoreset_;
  BatchBuffers buf_;
  int frame_size_ = 0;
  size_t elem_bytes_ = 4;
  std::vector<World> worlds_;
  std::vector<int> next_episode_;
  std::vector<int> lengths_;
  std::vector<float> returns_;     // [N, A] of the running episode
  std::vector<uint8_t> was_live_;  // [N, A] live in the last observation written
  std::vector<uint8_t> zeroed_;    // [N, A] slot's observation in buf_.obs is all zeros
  std::vector<uint8_t> history_;   // stacked frames: [N][A][stack][frame]
  uint64_t fingerprint_ = 0;
  ThreadPool pool_;
};

}  // namespace trackfield

#endif
