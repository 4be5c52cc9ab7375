// One physics substep: players accelerate towards their desired velocity, the ball
// follows its carrier or flies/rolls freely (2.5-D: gravity, bounce, rolling
// resistance), and a free ball is controlled, caught, parried or deflected.
#include <cmath>

#include "football/step.h"

namespace trackfield::football {

namespace {


// GRF's AI sees the game one reaction time late: 80 - 40 x its reaction skill ms (1.0 for
// its keeper, scaled as every skill by 0.3 + 0.7 x difficulty) plus 100 ms x (1 -
// difficulty): its keeper reacts in 162 ms at easy, 91 at medium, 46 at hard, 40 at 1.0.
// An AI keeper reacts earlier or later than kKeeperReactionDelay by GRF's difference from
// a keeper at kKeeperTimingDifficulty: 109 ms later at easy, 38 at medium, 6 earlier at
// hard, 13 at 1.0 (docs/football_calibration_changelog.md, 2026-11-27).
float keeper_reaction_lag(const World& w, const ScenarioConfig& sc, int keeper) {
  if (!ai_drives(w, keeper)) return 0.0f;
  const auto grf_ms = [](float d) { return 80.0f - 40.0f * (0.3f + 0.7f * d) + 100.0f * (1.0f - d); };
  const float d = team_difficulty(sc, team_of(keeper));
  return (grf_ms(d) - grf_ms(kKeeperTimingDifficulty)) * 0.001f;
}

// How far off the keeper's body a shot passes: its path's distance from him.
float shot_offset_from(const World& w, int keeper) {
  const Vec2 v{w.ball.vx, w.ball.vy};
  const float speed = length(v);
  if (speed < 1e-3f) return 0.0f;
  return std::fabs(cross(v * (1.0f / speed), player_pos(w, keeper) - ball_pos(w)));
}

// Seconds from the strike until the ball passes the keeper: its flight so far and the
// time until it is level with him. He is judged on the ball reaching him, not on its
// entering his reach (2.2 m out, 0.08 s earlier for a shot at his middle).
float shot_time_at_keeper(const World& w, int keeper) {
  const Vec2 v{w.ball.vx, w.ball.vy};
  const float v2 = dot(v, v);
  const float still_to_come = v2 > 1e-6f ? dot(player_pos(w, keeper) - ball_pos(w), v) / v2 : 0.0f;
  return w.ball.flight_time + std::fmax(still_to_come, 0.0f);
}

// How far a keeper has got with a shot by the time it reaches him: 0 before his reaction
// (kKeeperReactionDelay and his difficulty's lag) and, for a shot wide of his hands, a dive
// across (kKeeperDiveSpeed beyond kKeeperHandReach), 1 after kKeeperReactionSpan more.
// GRF's medium keeper lets in three in four running shots at his middle from 14-16 m and
// stops nearly all from 20 m (tools/football_probes.py keeper_difficulty), yet its AI's
// placed shots beat him (none of them held in 8 games): time to the ball and distance off
// his body both count.
float keeper_reaction(const World& w, const ScenarioConfig& sc, int keeper) {
  const float dive = std::fmax(shot_offset_from(w, keeper) - kKeeperHandReach, 0.0f) / kKeeperDiveSpeed;
  const float needed = kKeeperReactionDelay + keeper_reaction_lag(w, sc, keeper) + dive;
  return clampf((shot_time_at_keeper(w, keeper) - needed) / kKeeperReactionSpan, 0.0f, 1.0f);
}

// Probability that a player brings the ball under control at this ball speed.
float control_chance(const World& w, const ScenarioConfig& sc, int p, float ball_speed, bool keeper) {
  // A team-mate's pass is played to the keeper's feet: it is controlled like a field player's.
  bool from_mate = w.ball.last_touch >= 0 && team_of(w.ball.last_touch) == team_of(p);
  if (keeper && !from_mate) {
    float skill = keeper_hands(w, sc, p);
    if (w.ball.shot_in_flight) return 0.97f * keeper_reaction(w, sc, p) * skill;
    return clampf((1.3f - ball_speed / 40.0f) * skill, 0.25f, 0.97f);
  }
  float chance = 1.15f - ball_speed / 26.0f;
  if (w.ball.pass_receiver == p) chance += 0.15f;
  // Cutting out an opponent's moving pass is harder than taking one's own team's.
  bool opponents_ball = w.ball.last_touch >= 0 && team_of(w.ball.last_touch) != team_of(p);
  if (opponents_ball) chance -= 0.35f * clampf((ball_speed - 6.0f) / 10.0f, 0.0f, 1.0f);
  if (w.ball.z > 1.0f) chance -= 0.25f;  // chest/head height is harder
  return clampf(chance, 0.12f, 1.0f);
}

}  // namespace

bool roll_chance(World& w, float chance) {
  if (w.m.deterministic) return chance >= 0.5f;
  return rng_uniform(w.rng) < chance;
}

float nearest_opponent_distance(const World& w, int team, Vec2 pos, int* who) {
  int opp = 1 - team;
  float best = 1e30f;
  for (int s = 0; s < w.team_size[opp]; ++s) {
    int q = first_of(opp) + s;
    if (!w.p.present[q]) continue;
    float d = distance(player_pos(w, q), pos);
    if (d < best) {
      best = d;
      if (who) *who = q;
    }
  }
  return best;
}

float ball_duel_likeliness(const World& w, int player) {
  int carrier = w.ball.owner;
  if (carrier < 0 || carrier == player) return 1.0f;
  Vec2 opp = player_pos(w, carrier);
  Vec2 to_carrier = normalized(opp - player_pos(w, player));
  Vec2 carrier_to_ball = normalized(ball_pos(w) - opp);
  return 0.5f - 0.5f * dot(to_carrier, carrier_to_ball);
}

float keeper_hands(const World& w, const ScenarioConfig& sc, int p) {
  return !ai_drives(w, p) ? 1.0f : 0.9f + 0.1f * team_difficulty(sc, team_of(p));
}

bool keeper_may_handle(const World& w, int p) {
  if (w.p.role[p] != kRoleGK) return false;
  float goal_x = team_of(p) == 0 ? -kHalfLength : kHalfLength;
  return std::fabs(w.ball.x - goal_x) < kPenaltyBoxDepth &&
         std::fabs(w.ball.y) < kPenaltyBoxHalfWidth;
}

// The ball's owner has a kick pressed and winding up (not the AI's: it decides with the ball).
static bool kick_pending_for(const World& w, int player) {
  const int agent = w.p.controlled_by[player];
  return agent >= 0 && !w.agents[agent].builtin_ai && w.agents[agent].player == player &&
         w.agents[agent].pending_kick != 0;
}

void give_ball(World& w, int player) {
  // A kick pressed in the very step he reaches the ball comes after his first touch (GRF,
  // measured: pressed as he gets there, he is reported on the ball first).
  const int agent = w.p.controlled_by[player];
  const bool opening = w.ball.last_touch < 0 && w.m.game_mode == kModeNormal;
  w.ball.first_touch_is_kick = w.m.game_mode == kModeNormal && kick_pending_for(w, player) &&
                               w.agents[agent].pending_steps < kKickBufferSteps - 1;
  // A field player meeting a moving ball with a kick queued still brings it under control
  // first some of the time; the queued kick then follows his normal wind-up.
  if (w.ball.first_touch_is_kick && !opening && w.p.role[player] != kRoleGK &&
      roll_chance(w, kControlBeforeQueuedKick))
    w.ball.first_touch_is_kick = false;
  w.ball.first_touch_steps =
      opening ? static_cast<int8_t>(std::max(0, w.m.opening_touch_step - w.m.steps)) : int8_t{0};
  w.ball.owner = player;
  w.ball.last_touch = player;
  w.ball.pass_receiver = -1;
  w.ball.shot_in_flight = false;
  w.ball.z = 0.0f;
  w.ball.vz = 0.0f;
}

void update_first_touch(World& w) {
  if (w.ball.first_touch_is_kick && (w.ball.owner < 0 || !kick_pending_for(w, w.ball.owner)))
    w.ball.first_touch_is_kick = false;
  if (w.ball.first_touch_steps > 0) --w.ball.first_touch_steps;
}

void free_ball(World& w, Vec2 vel, float vz, int kicker) {
  w.ball.owner = -1;
  w.ball.first_touch_is_kick = false;
  w.ball.first_touch_steps = 0;
  w.ball.vx = vel.x;
  w.ball.vy = vel.y;
  w.ball.vz = vz;
  w.ball.pass_receiver = -1;
  w.ball.shot_in_flight = false;
  w.ball.flight_time = 0.0f;
  if (kicker >= 0) {
    w.ball.last_touch = kicker;
    w.p.kick_cooldown[kicker] = kKickCooldownSubsteps;
    for (int p = 0; p < kMaxPlayers; ++p) w.p.offside_mark[p] = false;
    if (w.m.game_mode != kModeNormal && kicker == w.m.taker) {
      w.m.game_mode = kModeNormal;  // the restart has been played
      w.m.taker = -1;
    }
  }
}

int find_contact_candidates(const World& w, ContactPairs& pairs) {
  // Within one step (five substeps) two players close by at most 2 x 0.85 m, so only pairs
  // nearer than that plus a body width can touch before the next search. Players are swept
  // in order of x, comparing each with the following ones until the gap in x is too wide.
  const float reach = 2.0f * kBodyRadius + 2.0f * (kSprintSpeed + 0.5f) * kStepSeconds;
  int order[kMaxPlayers];
  int n = 0;
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (!w.p.present[p]) continue;
    int k = n++;
    while (k > 0 && w.p.x[order[k - 1]] > w.p.x[p]) order[k] = order[k - 1], --k;
    order[k] = p;
  }
  int count = 0;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      int p = order[a], q = order[b];
      float dx = w.p.x[q] - w.p.x[p], dy = w.p.y[q] - w.p.y[p];
      if (dx >= reach) break;
      if (dx * dx + dy * dy >= reach * reach) continue;
      if (w.p.lazy[p] && w.p.lazy[q]) continue;
      pairs[count][0] = static_cast<int8_t>(p);
      pairs[count][1] = static_cast<int8_t>(q);
      ++count;
    }
  }
  return count;
}

// Bodies do not pass through each other: overlapping players are pushed apart along the
// line between them and lose the speed with which they were closing. A carrier between a
// defender and the ball therefore shields it (the ball is out of the defender's reach).
void separate_players(World& w, const ContactPairs& pairs, int count) {
  const float min_d = 2.0f * kBodyRadius;
  for (int i = 0; i < count; ++i) {
    int p = pairs[i][0], q = pairs[i][1];
    float dx = w.p.x[q] - w.p.x[p], dy = w.p.y[q] - w.p.y[p];
    float d_sq = dx * dx + dy * dy;
    if (d_sq >= min_d * min_d) continue;
    // A lazy player stands like a post: whoever runs into him gives way entirely.
    float share_p = w.p.lazy[p] ? 0.0f : (w.p.lazy[q] ? 1.0f : 0.5f);
    float share_q = 1.0f - share_p;
    float d = std::sqrt(d_sq);
    Vec2 n = d > 1e-4f ? Vec2{dx / d, dy / d} : Vec2{1.0f, 0.0f};
    float overlap = min_d - d;
    w.p.x[p] -= n.x * overlap * share_p, w.p.y[p] -= n.y * overlap * share_p;
    w.p.x[q] += n.x * overlap * share_q, w.p.y[q] += n.y * overlap * share_q;
    float closing = (w.p.vx[p] - w.p.vx[q]) * n.x + (w.p.vy[p] - w.p.vy[q]) * n.y;
    if (closing > 0.0f) {
      w.p.vx[p] -= n.x * closing * share_p, w.p.vy[p] -= n.y * closing * share_p;
      w.p.vx[q] += n.x * closing * share_q, w.p.vy[q] += n.y * closing * share_q;
    }
  }
}

// Velocity one substep on: speed along `want` grows at `gain_step` up to its length, and
// the rest (across it, against it, beyond it) falls at `shed_step`.
static Vec2 steer_towards(Vec2 v, Vec2 want, float gain_step, float shed_step) {
  const float want_speed = length(want);
  if (want_speed < 1e-6f) return approach(v, {}, shed_step);
  const Vec2 dir = want * (1.0f / want_speed);
  float along = dot(v, dir);
  const Vec2 across = approach(v - dir * along, {}, shed_step);
  if (along < 0.0f) along = std::fmin(along + shed_step, 0.0f);
  else if (along < want_speed) along = std::fmin(along + gain_step, want_speed);
  else along = std::fmax(along - shed_step, want_speed);
  return across + dir * along;
}

// GRF's dribbler, as the turn probe measures it (tools/football_probes.py turn, with the
// ball, at sprinting, running and dribbling pace): sprinting, he swings his run round at
// about 30 degrees a second and keeps his pace (sent up after 2 s of sprinting right, he
// still runs 5.7 m/s right 1.3 s later); at running pace he sheds unwanted speed at about
// 10 m/s^2 (a right angle in 0.5 s); sent back he stops at about 12 m/s^2 and sets off
// again. (With dribble held he first keeps his run a moment: holds_run_before_turn.)
static Vec2 dribble_velocity(Vec2 v, Vec2 want) {
  const float speed = length(v), want_speed = length(want);
  if (speed < 0.5f || want_speed < 1e-3f) return steer_towards(v, want, kPlayerAccel * kDt, kDribbleBrake * kDt);
  const Vec2 run = v * (1.0f / speed), to = want * (1.0f / want_speed);
  const float cos_turn = dot(run, to);
  if (cos_turn < kDribbleReverseCos) return approach(v, {}, kDribbleReverseBrake * kDt);
  if (speed <= kDribbleSprintPace) return steer_towards(v, want, kPlayerAccel * kDt, kDribbleBrake * kDt);
  const float max_turn = kDribbleSprintTurn * kDt;
  const Vec2 heading = std::acos(clampf(cos_turn, -1.0f, 1.0f)) > max_turn
                           ? rotated(run, cross(run, to) > 0.0f ? max_turn : -max_turn)
                           : to;
  const float new_speed = speed < want_speed ? std::fmin(speed + kPlayerAccel * kDt, want_speed)
                                             : std::fmax(speed - kDribbleBrake * kDt, want_speed);
  return heading * new_speed;
}

// With dribble held, GRF's dribbler keeps his run for 0.2-0.3 s before a turn of over 60
// degrees, then turns as above (the turn probe at dribbling pace: sent up or back he still
// runs 3.4-4.2 m/s right 0.3 s later); a smaller turn starts at once. True while he holds it.
static bool holds_run_before_turn(World& w, int p, Vec2 want) {
  const Vec2 v = player_vel(w, p);
  const bool sharp = w.agents[w.p.controlled_by[p]].dribble && length_sq(v) > 0.25f && length_sq(want) > 1e-6f &&
                     dot(normalized(v), normalized(want)) < kDribbleTurnPauseCos;
  if (!sharp) {
    w.p.turn_hold[p] = 0;
    return false;
  }
  if (w.p.turn_hold[p] >= kDribbleTurnPauseSubsteps) return false;
  ++w.p.turn_hold[p];
  return true;
}

void step_player_motion(World& w) {
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (!w.p.present[p]) continue;
    const bool agents_dribbler = p == w.ball.owner && w.m.game_mode == kModeNormal && !ai_drives(w, p);
    if (!agents_dribbler) w.p.turn_hold[p] = 0;
    if (w.p.kick_cooldown[p] > 0) --w.p.kick_cooldown[p];
    if (w.p.slide_steps[p] > 0) {
      float speed = kSlideSpeed * w.p.slide_steps[p] / kSlideSteps;
      w.p.vx[p] = w.p.face_x[p] * speed;
      w.p.vy[p] = w.p.face_y[p] * speed;
    } else if (agents_dribbler) {
      // An agent's dribbler moves as GRF's; the AI's carriers keep the plain law below, which
      // their decisions were calibrated with (docs/football_calibration_changelog.md, 2026-11-27).
      const Vec2 want{w.p.want_vx[p], w.p.want_vy[p]};
      if (!holds_run_before_turn(w, p, want)) {
        Vec2 v = dribble_velocity(player_vel(w, p), want);
        w.p.vx[p] = v.x;
        w.p.vy[p] = v.y;
      }
    } else {
      Vec2 v = approach(player_vel(w, p), {w.p.want_vx[p], w.p.want_vy[p]}, kPlayerAccel * kDt);
      w.p.vx[p] = v.x;
      w.p.vy[p] = v.y;
    }
    w.p.x[p] = clampf(w.p.x[p] + w.p.vx[p] * kDt, -kHalfLength - kPitchMargin, kHalfLength + kPitchMargin);
    w.p.y[p] = clampf(w.p.y[p] + w.p.vy[p] * kDt, -kHalfWidth - kPitchMargin, kHalfWidth + kPitchMargin);
    float speed_sq = w.p.vx[p] * w.p.vx[p] + w.p.vy[p] * w.p.vy[p];
    if (speed_sq > 0.25f && w.p.slide_steps[p] == 0 && ai_drives(w, p)) {
      float inv = 1.0f / std::sqrt(speed_sq);
      w.p.face_x[p] = w.p.vx[p] * inv;
      w.p.face_y[p] = w.p.vy[p] * inv;
    }
  }
}

void step_ball_motion(World& w) {
  Ball& b = w.ball;
  if (b.owner >= 0) {
    // Dribbling: the ball stays just ahead of the carrier's feet; a keeper in his box
    // holds it in his hands in play (ahead of a keeper backing onto his line it would
    // cross it); a goal kick he takes from the ground.
    int p = b.owner;
    const float offset = w.m.game_mode == kModeNormal && keeper_may_handle(w, p) ? 0.0f : kDribbleOffset;
    b.x = w.p.x[p] + w.p.face_x[p] * offset;
    b.y = w.p.y[p] + w.p.face_y[p] * offset;
    b.z = 0.0f;
    b.vx = w.p.vx[p];
    b.vy = w.p.vy[p];
    b.vz = 0.0f;
    return;
  }
  b.flight_time += kDt;
  if (b.z > 0.0f || b.vz > 0.0f) {
    b.vz -= kGravity * kDt;
    float speed = std::sqrt(b.vx * b.vx + b.vy * b.vy + b.vz * b.vz);
    float keep = std::fmax(1.0f - kBallAirDrag * speed * kDt, 0.0f);
    b.vx *= keep;
    b.vy *= keep;
    b.vz *= keep;
    b.x += b.vx * kDt;
    b.y += b.vy * kDt;
    b.z += b.vz * kDt;
    if (b.z <= 0.0f) {
      b.z = 0.0f;
      // GRF's bounce: the grass gives back 62% of the fall less 0.06 m/s; a ball that
      // would rise under 1 cm rolls.
      b.vz = std::fmax(-b.vz * kBallBounce - kBallBounceLoss, 0.0f);
      if (b.vz < 0.45f) b.vz = 0.0f;
    }
    return;
  }
  float speed = std::sqrt(b.vx * b.vx + b.vy * b.vy);
  if (speed > 1e-4f) {
    float new_speed = speed - (kBallRollDecel + (kBallGrassDrag + kBallAirDrag) * speed * speed) * kDt;
    float scale = new_speed > 0.0f ? new_speed / speed : 0.0f;
    b.vx *= scale;
    b.vy *= scale;
  } else {
    b.vx = b.vy = 0.0f;
  }
  b.x += b.vx * kDt;
  b.y += b.vy * kDt;
}

// A rolling ball under GRF's drag, v' = -(a + k v^2), has travelled
// ln(cos(th0 - s t) / cos(th0)) / k after t seconds, th0 = atan(v0 sqrt(k / a)) and
// s = sqrt(a k), until it stops at t = th0 / s.
float rolling_distance(float speed, float seconds) {
  const float k = kBallGrassDrag + kBallAirDrag;
  const float a = kBallRollDecel;
  if (speed <= 0.0f) return 0.0f;
  float th0 = std::atan(speed * std::sqrt(k / a));
  float th = std::fmax(th0 - std::sqrt(a * k) * seconds, 0.0f);
  return std::log(std::cos(th) / std::cos(th0)) / k;
}

// GRF's keeper treats a ball as a shot to save only while it is bound for his goal
// (CalculateIfBallIsBoundForGoal): heading between the posts, give or take a metre, fast
// enough to roll there. A long shot that dies short of the goal is a loose ball.
bool ball_bound_for_goal(const World& w, int team) {
  const float goal_x = team == 0 ? -kHalfLength : kHalfLength;
  const float to_line = goal_x - w.ball.x;
  if (w.ball.vx * to_line <= 0.0f) return false;
  const float speed = std::sqrt(w.ball.vx * w.ball.vx + w.ball.vy * w.ball.vy);
  const float y_at_line = w.ball.y + w.ball.vy * (to_line / w.ball.vx);
  const float path = std::fabs(to_line) * speed / std::fabs(w.ball.vx);
  return std::fabs(y_at_line) < kGoalHalfWidth + 1.0f && rolling_distance(speed, 10.0f) > path;
}

// GRF's keeper holds a shot struck at his body (a 26 m shot straight at him, 28 of 30)
// but parries one he must reach for: in 3_vs_1, of the random player's shots that reach
// him it holds 16 and parries 21 in two runs of 100 episodes; traced parries passed 0.7-1.6 m
// off his body. His hold falls from there with the offset; a parry is not a beaten save.
static float keeper_hold_off_body(const World& w, int keeper) {
  const float offset = shot_offset_from(w, keeper);
  return clampf(1.0f - (offset - kKeeperHoldOffset) / kKeeperParryOffsetSpan, kKeeperHoldOffBodyMin, 1.0f);
}

// GRF's parries send the ball wide, to the side it passed him, at two thirds of its
// speed (traced: 22 m/s in, 14-17 m/s out, 50-70 degrees off straight back), not back
// into the goalmouth.
static void parry_wide(World& w, int keeper, float noise) {
  Ball& b = w.ball;
  const Vec2 v{b.vx, b.vy};
  const Vec2 dir = normalized(v);
  Vec2 side{-dir.y, dir.x};
  if (dot(side, ball_pos(w) - player_pos(w, keeper)) < 0.0f) side = side * -1.0f;
  const Vec2 out = rotated(normalized(dir * -0.6f + side, side), noise * 0.25f) * (length(v) * kParrySpeedShare);
  b.vx = out.x;
  b.vy = out.y;
  b.vz = std::fabs(b.vz) * 0.3f + 1.5f;
}

void resolve_ball_control(World& w, const ScenarioConfig& sc) {
  Ball& b = w.ball;
  if (b.owner >= 0) return;
  int best = -1, struck = -1;
  float best_d = 1e30f, struck_d = 1e30f;
  bool best_keeper = false, struck_keeper = false;
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (!w.p.present[p] || w.p.kick_cooldown[p] > 0 || w.p.slide_steps[p] > 0) continue;
    // A ball an opponent has just struck is past a field player before he can react
    // (GRF's players act on a picture of the game one reaction time old): he cannot
    // control it, but it can still strike him (a handball needs no reaction).
    bool opponents_kick = b.last_touch >= 0 && team_of(b.last_touch) != team_of(p);
    bool too_late = opponents_kick && b.flight_time < kFieldReactionDelay && w.p.role[p] != kRoleGK;
    bool keeper = keeper_may_handle(w, p);
    float reach = keeper ? kKeeperReach : (p == b.pass_receiver ? kReceiverRadius : kControlRadius);
    float max_z = keeper ? kKeeperReachHeight : kFieldReachHeight;
    if (b.z > max_z) continue;
    // As GRF, reach is measured from a point just ahead of the body, where the feet are
    // (0.1 m along the facing, 0.05 s of running).
    float dx = w.p.x[p] + 0.1f * w.p.face_x[p] + 0.05f * w.p.vx[p] - b.x;
    float dy = w.p.y[p] + 0.1f * w.p.face_y[p] + 0.05f * w.p.vy[p] - b.y;
    float d = dx * dx + dy * dy;
    if (d >= reach * reach) continue;
    if (d < struck_d) struck_d = d, struck = p, struck_keeper = keeper;
    if (!too_late && d < best_d) best_d = d, best = p, best_keeper = keeper;
  }
  // handballs=True: a ball at arm height reaching a field player (or a keeper outside
  // his box) is a handball with the scenario's call probability; not the kicker's own.
  if (struck >= 0 && sc.handballs && !struck_keeper && b.z >= kHandballLow && b.z <= kHandballHigh &&
      b.last_touch != struck && w.m.game_mode == kModeNormal) {
    if (roll_chance(w, sc.handball_probability)) {
      award_handball(w, struck, player_pos(w, struck));
      return;
    }
    // Not called: the ball has touched him, once (no second call while it passes him).
    if (struck != best) {
      b.last_touch = struck;
      return;
    }
  }
  if (best < 0) return;
  float speed = std::sqrt(b.vx * b.vx + b.vy * b.vy + b.vz * b.vz);
  float chance = control_chance(w, sc, best, speed, best_keeper);
  // A shot he reaches is beaten past him as often as before; one off his body that he
  // does not hold is parried instead.
  float beaten = 0.0f;
  if (best_keeper && b.shot_in_flight) {
    beaten = (1.0f - chance) * (1.0f - keeper_reaction(w, sc, best));
    chance *= keeper_hold_off_body(w, best);
  }
  if (roll_chance(w, chance)) {
    bool offside = w.m.offsides && w.p.offside_mark[best] && w.ball.last_touch >= 0 &&
                   team_of(w.ball.last_touch) == team_of(best) && w.m.game_mode == kModeNormal;
    if (offside) {
      start_set_piece(w, kModeFreeKick, 1 - team_of(best), player_pos(w, best));
      return;
    }
    int from_team = w.ball.last_touch >= 0 ? team_of(w.ball.last_touch) : -1;
    bool saved = best_keeper && ball_bound_for_goal(w, team_of(best));
    // A keeper may play a ball he can meet with his feet first time whoever touched it
    // last (GRF's, unpressed, passes about half the balls it meets at under 10 m/s).
    const bool keeper_foot_ball = best_keeper && length(Vec2{b.vx, b.vy}) < kKeeperFootBallSpeed;
    give_ball(w, best);
    for (int p = 0; p < kMaxPlayers; ++p) w.p.offside_mark[p] = false;
    if ((from_team == 1 - team_of(best) && !saved) || keeper_foot_ball) play_first_time(w, sc, best);
    return;
  }
  // Not controlled: a keeper parries away from goal, a field player deflects it.
  float noise = w.m.deterministic ? 0.0f : rng_range(w.rng, -1.0f, 1.0f);
  if (best_keeper && b.shot_in_flight) {
    if (roll_chance(w, beaten / std::fmax(1.0f - chance, 1e-6f))) {
      w.p.kick_cooldown[best] = kKickCooldownSubsteps;  // beaten before getting a hand to it
      return;
    }
    parry_wide(w, best, noise);
  } else if (best_keeper) {
    b.vx = -b.vx * 0.35f;
    b.vy = b.vy * 0.4f + noise * 5.0f;
    b.vz = std::fabs(b.vz) * 0.3f + 1.5f;
  } else if (roll_chance(w, kDeflectChance)) {
    Vec2 v = rotated({b.vx, b.vy}, noise * 0.6f) * 0.45f;
    b.vx = v.x;
    b.vy = v.y;
    b.vz *= 0.3f;
  } else {
    w.p.kick_cooldown[best] = kKickCooldownSubsteps;  // missed it: one attempt per ball
    return;
  }
  b.last_touch = best;
  b.pass_receiver = -1;
  b.shot_in_flight = false;
  w.p.kick_cooldown[best] = kKickCooldownSubsteps;
}

}  // namespace trackfield::football
