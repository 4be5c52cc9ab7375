// raw: GRF's per-player observation dict. The engine writes it as one float32 row per
// agent in raw_fields() order; Python slices the row into the dict (with dtypes).
#include "football/obs.h"

namespace trackfield::football {

std::vector<FieldSpec> raw_fields(int n_own, int n_opp, int n_sticky) {
  const float kBig = 1e6f;
  std::vector<FieldSpec> f = {
      {"ball", {3}, "float32", -kBig, kBig, "ball position (x, y, z); z in metres"},
      {"ball_direction", {3}, "float32", -kBig, kBig, "ball movement over one step"},
      {"ball_rotation", {3}, "float32", -kBig, kBig, "ball spin (always 0: the ball is spin-free)"},
      {"ball_owned_team", {}, "int32", -1, 1, "-1 nobody, 0 the agent's team, 1 the opponents"},
      {"ball_owned_player", {}, "int32", -1, kMaxTeamPlayers - 1, "index of the carrier in its team, -1 if none"},
  };
  const char* sides[2] = {"left_team", "right_team"};
  int sizes[2] = {n_own, n_opp};
  for (int side = 0; side < 2; ++side) {
    std::string t = sides[side];
    int n = sizes[side];
    f.push_back({t, {n, 2}, "float32", -kBig, kBig, "player positions (x, y)"});
    f.push_back({t + "_direction", {n, 2}, "float32", -kBig, kBig, "player movement over one step"});
    f.push_back({t + "_tired_factor", {n}, "float32", 0, 1, "0 fresh .. 1 exhausted"});
    f.push_back({t + "_yellow_card", {n}, "bool", 0, 1, "shown a yellow card (a second is a red: not active)"});
    f.push_back({t + "_active", {n}, "bool", 0, 1, "on the pitch (not sent off)"});
    f.push_back({t + "_roles", {n}, "int32", 0, kNumRoles - 1, "role (0 GK .. 9 CF)"});
  }
  f.push_back({"score", {2}, "int32", 0, 1000, "goals (agent's team, opponents)"});
  f.push_back({"steps_left", {}, "int32", 0, 1000000, "step() calls until the time limit"});
  f.push_back({"game_mode", {}, "int32", 0, kNumGameModes - 1, "0 normal .. 6 penalty"});
  f.push_back({"active", {}, "int32", -1, kMaxTeamPlayers - 1, "index of the controlled player"});
  f.push_back({"designated", {}, "int32", -1, kMaxTeamPlayers - 1, "index of the designated player"});
  f.push_back({"sticky_actions", {n_sticky}, "uint8", 0, 1,
               n_sticky == kNumStickyActionsFull ? "8 directions, sprint, dribble, keeper_rush, pressure, team_pressure"
                                                 : "8 directions, sprint, dribble"});
  return f;
}

int raw_size(int n_own, int n_opp, int n_sticky) {
  int n = 0;
  for (const FieldSpec& f : raw_fields(n_own, n_opp, n_sticky)) n += field_size(f);
  return n;
}

void write_obs_raw(const World& w, int agent, int n_sticky, float* out) {
  Perspective v = perspective_of(w, agent);
  const Agent& ag = w.agents[agent];
  float* o = out;
  *o++ = obs_x(v, w.ball.x);
  *o++ = obs_y(v, w.ball.y);
  *o++ = obs_ball_z(w);
  *o++ = obs_dx(v, w.ball.vx);
  *o++ = obs_dy(v, w.ball.vy);
  *o++ = w.ball.vz * kStepSeconds;
  *o++ = 0.0f;
  *o++ = 0.0f;
  *o++ = 0.0f;
  int side = owned_side(w, v);
  *o++ = static_cast<float>(side - 1);
  *o++ = static_cast<float>(reported_owner(w) < 0 ? -1 : slot_of(reported_owner(w)));
  for (int k = 0; k < 2; ++k) {
    int team = k == 0 ? v.own : v.opp;
    int n = w.team_size[team];
    int base = first_of(team);
    for (int s = 0; s < n; ++s) *o++ = obs_x(v, w.p.x[base + s]), *o++ = obs_y(v, w.p.y[base + s]);
    for (int s = 0; s < n; ++s) *o++ = obs_dx(v, w.p.vx[base + s]), *o++ = obs_dy(v, w.p.vy[base + s]);
    for (int s = 0; s < n; ++s) *o++ = w.p.tired[base + s];
    for (int s = 0; s < n; ++s) *o++ = w.p.yellow_cards[base + s] > 0 ? 1.0f : 0.0f;
    for (int s = 0; s < n; ++s) *o++ = w.p.present[base + s] ? 1.0f : 0.0f;
    for (int s = 0; s < n; ++s) *o++ = w.p.role[base + s];
  }
  *o++ = static_cast<float>(w.m.score[v.own]);
  *o++ = static_cast<float>(w.m.score[v.opp]);
  // GRF counts the step() calls left: game_duration + 1 at reset, 0 after the last.
  *o++ = static_cast<float>(w.m.game_duration >= w.m.steps ? w.m.game_duration + 1 - w.m.steps : 0);
  *o++ = static_cast<float>(w.m.game_mode);
  float active = ag.player < 0 ? -1.0f : static_cast<float>(slot_of(ag.player));
  *o++ = active;
  *o++ = active;
  for (int d = 1; d <= 8; ++d) *o++ = ag.direction == d ? 1.0f : 0.0f;
  *o++ = ag.sprint ? 1.0f : 0.0f;
  *o++ = ag.dribble ? 1.0f : 0.0f;
  if (n_sticky == kNumStickyActionsFull) {  // GRF's order of the full set's sticky actions
    *o++ = ag.keeper_rush ? 1.0f : 0.0f;
    *o++ = ag.pressure ? 1.0f : 0.0f;
    *o++ = ag.team_pressure ? 1.0f : 0.0f;
  }
}

}  // namespace trackfield::football
