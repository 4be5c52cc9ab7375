// The football domain through the shared batch: thread independence, deterministic
// mode, snapshots, and invariants under long random play.
#include <cmath>
#include <string>
#include <vector>

#include "football/batch.h"
#include "football/obs.h"
#include "football/step.h"
#include "tests/batch_fixture.h"
#include "tests/football_fixture.h"
#include "tests/check.h"

using namespace trackfield;
using namespace trackfield::football;
using Football = trackfield::testing::BatchFixture<FootballDomain>;

namespace {

std::vector<uint8_t> play(const EnvConfig& cfg, int envs, int threads, uint64_t seed, int steps) {
  Football f(cfg, envs, threads, true);
  f.batch->reset_all(seed);
  Rng rng;
  rng_seed(rng, 17, 0);
  std::vector<uint8_t> trace;
  for (int t = 0; t < steps; ++t) {
    for (int k = 0; k < envs; ++k) f.int_actions()[k] = static_cast<int32_t>(rng_next_u32(rng) % kNumActions);
    f.batch->step();
    trace.insert(trace.end(), f.obs.begin(), f.obs.end());
    trace.insert(trace.end(), f.terminated.begin(), f.terminated.end());
  }
  return trace;
}

}  // namespace

TEST(football_batch_results_do_not_depend_on_thread_count) {
  for (int rep : {kSimple115, kSmm}) {
    const EnvConfig cfg = three_vs_one(rep, rep == kSmm ? 4 : 1);
    const auto one = play(cfg, 24, 1, 3, 120);
    CHECK(one == play(cfg, 24, 2, 3, 120));
    CHECK(one == play(cfg, 24, 4, 3, 120));
  }
}

TEST(football_deterministic_mode_ignores_the_seed) {
  const EnvConfig cfg = three_vs_one(kSimple115, 1, true);
  CHECK(play(cfg, 2, 1, 1, 80) == play(cfg, 2, 1, 12345, 80));
  const EnvConfig random = three_vs_one(kSimple115, 1, false);
  CHECK(play(random, 2, 1, 1, 80) != play(random, 2, 1, 12345, 80));
}

TEST(football_long_random_play_keeps_the_world_sane) {
  Football f(three_vs_one(kRaw, 1), 8, 2, true);
  f.batch->reset_all(5);
  Rng rng;
  rng_seed(rng, 1, 0);
  int episodes = 0;
  for (int t = 0; t < 2000; ++t) {
    for (int k = 0; k < 8; ++k) f.int_actions()[k] = static_cast<int32_t>(rng_next_u32(rng) % kNumActions);
    f.batch->step();
    for (int i = 0; i < 8; ++i) {
      const World& w = f.batch->world(i);
      episodes += f.terminated[i] || f.truncated[i];
      CHECK(std::isfinite(w.ball.x) && std::isfinite(w.ball.y) && w.ball.z >= 0.0f);
      CHECK(std::fabs(w.ball.x) < kHalfLength + 10 && std::fabs(w.ball.y) < kHalfWidth + 10);
      for (int p = 0; p < kMaxPlayers; ++p) {
        if (!w.p.present[p]) continue;
        CHECK(std::isfinite(w.p.x[p]) && std::fabs(w.p.x[p]) < kHalfLength + 6 && std::fabs(w.p.y[p]) < kHalfWidth + 6);
      }
      CHECK(w.ball.owner < 0 || w.p.present[w.ball.owner]);
    }
  }
  CHECK(episodes > 100);
}

TEST(football_snapshot_refuses_other_configs_and_damage) {
  Football a(three_vs_one(kSimple115, 1), 1, 1, false), b(three_vs_one(kSmm, 1), 1, 1, false);
  a.batch->reset_all(0);
  b.batch->reset_all(0);
  const std::string state = a.batch->get_state(0);
  CHECK_THROWS(b.batch->set_state(0, state), "another scenario or configuration");
  std::string damaged = state;
  damaged[damaged.size() / 2] ^= 0x40;
  CHECK_THROWS(a.batch->set_state(0, damaged), "checksum");
  a.batch->set_state(0, state);
}

TEST(football_actions_outside_the_set_are_refused) {
  Football f(three_vs_one(kSimple115, 1), 2, 1, false);
  f.batch->reset_all(0);
  f.int_actions()[1] = 19;
  CHECK_THROWS(f.batch->check_actions(), "football action 19 of world 1, agent 0 is outside [0, 18]");
}

// GRF's full set (33 actions), no team-mate AI and handballs always called: random play
// over every action keeps the world sane, and the batch accepts exactly the set.
TEST(football_full_action_set_random_play_keeps_the_world_sane) {
  EnvConfig cfg = eleven_vs_eleven(kRaw, 1);
  cfg.action_set = kActionSetFull;
  cfg.teammate_ai = false;
  cfg.left_agents = 2, cfg.right_agents = 1;
  for (ScenarioConfig& sc : cfg.scenario) sc.handballs = true, sc.handball_probability = 1.0f, sc.game_duration = 300;
  Football f(cfg, 4, 2, true);
  f.batch->reset_all(3);
  Rng rng;
  rng_seed(rng, 2, 0);
  for (int t = 0; t < 1500; ++t) {
    for (int k = 0; k < 4 * 3; ++k) f.int_actions()[k] = static_cast<int32_t>(rng_next_u32(rng) % kNumActionsFull);
    f.batch->step();
    for (int i = 0; i < 4; ++i) {
      const World& w = f.batch->world(i);
      CHECK(std::isfinite(w.ball.x) && std::isfinite(w.ball.y) && w.ball.z >= 0.0f);
      for (int a = 0; a < w.num_agents; ++a) {
        const Agent& ag = w.agents[a];
        CHECK(ag.player < 0 || (team_of(ag.player) == ag.team && w.p.present[ag.player]));
        CHECK(ag.switch_hold >= 0 && ag.switch_hold <= kSwitchHoldSteps);
      }
    }
  }
  f.int_actions()[5] = kNumActionsFull;
  CHECK_THROWS(f.batch->check_actions(), "outside [0, 32]");
}

// A keeper sent off: his slot is padded in simple115v2, the team's first player on the
// pitch takes his role (GRF's SendOff), and a team's last player is never sent off.
TEST(football_send_off_pads_the_slot_and_replaces_the_keeper) {
  Football f(three_vs_one(kSimple115, 1), 1, 1, false);
  f.batch->reset_all(0);
  World w = f.batch->world(0);
  const int keeper = first_of(1), defender = first_of(1) + 1;
  send_off(w, keeper);
  CHECK(!w.p.present[keeper] && w.p.role[defender] == kRoleGK);
  float obs[kSimple115Size];
  write_obs_simple115(w, 0, obs);
  CHECK(obs[44] == -1.0f && obs[45] == -1.0f && obs[66] == -1.0f && obs[67] == -1.0f);
  CHECK(obs[46] != -1.0f);
  send_off(w, defender);  // the last one stays
  CHECK(w.p.present[defender]);
}
