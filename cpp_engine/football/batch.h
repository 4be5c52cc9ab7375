// Football's side of the shared Batch<Domain> (common/batch.h): the functions the
// batch calls on a football world, and what its buffers hold.
#ifndef TRACKFIELD_FOOTBALL_BATCH_H
#define TRACKFIELD_FOOTBALL_BATCH_H

#include <cstdint>

#include "common/batch.h"
#include "football/env_config.h"
#include "football/world.h"

namespace trackfield::football {

struct FootballDomain {
  using World = football::World;
  using Config = EnvConfig;
  static constexpr const char* kName = "football";
  static constexpr uint32_t kSnapshotMagic = 0x42465446;  // "FTFB"
  // 2: the shared batch (live mask, per-agent returns); 3: full action set's agent flags;
  // 4: Ball::first_touch_is_kick, first_touch_steps; 5: Match::opening_touch_step;
  // 6: Players::turn_hold
  static constexpr uint32_t kSnapshotVersion = 6;

  static void check_config(const Config& cfg);
  static BatchLayout layout(const Config& cfg);
  static uint64_t fingerprint(const Config& cfg);
  static void reset(World& w, const Config& cfg, uint64_t seed, int episode);
  static void step(World& w, const Config& cfg, const void* actions);
  static Rng& rng(World& w) { return w.rng; }
  static void write_frame(const World& w, const Config& cfg, int agent, void* frame);
  static void write_live(const World& w, const Config& cfg, bool* live);
  static void write_step_results(const World& w, const Config& cfg, float* rewards, float* components,
                                 bool* agent_terminated, bool* agent_truncated);
  static bool terminated(const World& w) { return w.m.terminated; }
  static bool truncated(const World& w) { return w.m.truncated; }
  static void write_episode_stats(const World& w, const Config& cfg, double* out);
  static void write_info(const World& w, const Config& cfg, double* world_info, double* agent_info);
  static void check_world(const World& w, const Config& cfg);
};

using Batch = trackfield::Batch<FootballDomain>;

}  // namespace trackfield::football

extern template class trackfield::Batch<trackfield::football::FootballDomain>;

#endif
