// Football's side of the shared batch: layout, config and snapshot checks, and the
// per-world outputs (frames, rewards, live mask, info) the batch copies out.
#include "football/batch.h"

#include <stdexcept>
#include <string>

#include "common/snapshot.h"
#include "football/obs.h"
#include "football/render.h"
#include "football/step.h"
#include "football/restore_check.h"

template class trackfield::Batch<trackfield::football::FootballDomain>;

namespace trackfield::football {

void FootballDomain::check_config(const Config& cfg) {
  for (int parity = 0; parity < 2; ++parity) {
    const ScenarioConfig& sc = cfg.scenario[parity];
    for (int t = 0; t < 2; ++t)
      if (sc.num_players[t] < 1 || sc.num_players[t] > kMaxTeamPlayers)
        throw std::invalid_argument("scenario: each team needs 1 to 11 players");
  }
  // No controlled player at all is allowed: the built-in AI plays both teams (as GRF).
  if (cfg.left_agents < 0 || cfg.right_agents < 0) throw std::invalid_argument("controlled player counts must be >= 0");
  for (int parity = 0; parity < 2; ++parity) {
    const ScenarioConfig& sc = cfg.scenario[parity];
    if (cfg.left_agents > sc.num_players[0] || cfg.right_agents > sc.num_players[1])
      throw std::invalid_argument("more controlled players than players in the team");
  }
  if (cfg.stack < 1 || cfg.stack > 16) throw std::invalid_argument("stack must be in [1, 16]");
  if (cfg.representation == kRaw && cfg.stack != 1)
    throw std::invalid_argument("the raw representation cannot be stacked");
  if (cfg.representation < kRaw || cfg.representation > kPixelsGray) throw std::invalid_argument("unknown representation");
  if (cfg.channel_width < 1 || cfg.channel_width > kMaxChannelDimension || cfg.channel_height < 1 ||
      cfg.channel_height > kMaxChannelDimension)
    throw std::invalid_argument("channel_dimensions must be in [1, 4096] each");
  if (cfg.action_set < kActionSetDefault || cfg.action_set > kActionSetFull)
    throw std::invalid_argument("action_set must be 0 (default), 1 (v2) or 2 (full)");
  for (const ScenarioConfig& sc : cfg.scenario)
    if (!(sc.handball_probability >= 0.0f && sc.handball_probability <= 1.0f))
      throw std::invalid_argument("handball_probability must be in [0, 1]");
}

BatchLayout FootballDomain::layout(const Config& cfg) {
  BatchLayout l;
  if (cfg.representation == kSmm || cfg.representation == kPixels || cfg.representation == kPixelsGray) {
    const int channels = cfg.representation == kSmm ? kSmmChannels : (cfg.representation == kPixels ? 3 : 1);
    l.frame_shape = {cfg.channel_height, cfg.channel_width, channels};
    l.obs_dtype = "uint8";
  } else if (cfg.representation == kSimple115) {
    l.frame_shape = {kSimple115Size};
  } else {
    const int own = cfg.left_agents > 0 ? 0 : 1;
    l.frame_shape = {raw_size(cfg.scenario[0].num_players[own], cfg.scenario[0].num_players[1 - own],
                              sticky_action_count(cfg.action_set))};
  }
  l.stack = cfg.stack;
  l.num_agents = num_agents(cfg);
  l.action_size = 1;
  l.discrete_actions = true;
  l.action_low = {0};
  l.action_high = {static_cast<float>(action_set_size(cfg.action_set) - 1)};
  l.action_name = "football action";
  l.reward_components = {"scoring", "checkpoints"};
  l.episode_stats = {{"score", {2}, "int32", 0, 1000, "goals (left, right) at the end"}};
  l.world_info = {
      {"score", {2}, "int32", 0, 1000, "goals (left, right): absolute sides"},
      {"steps", {}, "int32", 0, 1000000, "steps since reset"},
      {"game_mode", {}, "int32", 0, kNumGameModes - 1, "0 normal .. 6 penalty"},
      {"ball_owned_team", {}, "int32", -1, 1, "-1 nobody, 0 left, 1 right: absolute sides"},
  };
  return l;
}

uint64_t FootballDomain::fingerprint(const Config& cfg) {
  // Field by field (never raw struct bytes: padding is not initialised).
  uint64_t h = kFnvOffsetBasis;
  auto mix = [&h](const auto& v) { h = fingerprint_bytes(&v, sizeof(v), h); };
  mix(cfg.left_agents), mix(cfg.right_agents), mix(cfg.representation), mix(cfg.stack);
  mix(cfg.channel_width), mix(cfg.channel_height);
  mix(cfg.scoring_weight), mix(cfg.checkpoint_weight), mix(cfg.action_set), mix(cfg.teammate_ai);
  for (const ScenarioConfig& sc : cfg.scenario) {
    mix(sc.game_duration), mix(sc.deterministic), mix(sc.offsides), mix(sc.end_episode_on_score);
    mix(sc.end_episode_on_out_of_play), mix(sc.end_episode_on_possession_change);
    mix(sc.left_team_difficulty), mix(sc.right_team_difficulty), mix(sc.second_half);
    mix(sc.ball_x), mix(sc.ball_y), mix(sc.num_players[0]), mix(sc.num_players[1]);
    mix(sc.handballs), mix(sc.handball_probability);
    for (int t = 0; t < 2; ++t)
      for (int s = 0; s < sc.num_players[t]; ++s) {
        const PlayerSetup& p = sc.players[t][s];
        mix(p.x), mix(p.y), mix(p.role), mix(p.lazy), mix(p.controllable);
      }
  }
  return h;
}

void FootballDomain::reset(World& w, const Config& cfg, uint64_t seed, int episode) {
  reset_world(w, cfg, seed, episode);
}

void FootballDomain::step(World& w, const Config& cfg, const void* actions) {
  step_world(w, cfg, static_cast<const int32_t*>(actions));
}

void FootballDomain::write_frame(const World& w, const Config& cfg, int agent, void* frame) {
  if (cfg.representation == kSimple115) write_obs_simple115(w, agent, static_cast<float*>(frame));
  else if (cfg.representation == kSmm) write_obs_smm(w, agent, cfg.channel_width, cfg.channel_height, static_cast<uint8_t*>(frame));
  else if (cfg.representation == kRaw)
    write_obs_raw(w, agent, sticky_action_count(cfg.action_set), static_cast<float*>(frame));
  else write_obs_pixels(w, agent, cfg.channel_width, cfg.channel_height, cfg.representation == kPixels ? 3 : 1,
                        static_cast<uint8_t*>(frame));
}

// Every controlled player is in play until the episode ends, when all leave at once.
void FootballDomain::write_live(const World& w, const Config&, bool* live) {
  const bool in_play = !(w.m.terminated || w.m.truncated);
  for (int a = 0; a < w.num_agents; ++a) live[a] = in_play;
}

void FootballDomain::write_step_results(const World& w, const Config&, float* rewards, float* components,
                                        bool* agent_terminated, bool* agent_truncated) {
  for (int a = 0; a < w.num_agents; ++a) {
    rewards[a] = w.reward[a];
    for (int c = 0; c < kNumRewardComponents; ++c) components[a * kNumRewardComponents + c] = w.reward_components[a][c];
    agent_terminated[a] = w.m.terminated;
    agent_truncated[a] = w.m.truncated;
  }
}

void FootballDomain::write_episode_stats(const World& w, const Config&, double* out) {
  out[0] = w.m.score[0];
  out[1] = w.m.score[1];
}

void FootballDomain::write_info(const World& w, const Config&, double* world_info, double*) {
  world_info[0] = w.m.score[0];
  world_info[1] = w.m.score[1];
  world_info[2] = w.m.steps;
  world_info[3] = w.m.game_mode;
  world_info[4] = reported_owner_team(w);
}

// A snapshot's header can be intact while its payload is not (edited or corrupted
// bytes): every index the step follows is checked so such a state raises instead of
// reading out of bounds.
void FootballDomain::check_world(const World& w, const Config& cfg) {
  auto fail = [](const std::string& what) { throw std::invalid_argument("set_state: corrupted snapshot (" + what + ")"); };
  auto player_ok = [](int p) { return p >= -1 && p < kMaxPlayers; };
  check_restored_world(w);
  if (w.m.episode < 0) fail("episode");
  for (int t = 0; t < 2; ++t)
    if (w.team_size[t] != cfg.scenario[w.m.episode & 1].num_players[t]) fail("team size");
  if (w.num_agents != num_agents(cfg)) fail("agent count");
  for (int a = 0; a < w.num_agents; ++a) {
    const Agent& ag = w.agents[a];
    if (ag.team != (a < cfg.left_agents ? 0 : 1) || !player_ok(ag.player)) fail("agent");
    if (ag.player >= 0 && team_of(ag.player) != ag.team) fail("agent player");
    if (ag.direction < 0 || ag.direction > 8 || ag.pending_kick < 0 || ag.pending_kick >= kNumActions ||
        ag.kick_windup < 0 || ag.kick_windup > kMaxKickWindup || ag.switch_hold < 0 ||
        ag.switch_hold > kSwitchHoldSteps) fail("agent actions");
    if (ag.checkpoints_collected < 0 || ag.checkpoints_collected > kNumCheckpoints) fail("checkpoints");
  }
  if (!player_ok(w.ball.owner) || !player_ok(w.ball.last_touch) || !player_ok(w.ball.pass_receiver) ||
      w.ball.first_touch_steps < 0 || w.ball.first_touch_steps > kMaxOpeningTouchSteps)
    fail("ball");
  if (w.m.game_mode < 0 || w.m.game_mode >= kNumGameModes) fail("game mode");
  if (w.m.restart_team < -1 || w.m.restart_team > 1 || !player_ok(w.m.taker)) fail("set piece");
  if (w.m.last_owned_team < -1 || w.m.last_owned_team > 1) fail("possession");
  if (w.m.opening_touch_step < 1 || w.m.opening_touch_step > kMaxOpeningTouchSteps) fail("opening touch");
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (w.p.controlled_by[p] < -1 || w.p.controlled_by[p] >= w.num_agents) fail("player control");
    if (w.p.role[p] < 0 || w.p.role[p] >= kNumRoles) fail("role");
    if (w.p.slide_steps[p] < 0 || w.p.slide_steps[p] > kSlideSteps) fail("slide");
    if (w.p.turn_hold[p] < 0 || w.p.turn_hold[p] > kDribbleTurnPauseSubsteps) fail("turn hold");
  }
}

}  // namespace trackfield::football
