// The laws of the game: goals, the ball going out, tackles and sliding fouls with
// cards, and how set pieces (kick-off, goal kick, free kick, corner, throw-in,
// penalty) are set up and restarted.
#include <cmath>

#include "football/step.h"

namespace trackfield::football {

namespace {

// Per step, for a defender at the carrier's ball with a view of it. GRF, measured AI
// against AI (tools/football_turnovers.py, 11_vs_11_stochastic): 14.4 balls lost per team
// and game without a fast ball between (ours 15.7), and in the duel probe a lone
// centre-back takes a carrier's ball 15-20 times in 20 (ours 20), short of x 0.8.
constexpr float kTackleChance = 0.45f;
constexpr float kTackleFoulChance = 0.015f;
constexpr float kTackleMinDuel = 0.2f;   // GRF's AI interferes only from this ball_duel_likeliness
constexpr float kSlideFromBehindFoul = 0.6f;
constexpr float kSlideFoulChance = 0.12f;
constexpr float kYellowCardChance = 0.4f;

bool in_penalty_box(Vec2 pos, int defending_team) {
  float goal_x = defending_team == 0 ? -kHalfLength : kHalfLength;
  return std::fabs(pos.x - goal_x) < kPenaltyBoxDepth && std::fabs(pos.y) < kPenaltyBoxHalfWidth;
}

int players_on_pitch(const World& w, int team) {
  int n = 0;
  for (int s = 0; s < w.team_size[team]; ++s) n += w.p.present[first_of(team) + s];
  return n;
}

// A keeper sent off is replaced in goal, as in GRF, by the team's first player still on
// the pitch (slot order), who takes the keeper's role and formation spot.
void replace_keeper(World& w, int keeper) {
  int team = team_of(keeper);
  for (int s = 0; s < w.team_size[team]; ++s) {
    int q = first_of(team) + s;
    if (!w.p.present[q]) continue;
    w.p.role[q] = kRoleGK;
    w.p.home_x[q] = w.p.home_x[keeper];
    w.p.home_y[q] = w.p.home_y[keeper];
    return;
  }
}

void book(World& w, int p) {
  if (!roll_chance(w, kYellowCardChance)) return;
  if (++w.p.yellow_cards[p] >= 2) send_off(w, p);  // second yellow
}

// The offended team restarts: a penalty when the offence was in the offender's box.
void award_free_kick(World& w, int offender, Vec2 spot) {
  int team = 1 - team_of(offender);
  if (in_penalty_box(spot, team_of(offender))) {
    float goal_x = attack_goal_x(team);
    start_set_piece(w, kModePenalty, team, {goal_x - (goal_x > 0 ? kPenaltySpotDistance : -kPenaltySpotDistance), 0.0f});
  } else {
    start_set_piece(w, kModeFreeKick, team, spot);
  }
}

void award_foul(World& w, int fouler, Vec2 spot) {
  book(w, fouler);
  award_free_kick(w, fouler, spot);
}

int nearest_player(const World& w, int team, Vec2 spot, bool prefer_keeper) {
  int best = -1;
  float best_d = 1e30f;
  for (int s = 0; s < w.team_size[team]; ++s) {
    int p = first_of(team) + s;
    if (!w.p.present[p]) continue;
    if (prefer_keeper && w.p.role[p] == kRoleGK) return p;
    float d = distance(player_pos(w, p), spot);
    if (d < best_d) best_d = d, best = p;
  }
  return best;
}

}  // namespace

void send_off(World& w, int p) {
  // As GRF, a team's last player stays on.
  if (!w.p.present[p] || players_on_pitch(w, team_of(p)) <= 1) return;
  w.p.present[p] = false;
  w.p.vx[p] = w.p.vy[p] = w.p.want_vx[p] = w.p.want_vy[p] = 0.0f;
  w.p.sprinting[p] = false;
  if (w.p.role[p] == kRoleGK) replace_keeper(w, p);
}

void award_handball(World& w, int player, Vec2 spot) { award_free_kick(w, player, spot); }

void start_set_piece(World& w, int mode, int team, Vec2 spot) {
  w.m.game_mode = mode;
  w.m.mode_steps = 0;
  w.m.restart_team = team;
  w.m.restart_x = clampf(spot.x, -kHalfLength, kHalfLength);
  w.m.restart_y = clampf(spot.y, -kHalfWidth, kHalfWidth);
  w.m.taker = -1;
  w.ball.x = w.m.restart_x;
  w.ball.y = w.m.restart_y;
  w.ball.z = w.ball.vx = w.ball.vy = w.ball.vz = 0.0f;
  w.ball.owner = -1;
  w.ball.first_touch_is_kick = false;
  w.ball.first_touch_steps = 0;
  w.ball.pass_receiver = -1;
  w.ball.shot_in_flight = false;
  for (int p = 0; p < kMaxPlayers; ++p) {
    w.p.offside_mark[p] = false;
    w.p.slide_steps[p] = 0;
  }
}

bool check_goal_or_out(World& w) {
  const Ball& b = w.ball;
  if (std::fabs(b.x) > kHalfLength) {
    int defending = b.x > 0 ? 1 : 0;
    int attacking = 1 - defending;
    float side_x = b.x > 0 ? kHalfLength : -kHalfLength;
    float side_y = b.y > 0 ? 1.0f : -1.0f;
    if (std::fabs(b.y) < kGoalHalfWidth && b.z < kGoalHeight) {
      ++w.m.score[attacking];
      w.m.goal_this_step[attacking] = true;
      start_set_piece(w, kModeKickOff, defending, {0.0f, 0.0f});
      return true;
    }
    int toucher_team = b.last_touch >= 0 ? team_of(b.last_touch) : attacking;
    if (toucher_team == defending)
      start_set_piece(w, kModeCorner, attacking, {side_x, side_y * kHalfWidth});
    else
      start_set_piece(w, kModeGoalKick, defending, {b.x > 0 ? kGoalKickX : -kGoalKickX, 0.0f});
    return true;
  }
  if (std::fabs(b.y) > kHalfWidth) {
    int toucher_team = b.last_touch >= 0 ? team_of(b.last_touch) : 0;
    start_set_piece(w, kModeThrowIn, 1 - toucher_team, {b.x, b.y > 0 ? kHalfWidth : -kHalfWidth});
    return true;
  }
  return false;
}

void resolve_tackles(World& w, const ScenarioConfig& sc) {
  if (w.m.game_mode != kModeNormal) return;
  // Slides: win the ball if it is within reach, foul the carrier if not (or from behind).
  for (int q = 0; q < kMaxPlayers; ++q) {
    if (!w.p.present[q] || w.p.slide_steps[q] == 0) continue;
    --w.p.slide_steps[q];
    int owner = w.ball.owner;
    if (owner >= 0 && team_of(owner) == team_of(q)) continue;
    float to_ball = distance(player_pos(w, q), ball_pos(w));
    if (owner >= 0) {
      Vec2 carrier = player_pos(w, owner);
      bool reach_ball = to_ball < kSlideReach;
      bool hit_carrier = distance(player_pos(w, q), carrier) < 1.0f;
      if (!reach_ball && !hit_carrier) continue;
      bool from_behind = w.p.face_x[q] * w.p.face_x[owner] + w.p.face_y[q] * w.p.face_y[owner] > 0.6f;
      float foul = !reach_ball ? 0.5f : (from_behind ? kSlideFromBehindFoul : kSlideFoulChance);
      if (roll_chance(w, foul)) {
        award_foul(w, q, carrier);
        return;
      }
      if (!reach_ball) continue;
      w.p.kick_cooldown[owner] = kKickCooldownSubsteps;
    } else if (to_ball >= kSlideReach || w.ball.z > 0.8f) {
      continue;
    }
    // The slide knocks the ball on in the slider's direction.
    free_ball(w, Vec2{w.p.face_x[q], w.p.face_y[q]} * 8.0f, 0.0f, q);
    w.p.slide_steps[q] = 0;
    return;
  }
  // Standing tackles: any opponent at the ball may take it.
  int owner = w.ball.owner;
  if (owner < 0) return;
  int opp = 1 - team_of(owner);
  bool shielding = false;
  for (int a = 0; a < w.num_agents; ++a)
    if (w.agents[a].player == owner && w.agents[a].dribble) shielding = true;
  for (int s = 0; s < w.team_size[opp]; ++s) {
    int q = first_of(opp) + s;
    if (!w.p.present[q] || w.p.lazy[q] || w.p.kick_cooldown[q] > 0) continue;
    if (distance(player_pos(w, q), ball_pos(w)) > kTackleRadius) continue;
    if (ball_duel_likeliness(w, q) < kTackleMinDuel) continue;  // the carrier's body is in the way
    if (keeper_may_handle(w, q)) {
      // A keeper in his box picks the ball off a dribbler's feet with his hands (GRF,
      // tools/football_probes.py keeper_claim: a dribbler running at him is stopped the
      // step they meet, 20 times in 20), unless the carrier shields it.
      if (roll_chance(w, kKeeperClaimChance * keeper_hands(w, sc, q) * (shielding ? 0.5f : 1.0f))) {
        w.p.kick_cooldown[owner] = kKickCooldownSubsteps;
        give_ball(w, q);
        return;
      }
      continue;
    }
    float skill = !ai_drives(w, q) ? 1.0f : 0.5f + 0.5f * team_difficulty(sc, opp);
    float chance = kTackleChance * skill * (shielding ? 0.6f : 1.0f) * (1.0f - 0.3f * w.p.tired[q]);  // GRF's 0.7 + 0.3 x freshness
    if (roll_chance(w, kTackleFoulChance)) {
      award_foul(w, q, player_pos(w, owner));
      return;
    }
    if (roll_chance(w, chance)) {
      // The tackler brings the ball under control (GRF reports him on it: the duel
      // probe), rather than strike it on first time.
      w.p.kick_cooldown[owner] = kKickCooldownSubsteps;
      give_ball(w, q);
      return;
    }
  }
}

// Runs once per step while play is stopped: the taker walks up, opponents keep their
// distance, and after kSetPieceDelaySteps the taker may play the ball.
void run_set_piece(World& w) {
  ++w.m.mode_steps;
  Vec2 spot{w.m.restart_x, w.m.restart_y};
  int team = w.m.restart_team;
  if (w.m.taker < 0 || !w.p.present[w.m.taker]) {
    w.m.taker = nearest_player(w, team, spot, w.m.game_mode == kModeGoalKick);
    if (w.m.taker < 0) {
      w.m.game_mode = kModeNormal;  // nobody can take it: play on
      return;
    }
  }
  int taker = w.m.taker;
  // The taker stands behind the ball facing the attacked goal (or into the pitch).
  Vec2 toward = normalized(Vec2{attack_goal_x(team), 0.0f} - spot, {team == 0 ? 1.0f : -1.0f, 0.0f});
  if (w.m.game_mode == kModeThrowIn || w.m.game_mode == kModeCorner)
    toward = normalized(Vec2{0.0f, 0.0f} - spot);
  w.p.x[taker] = spot.x - toward.x * kDribbleOffset;
  w.p.y[taker] = spot.y - toward.y * kDribbleOffset;
  w.p.vx[taker] = w.p.vy[taker] = 0.0f;
  w.p.face_x[taker] = toward.x;
  w.p.face_y[taker] = toward.y;
  give_ball(w, taker);
  w.ball.x = spot.x;
  w.ball.y = spot.y;
  // Opponents retreat to the regulation distance.
  float keep_away = w.m.game_mode == kModeThrowIn ? 2.0f : kSetPieceDistance;
  for (int s = 0; s < w.team_size[1 - team]; ++s) {
    int q = first_of(1 - team) + s;
    if (!w.p.present[q]) continue;
    if (w.m.game_mode == kModePenalty && w.p.role[q] == kRoleGK) continue;
    Vec2 d = player_pos(w, q) - spot;
    float len = length(d);
    if (len < keep_away) {
      // Set down at the distance, standing: a slide or run in progress does not carry
      // him back towards the ball.
      Vec2 pos = spot + normalized(d, toward * -1.0f) * keep_away;
      w.p.x[q] = clampf(pos.x, -kHalfLength, kHalfLength);
      w.p.y[q] = clampf(pos.y, -kHalfWidth, kHalfWidth);
      w.p.vx[q] = w.p.vy[q] = 0.0f;
      w.p.slide_steps[q] = 0;
    }
  }
}

void update_stamina(World& w) {
  const bool in_play = w.m.game_mode == kModeNormal;
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (!w.p.present[p]) continue;
    float speed_sq = w.p.vx[p] * w.p.vx[p] + w.p.vy[p] * w.p.vy[p];
    bool sprinting = w.p.sprinting[p] && speed_sq > kRunSpeed * kRunSpeed * 0.8f;
    float winded = w.p.winded[p] + (sprinting ? kSprintTiring * w.p.tiring[p] : -kRestRecovery);
    w.p.winded[p] = clampf(winded, 0.0f, 1.0f);
    if (in_play) {
      const float metres = std::sqrt(speed_sq) * kStepSeconds;
      w.p.tired[p] = std::fmin(w.p.tired[p] + metres * kFatiguePerMetre * (2.0f - w.p.stamina[p]), kMostTired);
    }
  }
}

}  // namespace trackfield::football
