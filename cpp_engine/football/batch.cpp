#include "football/batch.h"

#include <cstring>
#include <stdexcept>

#include "common/snapshot.h"
#include "football/obs.h"
#include "football/step.h"

namespace trackfield::football {

namespace {

constexpr uint32_t kSnapshotMagic = 0x42465446;  // "FTFB"
constexpr uint32_t kSnapshotVersion = 1;

void check_config(const EnvConfig& cfg) {
  for (int parity = 0; parity < 2; ++parity) {
    const ScenarioConfig& sc = cfg.scenario[parity];
    for (int t = 0; t < 2; ++t)
      if (sc.num_players[t] < 1 || sc.num_players[t] > kMaxTeamPlayers)
        throw std::invalid_argument("scenario: each team needs 1 to 11 players");
  }
  if (cfg.left_agents < 0 || cfg.right_agents < 0 || num_agents(cfg) < 1)
    throw std::invalid_argument("at least one controlled player is needed");
  for (int parity = 0; parity < 2; ++parity) {
    const ScenarioConfig& sc = cfg.scenario[parity];
    if (cfg.left_agents > sc.num_players[0] || cfg.right_agents > sc.num_players[1])
      throw std::invalid_argument("more controlled players than players in the team");
  }
  if (cfg.stack < 1 || cfg.stack > 16) throw std::invalid_argument("stack must be in [1, 16]");
  if (cfg.representation == kRaw && cfg.stack != 1)
    throw std::invalid_argument("the raw representation cannot be stacked");
}

// A snapshot's header can be intact while its payload is not (edited or corrupted
// bytes): every index the step follows is checked so such a state raises instead of
// reading out of bounds.
void check_world(const World& w, const EnvConfig& cfg) {
  auto fail = [](const std::string& what) { throw std::invalid_argument("set_state: corrupted snapshot (" + what + ")"); };
  auto player_ok = [](int p) { return p >= -1 && p < kMaxPlayers; };
  if (w.m.episode < 0) fail("episode");
  for (int t = 0; t < 2; ++t)
    if (w.team_size[t] != cfg.scenario[w.m.episode & 1].num_players[t]) fail("team size");
  if (w.num_agents != num_agents(cfg)) fail("agent count");
  for (int a = 0; a < w.num_agents; ++a) {
    const Agent& ag = w.agents[a];
    if (ag.team != (a < cfg.left_agents ? 0 : 1) || !player_ok(ag.player)) fail("agent");
    if (ag.player >= 0 && team_of(ag.player) != ag.team) fail("agent player");
    if (ag.direction < 0 || ag.direction > 8 || ag.pending_kick < 0 || ag.pending_kick >= kNumActions) fail("agent actions");
    if (ag.checkpoints_collected < 0 || ag.checkpoints_collected > kNumCheckpoints) fail("checkpoints");
  }
  if (!player_ok(w.ball.owner) || !player_ok(w.ball.last_touch) || !player_ok(w.ball.pass_receiver)) fail("ball");
  if (w.m.game_mode < 0 || w.m.game_mode >= kNumGameModes) fail("game mode");
  if (w.m.restart_team < -1 || w.m.restart_team > 1 || !player_ok(w.m.taker)) fail("set piece");
  if (w.m.last_owned_team < -1 || w.m.last_owned_team > 1) fail("possession");
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (w.p.controlled_by[p] < -1 || w.p.controlled_by[p] >= w.num_agents) fail("player control");
    if (w.p.role[p] < 0 || w.p.role[p] >= kNumRoles) fail("role");
    if (w.p.slide_steps[p] < 0 || w.p.slide_steps[p] > kSlideSteps) fail("slide");
  }
}

}  // namespace

uint64_t config_fingerprint(const EnvConfig& cfg) {
  // Field by field (never raw struct bytes: padding is not initialised).
  uint64_t h = 1469598103934665603ULL;
  auto mix = [&h](const auto& v) { h = fingerprint_bytes(&v, sizeof(v), h); };
  mix(cfg.left_agents), mix(cfg.right_agents), mix(cfg.representation), mix(cfg.stack);
  mix(cfg.scoring_weight), mix(cfg.checkpoint_weight);
  for (const ScenarioConfig& sc : cfg.scenario) {
    mix(sc.game_duration), mix(sc.deterministic), mix(sc.offsides), mix(sc.end_episode_on_score);
    mix(sc.end_episode_on_out_of_play), mix(sc.end_episode_on_possession_change);
    mix(sc.left_team_difficulty), mix(sc.right_team_difficulty), mix(sc.second_half);
    mix(sc.ball_x), mix(sc.ball_y), mix(sc.num_players[0]), mix(sc.num_players[1]);
    for (int t = 0; t < 2; ++t)
      for (int s = 0; s < sc.num_players[t]; ++s) {
        const PlayerSetup& p = sc.players[t][s];
        mix(p.x), mix(p.y), mix(p.role), mix(p.lazy), mix(p.controllable);
      }
  }
  return h;
}

Batch::Batch(const EnvConfig& cfg, int num_envs, int num_threads, bool autoreset, const BatchBuffers& buffers)
    : cfg_(cfg),
      num_envs_(num_envs),
      num_agents_(football::num_agents(cfg)),
      autoreset_(autoreset),
      buf_(buffers),
      pool_(num_threads) {
  check_config(cfg);
  if (num_envs < 1) throw std::invalid_argument("num_envs must be at least 1");
  if (cfg.representation == kSmm) {
    frame_pixels_ = kSmmHeight * kSmmWidth;
    frame_channels_ = kSmmChannels;
    elem_bytes_ = 1;
  } else if (cfg.representation == kSimple115) {
    frame_pixels_ = 1;
    frame_channels_ = kSimple115Size;
    elem_bytes_ = 4;
  } else if (cfg.representation == kRaw) {
    frame_pixels_ = 1;
    frame_channels_ = raw_size(cfg.scenario[0].num_players[cfg.left_agents > 0 ? 0 : 1],
                               cfg.scenario[0].num_players[cfg.left_agents > 0 ? 1 : 0]);
    elem_bytes_ = 4;
  } else {
    throw std::invalid_argument("unknown representation");
  }
  frame_size_ = frame_pixels_ * frame_channels_;
  worlds_.resize(num_envs);
  next_episode_.assign(num_envs, 0);
  returns_.assign(num_envs, 0.0f);
  if (cfg.stack > 1) history_.assign(static_cast<size_t>(num_envs) * num_agents_ * cfg.stack * frame_size_ * elem_bytes_, 0);
  fingerprint_ = config_fingerprint(cfg);
}

void* Batch::obs_ptr(void* base, int i) const {
  return static_cast<uint8_t*>(base) + static_cast<size_t>(i) * num_agents_ * obs_size() * elem_bytes_;
}

void Batch::write_frame(int i, int agent, void* frame) {
  const World& w = worlds_[i];
  if (cfg_.representation == kSimple115) write_obs_simple115(w, agent, static_cast<float*>(frame));
  else if (cfg_.representation == kSmm) write_obs_smm(w, agent, static_cast<uint8_t*>(frame));
  else write_obs_raw(w, agent, static_cast<float*>(frame));
}

// With stacking, frames live in history_ as [stack][frame] (oldest first) and are
// interleaved into the output as [pixel][stack][channel]: for vectors that is the
// frames concatenated, for the mini map the channels of each pixel grouped in time.
template <typename T>
void Batch::write_obs_typed(int i, bool fresh, T* out) {
  const int stack = cfg_.stack;
  for (int a = 0; a < num_agents_; ++a) {
    if (stack == 1) {
      write_frame(i, a, out + static_cast<size_t>(a) * obs_size());
      continue;
    }
    T* hist = reinterpret_cast<T*>(history_.data()) +
              (static_cast<size_t>(i) * num_agents_ + a) * stack * frame_size_;
    T* newest = hist + static_cast<size_t>(stack - 1) * frame_size_;
    if (!fresh) std::memmove(hist, hist + frame_size_, sizeof(T) * frame_size_ * (stack - 1));
    write_frame(i, a, newest);
    if (fresh)
      for (int t = 0; t < stack - 1; ++t) std::memcpy(hist + t * frame_size_, newest, sizeof(T) * frame_size_);
  }
  if (stack > 1) compose_stack(i);
}

void Batch::compose_stack(int i) {
  const int stack = cfg_.stack;
  const size_t C = frame_channels_ * elem_bytes_;
  const size_t frame_bytes = frame_size_ * elem_bytes_;
  uint8_t* out = static_cast<uint8_t*>(obs_ptr(buf_.obs, i));
  const uint8_t* hist = history_.data() + static_cast<size_t>(i) * num_agents_ * stack * frame_bytes;
  for (int a = 0; a < num_agents_; ++a) {
    uint8_t* agent_out = out + static_cast<size_t>(a) * stack * frame_bytes;
    const uint8_t* agent_hist = hist + static_cast<size_t>(a) * stack * frame_bytes;
    for (int px = 0; px < frame_pixels_; ++px)
      for (int t = 0; t < stack; ++t)
        std::memcpy(agent_out + (static_cast<size_t>(px) * stack + t) * C,
                    agent_hist + t * frame_bytes + static_cast<size_t>(px) * C, C);
  }
}

void Batch::write_obs(int i, bool fresh, void* base) {
  void* out = obs_ptr(base, i);
  if (elem_bytes_ == 1) write_obs_typed(i, fresh, static_cast<uint8_t*>(out));
  else write_obs_typed(i, fresh, static_cast<float*>(out));
}

void Batch::write_status(int i) {
  const World& w = worlds_[i];
  int32_t* st = buf_.status + static_cast<size_t>(i) * kNumStatus;
  st[kStatusScoreLeft] = w.m.score[0];
  st[kStatusScoreRight] = w.m.score[1];
  st[kStatusSteps] = w.m.steps;
  st[kStatusGameMode] = w.m.game_mode;
  st[kStatusBallOwnedTeam] = ball_owner_team(w);
}

void Batch::start_episode(int i, uint64_t seed) {
  reset_world(worlds_[i], cfg_, seed, next_episode_[i]++);
  returns_[i] = 0.0f;
  write_obs(i, true, buf_.obs);
  write_status(i);
}

void Batch::reset_one(int i, uint64_t seed, bool seeded) {
  if (i < 0 || i >= num_envs_) throw std::out_of_range("env index out of range");
  uint64_t s = seeded ? splitmix64(seed ^ splitmix64(static_cast<uint64_t>(i) + 1)) : rng_next_u64(worlds_[i].rng);
  if (seeded) next_episode_[i] = 0;
  start_episode(i, s);
  if (buf_.terminated) buf_.terminated[i] = false;
  if (buf_.truncated) buf_.truncated[i] = false;
}

void Batch::reset_all(uint64_t seed) {
  for (int i = 0; i < num_envs_; ++i) reset_one(i, seed, true);
}

void Batch::check_actions() const {
  const int n = num_envs_ * num_agents_;
  for (int k = 0; k < n; ++k) {
    int a = buf_.actions[k];
    if (a < 0 || a >= kNumActions)
      throw std::invalid_argument("action " + std::to_string(a) + " at index " + std::to_string(k) +
                                  " is outside the 19 football actions [0, 18]");
  }
}

void Batch::step_range(int begin, int end) {
  for (int i = begin; i < end; ++i) {
    World& w = worlds_[i];
    step_world(w, cfg_, buf_.actions + static_cast<size_t>(i) * num_agents_);
    for (int a = 0; a < num_agents_; ++a) {
      size_t k = static_cast<size_t>(i) * num_agents_ + a;
      buf_.rewards[k] = w.reward[a];
      for (int c = 0; c < kNumRewardComponents; ++c)
        buf_.reward_components[k * kNumRewardComponents + c] = w.reward_components[a][c];
    }
    returns_[i] += w.reward[0];
    buf_.terminated[i] = w.m.terminated;
    buf_.truncated[i] = w.m.truncated;
    write_obs(i, false, buf_.obs);
    write_status(i);
    if (!(w.m.terminated || w.m.truncated)) continue;
    float* stats = buf_.episode_stats + static_cast<size_t>(i) * kNumEpisodeStats;
    stats[kStatReturn] = returns_[i];
    stats[kStatLength] = static_cast<float>(w.m.steps);
    stats[kStatScoreLeft] = static_cast<float>(w.m.score[0]);
    stats[kStatScoreRight] = static_cast<float>(w.m.score[1]);
    if (autoreset_) {
      std::memcpy(obs_ptr(buf_.final_obs, i), obs_ptr(buf_.obs, i),
                  static_cast<size_t>(num_agents_) * obs_size() * elem_bytes_);
      start_episode(i, rng_next_u64(w.rng));
    }
  }
}

void Batch::step() {
  int chunk = std::max(1, num_envs_ / (pool_.size() * 8));
  pool_.parallel_for(num_envs_, chunk, [this](int b, int e) { step_range(b, e); });
}

void Batch::refresh_obs(int i) { write_obs(i, true, buf_.obs); }

std::string Batch::get_state(int i) const {
  if (i < 0 || i >= num_envs_) throw std::out_of_range("env index out of range");
  SnapshotWriter out(kSnapshotMagic, kSnapshotVersion, fingerprint_);
  out.write(worlds_[i]);
  out.write(next_episode_[i]);
  out.write(returns_[i]);
  if (!history_.empty()) {
    size_t bytes = static_cast<size_t>(num_agents_) * cfg_.stack * frame_size_ * elem_bytes_;
    out.write_bytes(history_.data() + i * bytes, bytes);
  }
  return out.finish();
}

void Batch::set_state(int i, const std::string& bytes) {
  if (i < 0 || i >= num_envs_) throw std::out_of_range("env index out of range");
  SnapshotReader in(bytes, kSnapshotMagic, kSnapshotVersion, fingerprint_, "football");
  World w;
  int episode;
  float ret;
  in.read(w);
  in.read(episode);
  in.read(ret);
  size_t hist_bytes = static_cast<size_t>(num_agents_) * cfg_.stack * frame_size_ * elem_bytes_;
  std::vector<uint8_t> hist(history_.empty() ? 0 : hist_bytes);
  if (!hist.empty()) in.read_bytes(hist.data(), hist_bytes);
  if (!in.done()) throw std::invalid_argument("set_state: snapshot has trailing bytes");
  check_world(w, cfg_);
  worlds_[i] = w;
  next_episode_[i] = episode;
  returns_[i] = ret;
  if (!hist.empty()) std::memcpy(history_.data() + i * hist_bytes, hist.data(), hist_bytes);
  // Rewrite the current observation from the restored state and history.
  if (history_.empty()) write_obs(i, true, buf_.obs);
  else compose_stack(i);
  buf_.terminated[i] = w.m.terminated;
  buf_.truncated[i] = w.m.truncated;
  write_status(i);
}

}  // namespace trackfield::football
