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

// GRF's action sets (config "action_set"): default (19), v2 (20), full (33).
enum ActionSet : int { kActionSetDefault = 0, kActionSetV2 = 1, kActionSetFull = 2 };

inline int action_set_size(int set) {
  return set == kActionSetFull ? kNumActionsFull : (set == kActionSetV2 ? kNumActionsV2 : kNumActions);
}
// The raw observation's sticky_actions length: GRF lists the set's sticky actions.
inline int sticky_action_count(int set) {
  return set == kActionSetFull ? kNumStickyActionsFull : kNumStickyActions;
}

struct EnvConfig {
  int left_agents = 1;   // controlled players of the left team
  int right_agents = 0;  // controlled players of the right team
  int representation = kSimple115;
  int stack = 1;         // frames per observation (4 with stacked=True)
  int channel_width = kSmmWidth;    // smm and pixels frames (GRF's channel_dimensions)
  int channel_height = kSmmHeight;
  float scoring_weight = 1.0f;     // 0 disables the component in the summed reward
  float checkpoint_weight = 0.0f;
  int action_set = kActionSetDefault;
  // false: players of a team with agents that no agent drives stand idle (no built-in AI).
  bool teammate_ai = true;
  // The scenario as built for even and odd episode numbers (GRF files may swap sides).
  ScenarioConfig scenario[2];
};

inline int num_agents(const EnvConfig& c) { return c.left_agents + c.right_agents; }

}  // namespace trackfield::football

#endif
