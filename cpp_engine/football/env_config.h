// What an env adds on top of a scenario: who is controlled, which observation and
// which rewards. Fixed for an env's lifetime (a new config means a new env).
#ifndef TRACKFIELD_FOOTBALL_ENV_CONFIG_H
#define TRACKFIELD_FOOTBALL_ENV_CONFIG_H

#include <cstdint>

#include "football/scenario_config.h"

namespace trackfield::football {

enum Representation : int { kRaw = 0, kSimple115 = 1, kSmm = 2, kPixels = 3, kPixelsGray = 4 };

// GRF's default channel_dimensions (width 96, height 72) for smm and pixels.
constexpr int kSmmHeight = 72;
constexpr int kSmmWidth = 96;
constexpr int kSmmChannels = 4;
constexpr int kMaxChannelDimension = 4096;
constexpr int kSimple115Size = 115;

struct EnvConfig {
  int left_agents = 1;   // controlled players of the left team
  int right_agents = 0;  // controlled players of the right team
  int representation = kSimple115;
  int stack = 1;         // frames per observation (4 with stacked=True)
  int channel_width = kSmmWidth;    // smm and pixels frames (GRF's channel_dimensions)
  int channel_height = kSmmHeight;
  float scoring_weight = 1.0f;     // 0 disables the component in the summed reward
  float checkpoint_weight = 0.0f;
  // The scenario as built for even and odd episode numbers (GRF files may swap sides).
  ScenarioConfig scenario[2];
};

inline int num_agents(const EnvConfig& c) { return c.left_agents + c.right_agents; }

}  // namespace trackfield::football

#endif
