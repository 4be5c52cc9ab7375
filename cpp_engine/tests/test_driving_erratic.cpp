// Erratic drivers: shares over many worlds, never above the maxima; event rates and lengths.
#include <cmath>

#include "driving/erratic.h"
#include "tests/check.h"

using namespace trackfield;
using namespace trackfield::driving;

TEST(driving_erratic_shares_over_many_worlds) {
  ErraticConfig cfg;
  for (int n : {100, 150, 37}) {
    double blind = 0, brake = 0, erratic = 0;
    const int worlds = 20000;
    ErraticState s;
    for (int w = 0; w < worlds; ++w) {
      Rng rng;
      rng_seed(rng, 42, static_cast<uint64_t>(w));
      reset_erratic(s, n, cfg, rng);
      int b = 0, k = 0, e = 0;
      for (int a = 0; a < n; ++a) b += s.blind_prone[a], k += s.brake_prone[a], e += is_erratic(s, a);
      for (int a = n; a < kMaxAgents; ++a) CHECK(!is_erratic(s, a));
      CHECK(b <= 0.05 * n + 1e-6 && k <= 0.10 * n + 1e-6);
      blind += b / double(n), brake += k / double(n), erratic += e / double(n);
    }
    blind /= worlds, brake /= worlds;
    if (n == 37) {  // 5% of 37 is 1.85: the cap at 1 agent pulls the mean share below 2.5%
      CHECK(blind < 0.025 && brake < 0.05);
    } else {  // fixed seeds; about 10 standard deviations of the mean
      CHECK(std::fabs(blind - 0.025) < 0.0015);
      CHECK(std::fabs(brake - 0.05) < 0.0025);
    }
    CHECK(erratic / worlds <= blind + brake + 1e-9);
  }
}

TEST(driving_erratic_no_events_for_unflagged_agents) {
  ErraticConfig cfg;
  cfg.blind_rate_hz = cfg.brake_rate_hz = 100.0f;
  Rng rng;
  rng_seed(rng, 1, 0);
  ErraticState s;
  reset_erratic(s, 150, cfg, rng);
  for (int step = 0; step < 100; ++step) {
    advance_erratic(s, cfg, 0.1f, rng);
    for (int a = 0; a < 150; ++a) {
      if (!s.blind_prone[a]) CHECK(!is_blind_now(s, a));
      if (!s.brake_prone[a]) CHECK(!forced_brake_now(s, a));
    }
  }
}

TEST(driving_erratic_event_rates_and_lengths) {
  ErraticConfig cfg;
  Rng rng;
  rng_seed(rng, 8, 0);
  ErraticState s;
  reset_erratic(s, 1, cfg, rng);
  s.blind_prone[0] = s.brake_prone[0] = 1;
  const float dt = 0.1f;
  const int steps = 2000000;  // 200 000 s
  long blind_steps = 0, brake_steps = 0, blind_starts = 0, brake_starts = 0;
  bool was_blind = false, was_braking = false;
  for (int i = 0; i < steps; ++i) {
    advance_erratic(s, cfg, dt, rng);
    bool blind = is_blind_now(s, 0), braking = forced_brake_now(s, 0);
    blind_steps += blind, brake_steps += braking;
    blind_starts += blind && !was_blind;
    brake_starts += braking && !was_braking;
    was_blind = blind, was_braking = braking;
  }
  double idle_blind_s = (steps - blind_steps) * dt, idle_brake_s = (steps - brake_steps) * dt;
  // Starts per idle second: the configured rate, 1 per 20 s (about 9000 events each).
  CHECK(std::fabs(blind_starts / idle_blind_s - 0.05) < 0.003);
  CHECK(std::fabs(brake_starts / idle_brake_s - 0.05) < 0.003);
  // Mean lengths: U(1, 3) -> 2 s, U(0.5, 2) -> 1.25 s (to a step).
  CHECK(std::fabs(blind_steps * dt / blind_starts - 2.0) < 0.1);
  CHECK(std::fabs(brake_steps * dt / brake_starts - 1.25) < 0.1);
}
