// Racing's side of the shared Batch<Domain> (common/batch.h).
#ifndef TRACKFIELD_RACING_BATCH_H
#define TRACKFIELD_RACING_BATCH_H

#include <cstdint>

#include "common/batch.h"
#include "racing/config.h"
#include "racing/world.h"

namespace trackfield::racing {

struct RacingDomain {
  using World = RaceWorld;
  using Config = RaceConfig;
  static constexpr const char* kName = "racing";
  static constexpr uint32_t kSnapshotMagic = 0x43415254;  // "TRAC"
  static constexpr uint32_t kSnapshotVersion = 3;  // 2: steer_history; 3: the AI's pinned/backing timers

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
  static bool terminated(const World& w) { return w.terminated; }
  static bool truncated(const World& w) { return w.truncated; }
  static void write_episode_stats(const World& w, const Config& cfg, double* out);
  static void write_info(const World& w, const Config& cfg, double* world_info, double* agent_info);
  static void check_world(const World& w, const Config& cfg);
};

// Place of each car in its group, 0 leading: finished cars by finish time, then by distance covered.
void race_places(const RaceWorld& w, const RaceConfig& cfg, int* place);

using Batch = trackfield::Batch<RacingDomain>;

}  // namespace trackfield::racing

extern template class trackfield::Batch<trackfield::racing::RacingDomain>;

#endif
