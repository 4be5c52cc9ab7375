// Starting a new episode: line-ups, ball and agents from the scenario.
#include <cstring>

#include "football/ai_shared.h"
#include "football/step.h"

namespace trackfield::football {

namespace {

// Scenario coordinates are GRF units in the team's own frame; the right team is mirrored.
// GRF turns them into metres on its 110 x 72 m pitch differently for the ball and the
// players (gfootball_engine: the ball by the observation scale 54.4 / 83.6 in game_env.cpp,
// a player's formation start by pitchHalfW 55 and FORMATION_Y_SCALE 2.36 x pitchHalfH 36 in
// gamedefines.hpp). We keep where that puts them as a share of the half pitch, so distances
// to the lines stay GRF's: academy_corner's ball lies 1.1 m inside the goal line and its
// taker stands on that line 1.8 m from it, where he must walk onto the ball before it is his.
constexpr float kBallStartX = 54.4f / 55.0f;
constexpr float kBallStartY = 83.6f / 36.0f;  // share of the half width per GRF y unit
constexpr float kPlayerStartY = 2.36f;  // share of the half width per GRF y unit

// GRF's player database (data/playerdata.cpp, teamdata.cpp): a team's players, in the
// scenario's order, take these eleven profiles, the same for both teams. Per profile:
// physical_velocity (GRF's top speed is 0.9 + 0.1 x it, of 8 m/s), physical_stamina
// (GRF tires a player at 2 - it), and the mean of technical_shot and technical_shortpass
// (GRF blends a kick towards its worst case by a uniform draw raised to 0.7 x skill: on
// average 1 / (1 + 0.7 x skill) of the way).
struct PlayerProfile {
  float velocity, stamina, kicking;
};
constexpr PlayerProfile kPlayerProfiles[kMaxTeamPlayers] = {
    {0.450f, 0.550f, 0.500f}, {0.536f, 0.470f, 0.503f}, {0.464f, 0.464f, 0.439f},
    {0.486f, 0.486f, 0.336f}, {0.529f, 0.462f, 0.495f}, {0.586f, 0.486f, 0.636f},
    {0.464f, 0.464f, 0.514f}, {0.525f, 0.475f, 0.575f}, {0.632f, 0.482f, 0.632f},
    {0.632f, 0.482f, 0.632f}, {0.632f, 0.482f, 0.632f}};

// Each factor relative to the eleven profiles' average, so a team plays as fast, tires as
// fast and kicks as accurately as before on the whole, its players differing as GRF's do.
void set_profile(World& w, int p, int slot) {
  float pace_sum = 0.0f, tiring_sum = 0.0f, error_sum = 0.0f;
  for (const PlayerProfile& q : kPlayerProfiles) {
    pace_sum += 0.9f + 0.1f * q.velocity;
    tiring_sum += 2.0f - q.stamina;
    error_sum += 1.0f / (1.0f + 0.7f * q.kicking);
  }
  const PlayerProfile& mine = kPlayerProfiles[slot];
  w.p.pace[p] = (0.9f + 0.1f * mine.velocity) * kMaxTeamPlayers / pace_sum;
  w.p.tiring[p] = (2.0f - mine.stamina) * kMaxTeamPlayers / tiring_sum;
  w.p.stamina[p] = mine.stamina;
  w.p.kicking[p] = mine.kicking;
  w.p.kick_error[p] = 1.0f / (1.0f + 0.7f * mine.kicking) * kMaxTeamPlayers / error_sum;
}

// GRF's players start at rest, and whoever is nearest the ball walks to it; GRF first
// reports him on it only after his first touch, the later the farther he starts (traced,
// 150 episodes of the random player each: a mean first report at step 2.4 from 0.6 m
// (empty_goal_close), 2.7 from 0.7 m (3_vs_1), 3.1 from 0.8 m (counterattack), 3.9 from
// 1.0 m (run_to_score), 5.3 from 2.0 m (pass_and_shoot); steps spread over three or four
// values). A kick pressed before then is his first touch, so he is never reported
// (control.cpp): a third of run_to_score's episodes, an eighth of counterattack's.
static int opening_touch_step(World& w) {
  float d = 1e30f;
  for (int p = 0; p < kMaxPlayers; ++p)
    if (w.p.present[p]) d = std::fmin(d, distance(player_pos(w, p), ball_pos(w)));
  float mean = d <= 1.04f ? 2.4f + 3.6f * (d - 0.61f) : 3.95f + 1.4f * (d - 1.04f);
  if (!w.m.deterministic) mean += rng_range(w.rng, -1.0f, 1.0f);
  return static_cast<int>(clampf(std::round(mean), 1.0f, static_cast<float>(kMaxOpeningTouchSteps)));
}

Vec2 scenario_to_world(float x, float y, int team, bool player) {
  Vec2 v = player ? Vec2{x * kHalfLength, y * kPlayerStartY * kHalfWidth}
                  : Vec2{x * kBallStartX * kHalfLength, y * kBallStartY * kHalfWidth};
  if (team == 1) v = v * -1.0f;
  float margin = player ? kPitchMargin : 0.0f;
  v.x = clampf(v.x, -kHalfLength - margin, kHalfLength + margin);
  v.y = clampf(v.y, -kHalfWidth - margin, kHalfWidth + margin);
  return v;
}

}  // namespace

float team_difficulty(const ScenarioConfig& sc, int team) {
  return team == 0 ? sc.left_team_difficulty : sc.right_team_difficulty;
}

void reset_world(World& w, const EnvConfig& cfg, uint64_t seed, int episode) {
  std::memset(static_cast<void*>(&w), 0, sizeof(World));
  rng_seed(w.rng, seed, 0x5eed);
  const ScenarioConfig& sc = cfg.scenario[episode & 1];
  w.m.episode = episode;
  w.m.game_duration = sc.game_duration;
  w.m.deterministic = sc.deterministic;
  w.m.offsides = sc.offsides;
  for (int team = 0; team < 2; ++team) {
    w.team_size[team] = sc.num_players[team];
    for (int slot = 0; slot < kMaxTeamPlayers; ++slot) {
      int p = first_of(team) + slot;
      w.p.controlled_by[p] = -1;
      if (slot >= sc.num_players[team]) continue;
      const PlayerSetup& s = sc.players[team][slot];
      Vec2 pos = scenario_to_world(s.x, s.y, team, true);
      w.p.x[p] = w.p.home_x[p] = pos.x;
      w.p.y[p] = w.p.home_y[p] = pos.y;
      w.p.face_x[p] = team == 0 ? 1.0f : -1.0f;  // turned towards the ball below
      w.p.role[p] = static_cast<int8_t>(s.role);
      w.p.lazy[p] = s.lazy;
      w.p.controllable[p] = s.controllable;
      w.p.present[p] = true;
      set_profile(w, p, slot);
    }
  }
  Vec2 ball = scenario_to_world(sc.ball_x, sc.ball_y, 0, false);
  // Everyone starts facing the ball. GRF's empty-goal files put the opposing keeper
  // inside the goal it attacks: facing its attack direction, its first touch would
  // carry the ball straight over that goal line.
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (!w.p.present[p]) continue;
    Vec2 face = normalized(ball - player_pos(w, p), {w.p.face_x[p], w.p.face_y[p]});
    w.p.face_x[p] = face.x;
    w.p.face_y[p] = face.y;
  }
  w.ball.x = ball.x;
  w.ball.y = ball.y;
  w.ball.owner = w.ball.last_touch = w.ball.pass_receiver = -1;
  w.m.game_mode = w.m.prev_game_mode = kModeNormal;
  w.m.restart_team = w.m.taker = w.m.last_owned_team = -1;
  init_formation_spots(w);
  w.m.opening_touch_step = opening_touch_step(w);

  // As in GRF, nobody owns the ball at reset: whoever reaches it first under the
  // ball-control rules (physics.cpp) takes it, and that first ownership is not a
  // possession change.
  w.num_agents = num_agents(cfg);
  for (int a = 0; a < w.num_agents; ++a) {
    w.agents[a].team = a < cfg.left_agents ? 0 : 1;
    w.agents[a].player = -1;
  }
  select_active_players(w);
}

void place_kickoff(World& w, int kicking_team) {
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (!w.p.present[p]) continue;
    int team = team_of(p);
    float own_side = team == 0 ? -1.0f : 1.0f;
    // Everyone back to the formation spot, inside the own half and, for the
    // defending team, outside the centre circle.
    float x = w.p.home_x[p];
    if (x * own_side < 1.0f) x = own_side * 1.0f;
    Vec2 pos{x, w.p.home_y[p]};
    if (team != kicking_team && length(pos) < kSetPieceDistance)
      pos = normalized(pos, {own_side, 0.0f}) * kSetPieceDistance;
    w.p.x[p] = pos.x;
    w.p.y[p] = pos.y;
    w.p.vx[p] = w.p.vy[p] = 0.0f;
    w.p.slide_steps[p] = 0;
  }
  start_set_piece(w, kModeKickOff, kicking_team, {0.0f, 0.0f});
}

}  // namespace trackfield::football
