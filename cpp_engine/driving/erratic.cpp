// Erratic drivers: flags at reset, Poisson events per step (rules in erratic.h).
#include "driving/erratic.h"

#include <algorithm>
#include <cmath>

namespace trackfield::driving {

namespace {

int draw_count(float share_max, int n, Rng& rng) {
  float share = rng_range(rng, 0.0f, share_max);
  int count = static_cast<int>(std::floor(share * static_cast<float>(n) + rng_uniform(rng)));
  int cap = static_cast<int>(std::floor(share_max * static_cast<float>(n) + 1e-4f));
  return std::min(std::max(count, 0), cap);
}

// Flags `count` distinct agents of n, uniformly (a partial Fisher-Yates shuffle).
void flag_subset(uint8_t* flags, int n, int count, Rng& rng) {
  int order[kMaxAgents];
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int i = 0; i < count; ++i) {
    int j = i + static_cast<int>(rng_next_u32(rng) % static_cast<uint32_t>(n - i));
    std::swap(order[i], order[j]);
    flags[order[i]] = 1;
  }
}

void advance_events(const uint8_t* prone, float* left, int n, float rate_hz, float lo, float hi, float dt,
                    Rng& rng) {
  float p_start = 1.0f - std::exp(-rate_hz * dt);
  for (int a = 0; a < n; ++a) {
    if (!prone[a]) continue;
    if (left[a] > 0.0f) {
      left[a] -= dt;
      if (left[a] > 0.0f) continue;
      left[a] = 0.0f;
    }
    // One draw per idle prone agent per step, so the stream depends only on the flags.
    if (rng_uniform(rng) < p_start) left[a] = rng_range(rng, lo, hi);
  }
}

}  // namespace

void reset_erratic(ErraticState& s, int num_agents, const ErraticConfig& cfg, Rng& rng) {
  s.num_agents = std::min(std::max(num_agents, 0), kMaxAgents);
  for (int a = 0; a < kMaxAgents; ++a) {
    s.blind_prone[a] = s.brake_prone[a] = 0;
    s.blind_left_s[a] = s.brake_left_s[a] = 0.0f;
  }
  int n = s.num_agents;
  if (n == 0) return;
  flag_subset(s.blind_prone, n, draw_count(cfg.blind_share_max, n, rng), rng);
  flag_subset(s.brake_prone, n, draw_count(cfg.brake_share_max, n, rng), rng);
}

void advance_erratic(ErraticState& s, const ErraticConfig& cfg, float dt, Rng& rng) {
  advance_events(s.blind_prone, s.blind_left_s, s.num_agents, cfg.blind_rate_hz, cfg.blind_min_s, cfg.blind_max_s,
                 dt, rng);
  advance_events(s.brake_prone, s.brake_left_s, s.num_agents, cfg.brake_rate_hz, cfg.brake_min_s, cfg.brake_max_s,
                 dt, rng);
}

}  // namespace trackfield::driving
