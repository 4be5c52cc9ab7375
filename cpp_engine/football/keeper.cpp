// The built-in AI's goalkeeper: where he stands and when he comes out, and what he does
// with a ball he has just won (GRF's goalie_default and its keeper branch of
// GetOnTheBallCommands).
#include <cmath>

#include "football/ai_shared.h"

namespace trackfield::football {

namespace {

// GRF's keeper at a loose ball (GetOnTheBallCommands, mind set 0) weighs his possession
// amount, (opponents' time to the ball + 0.2 s) / (his + 0.2 s). Under 3, outside his box,
// he panics and clears; under 3.4 inside it he dives and gathers with his hands
// (_KeeperDeflectCommand). Unpressed, he plays it on with his feet to a team-mate. He
// decides as his kick starts, a wind-up before the touch, so with an opponent less than
// 1.4 s of sprinting from the ball (11 m) he clears it first-time: measured on GRF
// (academy_empty_goal), its keeper's clearances came with the random player 5-14 m away,
// flew off at 24-31 m/s and mostly went out over the touchline; in run_to_score_with_keeper
// a long shot that dies 15 m out is passed on to a defender, never held.
float keeper_possession_amount(const World& w, int p) {
  float opponent_d = nearest_opponent_distance(w, team_of(p), ball_pos(w));
  float opponent_time = opponent_d / kSprintSpeed;
  float own_time = kKickWindup * kStepSeconds;
  return (opponent_time + 0.2f) / (own_time + 0.2f);
}

// GRF's keeper comes out all the way to an opponent running at goal in our half when
// no team-mate is nearer the point from which that opponent would shoot (about 20 m
// out): with nobody to cover, it closes the angle by going for the ball itself. The
// opponent is the one nearest the ball, on it or not; off it, the keeper heads for a
// point between them until it is the nearer to the ball. Returns false, or true with
// where to run in `target`.
bool keeper_rush_target(const World& w, int p, const TeamView& tv, Vec2* target) {
  Vec2 ball = ball_pos(w);
  if (ball.x * tv.attack_sign > 0.0f) return false;  // the ball is in their half
  int opponent = w.ball.owner;
  if (opponent >= 0 && team_of(opponent) == tv.team) return false;
  float opponent_to_ball = 0.0f;
  if (opponent < 0) opponent_to_ball = nearest_opponent_distance(w, tv.team, ball, &opponent);
  if (opponent < 0) return false;
  Vec2 from = player_pos(w, opponent);
  float to_goal = distance(from, tv.own_goal);
  // Beaten, the keeper no longer chases: he races back to his goal (below) rather than
  // follow the carrier in from behind.
  if (distance(player_pos(w, p), tv.own_goal) > distance(ball, tv.own_goal) + 1.0f) return false;
  float short_of_goal = clampf(to_goal - 20.0f * clampf(to_goal / 40.0f, 0.0f, 1.0f), 0.0f, kHalfLength);
  Vec2 shooting_point = from + normalized(tv.own_goal - from) * short_of_goal;
  float mate_d = 1e30f;
  for (int s = 0; s < w.team_size[tv.team]; ++s) {
    int q = first_of(tv.team) + s;
    if (q == p || !w.p.present[q]) continue;
    mate_d = std::fmin(mate_d, distance(player_pos(w, q), shooting_point));
  }
  if (mate_d <= short_of_goal + 1.0f) return false;
  bool keeper_nearer = distance(player_pos(w, p), ball) < opponent_to_ball;
  if (w.ball.owner < 0 && keeper_nearer) {
    *target = ball;
  } else {
    // GRF's keeper does not go for the carrier's feet: he stands half a metre goal-side of
    // where the play will be (the opponent in 0.32 s and the ball in 0.6 s, blended), on
    // the line to goal, closing the angle and barring the way.
    Vec2 opp_ahead = from + player_vel(w, opponent) * 0.32f;
    Vec2 ball_ahead = ball + Vec2{w.ball.vx, w.ball.vy} * 0.6f;
    Vec2 play = w.ball.owner >= 0 ? opp_ahead * 0.4f + ball_ahead * 0.6f : opp_ahead * 0.6f + ball_ahead * 0.4f;
    Vec2 line_end{tv.own_goal.x + tv.attack_sign * 0.7f, clampf(play.y, -kGoalHalfWidth, kGoalHalfWidth)};
    *target = play + normalized(line_end - play, {-tv.attack_sign, 0.0f}) * 0.5f;
  }
  // GRF's secondary danger (goalie_default.cpp): another opponent, the one nearest our
  // goal, free near his own shooting point (24 m base) holds the keeper back, to 30% of
  // the way when that opponent is nearer his point than the carrier is to his.
  int helper = -1;
  float helper_goal = 1e30f;
  for (int s = 0; s < w.team_size[1 - tv.team]; ++s) {
    int q = first_of(1 - tv.team) + s;
    if (q == opponent || !w.p.present[q]) continue;
    float d = distance(player_pos(w, q), tv.own_goal);
    if (d < helper_goal) helper_goal = d, helper = q;
  }
  if (helper >= 0) {
    Vec2 hpos = player_pos(w, helper);
    float helper_short = clampf(helper_goal - 24.0f * clampf(helper_goal / 48.0f, 0.0f, 1.0f), 0.0f, kHalfLength);
    Vec2 helper_point = hpos + normalized(tv.own_goal - hpos) * helper_short;
    float mate_helper = 1e30f;
    for (int s = 0; s < w.team_size[tv.team]; ++s) {
      int q = first_of(tv.team) + s;
      if (q != p && w.p.present[q]) mate_helper = std::fmin(mate_helper, distance(player_pos(w, q), helper_point));
    }
    float free = mate_helper > helper_short ? clampf((mate_helper - helper_short) / 2.0f, 0.0f, 1.0f) : 0.0f;
    float nearer = 0.7f * (1.0f - clampf((helper_short / (short_of_goal + 1e-4f) - 1.0f) / 0.5f, 0.0f, 1.0f));
    float bias = clampf(1.0f - free * nearer, 0.0f, 1.0f);
    Vec2 line = tv.own_goal + normalized(*target - tv.own_goal, {tv.attack_sign, 0.0f}) * 0.7f;
    *target = line + (*target - line) * bias;
  }
  return true;
}

}  // namespace

void decide_keeper(World& w, int p, const TeamView& tv, bool rush_ordered, const BallRace* race) {
  Vec2 ball = ball_pos(w);
  Vec2 goal = tv.own_goal;
  const Ball& b = w.ball;
  // An agent holds keeper_rush (full action set): come out for a ball that is not ours.
  if (rush_ordered && ball_owner_team(w) != tv.team) {
    move_towards(w, p, ball, true);
    return;
  }
  float toward_goal = b.vx * -tv.attack_sign;
  // A shot on the way: get across to where it crosses the line. Not in the step it is
  // struck: the teams decide in turn, so the right keeper would see a shot the left team
  // struck this step and the left keeper never sees the right team's before the next;
  // with that, two AIs of one level gave the right side 0.23 goals a game more.
  if (b.owner < 0 && toward_goal > 4.0f && b.flight_time > 0.0f) {
    float t = std::fabs(goal.x - b.x) / toward_goal;
    float cross_y = b.y + b.vy * t;
    if (t < 2.5f && std::fabs(cross_y) < kGoalHalfWidth + 2.0f) {
      Vec2 target{goal.x + tv.attack_sign * 0.8f, clampf(cross_y, -kGoalHalfWidth, kGoalHalfWidth)};
      move_towards(w, p, target, true);
      return;
    }
  }
  // A loose ball in the box: come and claim it.
  bool in_box = std::fabs(ball.x - goal.x) < kPenaltyBoxDepth && std::fabs(ball.y) < kPenaltyBoxHalfWidth;
  if (b.owner < 0 && in_box && length(Vec2{b.vx, b.vy}) < 9.0f) {
    move_towards(w, p, ball, true);
    return;
  }
  // GRF's keeper goes for a loose ball when he is the match's designated possession
  // player: his team's nearest to it (GRF's designated team possession player, a lazy
  // team-mate included, who keeps him home though he never runs) and his team first
  // there; here only in his own half.
  if (race && ball.x * tv.attack_sign < 0.0f && race->team_fastest[tv.team] == p &&
      race->team_best[tv.team] <= race->team_best[1 - tv.team] &&
      nearest_team_mate(w, p, ball, distance(player_pos(w, p), ball)) < 0) {
    move_towards(w, p, intercept_point(w, p), true);
    return;
  }
  Vec2 rush;
  if (keeper_rush_target(w, p, tv, &rush)) {
    move_towards(w, p, rush, true);
    return;
  }
  // Otherwise stand on the line from goal centre to the ball: a little off the line
  // while the ball is in our half, further out (up to 10 m) when it is in theirs.
  Vec2 to_ball = ball - goal;
  bool our_half = ball.x * tv.attack_sign < 0.0f;
  float out = our_half ? clampf(length(to_ball) * 0.06f, 0.7f, 3.0f) : 10.0f;
  Vec2 spot = goal + normalized(to_ball, {tv.attack_sign, 0.0f}) * out;
  // Beaten (further from goal than the ball), he runs back round the carrier, not into him.
  Vec2 me = player_pos(w, p);
  const bool beaten = b.owner >= 0 && distance(me, goal) > distance(ball, goal);
  if (beaten) {
    Vec2 way = normalized(spot - me);
    Vec2 carrier = player_pos(w, b.owner) - me;
    float side = cross(way, carrier);
    if (dot(way, carrier) > 0.0f && std::fabs(side) < 2.5f) {
      Vec2 aside{-way.y, way.x};
      spot = player_pos(w, b.owner) + aside * (side > 0.0f ? -3.0f : 3.0f) + way * 3.0f;
    }
  }
  move_towards(w, p, spot, beaten || distance(spot, me) > 4.0f);
}

bool keeper_plays_first_time(World& w, int p, const TeamView& tv) {
  const float error = ai_kick_error(tv.difficulty);
  const float amount = keeper_possession_amount(w, p);
  if (keeper_may_handle(w, p)) {
    if (amount < 3.4f) return false;  // gathered in his hands
  } else if (amount < 3.0f) {
    clear_ball(w, p, error);
    w.p.kick_cooldown[p] = kKickCooldownSubsteps;
    return true;
  }
  // Unpressed, he plays it on first time only to a team-mate GRF's on-ball rating picks;
  // else he takes it. Lofted, so that a lazy team-mate takes it at his feet.
  int mate = best_pass_mate(w, p, tv, one_touch_is_hard(w, p));
  if (mate < 0) return false;
  Vec2 aim = player_pos(w, mate) - player_pos(w, p);
  try_pass(w, p, kHighPass, aim, error, length(aim));
  w.p.kick_cooldown[p] = kKickCooldownSubsteps;
  return true;
}

}  // namespace trackfield::football
