// The built-in AI for every player no agent drives. Difficulty d in [0, 1] sets the
// reaction delay (steps between decisions), how often a decision is a poor one, how
// accurate the AI's kicks are, and how hard its defenders press.
#include <cmath>
#include <initializer_list>

#include "football/ai_shared.h"

namespace trackfield::football {

TeamView team_view(const ScenarioConfig& sc, int team) {
  float sign = team == 0 ? 1.0f : -1.0f;
  return {team, team_difficulty(sc, team), sign, {sign * kHalfLength, 0.0f}, {-sign * kHalfLength, 0.0f}};
}

void move_towards(World& w, int p, Vec2 target, bool sprint) {
  Vec2 d = target - player_pos(w, p);
  float dist = length(d);
  float speed = speed_of(w, p, sprint ? kSprintSpeed : kRunSpeed);
  // Arrive instead of overshooting: no faster than one can still stop in (braking a
  // little harder than accelerating), and easing off over the last metres.
  speed = std::fmin(speed, std::sqrt(2.0f * kPlayerAccel * dist));
  if (dist < 1.0f) speed *= dist;
  Vec2 v = dist > 1e-4f ? d * (speed / dist) : Vec2{};
  w.p.want_vx[p] = v.x;
  w.p.want_vy[p] = v.y;
  w.p.sprinting[p] = sprint && dist > 2.0f;
}

void stand_still(World& w, int p) {
  w.p.want_vx[p] = w.p.want_vy[p] = 0.0f;
  w.p.sprinting[p] = false;
}

int nearest_team_mate(const World& w, int p, Vec2 to, float within, bool ai_only) {
  const int team = team_of(p);
  int who = -1;
  for (int s = 0; s < w.team_size[team]; ++s) {
    const int q = first_of(team) + s;
    if (q == p || !w.p.present[q] || (ai_only && !ai_drives(w, q))) continue;
    const float d = distance(player_pos(w, q), to);
    if (d < within) within = d, who = q;
  }
  return who;
}

// How offensive a role is (0 keeper and centre-backs .. 1 forwards), as GRF's AI rates it.
float role_mind_set(int role) {
  switch (role) {
    case kRoleGK: case kRoleCB: return 0.0f;
    case kRoleLB: case kRoleRB: case kRoleDM: return 0.25f;
    case kRoleAM: return 0.75f;
    case kRoleCF: return 1.0f;
    default: return 0.5f;
  }
}

// The second-last opponent's upfield coordinate (towards the goal the team attacks).
float offside_line(const World& w, const TeamView& tv) {
  float last = -1e30f, second = -1e30f;
  int opp = 1 - tv.team;
  for (int s = 0; s < w.team_size[opp]; ++s) {
    int q = first_of(opp) + s;
    if (!w.p.present[q]) continue;
    float up = tv.attack_sign * w.p.x[q];
    if (up > last) second = last, last = up;
    else if (up > second) second = up;
  }
  return second;
}

namespace {

constexpr float kFirstTimeChance = 0.45f;       // a field player (GRF: 24 of 48, run_to_score)

// GRF's AI decides to shoot within 12.7 m of a point 7 m out from goal, but its shot
// leaves the foot only after the next dribble touch and the kick's wind-up; ours leave
// at once, so the zone is drawn a little smaller. Measured AI against AI (AI 1.0 against
// easy, the shots' median distance from the goal centre): GRF 13 m, ours 13 m (9 m with
// a 9 m zone, which left our shots too close and too sure).
constexpr float kShotZoneRadius = 12.0f;
// GRF's AI shots are wild and its keeper seldom holds them: AI 1.0 against easy, 44 shots
// in 5 games, 20% scored, 34% went wide (goal kick or corner), 2% held by the keeper, 32%
// came back to the shooter's team. Its kicks' technical error is not in its AI code. Ours
// strike a share wide of a post (kAiShotWideChance) and the rest with a small error, so
// that a wild shot misses rather than finding the keeper's hands: 112 shots in 20 games,
// 41% scored, 37% wide, 4% held, 14% back (at `799ae16`, error scale 8: 47%, 25%, 4%, 21%).
constexpr float kAiShotErrorScale = 0.4f;
constexpr int kShapeRefreshSteps = 3;  // GRF's team decisions: every 0.4 s (roles, marking)
constexpr float kInterfereReach = 2.5f;  // a hunter this near a ball in view steps in for it
// A hunter goal-side of an opponent who is not coming at him waits (wait_goal_side): of a
// carrier slower than kHoldOffCarrierPace (standing or walking with the ball), or of one
// slower than kHoldOffLooseBallPace standing at a loose ball he is about to take. A carrier
// threshold of 3 m/s, like the loose ball's, fits the academy as well but halves AI 1.0's
// goals against medium (GRF 1.20 a game; 0.65 at 3 m/s, 0.91 at 1.5).
constexpr float kHoldOffCarrierPace = 1.5f;    // m/s
constexpr float kHoldOffLooseBallPace = 3.0f;  // m/s
constexpr float kHoldOffDistance = 5.5f;       // m goal-side of him that the hunter waits
// Only within this distance of our goal: further out a hunter goes for a slow carrier's ball.
// GRF's centre-back waits 5.6 m off an idle carrier 16 m out (academy_pass_and_shoot_with_keeper)
// and never takes the ball, yet its easy AI takes the ball from a team that stands on it at
// the centre spot (idle from kick-off, 11_vs_11_easy_stochastic: it keeps the ball 76% of the
// game and loses 0.5 a game); waiting everywhere let such a team keep it all game.
constexpr float kHoldOffGoalDistance = 30.0f;  // m
constexpr float kDefendLead = 0.8f;  // GRF: a hunter aims this far (0.1 s of sprint) goal-side of his point

// GRF's interfere: a defender with the carried ball in reach and in view reaches for it,
// keeping the carrier's pace while he closes the gap (easing off as if at a fixed spot
// would leave him trailing a carrier on the run).
void close_on_ball(World& w, int p) {
  Vec2 run = player_vel(w, w.ball.owner);
  Vec2 gap = ball_pos(w) + run * 0.1f - player_pos(w, p);
  // His pace across and away from the defender, not towards him: one who comes at him
  // is met where he stands.
  Vec2 dir = normalized(gap);
  float towards_him = std::fmin(dot(run, dir), 0.0f);
  Vec2 want = run - dir * towards_him + gap * 4.0f;
  float cap = speed_of(w, p, kSprintSpeed);
  float speed = length(want);
  if (speed > cap) want = want * (cap / speed);
  w.p.want_vx[p] = want.x;
  w.p.want_vy[p] = want.y;
  w.p.sprinting[p] = speed > kRunSpeed;
}

// An opponent slower than `pace` is not coming at a hunter; one goal-side of him waits.
bool waits_for(const World& w, int p, int opponent, const TeamView& tv, float pace) {
  // A lazy carrier is gone for (GRF, measured: academy_single_goal_versus_lazy, 150
  // episodes, every lazy player who held the ball lost it to the AI within 27-90 steps).
  if (w.p.lazy[opponent] || length_sq(player_vel(w, opponent)) >= pace * pace) return false;
  const Vec2 from = player_pos(w, opponent);
  if (distance(from, tv.own_goal) > kHoldOffGoalDistance) return false;
  return dot(player_pos(w, p) - from, tv.own_goal - from) > 0.0f;
}

// The distance from which a defender goes for an opponent on the ball: longer for
// defensive roles and harder AI, shorter when winded (GRF: 10-20 m scaled by 0.3 + 0.7
// difficulty and by half his freshness plus half how little he ran over the last 10 s; the
// sprint meter stands in for both, as it did before GRF's fatigue landed).
float hunt_distance(const World& w, int p, const TeamView& tv) {
  float base = 10.0f + 10.0f * (1.0f - role_mind_set(w.p.role[p]));
  float fatigue = 0.5f * (1.0f - w.p.winded[p]) + 0.25f;
  return base * fatigue * (0.3f + 0.7f * tv.difficulty);
}

// GRF's hunting of a carrier (GetDefendPosition and NeedDefendingMovement): the defending
// point is on the line from the carrier to our goal, as far from the hunter as from the
// carrier (the goal itself when he is not ahead of the carrier), a little goal-side of it
// and led by the carrier's run. The hunter moves only when that point is wide of him or
// behind him; one already goal-side holds his ground and lets the carrier come (GRF's
// defenders stay a few metres off a carrier who does not attack them). Returns false
// when he holds.
bool needs_defending_movement(const World& w, int p, int carrier, const TeamView& tv) {
  Vec2 opp = player_pos(w, carrier);
  Vec2 pos = player_pos(w, p);
  Vec2 to_goal = tv.own_goal - opp;
  float line = length(to_goal);
  Vec2 dir = normalized(to_goal, {-tv.attack_sign, 0.0f});
  Vec2 rel = pos - opp;
  float ahead = dot(rel, dir);
  float s = line;
  if (ahead > 1e-3f) s = std::fmin((ahead * ahead + length_sq(rel) - ahead * ahead) / (2.0f * ahead), line);
  Vec2 point = opp + dir * (s + kDefendLead) + player_vel(w, carrier) * 0.14f;
  float deep = std::fmax((point.x - pos.x) * tv.attack_sign, 0.0f) - 0.5f;  // upfield of him
  float wide = std::fabs(point.y - pos.y);
  return wide > 0.8f * deep;
}

// A carrier slower than kHoldOffCarrierPace more than kHoldOffGoalDistance from our goal:
// his hunters run up to him (no sprint) and take the ball.
bool standing_far_out(const World& w, int carrier, const TeamView& tv) {
  return length_sq(player_vel(w, carrier)) < kHoldOffCarrierPace * kHoldOffCarrierPace &&
         distance(player_pos(w, carrier), tv.own_goal) > kHoldOffGoalDistance;
}

// A hunter waiting for such an opponent takes the spot on the line from him to our goal,
// kHoldOffDistance goal-side of him, if he is further off than that and out of line;
// nearer, he stands and lets the opponent come (the tackle, rules.cpp, takes a ball that
// is brought to him).
void wait_goal_side(World& w, int p, int opponent, const TeamView& tv) {
  const Vec2 from = player_pos(w, opponent);
  if (distance(player_pos(w, p), from) > kHoldOffDistance && needs_defending_movement(w, p, opponent, tv)) {
    move_towards(w, p, from + normalized(tv.own_goal - from, {-tv.attack_sign, 0.0f}) * kHoldOffDistance, true);
  } else {
    stand_still(w, p);
  }
}

// GRF's free space at a point (AI_CalculateFreeSpace): each outfield opponent, moved on by
// 0.2 s of his run and then sprinting at the point for the time left, threatens it
// linearly from 5 m in; 1 is free, 0 is two and a half opponents on it.
float free_space(const World& w, int team, Vec2 focus, float seconds) {
  int opp = 1 - team;
  float threat = 0.0f;
  float run = kSprintSpeed * std::fmax(seconds - 0.2f, 0.0f);
  for (int s = 0; s < w.team_size[opp]; ++s) {
    int q = first_of(opp) + s;
    if (!w.p.present[q] || w.p.role[q] == kRoleGK) continue;
    Vec2 at = player_pos(w, q) + player_vel(w, q) * 0.2f;
    if (length_sq(at - focus) >= (run + 5.0f) * (run + 5.0f)) continue;  // adds nothing; spares the sqrt
    float d = std::fmax(distance(at, focus) - run, 0.0f);
    threat += 1.0f - std::fmin(d, 5.0f) / 5.0f;
  }
  return 1.0f - std::fmin(threat / 2.5f, 1.0f);
}

// GRF's tactical rating of a player on the ball (Player::_CalculateTacticalSituation and
// GetOnTheBallCommands): space ahead (0.5 s of sprint towards goal), space around him,
// and nearness to goal, which weighs 2 + 6 x the carrier's mind set, so that forwards
// look for team-mates nearer goal far more than defenders do.
float goal_nearness(const World& w, int p, const TeamView& tv) {
  float f = 1.0f - clampf(distance(player_pos(w, p), tv.goal) / (2.0f * kHalfLength), 0.0f, 1.0f);
  return f * std::sqrt(f);  // GRF: to the power 1.5, so that it counts more near goal
}

float tactical_rating(const World& w, int p, const TeamView& tv, float forward_weight) {
  Vec2 pos = player_pos(w, p);
  float ahead = free_space(w, tv.team, pos + Vec2{tv.attack_sign * kSprintSpeed * 0.5f, 0.0f}, 0.5f);
  float around = free_space(w, tv.team, pos + player_vel(w, p) * 0.1f, 0.1f);
  return (0.4f * ahead + 0.3f * around + forward_weight * goal_nearness(w, p, tv)) / (0.7f + forward_weight);
}

// GRF's odds that a ball from `from` reaches `to` (ElizaController::_GetPassingOdds):
// every opponent who can get to the line before the ball adds danger, up to one second
// of it; a shot travels `speed_factor` times faster than a pass.
float passing_odds(const World& w, int team, Vec2 from, Vec2 to, float speed_factor, bool lofted = false) {
  int opp = 1 - team;
  Vec2 seg = to - from;
  float len_sq = std::fmax(length_sq(seg), 1e-6f);
  float len = std::sqrt(len_sq);
  float danger = 0.0f;
  for (int s = 0; s < w.team_size[opp]; ++s) {
    int q = first_of(opp) + s;
    if (!w.p.present[q]) continue;
    Vec2 at = player_pos(w, q) + player_vel(w, q) * 0.2f;
    float u = dot(at - from, seg) / len_sq;
    if (u < 0.0f || u > 1.2f) continue;
    // A lofted ball flies over whoever stands in the middle of its path, but takes time
    // to bring down at the far end.
    if (lofted && u >= 0.2f && u <= 0.65f) continue;
    float cu = clampf(u, 0.0f, 1.0f);
    float ball_time = (0.7f + len * cu * u * 0.03f + (lofted && u > 0.5f ? 2.5f : 0.0f)) / speed_factor;
    // Too far from the lane to add danger: skip the sqrt.
    float reach = (ball_time + 0.5f) * kSprintSpeed - 1.0f;
    if (reach <= 0.0f || length_sq(at - (from + seg * cu)) >= reach * reach) continue;
    float opp_time = (distance(at, from + seg * cu) + 1.0f) / kSprintSpeed;
    danger += clampf(ball_time - opp_time + 0.5f, 0.0f, 1.0f);
  }
  if (lofted) danger += 0.4f;  // GRF prefers a ball on the ground where both would do
  return 1.0f - std::fmin(danger, 1.0f);
}

// GRF's AI on the ball (GetOnTheBallCommands), in its order: pass to the team-mate whose
// tactical rating beats the carrier's by the most, weighed with the pass's odds; else
// shoot from around the penalty spot when a lane to goal is open enough; else dribble
// towards goal, steered away from the nearest opponents.
void decide_with_ball(World& w, int p, const TeamView& tv) {
  Vec2 pos = player_pos(w, p);
  float error = ai_kick_error(tv.difficulty);
  bool blunder = !w.m.deterministic && rng_uniform(w.rng) < 0.2f * (1.0f - tv.difficulty);

  if (w.p.role[p] == kRoleGK) {
    // Keepers clear with a long pass to the most open team-mate upfield.
    Vec2 aim{tv.attack_sign, 0.0f};
    try_pass(w, p, kLongPass, aim, error, kAiClearanceReach);
    return;
  }
  int kind = kShortPass;
  int best = best_pass_mate(w, p, tv, 0.0f, &kind);
  if (best >= 0) {
    Vec2 aim = player_pos(w, best) - pos;
    if (try_pass(w, p, kind, aim, error, length(aim))) return;
  }
  // Shoot: GRF's AI tries from within 12.7 m of a point 7 m out from goal (its ideal shot
  // position factor above 0.1), when the best of three lanes (centre, 3.6 m either side)
  // is open enough: sqrt(odds) + U(0, 0.5) > 0.5.
  Vec2 spot{tv.goal.x - tv.attack_sign * 7.0f, 0.0f};
  if (distance(pos, spot) < kShotZoneRadius) {
    float odds = 0.0f;
    float aim_y = 0.0f;
    constexpr float kLanes[3] = {0.0f, -3.6f, 3.6f};
    for (float y : kLanes) {
      float o = passing_odds(w, tv.team, pos + player_vel(w, p) * 0.12f, Vec2{tv.goal.x + tv.attack_sign, y}, 3.0f);
      if (o > odds) odds = o, aim_y = y;
    }
    float draw = w.m.deterministic ? 0.25f : 0.5f * rng_uniform(w.rng);
    if (std::sqrt(odds) + draw > 0.5f || blunder) {
      shoot(w, p, Vec2{tv.goal.x, aim_y} - pos, error * kAiShotErrorScale);
      return;
    }
  }
  // Dribble: GRF's force field (AI_GetBestDribbleMovement). The five nearest opponents,
  // where they will be in 0.25 s, push the carrier away (power 2, fading over 10 m), the
  // touchline and goal line push him in (power 4 over 20 m), and the goal pulls him (0.75),
  // towards a point level with him, halved, and nearer the middle the deeper he is.
  Vec2 me = pos + player_vel(w, p) * 0.25f;
  Vec2 sum{};
  auto push = [&](Vec2 from, float power, float scale, float exponent) {
    float d = distance(from, me);
    float k = clampf(1.0f - d / scale, 0.0f, 1.0f);
    if (exponent != 1.0f) k = std::pow(k, exponent);
    if (k <= 0.0f) return;
    sum = sum + normalized(me - from) * (power * k);
  };
  int opp = 1 - tv.team;
  int near[5];
  float near_d[5];
  int n_near = 0;
  for (int s = 0; s < w.team_size[opp]; ++s) {
    int q = first_of(opp) + s;
    if (!w.p.present[q]) continue;
    float d = distance(player_pos(w, q), pos);
    int k = n_near < 5 ? n_near++ : 5;
    if (k == 5 && d >= near_d[4]) continue;
    if (k == 5) k = 4;
    while (k > 0 && near_d[k - 1] > d) near[k] = near[k - 1], near_d[k] = near_d[k - 1], --k;
    near[k] = q, near_d[k] = d;
  }
  for (int k = 0; k < n_near; ++k)
    push(player_pos(w, near[k]) + player_vel(w, near[k]) * 0.25f, 2.0f, 10.0f, 1.0f);
  push(Vec2{pos.x, (kHalfWidth + 5.0f) * (pos.y < 0.0f ? -1.0f : 1.0f)}, 4.0f, 20.0f, 0.7f);
  push(Vec2{(kHalfLength + 5.0f) * (pos.x < 0.0f ? -1.0f : 1.0f), pos.y}, 4.0f, 20.0f, 0.7f);
  float backline = clampf(std::fabs(pos.x) / kHalfLength, 0.0f, 1.0f);
  Vec2 goal_point{tv.goal.x, pos.y * 0.5f * 0.5f * (1.0f - backline * backline)};
  float pull = 0.75f;
  Vec2 to_goal = goal_point - me;
  float goal_d = length(to_goal);
  sum = sum + normalized(to_goal, {tv.attack_sign, 0.0f}) * (pull * std::fmin(goal_d, 1.0f));
  Vec2 dir = normalized(sum, normalized(tv.goal - pos));
  float pressure = n_near > 0 ? near_d[0] : 1e30f;
  float to_goal_d = distance(pos, tv.goal);
  // GRF's carriers mostly run with the ball at walking pace (5 m/s), sprinting only into
  // open space well away from goal.
  move_towards(w, p, pos + dir * 10.0f, pressure > 10.0f && to_goal_d > 30.0f);
}

}  // namespace

// The team-mate whose tactical rating beats the carrier's by the most, weighed with the
// pass's odds (GRF's GetOnTheBallCommands).
int best_pass_mate(World& w, int p, const TeamView& tv, float one_touch_penalty, int* kind) {
  Vec2 pos = player_pos(w, p);
  // GRF's weights for a carrier of this mind set.
  float mind = role_mind_set(w.p.role[p]);
  float forward_weight = 2.0f + 6.0f * mind;
  float improvement = 0.06f * (1.0f - mind);
  float diff_weight = 1.0f + 10.0f * mind * mind;
  float pass_minimum = 0.2f * (1.0f - mind);
  float own = tactical_rating(w, p, tv, forward_weight);
  const Vec2 from = pos + player_vel(w, p) * 0.12f;  // where the ball leaves his foot
  int best = -1, best_kind = kShortPass;
  float best_rating = 0.1f;  // GRF's pass threshold
  for (int s = 0; s < w.team_size[tv.team]; ++s) {
    int q = first_of(tv.team) + s;
    if (q == p || !w.p.present[q]) continue;
    Vec2 qpos = player_pos(w, q);
    float d = distance(qpos, pos);
    if (d < 3.0f || d > (w.p.role[p] == kRoleGK ? kKeeperPassReach : kAiClearanceReach)) continue;
    // With all the space there is he could still not beat the carrier: skip the rest.
    float keeper_factor = w.p.role[q] == kRoleGK ? 0.7f : 1.0f;
    float best_case = keeper_factor * (0.7f + forward_weight * goal_nearness(w, q, tv)) / (0.7f + forward_weight);
    if (best_case <= own + improvement) continue;
    float rating = keeper_factor * tactical_rating(w, q, tv, forward_weight);
    if (rating <= own + improvement) continue;
    Vec2 target = qpos + player_vel(w, q) * std::fmin(0.7f + 0.03f * d, 0.5f);
    // GRF weighs three passes and plays the likeliest: along the ground, a long ball
    // aimed a fifth of the distance beyond him, and a lofted one (from 10 m).
    float odds = passing_odds(w, tv.team, from, target, 1.0f);
    int pass_kind = kShortPass;
    const float long_odds = passing_odds(w, tv.team, from, target + Vec2{tv.attack_sign * d * 0.2f, 0.0f}, 1.0f);
    const float lofted_odds = d < 10.0f ? 0.0f : passing_odds(w, tv.team, from, target, 1.0f, true);
    if (long_odds > odds && long_odds >= lofted_odds) odds = long_odds, pass_kind = kLongPass;
    else if (lofted_odds > odds) odds = lofted_odds, pass_kind = kHighPass;
    if (odds <= pass_minimum) continue;
    float total = ((rating - own) * diff_weight + odds - one_touch_penalty) / (diff_weight + 1.0f);
    // A weaker AI misjudges: noise on its ratings.
    if (!w.m.deterministic) total += rng_normal(w.rng) * 0.05f * (1.0f - tv.difficulty);
    if (total > best_rating) best_rating = total, best = q, best_kind = pass_kind;
  }
  if (kind) *kind = best_kind;
  return best;
}

float one_touch_is_hard(const World& w, int p) {
  // The ball's speed against his over 10 m/s, eased by his short-pass skill (GRF: 0.8 x
  // the stat; here the average, 0.5).
  Vec2 meets = Vec2{w.ball.vx, w.ball.vy} - player_vel(w, p);
  return clampf(length(meets) / 10.0f, 0.0f, 1.0f) * (1.0f - 0.8f * 0.5f);
}

// GRF's AI often plays a ball won from the other team first time, before it is ever
// its own (measured on GRF, random left player: in academy_run_to_score the right team
// struck a loose ball away 24 times and took it 24 times; near its goal, in
// pass_and_shoot and 3_vs_1, 7 and 14 strikes against 31 and 28 takes). Such a ball
// never shows as owned, so the other team has not lost possession. The strike is the
// AI's usual choice on the ball: a shot in range, else a pass to the team-mate its
// on-ball rating picks; with no such team-mate he takes the ball.
bool play_first_time(World& w, const ScenarioConfig& sc, int p) {
  if (!ai_drives(w, p) || w.m.game_mode != kModeNormal || w.ball.owner != p) return false;
  TeamView tv = team_view(sc, team_of(p));
  Vec2 pos = player_pos(w, p);
  bool keeper = w.p.role[p] == kRoleGK;
  float error = ai_kick_error(tv.difficulty);
  if (keeper) return keeper_plays_first_time(w, p, tv);
  if (!roll_chance(w, kFirstTimeChance)) return false;
  if (!keeper && distance(pos, tv.goal) < 11.0f + 7.0f * tv.difficulty && std::fabs(pos.y) < 14.0f) {
    shoot(w, p, tv.goal - pos, error);
  } else {
    // GRF plays it on only to a team-mate its on-ball rating picks (a keeper behind him
    // seldom is); else he takes it.
    int kind = kShortPass;
    int mate = best_pass_mate(w, p, tv, one_touch_is_hard(w, p), &kind);
    if (mate < 0) return false;
    Vec2 aim = player_pos(w, mate) - pos;
    try_pass(w, p, kind, aim, error, length(aim));
  }
  w.p.kick_cooldown[p] = kKickCooldownSubsteps;
  return true;
}

// Where a chaser can meet the ball: its position after the time needed to run there.
Vec2 intercept_point(const World& w, int p) {
  Vec2 ball = ball_pos(w);
  Vec2 vel{w.ball.vx, w.ball.vy};
  float t = distance(player_pos(w, p), ball) / kSprintSpeed;
  Vec2 at;
  if (w.ball.owner >= 0) {
    // A dribbled ball keeps the carrier's pace (GRF's forecast follows his touches), so
    // a hunter heads where the two meet rather than chase the carrier's back.
    Vec2 run = player_vel(w, w.ball.owner);
    for (int i = 0; i < 3; ++i) t = distance(player_pos(w, p), ball + run * std::fmin(t, 2.0f)) / kSprintSpeed;
    at = ball + run * std::fmin(t, 2.0f);
  } else {
    // The ball slows as GRF's does (rolling_distance), so aim where it will have got to.
    float speed = length(vel);
    at = speed > 1e-3f ? ball + vel * (rolling_distance(speed, std::fmin(t, 1.5f)) / speed) : ball;
  }
  at.x = clampf(at.x, -kHalfLength, kHalfLength);
  at.y = clampf(at.y, -kHalfWidth, kHalfWidth);
  return at;
}

// The ball's rolling path in 0.1 s steps (GRF's drag: the speed falls by the rolling
// resistance and the air's and grass's v^2 losses), then for each player the first of
// those moments he could be at the ball running at a sprint: a ball running away from him
// takes long, one running at him little. One forecast serves every player.
BallRace race_to_loose_ball(const World& w) {
  constexpr int kSteps = 40;
  constexpr float kDt = 0.1f;
  Vec2 at[kSteps + 1];
  const Vec2 ball = ball_pos(w);
  float speed = std::sqrt(w.ball.vx * w.ball.vx + w.ball.vy * w.ball.vy);
  const Vec2 dir = speed > 1e-3f ? Vec2{w.ball.vx / speed, w.ball.vy / speed} : Vec2{};
  float travelled = 0.0f;
  for (int i = 0; i <= kSteps; ++i) {
    at[i] = ball + dir * travelled;
    float next = std::fmax(speed - (kBallRollDecel + (kBallGrassDrag + kBallAirDrag) * speed * speed) * kDt, 0.0f);
    travelled += 0.5f * (speed + next) * kDt;
    speed = next;
  }
  BallRace race;
  race.team_best[0] = race.team_best[1] = 1e30f;
  race.team_fastest[0] = race.team_fastest[1] = -1;
  for (int p = 0; p < kMaxPlayers; ++p) {
    race.seconds[p] = 1e30f;
    if (!w.p.present[p]) continue;
    const Vec2 from = player_pos(w, p);
    // A lazy player never runs for the ball: he is in the race only if it is at his feet.
    if (w.p.lazy[p] && length_sq(at[0] - from) > kControlRadius * kControlRadius) continue;
    float t = kSteps * kDt + distance(from, at[kSteps]) / kSprintSpeed;
    for (int i = 0; i <= kSteps; ++i) {
      float reach = kSprintSpeed * kDt * static_cast<float>(i) + kBallReach;
      if (length_sq(at[i] - from) <= reach * reach) {
        t = kDt * static_cast<float>(i);
        break;
      }
    }
    race.seconds[p] = t;
    const int team = team_of(p);
    if (t < race.team_best[team]) race.team_best[team] = t, race.team_fastest[team] = p;
  }
  return race;
}

const BallRace& ball_race(const World& w, BallRaceCache& cache) {
  const Ball& b = w.ball;
  if (!cache.valid || cache.x != b.x || cache.y != b.y || cache.vx != b.vx || cache.vy != b.vy) {
    cache.race = race_to_loose_ball(w);
    cache.valid = true;
    cache.x = b.x, cache.y = b.y, cache.vx = b.vx, cache.vy = b.vy;
  }
  return cache.race;
}

// GRF's hunters of an opponent on the ball: of the team's two players nearest him (anyone,
// keeper and markers included), those who mark nobody and are within hunting distance;
// -1 where there is none.
void choose_hunters(const World& w, const TeamView& tv, int opponent, const int8_t marks[kMaxTeamPlayers],
                    int* chaser, int* second) {
  const Vec2 at = player_pos(w, opponent) + player_vel(w, opponent) * 0.1f;
  int nearest[2] = {-1, -1};
  float nearest_d[2] = {1e30f, 1e30f};
  for (int s = 0; s < w.team_size[tv.team]; ++s) {
    const int p = first_of(tv.team) + s;
    if (!w.p.present[p]) continue;
    const float d = distance(player_pos(w, p), at);
    if (d < nearest_d[0]) nearest[1] = nearest[0], nearest_d[1] = nearest_d[0], nearest[0] = p, nearest_d[0] = d;
    else if (d < nearest_d[1]) nearest[1] = p, nearest_d[1] = d;
  }
  *chaser = *second = -1;
  for (const int p : nearest) {
    if (p < 0 || w.p.lazy[p] || w.p.role[p] == kRoleGK || marks[slot_of(p)] >= 0) continue;
    if (distance(player_pos(w, p), ball_pos(w)) > hunt_distance(w, p, tv)) continue;
    (*chaser < 0 ? *chaser : *second) = p;
  }
}

void run_ai(World& w, const ScenarioConfig& sc, bool teammate_ai, BallRaceCache& races) {
  const int owner_team = ball_owner_team(w);
  const bool lazy_carrier = w.ball.owner >= 0 && w.p.lazy[w.ball.owner];  // hunted, not marked or waited for
  const bool stopped = w.m.game_mode != kModeNormal;
  // What the team's agents ask of the AI: the full action set's team orders.
  bool has_agent[2] = {false, false}, keeper_rush[2] = {false, false}, team_pressure[2] = {false, false};
  for (int a = 0; a < w.num_agents; ++a) {
    const Agent& ag = w.agents[a];
    has_agent[ag.team] = true;
    keeper_rush[ag.team] |= ag.keeper_rush;
    team_pressure[ag.team] |= ag.team_pressure;
  }
  // A loose ball's race, worked out once before anyone moves: a kick later in the loop
  // leaves it as it was.
  const BallRace* race = owner_team < 0 && !stopped ? &ball_race(w, races) : nullptr;
  ShapeContext shape;
  update_team_shape(w, race, shape);
  for (int team = 0; team < 2; ++team) {
    TeamView tv = team_view(sc, team);
    // Chasers: the team's AI players nearest the ball go for it when it is not theirs:
    // two for a carrier, one for a loose ball (GRF's designated possession player alone).
    // A carrier's hunters are chosen again below, once the markers are known; these stand
    // when the carrier has kicked earlier in this loop (owner_team is the step's start).
    int chaser = -1, second = -1;
    float chaser_d = 1e30f, second_d = 1e30f;
    if (owner_team != team && !stopped) {
      for (int s = 0; s < w.team_size[team]; ++s) {
        int p = first_of(team) + s;
        if (!w.p.present[p] || w.p.lazy[p] || w.p.role[p] == kRoleGK) continue;
        float d = distance(player_pos(w, p), ball_pos(w));
        // A carrier is hunted only from within hunt_distance (GRF's AI), or from anywhere
        // under team_pressure or when he is lazy (GRF's walk up to one from 20 m and more,
        // waits_for); a loose ball by anyone.
        if (owner_team == 1 - team && !team_pressure[team] && !lazy_carrier && d > hunt_distance(w, p, tv)) continue;
        if (d < chaser_d) second = chaser, second_d = chaser_d, chaser = p, chaser_d = d;
        else if (d < second_d) second = p, second_d = d;
      }
      if (owner_team < 0) second = -1;
    }
    // GRF sends only the match's designated possession player (of the team that would
    // reach a loose ball first) at it; the other team's nearest man takes up a defending
    // position on the opponent who will get there, as on a carrier. Here only when that
    // opponent is an agent's player: the rest of the AI was calibrated on GRF's AI-v-AI
    // scores with both sides contesting loose balls, and with the rule between AIs too,
    // AI 1.0 scored 1.5 a game against easy where GRF's scores 2.3 (docs/football_fidelity.md).
    int loose_ball_winner = -1;
    if (race && chaser >= 0) {
      const int winner = race->team_fastest[1 - team];
      if (race->team_best[1 - team] < race->team_best[team] && winner >= 0 && !ai_drives(w, winner))
        loose_ball_winner = winner;
    }
    // The opponent on the ball, or about to be: GRF's three markers leave him to the
    // team's other players nearest him (hunters), and mark their men.
    int8_t marks[kMaxTeamPlayers];
    const int opponent_on_ball = owner_team == 1 - team && !stopped ? w.ball.owner : loose_ball_winner;
    // A lazy carrier is not marked but hunted (see waits_for).
    const bool marking = opponent_on_ball >= 0 && !team_pressure[team] && !w.p.lazy[opponent_on_ball];
    if (marking) {
      assign_man_marking(w, tv, marks);
      choose_hunters(w, tv, opponent_on_ball, marks, &chaser, &second);
      if (loose_ball_winner >= 0) second = -1;
    }
    // GRF's team pressure: the AI player nearest the point 1 m goal-side of where the
    // carrier will be in 0.24 s runs at the ball, holding off for nothing.
    int pressure_player = -1;
    // (owner_team is the step's start: the carrier may have kicked earlier in this loop.)
    if (team_pressure[team] && owner_team == 1 - team && w.ball.owner >= 0 && !stopped) {
      const Vec2 at = player_pos(w, w.ball.owner) + player_vel(w, w.ball.owner) * 0.24f - Vec2{tv.attack_sign, 0.0f};
      float best = 1e30f;
      for (int s = 0; s < w.team_size[team]; ++s) {
        const int p = first_of(team) + s;
        if (!w.p.present[p] || w.p.lazy[p] || w.p.role[p] == kRoleGK || !ai_drives(w, p)) continue;
        const float d = length_sq(player_pos(w, p) - at);
        if (d < best) best = d, pressure_player = p;
      }
    }
    int reaction = static_cast<int>(std::lround(2.0f * (1.0f - tv.difficulty)));
    for (int s = 0; s < w.team_size[team]; ++s) {
      int p = first_of(team) + s;
      if (!w.p.present[p]) continue;
      // Agents drive their players, except an idle agent's set-piece taker, which the
      // AI helps out after kSetPieceMaxWaitSteps so play always resumes.
      // An agent's builtin_ai action hands its player to the AI for the step.
      bool stalled_taker = stopped && p == w.m.taker && w.m.mode_steps >= kSetPieceMaxWaitSteps;
      const int agent = w.p.controlled_by[p];
      if (agent >= 0 && !stalled_taker && !w.agents[agent].builtin_ai) continue;
      // teammate_ai=False: the agents' team-mates stand still (a stalled taker excepted,
      // so that play always resumes).
      if (agent < 0 && !teammate_ai && has_agent[team] && !stalled_taker) {
        stand_still(w, p);
        continue;
      }
      if (w.p.lazy[p]) {
        w.p.want_vx[p] = w.p.want_vy[p] = 0.0f;
        continue;
      }
      if (w.p.slide_steps[p] > 0) continue;
      if (stopped && p == w.m.taker) {
        w.p.want_vx[p] = w.p.want_vy[p] = 0.0f;
        if (w.m.mode_steps >= kSetPieceDelaySteps) {
          Vec2 aim = w.m.game_mode == kModeGoalKick ? Vec2{tv.attack_sign, 0.0f}
                                                    : Vec2{w.p.face_x[p], w.p.face_y[p]};
          if (w.m.game_mode == kModePenalty) shoot(w, p, tv.goal - player_pos(w, p), ai_kick_error(tv.difficulty));
          else try_pass(w, p, w.m.game_mode == kModeGoalKick ? kLongPass : kShortPass, aim,
                        ai_kick_error(tv.difficulty), kAiClearanceReach);
        }
        continue;
      }
      // A hunter of the carrier steers every step (GRF's reaction is a lag of
      // 0.1 s x (1 - difficulty) in what he sees, not a held decision).
      const bool hunting = (p == chaser || p == second) && owner_team == 1 - team;
      if (w.p.ai_wait[p] > 0 && !hunting) {
        --w.p.ai_wait[p];
        continue;
      }
      w.p.ai_wait[p] = static_cast<int8_t>(reaction);
      Vec2 pos = player_pos(w, p);
      Vec2 ball = ball_pos(w);
      if (w.ball.owner == p) {
        decide_with_ball(w, p, tv);
      } else if (w.ball.pass_receiver == p && w.p.role[p] != kRoleGK) {
        move_towards(w, p, intercept_point(w, p), false);  // meet the pass
      } else if (w.p.role[p] == kRoleGK) {
        decide_keeper(w, p, tv, keeper_rush[team], race);
      } else if (p == pressure_player) {
        move_towards(w, p, intercept_point(w, p), true);
      } else if (p == chaser || p == second) {
        const Vec2 meet = intercept_point(w, p);
        // owner_team is this step's start; a carrier earlier in the loop may have kicked since.
        if (owner_team == 1 - team && w.ball.owner >= 0) {
          // GRF's two hunters (ElizaController): one whose defending point lies wide of
          // him or upfield goes for the ball at full haste (forceMagnet's to-ball run);
          // one already goal-side holds and lets the carrier come. The ball is won when
          // it is within reach and in view (the tackle, rules.cpp).
          // A carrier who hardly moves is not coming at the hunter: GRF's takes the spot
          // goal-side of him and waits there (GetDefendPosition, measured: against an idle
          // carrier in academy_pass_and_shoot_with_keeper its centre-back settles 5.6 m
          // goal-side and never takes the ball in 400 steps, 10 episodes of 10).
          if (waits_for(w, p, w.ball.owner, tv, kHoldOffCarrierPace)) {
            wait_goal_side(w, p, w.ball.owner, tv);
          } else if (distance(pos, ball) < kInterfereReach && ball_duel_likeliness(w, p) >= 0.2f) {
            close_on_ball(w, p);  // GRF's interfere
          } else if (lazy_carrier || standing_far_out(w, w.ball.owner, tv) ||
                     needs_defending_movement(w, p, w.ball.owner, tv)) {
            // GRF walks up to a lazy carrier; one standing on the ball far from goal is run at (no sprint).
            move_towards(w, p, meet, !lazy_carrier && !standing_far_out(w, w.ball.owner, tv));
          } else {
            stand_still(w, p);
          }
        } else if (loose_ball_winner >= 0) {
          // So too for an opponent standing at a loose ball he is about to take (GRF's
          // centre-back above, before the carrier's first touch).
          if (p == chaser && distance(player_pos(w, loose_ball_winner), ball) < 2.0f &&
              waits_for(w, p, loose_ball_winner, tv, kHoldOffLooseBallPace)) {
            wait_goal_side(w, p, loose_ball_winner, tv);
          } else if (p == chaser && needs_defending_movement(w, p, loose_ball_winner, tv)) {
            move_towards(w, p, meet, true);
          } else {
            stand_still(w, p);
          }
        } else {
          Vec2 target = meet;
          if (p == second) target = target + (tv.own_goal - target) * (3.0f / std::fmax(distance(tv.own_goal, target), 3.0f));
          move_towards(w, p, target, true);
        }
        // GRF's AI goes to ground only with a clear view of the ball (duel likeliness at
        // least 0.7) and the ball 0.7-1.6 m ahead of where it will be in 0.2 s.
        float d = distance(pos + player_vel(w, p) * 0.2f, ball + Vec2{w.ball.vx, w.ball.vy} * 0.2f);
        if (p == chaser && owner_team == 1 - team && w.ball.owner >= 0 && d > 0.7f && d < 1.6f &&
            ball_duel_likeliness(w, p) >= 0.7f && !w.m.deterministic &&
            rng_uniform(w.rng) < 0.04f * tv.difficulty) {
          Vec2 dir = normalized(ball - pos);
          w.p.face_x[p] = dir.x;
          w.p.face_y[p] = dir.y;
          w.p.slide_steps[p] = kSlideSteps;
        }
      } else {
        // A team on the ball, or leaning on it (GRF's fading hold at least even), takes
        // GRF's team shape (shape.cpp): its adapted formation spot and the support position
        // round it. Otherwise ours: the start spot shifted with the ball. (GRF's shape there,
        // and GRF's pace off the ball, were tried: docs/football_calibration_changelog.md, 2026-11-27.)
        Vec2 target;
        if (owner_team == team || w.m.possession_amount[team] >= 1.0f) {
          // Worked out afresh every kShapeRefreshSteps (speed: it is a fifth of a full
          // game's step time when done every step).
          if (w.p.shape_step[p] < 0 || w.m.steps - w.p.shape_step[p] >= kShapeRefreshSteps) {
            const Vec2 spot = shape_position(w, p, tv, shape);
            w.p.shape_target_x[p] = spot.x, w.p.shape_target_y[p] = spot.y, w.p.shape_step[p] = w.m.steps;
          }
          target = Vec2{w.p.shape_target_x[p], w.p.shape_target_y[p]};
        } else {
          w.p.shape_step[p] = -1;
          Vec2 home{w.p.home_x[p], w.p.home_y[p]};
          float push = owner_team < 0 ? 4.0f : -2.0f;
          target = Vec2{home.x + tv.attack_sign * push + 0.35f * ball.x, home.y + 0.3f * (ball.y - home.y)};
        }
        if (marking && marks[s] >= 0) {
          target = marking_position(w, p, marks[s], marks[s] == opponent_on_ball, target, tv);
        } else if (owner_team == 1 - team) {
          // The rest pick up the opponent nearest their spot, goal side. (GRF's hold
          // their adapted formation spots; holding ours instead measured no nearer GRF's
          // academy figures, docs/football_fidelity.md.)
          int mark = -1;
          float md = nearest_opponent_distance(w, team, target, &mark);
          if (mark >= 0 && md < 10.0f) {
            Vec2 opp = player_pos(w, mark);
            target = opp + normalized(tv.own_goal - opp) * 2.0f;
          }
        }
        target.x = clampf(target.x, -kHalfLength + 1.0f, kHalfLength - 1.0f);
        target.y = clampf(target.y, -kHalfWidth + 1.0f, kHalfWidth - 1.0f);
        move_towards(w, p, target, distance(target, pos) > 15.0f);
      }
    }
  }
}

}  // namespace trackfield::football
