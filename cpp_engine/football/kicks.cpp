// Passes and shots: who receives, how hard and how high the ball is struck, and the
// error that distance, pressure, fatigue and (for the AI) difficulty add.
#include <cmath>

#include "football/step.h"

namespace trackfield::football {

namespace {

constexpr float kShotSpeed = 29.0f;  // GRF, measured: 27-31 m/s for a one-step press
constexpr float kShotLift = 2.0f;    // m/s up: GRF's shots are driven, peaking 0.1-0.7 m above the grass
constexpr float kMaxGroundPassSpeed = 24.0f;
constexpr float kPassLift = 1.0f;    // m/s up: GRF's ground passes skim and slow at once
constexpr float kLongPassLoftFrom = 26.0f;  // GRF's long pass stays low at 17 m, is lofted at 32 m
constexpr float kPi = 3.14159265f;

// Angular error (radians) of a kick; callers skip it in deterministic mode.
float kick_error(World& w, int player, float base, float error_scale) {
  float pressure = nearest_opponent_distance(w, team_of(player), player_pos(w, player));
  float sigma = base * error_scale * w.p.kick_error[player];
  if (pressure < 3.0f) sigma += 0.05f * (3.0f - pressure) / 3.0f;
  // Fatigue takes up to 30% off his kicking skill, as every GRF skill (Player::GetStat), and
  // the error grows as 1 / (1 + 0.7 x skill), as his profile's does.
  const float skill = 0.7f * w.p.kicking[player];
  sigma *= (1.0f + skill) / (1.0f + skill * (1.0f - 0.3f * w.p.tired[player]));
  return sigma * rng_normal(w.rng);
}

Vec2 ball_kick_origin(const World& w) { return ball_pos(w); }

// How far ahead of the receiver to aim: where they will be when the ball arrives.
Vec2 lead_target(const World& w, int receiver, Vec2 from, float ball_speed) {
  Vec2 pos = player_pos(w, receiver);
  float t = distance(pos, from) / std::fmax(ball_speed * 0.75f, 1.0f);
  Vec2 lead = pos + player_vel(w, receiver) * std::fmin(t, 1.5f);
  lead.x = clampf(lead.x, -kHalfLength + 0.5f, kHalfLength - 0.5f);
  lead.y = clampf(lead.y, -kHalfWidth + 0.5f, kHalfWidth - 0.5f);
  return lead;
}

// Lofted balls (GRF, measured: a 12 m high pass leaves at 13 m/s and peaks 1.4 m up, an
// 18 m one at 16 m/s and 2.4 m, a 50 m one at 31 m/s and 3.9 m, landing about 38 m on and
// running on), so the longer the kick the flatter and harder it is struck.
float lofted_speed(float dist) { return 7.3f + 0.47f * dist; }
float lofted_lift(float dist) { return clampf(5.2f + 0.3f * (dist - 12.0f), 4.0f, 9.0f); }

}  // namespace

// GRF's pass targeting: every team-mate is rated by how far (over 70 m) it is from the
// point the kicker means, `reach` metres along `aim`, and by the angle between `aim`
// and the way to it; the best rated one receives. There is always a receiver when the
// team has another player: a pass "into space" is a pass to the nearest such mate.
int choose_pass_receiver(const World& w, int player, Vec2 aim, float reach) {
  int team = team_of(player);
  Vec2 from = player_pos(w, player);
  aim = normalized(aim, {w.p.face_x[player], w.p.face_y[player]});
  Vec2 meant = from + aim * reach;
  int best = -1;
  float best_rating = 1e30f;
  for (int s = 0; s < w.team_size[team]; ++s) {
    int q = first_of(team) + s;
    if (q == player || !w.p.present[q]) continue;
    Vec2 to = player_pos(w, q) - from;
    float dist = length(to);
    float distance_rating = 0.8f * std::pow(clampf(distance(player_pos(w, q), meant) / 70.0f, 0.0f, 1.0f), 0.8f);
    float cos_angle = dist > 1e-3f ? clampf(dot(to, aim) / dist, -1.0f, 1.0f) : 1.0f;
    float rating = distance_rating + std::acos(cos_angle) / kPi;
    if (rating < best_rating) best_rating = rating, best = q;
  }
  return best;
}

bool try_pass(World& w, int player, int kind, Vec2 aim, float error_scale, float reach) {
  if (w.ball.owner != player) return false;
  const bool deterministic = w.m.deterministic;
  Vec2 from = ball_kick_origin(w);
  int receiver = choose_pass_receiver(w, player, aim, reach);
  Vec2 target;
  if (receiver >= 0) {
    // Lead AI receivers by their run; an agent's receiver becomes the agent's to move
    // (it stops unless told otherwise), so aim at its feet.
    bool agent_team = false;
    for (int a = 0; a < w.num_agents; ++a)
      agent_team |= w.agents[a].team == team_of(player) && !w.agents[a].builtin_ai;
    float guess_speed = kind == kShortPass ? 12.0f : 20.0f;
    target = agent_team ? player_pos(w, receiver) : lead_target(w, receiver, from, guess_speed);
    // GRF plays a long pass as a through ball: 20% of its length beyond the receiver.
    if (kind == kLongPass) target.x += (team_of(player) == 0 ? 1.0f : -1.0f) * 0.2f * distance(target, from);
  } else {
    target = from + normalized(aim) * std::fmax(reach, kind == kShortPass ? 15.0f : 30.0f);
  }
  Vec2 delta = target - from;
  float dist = std::fmax(length(delta), 1.0f);
  Vec2 dir = delta * (1.0f / dist);
  float base = kind == kShortPass ? 0.03f : 0.05f;
  if (!deterministic) dir = rotated(dir, kick_error(w, player, base, error_scale));

  Vec2 vel;
  float vz;
  if (kind == kHighPass || (kind == kLongPass && dist > kLongPassLoftFrom)) {
    vel = dir * lofted_speed(dist);
    vz = lofted_lift(dist);
  } else {
    // Driven low, skimming the grass (GRF, measured: a 12 m pass leaves at 16.8 m/s,
    // a 17 m one at 21 m/s and arrives at 9.6 m/s, both under 0.5 m up).
    float speed = clampf(6.7f + 0.84f * dist, 8.0f, kMaxGroundPassSpeed);
    vel = dir * speed;
    vz = kPassLift;
  }
  free_ball(w, vel, vz, player);
  w.ball.pass_receiver = receiver;
  // Offside is judged at the moment of the pass (GRF: offsides=True by default).
  if (w.m.offsides) {
    int team = team_of(player);
    int opp = 1 - team;
    float sign = team == 0 ? 1.0f : -1.0f;  // + towards the goal this team attacks
    // Second-last defender line, in attack coordinates.
    float first = -1e30f, second = -1e30f;
    for (int s = 0; s < w.team_size[opp]; ++s) {
      int q = first_of(opp) + s;
      if (!w.p.present[q]) continue;
      float x = w.p.x[q] * sign;
      if (x > first) second = first, first = x;
      else if (x > second) second = x;
    }
    float line = std::fmax(second, from.x * sign);
    for (int s = 0; s < w.team_size[team]; ++s) {
      int q = first_of(team) + s;
      float x = w.p.x[q] * sign;
      w.p.offside_mark[q] = w.p.present[q] && q != player && x > 0.0f && x > line;
    }
  }
  return true;
}

namespace {

// The AI aims inside a post: the side it steers towards, else away from the keeper. GRF's
// AI shots are wild, but not at the keeper: over 8 games half went wide and none was held
// (its error is in the kick's animation), so a share of ours is struck wide of a post.
Vec2 ai_shot_target(World& w, int player, Vec2 aim, Vec2 from) {
  const int team = team_of(player);
  float side;
  float lateral = team == 0 ? aim.y : -aim.y;
  if (std::fabs(lateral) > 0.3f) {
    side = aim.y > 0 ? 1.0f : -1.0f;
  } else {
    int keeper = -1;
    int opp = 1 - team;
    for (int s = 0; s < w.team_size[opp]; ++s) {
      int q = first_of(opp) + s;
      if (w.p.present[q] && w.p.role[q] == kRoleGK) keeper = q;
    }
    float keeper_y = keeper >= 0 ? w.p.y[keeper] : 0.0f;
    side = keeper_y > from.y * 0.2f ? -1.0f : 1.0f;
  }
  Vec2 target{attack_goal_x(team), side * (kGoalHalfWidth - 0.75f)};
  // From close in the goal is too wide to miss: the share grows from none at 3 m to all of
  // kAiShotWideChance from 9 m (GRF's AI shoots from 13-23 m, a median of 13).
  const float wide = kAiShotWideChance * clampf((distance(from, target) - 3.0f) / 6.0f, 0.0f, 1.0f);
  if (!w.m.deterministic && rng_uniform(w.rng) < wide)
    target.y = side * (kGoalHalfWidth + 0.3f + 2.5f * rng_uniform(w.rng));
  return target;
}

// An agent's shot goes where GRF's auto-direction (AI_GetShotDirection, at full weight for
// a shot) sends it: as far off the goal's middle as the held direction (else the facing)
// is off the line to goal, up to 0.9 of the half-width at 90 degrees, from where the run
// takes him in 0.12 s. Held straight at goal, it goes at the middle, where the keeper is.
Vec2 agent_shot_direction(World& w, int player, Vec2 aim) {
  const float goal_x = attack_goal_x(team_of(player));
  const Vec2 input = normalized(aim, Vec2{goal_x > 0.0f ? 1.0f : -1.0f, 0.0f});
  const Vec2 eye = player_pos(w, player) + player_vel(w, player) * 0.12f;
  const Vec2 to_goal = normalized(Vec2{goal_x, 0.0f} - eye);
  const float off_line = std::atan2(cross(to_goal, input), dot(to_goal, input));
  float side = clampf(off_line / (0.5f * kPi), -1.0f, 1.0f);
  side = std::pow(std::fabs(side), 0.7f) * (side < 0.0f ? -1.0f : 1.0f);
  const float spread = w.m.deterministic ? 0.0f : kAgentShotSpread * rng_normal(w.rng);
  const Vec2 target{goal_x, side * kGoalHalfWidth * 0.9f * (to_goal.x > 0.0f ? 1.0f : -1.0f) + spread};
  return normalized(target - eye, input);
}

}  // namespace

void shoot(World& w, int player, Vec2 aim, float error_scale) {
  if (w.ball.owner != player) return;
  const bool deterministic = w.m.deterministic;
  const Vec2 from = ball_kick_origin(w);
  const bool agent = !ai_drives(w, player);
  Vec2 dir;
  float dist;
  if (agent) {
    dir = agent_shot_direction(w, player, aim);
    dist = std::fmax(distance(from, Vec2{attack_goal_x(team_of(player)), 0.0f}), 1.0f);
  } else {
    const Vec2 delta = ai_shot_target(w, player, aim, from) - from;
    dist = std::fmax(length(delta), 1.0f);
    dir = delta * (1.0f / dist);
  }
  // GRF's shots are accurate: from 13-26 m almost none miss the target.
  if (!deterministic) dir = rotated(dir, kick_error(w, player, 0.012f + 0.0016f * dist, error_scale));
  // Driven low, as GRF's (measured: 12-50 m shots never rise above 0.8 m), so from
  // far out the grass slows the ball to a keeper's pace (about 10 m/s 25 m on) and from
  // 40 m and more it stops short of the goal.
  float speed = kShotSpeed;
  if (agent) {
    // An agent's shot is struck the way his run goes (GRF's shot vector weighs the body's
    // movement against the aim; tools/football_probes.py shots, 14 m out, 16 seeds: running
    // at goal 9-15 score, across the goal 0 (all wide), away from it 2-3, standing 1 (a
    // weak shot)). The AI is calibrated on GRF's own AI shots and picks its moment, so
    // this is for agents only.
    Vec2 run = player_vel(w, player);
    float pace = length(run);
    if (pace < kShotStandingPace) {
      speed *= kStandingShotPower;
    } else {
      Vec2 along = run * (1.0f / pace);
      float cos_off = clampf(dot(along, dir), -1.0f, 1.0f);
      float sin_off = dir.x * along.y - dir.y * along.x;  // + when the run is to the left of the aim
      float pull = kShotRunPull * sin_off * sin_off * sin_off * std::fabs(sin_off);
      float spread = kShotAwaySpread * 0.5f * (1.0f - cos_off);
      float noise = deterministic ? 0.0f : spread * rng_normal(w.rng);
      dir = rotated(dir, pull + noise);
      speed *= 0.7f + 0.3f * 0.5f * (1.0f + cos_off);  // GRF: struck across the run, the shot loses power
    }
  }
  float vz = kShotLift;
  free_ball(w, dir * speed, vz, player);
  w.ball.shot_in_flight = true;
}

// GRF's panic pass (_AddPanicPass): a high pass at power 0.7 with no receiver in mind,
// towards the facing (its forward part damped to 0.8) plus 0.7 of the attacking direction
// and 0.5 towards the side the player faces. Facing upfield it goes long and a little
// wide; a keeper stranded in the goal his team attacks (academy empty_goal, run_to_score)
// meets the ball facing his own end, the forward parts cancel and it flies to touch.
void clear_ball(World& w, int player, float error_scale) {
  if (w.ball.owner != player) return;
  float attack = team_of(player) == 0 ? 1.0f : -1.0f;
  Vec2 face{w.p.face_x[player], w.p.face_y[player]};
  Vec2 damped = normalized(Vec2{face.x * 0.8f, face.y}, Vec2{attack, 0.0f});
  Vec2 dir = normalized(damped + Vec2{attack * 0.7f, (face.y > 0.0f ? 1.0f : -1.0f) * 0.5f}, Vec2{attack, 0.0f});
  if (!w.m.deterministic) dir = rotated(dir, kick_error(w, player, 0.05f, error_scale));
  constexpr float kPanicReach = 60.0f * 0.7f;  // GRF: a kick of power p means a point 60 m x p away
  free_ball(w, dir * lofted_speed(kPanicReach), lofted_lift(kPanicReach), player);
}

}  // namespace trackfield::football
