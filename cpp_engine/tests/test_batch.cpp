// Batch<Domain> on the probe domain: live mask, autoreset, thread independence,
// snapshots, action checks and corrupted snapshots (run under the sanitizers too).
#include <cmath>
#include <cstring>
#include <string>

#include "common/probe_domain.h"
#include "tests/batch_fixture.h"
#include "tests/check.h"

using namespace trackfield;
using trackfield::testing::BatchFixture;
using Probe = BatchFixture<probe::ProbeDomain>;

namespace {

probe::ProbeConfig probe_config(int agents, int join_every, int max_steps, int stack = 1) {
  probe::ProbeConfig c;
  c.num_agents = agents, c.join_every = join_every, c.max_steps = max_steps, c.stack = stack;
  return c;
}

void random_actions(Probe& f, Rng& rng) {
  for (size_t k = 0; k < f.actions.size(); ++k) f.float_actions()[k] = rng_range(rng, -1, 1);
}

}  // namespace

TEST(probe_agents_join_and_leave_and_worlds_autoreset) {
  Probe f(probe_config(3, 2, 40), 4, 1, true);
  f.batch->reset_all(1);
  CHECK(f.live[0] && !f.live[1] && !f.live[2]);
  int ended = 0;
  for (int t = 0; t < 200; ++t) {
    for (size_t k = 0; k < f.actions.size(); k += 2) f.float_actions()[k] = 1.0f, f.float_actions()[k + 1] = -1.0f;
    f.batch->step();
    for (int i = 0; i < 4; ++i) {
      if (!(f.terminated[i] || f.truncated[i])) continue;
      ++ended;
      CHECK(f.terminated[i]);                 // at full speed every agent reaches the goal in time
      CHECK(f.episode_stats[i] == 3.0);       // all three finished
      CHECK(f.final_world_info[2 * i] == f.episode_length[i]);
      CHECK(f.world_info[2 * i] == 0.0);      // the new episode's info
      CHECK(f.live[3 * i] && !f.live[3 * i + 1]);  // ... and its live mask
    }
  }
  CHECK(ended > 10);
}

TEST(batch_results_do_not_depend_on_thread_count) {
  auto run = [](int threads) {
    Probe f(probe_config(4, 1, 25, 3), 33, threads, true);
    f.batch->reset_all(99);
    Rng rng;
    rng_seed(rng, 5, 0);
    std::vector<uint8_t> trace;
    for (int t = 0; t < 150; ++t) {
      random_actions(f, rng);
      f.batch->step();
      trace.insert(trace.end(), f.obs.begin(), f.obs.end());
      const uint8_t* r = reinterpret_cast<const uint8_t*>(f.rewards.data());
      trace.insert(trace.end(), r, r + f.rewards.size() * sizeof(float));
      trace.insert(trace.end(), f.live.begin(), f.live.end());
    }
    return trace;
  };
  const auto one = run(1);
  CHECK(one == run(2));
  CHECK(one == run(4));
}

TEST(snapshot_round_trip_replays_identically) {
  Probe f(probe_config(3, 2, 60, 2), 2, 1, true);
  f.batch->reset_all(3);
  Rng rng;
  rng_seed(rng, 8, 0);
  for (int t = 0; t < 7; ++t) random_actions(f, rng), f.batch->step();
  const std::string state = f.batch->get_state(1);
  const Rng saved = rng;
  std::vector<uint8_t> first;
  for (int t = 0; t < 30; ++t) {
    random_actions(f, rng), f.batch->step();
    first.insert(first.end(), f.obs.begin() + f.obs.size() / 2, f.obs.end());
  }
  f.batch->set_state(1, state);
  rng = saved;
  std::vector<uint8_t> second;
  for (int t = 0; t < 30; ++t) {
    random_actions(f, rng), f.batch->step();
    second.insert(second.end(), f.obs.begin() + f.obs.size() / 2, f.obs.end());
  }
  CHECK(first == second);
}

TEST(actions_outside_bounds_are_refused_for_live_agents_only) {
  Probe f(probe_config(2, 10, 60), 1, 1, false);
  f.batch->reset_all(0);
  f.float_actions()[2] = NAN;  // agent 1 waits to join: ignored
  f.batch->check_actions();
  f.float_actions()[1] = 1.5f;
  CHECK_THROWS(f.batch->check_actions(), "probe action 1.500000 of world 0, agent 0, element 1 is outside [-1, 1]");
  f.float_actions()[1] = INFINITY;
  CHECK_THROWS(f.batch->check_actions(), "outside");
}

TEST(damaged_snapshots_raise_and_never_crash) {
  Probe f(probe_config(3, 1, 30, 2), 1, 1, false);
  f.batch->reset_all(2);
  f.batch->step();
  const std::string good = f.batch->get_state(0);
  CHECK_THROWS(f.batch->set_state(0, good.substr(0, good.size() - 1)), "truncated");
  CHECK_THROWS(f.batch->set_state(0, good + "x"), "truncated or has trailing bytes");
  CHECK_THROWS(f.batch->set_state(0, std::string(8, 'x')), "too short");
  std::string other = good;
  other[0] ^= 1;
  CHECK_THROWS(f.batch->set_state(0, other), "not a probe snapshot");
  Rng rng;
  rng_seed(rng, 4, 0);
  for (int trial = 0; trial < 2000; ++trial) {  // flipped payload bytes: a valid world or an error
    std::string bad = good;
    const size_t at = sizeof(SnapshotHeader) + rng_next_u32(rng) % (bad.size() - sizeof(SnapshotHeader));
    bad[at] = static_cast<char>(rng_next_u32(rng));
    try {
      f.batch->set_state(0, bad);
      f.batch->step();
    } catch (const std::invalid_argument&) {
    }
  }
  CHECK_THROWS(f.batch->get_state(1), "out of range");
}
