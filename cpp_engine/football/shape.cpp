// GRF's team shape for the AI's players off the ball when their team has it: each holds a
// spot of GRF's built-in 4-3-3 (whatever the scenario lists) stretched into a box that
// follows the ball and the team's hold on it (its adapted formation position), and moves
// from there to where its support force field settles: near enough the man on the ball to
// be passed to, clear of opponents and team-mates, one player pushing up for him and one
// making a run. ai.cpp uses it while the team has the ball or its fading possession is
// at least even.
// GRF: teamdata.cpp (the spots), teamAIcontroller.cpp (GetAdaptedFormationPosition,
// attacking runs, forward support), AIfunctions.cpp (AI_GetAdaptedFormationPosition,
// AI_GetForceFieldMovement), elizacontroller.cpp (GetSupportPosition_ForceField),
// team.cpp (the fading possession), strategies/offtheball/* (how far each line leaves its
// spot). Left out: GRF's dynamic roles (spots handed round every 0.4 s), its offside trap,
// and its per-player ball averages (two running means stand in).
#include <cmath>
#include <initializer_list>
#include <utility>

#include "football/ai_shared.h"

namespace trackfield::football {

namespace {

// GRF's NormalizedClamp: where v lies between lo and hi, as 0 .. 1.
float ramp(float v, float lo, float hi) { return clampf((v - lo) / (hi - lo), 0.0f, 1.0f); }
// GRF's curve(x, 1): the linear 0..1 made an S.
float s_curve(float v) { return std::sin((v - 0.5f) * 3.14159265f) * 0.5f + 0.5f; }

// GRF's built-in formation (TeamData), slot by slot; the scenario's roles replace its
// roles but not its spots.
struct Spot {
  float x, y;
  int role;
};
constexpr Spot kFormation[kMaxTeamPlayers] = {
    {-1.0f, 0.0f, kRoleGK},   {-0.7f, 0.75f, kRoleLB}, {-1.0f, 0.25f, kRoleCB}, {-1.0f, -0.25f, kRoleCB},
    {-0.7f, -0.75f, kRoleRB}, {0.0f, 0.5f, kRoleCM},   {-0.2f, 0.0f, kRoleCM},  {0.0f, -0.5f, kRoleCM},
    {0.6f, 0.75f, kRoleLM},   {1.0f, 0.0f, kRoleCF},   {0.6f, -0.75f, kRoleRM}};

Vec2 default_role_spot(int role) {
  switch (role) {
    case kRoleGK: case kRoleCB: return {-1.0f, 0.0f};
    case kRoleLB: return {-0.8f, 0.8f};
    case kRoleRB: return {-0.8f, -0.8f};
    case kRoleDM: return {-0.5f, 0.0f};
    case kRoleLM: return {0.0f, 1.0f};
    case kRoleRM: return {0.0f, -1.0f};
    case kRoleAM: return {0.5f, 0.0f};
    case kRoleCF: return {1.0f, 0.0f};
    default: return {0.0f, 0.0f};
  }
}

// GRF's team tactics as its AI reads them (base values moved by the team's own settings),
// each shifted for a role as GRF's mixup does.
struct Tactics {
  float offense_depth, defense_depth, offense_width, defense_width;
  float offense_own_half, defense_own_half;
};
Tactics role_tactics(int role) {
  Tactics t{0.868f, 0.71f, 0.948f, 0.84f, 0.52f, 0.54f};
  switch (role) {
    case kRoleCB: t.offense_width = 1.0f; break;
    case kRoleLB: case kRoleRB: t.defense_own_half = 0.465f, t.offense_width = 1.0f, t.offense_own_half = 0.42f; break;
    case kRoleLM: case kRoleRM: t.defense_own_half = 0.49f, t.offense_own_half = 0.42f; break;
    case kRoleAM: case kRoleCF: t.defense_depth = 0.835f; break;
    default: break;
  }
  return t;
}
constexpr float kOffenseMidfieldFocus = 0.828f, kDefenseMidfieldFocus = 0.776f, kMidfieldFocusStrength = 0.35f;
constexpr float kOffenseSideFocus = 0.176f, kDefenseSideFocus = 0.332f;
constexpr float kOffenseMicroFocus = 0.826f, kDefenseMicroFocus = 0.938f;
constexpr float kDepth = 0.45f, kWidth = 0.95f;  // GRF's TeamAIController depth and width

// The K players of `team` nearest `to` (`except` left out), nearest first, and their
// squared distances; -1 past the last one on the pitch.
template <int K>
void nearest_players(const World& w, int team, Vec2 to, int except, int (&who)[K], float (&dist_sq)[K]) {
  for (int k = 0; k < K; ++k) who[k] = -1, dist_sq[k] = 1e30f;
  for (int s = 0; s < w.team_size[team]; ++s) {
    int q = first_of(team) + s;
    if (q == except || !w.p.present[q]) continue;
    float d = distance_sq(player_pos(w, q), to);
    for (int k = 0; k < K; ++k)
      if (d < dist_sq[k]) std::swap(d, dist_sq[k]), std::swap(q, who[k]);
  }
}

// The team's player who has the ball or would get to it first (GRF's designated team
// possession player), and the seconds he needs.
int team_ball_player(const World& w, int team, const BallRace* race, float* seconds) {
  if (ball_owner_team(w) == team) {
    *seconds = 0.0f;
    return w.ball.owner;
  }
  if (race && w.ball.owner < 0) {
    *seconds = race->team_best[team];
    return race->team_fastest[team];
  }
  int near1[1];
  float d_sq[1];
  nearest_players(w, team, ball_pos(w), -1, near1, d_sq);
  *seconds = near1[0] >= 0 ? std::sqrt(d_sq[0]) / kSprintSpeed : 1e30f;
  return near1[0];
}

}  // namespace

void init_formation_spots(World& w) {
  for (int team = 0; team < 2; ++team) {
    const int n = w.team_size[team];
    Vec2 spot[kMaxTeamPlayers];
    for (int s = 0; s < n; ++s) {
      const Spot& f = kFormation[s];
      spot[s] = Vec2{f.x, f.y} * 0.6f + default_role_spot(f.role) * 0.4f;
    }
    // GRF spreads the spots until no two outfield ones are nearer than 0.5.
    for (int it = 0; it < 10; ++it) {
      Vec2 push[kMaxTeamPlayers] = {};
      bool changed = false;
      for (int a = 1; a < n; ++a) {
        for (int b = a + 1; b < n; ++b) {
          const Vec2 d = spot[a] - spot[b];
          const float len = length(d);
          if (len >= 0.5f) continue;
          changed = true;
          const Vec2 dir = normalized(d, {0.0f, 1.0f}) * (0.25f * (1.0f - len / 0.5f));
          push[a] = push[a] + dir;
          push[b] = push[b] - dir;
        }
      }
      if (!changed) break;
      for (int s = 0; s < n; ++s) {
        spot[s] = spot[s] + push[s];
        spot[s].x = clampf(spot[s].x, -1.0f, 1.0f);
        spot[s].y = clampf(spot[s].y, -1.0f, 1.0f);
      }
    }
    for (int s = 0; s < n; ++s) {
      w.p.shape_x[first_of(team) + s] = spot[s].x;
      w.p.shape_y[first_of(team) + s] = spot[s].y;
    }
    for (int s = 0; s < kMaxTeamPlayers; ++s) w.p.shape_step[first_of(team) + s] = -1;
  }
  w.m.possession_amount[0] = w.m.possession_amount[1] = 1.0f;
  w.m.attack_runner[0] = w.m.attack_runner[1] = -1;
  w.m.forward_support[0] = w.m.forward_support[1] = -1;
  w.m.ball_avg_slow_x = w.m.ball_avg_fast_x = w.ball.x;
  w.m.ball_avg_slow_y = w.m.ball_avg_fast_y = w.ball.y;
}

void update_team_shape(World& w, const BallRace* race, ShapeContext& ctx) {
  const bool stopped = w.m.game_mode != kModeNormal;
  float seconds[2];
  for (int team = 0; team < 2; ++team) ctx.ball_player[team] = team_ball_player(w, team, race, &seconds[team]);
  ctx.focus_player = seconds[0] <= seconds[1] ? ctx.ball_player[0] : ctx.ball_player[1];
  const int best_team = stopped ? w.m.restart_team : (seconds[0] <= seconds[1] ? 0 : 1);
  // GRF's fading possession, in its 10 ms steps: a team nearer the ball than the other
  // leans towards 1.5, the other towards 0.5, by at most 0.5 a second; a set piece
  // settles it at once.
  for (int team = 0; team < 2; ++team) {
    float& amount = w.m.possession_amount[team];
    if (stopped) {
      amount = team == w.m.restart_team ? 1.5f : 0.5f;
      continue;
    }
    const float target = clampf((seconds[1 - team] + 1.5f) / (seconds[team] + 1.5f), 0.5f, 1.5f);
    for (int i = 0; i < 10; ++i) amount += clampf((amount * 0.995f + target * 0.005f) - amount, -0.005f, 0.005f);
  }
  // Where the ball will be in 0.2-0.65 s, which a team firmly in possession keeps clear of.
  if (std::fmax(w.m.possession_amount[0], w.m.possession_amount[1]) >= 1.06f) {
    const Vec2 ball = ball_pos(w), vel{w.ball.vx, w.ball.vy};
    const float speed = length(vel);
    const float ahead[4] = {0.2f, 0.35f, 0.5f, 0.65f};
    for (int i = 0; i < 4; ++i) ctx.ball_path[i] = speed > 1e-3f ? ball + vel * (rolling_distance(speed, ahead[i]) / speed) : ball;
  }
  // The ball's path: GRF averages it over the last 1-4 s (shorter for players near the
  // action); the slow mean stands for 3.5 s, the fast one for 1 s.
  w.m.ball_avg_slow_x += (w.ball.x - w.m.ball_avg_slow_x) * (0.1f / 1.75f);
  w.m.ball_avg_slow_y += (w.ball.y - w.m.ball_avg_slow_y) * (0.1f / 1.75f);
  w.m.ball_avg_fast_x += (w.ball.x - w.m.ball_avg_fast_x) * (0.1f / 0.5f);
  w.m.ball_avg_fast_y += (w.ball.y - w.m.ball_avg_fast_y) * (0.1f / 0.5f);
  // Which way possession has leaned over 6 s: + towards the left team's attack.
  const float lean = (w.m.possession_amount[0] - 0.5f) - (w.m.possession_amount[1] - 0.5f);
  w.m.possession_side += (lean - w.m.possession_side) * (0.1f / 3.0f);

  for (int team = 0; team < 2; ++team) {
    const int main_man = ctx.ball_player[team];
    if (main_man < 0) continue;
    const float sign = team == 0 ? 1.0f : -1.0f;
    const Vec2 at = player_pos(w, main_man);
    if (w.m.attack_run_steps[team] > 0) --w.m.attack_run_steps[team];
    // Every 1.5 s the player nearest a spot just ahead of the man on the ball becomes the
    // one who pushes up for him.
    if (w.m.steps % 15 == 0) w.m.forward_support[team] = nearest_team_mate(w, main_man, at + Vec2{1.5f * sign, 0.0f});
    // Every 0.5 s, with no run on and the team nearer the ball, the AI player nearest a
    // spot 26 m ahead of him runs at the goal line for 4 s, if he is near enough to be
    // found and few opponents stand round the spot 10 m behind him (GRF's runConditions).
    if (w.m.steps % 5 != 0 || w.m.attack_run_steps[team] > 0 || best_team != team || stopped) continue;
    const int runner = nearest_team_mate(w, main_man, at + Vec2{26.0f * sign, 0.0f}, 1e30f, true);
    if (runner < 0) continue;
    const Vec2 from = player_pos(w, runner);
    float rating = std::sqrt(1.0f - ramp(distance(from, at), 0.0f, 40.0f));
    const Vec2 look{from.x - 10.0f * sign, from.y * 0.8f};
    int near4[4];
    float d4_sq[4];
    nearest_players(w, 1 - team, look, -1, near4, d4_sq);
    for (int k = 0; k < 4; ++k)
      if (near4[k] >= 0) rating -= std::sqrt(s_curve(1.0f - ramp(std::sqrt(d4_sq[k]), 0.0f, 15.0f))) * 0.3f;
    if (rating >= 0.5f) w.m.attack_runner[team] = runner, w.m.attack_run_steps[team] = 40;
  }
}

// GRF's AI_GetAdaptedFormationPosition round TeamAIController's box, for one player.
Vec2 adapted_formation_position(const World& w, int p, const TeamView& tv, const ShapeContext& ctx) {
  const int role = w.p.role[p];
  const float mind = role_mind_set(role);
  const Tactics t = role_tactics(role);
  const float side = -tv.attack_sign;  // GRF's dynamic side: + defends the + goal
  const Vec2 focus = ctx.focus_player >= 0 ? player_pos(w, ctx.focus_player) : ball_pos(w);
  const Vec2 pos = player_pos(w, p);
  const float urgency = 1.0f - ramp(distance(focus, pos), 2.0f, 30.0f);
  const float ball_x = w.m.ball_avg_slow_x + (w.m.ball_avg_fast_x - w.m.ball_avg_slow_x) * urgency;
  const float ball_y = w.m.ball_avg_slow_y + (w.m.ball_avg_fast_y - w.m.ball_avg_slow_y) * 0.6f * urgency;
  const float fp = w.m.possession_amount[tv.team];

  const float offense_side_focus = clampf(kOffenseSideFocus + (mind - 0.5f) * 0.2f - 0.15f, 0.0f, 1.0f);
  const float defense_side_focus = clampf(kDefenseSideFocus + (0.5f - mind) * 0.2f - 0.15f, 0.0f, 1.0f);
  const float held = ramp(fp - 0.5f, 0.3f, 0.7f);
  const float ball_up = ramp(ball_x / kHalfLength * tv.attack_sign, -0.7f, 0.7f);  // 0 own half .. 1 theirs
  const float trust_ball = (1.0f - std::fabs(held * 2.0f - 1.0f)) * 0.6f;
  const float pb = clampf(held * (1.0f - trust_ball) + ball_up * trust_ball, 0.0f, 1.0f);  // GRF's possessionBias

  const Vec2 slow{w.m.ball_avg_slow_x, w.m.ball_avg_slow_y};
  const Vec2 focal = slow * pb + (slow * 0.5f + focus * 0.5f) * (1.0f - pb);
  const float depth = kDepth * (t.offense_depth * pb + t.defense_depth * (1.0f - pb));
  const float width = kWidth * (t.offense_width * pb + t.defense_width * (1.0f - pb));
  const float offset_x = kHalfLength * side * ((t.offense_own_half * 2.0f - 1.0f) * pb + (t.defense_own_half * 2.0f - 1.0f) * (1.0f - pb));
  const float side_focus_strength = offense_side_focus * pb + defense_side_focus * (1.0f - pb);
  const float side_x = 0.2f * (pb * 2.0f - 1.0f) * tv.attack_sign * kHalfLength + 0.8f * w.m.possession_side * kHalfLength;
  float center_x = clampf(ball_x * (1.0f - side_focus_strength) + side_x * side_focus_strength + offset_x, -kHalfLength, kHalfLength);
  float center_y = clampf(ball_y, -kHalfWidth, kHalfWidth);
  center_x *= (1.0f - depth) * 0.95f + 0.05f;
  center_y *= (1.0f - width) * 0.9f + 0.1f;
  const float back_x = center_x - depth * kHalfLength * tv.attack_sign;
  const float front_x = center_x + depth * kHalfLength * tv.attack_sign;
  const float low_y = center_y - width * kHalfWidth, high_y = center_y + width * kHalfWidth;

  // The midfield stretches towards the half the ball is in.
  const float midfield_focus = (kOffenseMidfieldFocus * pb + kDefenseMidfieldFocus * (1.0f - pb)) * 0.7f +
                               ramp(ball_x / kHalfLength * tv.attack_sign, -0.8f, 0.8f) * 0.3f;
  Vec2 f{w.p.shape_x[p], w.p.shape_y[p]};
  const float stretch = s_curve(clampf(1.0f - std::fabs(f.x * 1.2f), 0.0f, 1.0f)) * kMidfieldFocusStrength;
  f.x = f.x * (1.0f - stretch) + (midfield_focus * 2.0f - 1.0f) * stretch;
  Vec2 spot{back_x + (f.x * 0.5f + 0.5f) * (front_x - back_x), low_y + (-f.y * tv.attack_sign * 0.5f + 0.5f) * (high_y - low_y)};
  const Vec2 pure = spot;

  // Drawn across towards the ball...
  const float y_strength = 0.5f * pb + 0.2f * (1.0f - pb);
  float bias = (1.0f - clampf(std::fabs(ball_y - spot.y) / (high_y - low_y), 0.0f, 1.0f)) *
               (0.2f + 0.8f * std::fabs(ball_y) / kHalfWidth) * y_strength;
  spot.y = spot.y * (1.0f - bias) + ball_y * bias;

  // ...and towards the action (GRF's micro-focus): in possession just behind the ball,
  // out of it 2 m goal-side of it, no deeper than the box.
  const float defensive_x = tv.attack_sign > 0.0f ? clampf(focal.x - 2.0f, back_x, kHalfLength)
                                                  : clampf(focal.x + 2.0f, -kHalfLength, back_x);
  const Vec2 micro = Vec2{clampf(focal.x - tv.attack_sign, -kHalfLength, kHalfLength), focal.y * 0.9f} * pb +
                     Vec2{defensive_x, focal.y * 0.9f} * (1.0f - pb);
  const float side_bias = ball_up * 0.7f + 0.3f;
  const float auto_strength = std::pow(side_bias, 0.8f) * pb + std::pow(1.0f - side_bias, 0.6f) * (1.0f - pb);
  const float micro_strength = (kOffenseMicroFocus * pb + kDefenseMicroFocus * (1.0f - pb)) * (0.2f + 0.8f * auto_strength);
  const float dist = length(Vec2{micro.x - pure.x, (micro.y - pure.y) * 0.8f}) / 50.0f;
  if (dist < 1.0f) {
    float m = s_curve(1.0f - dist) * 0.3f + (1.0f - dist) * 0.7f;
    m = clampf(m + (1.0f - ramp(std::fabs(dist - 0.15f), 0.0f, 0.25f)) * 0.1f, 0.0f, 1.0f) * micro_strength;
    const Vec2 micro_spot{micro.x, micro.y * 0.6f + spot.y * 0.4f};
    spot = spot * (1.0f - m) + micro_spot * m;
  }
  spot.x = clampf(spot.x, -kHalfLength, kHalfLength);
  spot.y = clampf(spot.y, -kHalfWidth, kHalfWidth);
  return spot;
}

namespace {

struct Force {
  Vec2 sum{};
  float weight = 0.0f;
  Vec2 at;
  // GRF's ForceSpot: a constant pull (scale 0), or one fading linearly to nothing at
  // `scale` metres, to the power `exp`; pulls ease off within 7 m so as not to overshoot.
  void add(Vec2 origin, float power, bool repel, float scale = 0.0f, float exp = 1.0f) {
    const Vec2 d = origin - at;
    const float len_sq = length_sq(d);
    if (scale > 0.0f && len_sq >= scale * scale) return;  // out of its reach: spares the roots
    const float len = std::sqrt(len_sq);
    float intensity = 1.0f;
    if (scale > 0.0f) {
      intensity = 1.0f - len / scale;
      if (exp == 0.5f) intensity = std::sqrt(intensity);
      else if (exp != 1.0f) intensity = std::pow(intensity, exp);
    }
    Vec2 dir = len > 1e-6f ? d * (1.0f / len) : Vec2{};
    if (repel) dir = dir * -1.0f;
    else if (len < 7.0f) dir = dir * (len / 7.0f);
    const float f = power * intensity;
    sum = sum + dir * f;
    weight += f;
  }
};

float opponent_repel_weight(int role) {
  switch (role) {
    case kRoleCB: case kRoleLB: case kRoleRB: return 0.3f * 2.2f;
    case kRoleDM: return 0.3f * 2.0f;
    case kRoleCM: case kRoleLM: case kRoleRM: return 0.3f * 1.6f;
    case kRoleAM: return 0.3f * 1.2f;
    default: return 0.3f;
  }
}

}  // namespace

// GRF's GetSupportPosition_ForceField round `base`.
Vec2 support_force_field_position(const World& w, int p, const TeamView& tv, const ShapeContext& ctx, Vec2 base, bool run) {
  const int main_man = ctx.ball_player[tv.team];
  const Vec2 cur = player_pos(w, p) + player_vel(w, p) * 0.1f;
  const Vec2 main_at = main_man >= 0 ? player_pos(w, main_man) + player_vel(w, main_man) * 0.1f : ball_pos(w);
  const float mind = role_mind_set(w.p.role[p]);
  const float fp = w.m.possession_amount[tv.team];
  Force field;
  field.at = cur;

  // His spot: the forward support player's pushed 4-12 m upfield, the others' upfield by
  // up to 22 m when on the flank away from the ball (GRF's lane version).
  Vec2 origin = base;
  if (p == w.m.forward_support[tv.team]) {
    origin.x += tv.attack_sign * (0.3f + 0.7f * mind) * 12.0f;
  } else {
    const float lane_y = (main_at.y >= 0.0f ? -1.0f : 1.0f) * 8.0f;
    const float amount = 22.0f * s_curve(1.0f - ramp(std::fabs(lane_y - cur.y), 0.0f, 30.0f));
    origin.x += tv.attack_sign * mind * std::sqrt(mind) * amount;
  }
  field.add(origin, 0.7f * (0.3f + 0.7f * ramp(distance(origin, cur), 0.0f, 20.0f)), false);
  if (run) field.add({tv.attack_sign * kHalfLength, cur.y * 0.5f}, 2.0f, false);

  // Clear of the three opponents nearest him (GRF picks them round cur + 0.3 x the man on
  // the ball), just behind each as the ball sees them, to open the passing lane.
  const int opp = 1 - tv.team;
  int near3[3];
  float near3_sq[3];
  nearest_players(w, opp, cur + main_at * 0.3f, -1, near3, near3_sq);
  const float repel = opponent_repel_weight(w.p.role[p]) * (run ? 0.5f : 1.0f);
  for (const int q : near3) {
    if (q < 0) continue;
    const Vec2 at = player_pos(w, q) + player_vel(w, q) * 0.1f;
    const float reach = (run ? 2.0f : 5.0f) + 2.0f;
    if (distance_sq(at, cur) >= reach * reach) continue;  // its spot is out of reach too
    field.add(at + normalized(at - main_at, {}) * 2.0f, repel, true, run ? 2.0f : 5.0f, 0.7f);
  }
  // Clear of team-mates (his five nearest) and of the ball's path once the hold is firm.
  if (fp >= 1.02f) {
    int near5[5];
    float near5_sq[5];
    nearest_players(w, tv.team, cur, p, near5, near5_sq);
    for (const int q : near5)
      if (q >= 0) field.add(player_pos(w, q) + player_vel(w, q) * 0.1f, 0.4f, true, 10.5f);
  }
  if (p != main_man) {
    if (fp >= 1.06f)
      for (const Vec2 at : ctx.ball_path) field.add(at, 1.0f, true, 2.0f, 0.5f);
    // Near the man on the ball, within 21 m, but not within 12.
    field.add(main_at, 0.45f, false, 21.0f);
    field.add(main_at, 0.45f, true, 12.0f);
  }
  Vec2 spot = cur;
  if (field.weight > 0.0f) spot = cur + field.sum * (kSprintSpeed / field.weight);
  // Never offside: the second-last opponent or the ball, and never short of halfway.
  float line = std::fmax(std::fmax(offside_line(w, tv), tv.attack_sign * w.ball.x), 0.0f);
  if (tv.attack_sign * spot.x > line - 0.08f) spot.x = tv.attack_sign * (line - 0.08f);
  spot.x = clampf(spot.x, -kHalfLength, kHalfLength);
  spot.y = clampf(spot.y, -kHalfWidth, kHalfWidth);
  return spot;
}

Vec2 shape_position(const World& w, int p, const TeamView& tv, const ShapeContext& ctx) {
  const Vec2 base = adapted_formation_position(w, p, tv, ctx);
  const int role = w.p.role[p];
  const float fp = w.m.possession_amount[tv.team] - 0.5f;
  // How far each line leaves its spot for the support position (GRF's def/mid/offense
  // strategies), and when a midfielder or forward follows his attacking run.
  float attack = 0.0f;
  bool run = p == w.m.attack_runner[tv.team] && w.m.attack_run_steps[tv.team] > 0;
  if (role == kRoleCB || role == kRoleLB || role == kRoleRB) {
    attack = ramp(fp, 0.2f, 0.9f);
    run = false;
  } else if (role == kRoleCF) {
    attack = ramp(fp, 0.1f, 0.6f);
    run = run && attack > 0.7f;
  } else {
    attack = ramp(fp, 0.1f, 0.7f);
    run = run && attack > 0.9f;
  }
  if (attack <= 0.0f) return base;
  return base * (1.0f - attack) + support_force_field_position(w, p, tv, ctx, base, run) * attack;
}

}  // namespace trackfield::football
