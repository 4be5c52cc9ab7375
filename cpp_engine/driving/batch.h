// Driving's side of the shared Batch<Domain> (common/batch.h).
#ifndef TRACKFIELD_DRIVING_BATCH_H
#define TRACKFIELD_DRIVING_BATCH_H

#include <cstdint>

#include "common/batch.h"
#include "driving/config.h"
#include "driving/world.h"

namespace trackfield::driving {

struct DriveDomain {
  using World = DriveWorld;
  using Config = DriveConfig;
  static constexpr const char* kName = "driving";
  static constexpr uint32_t kSnapshotMagic = 0x56495244;  // "DRIV"
  static constexpr uint32_t kSnapshotVersion = 2;  // 2: DriveWorld::obs_noise

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

using DriveBatch = trackfield::Batch<DriveDomain>;

}  // namespace trackfield::driving

extern template class trackfield::Batch<trackfield::driving::DriveDomain>;

#endif
