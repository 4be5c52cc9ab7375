// Starting a new episode: line-ups, ball and agents from the scenario.
#include <cstring>

#include "football/step.h"

namespace trackfield::football {

namespace {

// Scenario coordinates are GRF units in the team's own frame; the right team is mirrored.
Vec2 scenario_to_world(float x, float y, int team) {
  Vec2 v{x * kHalfLength, y / kYToObs};
  if (team == 1) v = v * -1.0f;
  v.x = clampf(v.x, -kHalfLength, kHalfLength);
  v.y = clampf(v.y, -kHalfWidth, kHalfWidth);
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
      Vec2 pos = scenario_to_world(s.x, s.y, team);
      w.p.x[p] = w.p.home_x[p] = pos.x;
      w.p.y[p] = w.p.home_y[p] = pos.y;
      w.p.face_x[p] = team == 0 ? 1.0f : -1.0f;  // turned towards the ball below
      w.p.role[p] = static_cast<int8_t>(s.role);
      w.p.lazy[p] = s.lazy;
      w.p.controllable[p] = s.controllable;
      w.p.present[p] = true;
    }
  }
  Vec2 ball = scenario_to_world(sc.ball_x, sc.ball_y, 0);
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
