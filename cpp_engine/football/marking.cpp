// GRF's man-marking (TeamAIController::CalculateManMarking, CalculateMarkingQuality and
// PlayerController::AddDefensiveComponent): the three opponents most dangerous to a team's
// goal each get the field player best placed to cover them. A marker does not hunt the
// carrier; he holds a spot goal-side of his man, and the carrier is hunted only by the
// other players nearest him.
#include <algorithm>
#include <cmath>

#include "football/ai_shared.h"

namespace trackfield::football {

namespace {

constexpr int kMarkedOpponents = 3;
// A marker keeps this much nearer than his man to the point from which the man would shoot.
constexpr float kMarkBuffer = 4.0f;
// That point is this far from goal for the carrier, and for anyone else (GRF).
constexpr float kCarrierShootDistance = 24.0f;
constexpr float kOpponentShootDistance = 8.0f;
constexpr float kMarkMinLead = 0.4f;  // the point is at least this far in front of the man

float normalized_clamp(float v, float lo, float hi) { return clampf((v - lo) / (hi - lo), 0.0f, 1.0f); }

// What marking_quality needs of a would-be marker, worked out once per call.
struct MarkerView {
  Vec2 at;          // where he will be in 0.1 s
  Vec2 to_goal;     // unit vector towards his goal
  Vec2 line_centre;  // his line across the pitch passes here, half a metre upfield of him
  float half_line;  // that line's half length, 4-14 m
};

MarkerView marker_view(const World& w, int p, const TeamView& tv) {
  MarkerView m;
  m.at = player_pos(w, p) + player_vel(w, p) * 0.1f;
  const Vec2 to_goal = tv.own_goal - m.at;
  m.half_line = clampf(length(to_goal), 4.0f, 14.0f);
  m.to_goal = normalized(to_goal, {-tv.attack_sign, 0.0f});
  m.line_centre = m.at - m.to_goal * 0.5f;
  return m;
}

// How well a marker covers an opponent who will be at `them` in 0.1 s: high when the
// opponent is upfield of him, near his line across the pitch and near him.
float marking_quality(const MarkerView& m, Vec2 them) {
  const Vec2 rel = them - m.line_centre;
  const float upfield = -dot(rel, m.to_goal);  // > 0: he is on the far side of the line
  const float across = std::fabs(rel.x * m.to_goal.y - rel.y * m.to_goal.x) / m.half_line;  // 1 at the line's end
  float from_line = std::fabs(upfield);
  if (upfield > 0.0f) from_line = std::fabs(from_line - 2.0f);  // the best spot is a little off the line
  float result = 1.0f - 0.5f * std::sqrt(normalized_clamp(from_line, 0.0f, 60.0f)) -
                 0.5f * std::sqrt(std::fmin(across, 1.0f));
  result = clampf(result, 0.0f, 1.0f);
  if (upfield <= 0.0f) result *= 0.6f;  // he is past him already
  const float nearness = 1.0f - normalized_clamp(distance(m.at, them), 0.0f, 4.0f * kHalfLength);
  return 0.8f * result + 0.2f * nearness;
}

}  // namespace

void assign_man_marking(const World& w, const TeamView& tv, int8_t marks[kMaxTeamPlayers]) {
  const int team = tv.team, opp_team = 1 - team;
  for (int s = 0; s < kMaxTeamPlayers; ++s) marks[s] = -1;
  // Danger: nearness to a point just in front of our goal, drawn a fifth of the way to the ball.
  const Vec2 danger_spot = Vec2{tv.own_goal.x + 2.0f * tv.attack_sign, 0.0f} * 0.8f +
                           (ball_pos(w) + Vec2{w.ball.vx, w.ball.vy} * 0.1f) * 0.2f;
  // GRF's designated possession player of the other team: the carrier, or the one of
  // them nearest a ball nobody holds.
  int on_ball = ball_owner_team(w) == opp_team ? w.ball.owner : -1;
  if (on_ball < 0) nearest_opponent_distance(w, team, ball_pos(w), &on_ball);
  int order[kMaxTeamPlayers];
  float danger[kMaxTeamPlayers];
  int n = 0;
  for (int s = 0; s < w.team_size[opp_team]; ++s) {
    const int q = first_of(opp_team) + s;
    if (!w.p.present[q]) continue;
    danger[n] = 0.95f * (1.0f - normalized_clamp(distance(player_pos(w, q), danger_spot), 0.0f, 2.0f * kHalfLength)) +
                (q == on_ball ? 0.05f : 0.0f);
    order[n++] = q;
  }
  // The most dangerous first (a selection, not a sort: only three are needed); ties keep
  // slot order so every thread count agrees.
  int idx[kMarkedOpponents];
  bool picked[kMaxTeamPlayers] = {};
  const int wanted = std::min(n, kMarkedOpponents);
  for (int k = 0; k < wanted; ++k) {
    int best = -1;
    for (int i = 0; i < n; ++i)
      if (!picked[i] && (best < 0 || danger[i] > danger[best])) best = i;
    picked[best] = true;
    idx[k] = best;
  }
  // The team's field players who may mark, and how each sees the pitch.
  MarkerView views[kMaxTeamPlayers];
  bool can_mark[kMaxTeamPlayers] = {};
  int free_markers = 0;
  for (int s = 0; s < w.team_size[team]; ++s) {
    const int q = first_of(team) + s;
    if (!w.p.present[q] || w.p.role[q] == kRoleGK) continue;
    can_mark[s] = true;
    views[s] = marker_view(w, q, tv);
    ++free_markers;
  }
  for (int k = 0; k < wanted && free_markers > 0; ++k) {
    const int opp = order[idx[k]];
    const Vec2 them = player_pos(w, opp) + player_vel(w, opp) * 0.1f;
    int best = -1;
    float best_quality = -1.0f;
    for (int s = 0; s < w.team_size[team]; ++s) {
      if (!can_mark[s]) continue;
      const float quality = marking_quality(views[s], them);
      if (quality > best_quality) best_quality = quality, best = s;
    }
    if (best < 0) break;
    can_mark[best] = false;
    marks[best] = static_cast<int8_t>(opp);
    --free_markers;
  }
}

Vec2 marking_position(const World& w, int p, int opp, bool on_ball, Vec2 desired, const TeamView& tv) {
  const Vec2 them = player_pos(w, opp) + player_vel(w, opp) * 0.5f;
  const float shoot_distance = on_ball ? kCarrierShootDistance : kOpponentShootDistance;
  const Vec2 to_goal = tv.own_goal - them;
  const float lead = clampf(length(to_goal) - shoot_distance, kMarkMinLead, kHalfLength);
  const Vec2 shooting_point = them + normalized(to_goal) * lead;
  // Stay kMarkBuffer nearer the shooting point than he is, moving from the shape's spot
  // only as far as that needs.
  Vec2 defend = desired;
  const Vec2 to_point = shooting_point - desired;
  const float slack = length(to_point) - (lead - kMarkBuffer);
  if (slack > 0.0f) defend = desired + normalized(to_point) * std::fmin(slack, length(to_point));
  // Too late to get there first: drop back towards goal instead.
  const Vec2 actual = player_pos(w, p) + player_vel(w, p) * 0.14f;
  const float late = distance(shooting_point, actual) - lead;
  if (late > 0.0f) defend = defend + normalized(tv.own_goal - defend) * (late * 0.7f);
  return defend;
}

}  // namespace trackfield::football
