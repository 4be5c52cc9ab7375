// Erratic drivers (GIGAFLOW): per world, up to 5% of agents are at times blind to other
// vehicles and up to 10% brake suddenly. They are flagged (info["erratic"]) so that trainers
// can drop their experience; the others learn to live with them.
//
// Rules (ours where the paper is silent):
// - At each reset a world draws its blind share U(0, blind_share_max) and its braker share
//   U(0, brake_share_max); the number of agents is the share times the agent count, rounded
//   stochastically (unbiased) and capped at floor(max share * agents), so a world never has
//   more than the maximum (in small worlds the cap lowers the mean share below max / 2: 37
//   agents can have at most one blind one). The agents are a uniform random subset; the two
//   draws are independent, so one agent may be both.
// - A flagged agent starts an event with probability 1 - exp(-rate dt) per step while none is
//   running (a Poisson process, rate 1 per 20 s by default). A blindness event lasts U(1, 3) s,
//   during which other vehicles are absent from the agent's observation; a braking event lasts
//   U(0.5, 2) s, during which its longitudinal jerk is forced to brake_jerk (-15 m/s^3).
#ifndef TRACKFIELD_DRIVING_ERRATIC_H
#define TRACKFIELD_DRIVING_ERRATIC_H

#include <cstdint>
#include <type_traits>

#include "common/rng.h"
#include "driving/limits.h"

namespace trackfield::driving {

struct ErraticConfig {
  float blind_share_max = 0.05f;
  float brake_share_max = 0.10f;
  float blind_rate_hz = 1.0f / 20.0f;
  float blind_min_s = 1.0f, blind_max_s = 3.0f;
  float brake_rate_hz = 1.0f / 20.0f;
  float brake_min_s = 0.5f, brake_max_s = 2.0f;
  float brake_jerk = -15.0f;  // m/s^3
};

// Per world, plain arrays over agents.
struct ErraticState {
  int num_agents = 0;
  uint8_t blind_prone[kMaxAgents];
  uint8_t brake_prone[kMaxAgents];
  float blind_left_s[kMaxAgents];  // > 0 while a blindness event runs
  float brake_left_s[kMaxAgents];  // > 0 while a braking event runs
};

static_assert(std::is_trivially_copyable<ErraticState>::value, "a world copies and snapshots this state");

// Draws the world's shares and flags at reset; no events run yet.
void reset_erratic(ErraticState& s, int num_agents, const ErraticConfig& cfg, Rng& rng);
// Ends expired events and starts new ones. No allocation.
void advance_erratic(ErraticState& s, const ErraticConfig& cfg, float dt, Rng& rng);

// info["erratic"]: the agent is blind-prone or a sudden braker this episode.
inline bool is_erratic(const ErraticState& s, int a) { return s.blind_prone[a] || s.brake_prone[a]; }
inline bool is_blind_now(const ErraticState& s, int a) { return s.blind_left_s[a] > 0.0f; }
inline bool forced_brake_now(const ErraticState& s, int a) { return s.brake_left_s[a] > 0.0f; }

}  // namespace trackfield::driving

#endif
