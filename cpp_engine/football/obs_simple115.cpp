// simple115v2: GRF's 115-float vector with fixed 11-player slots per team.
#include "football/obs.h"

namespace trackfield::football {

namespace {

// Positions then directions of one team's 11 slots; -1 fills missing players: slots
// past the line-up and players sent off (whose slot stays empty until the episode ends).
void write_team(const World& w, const Perspective& v, int team, float* pos, float* dir) {
  for (int s = 0; s < kMaxTeamPlayers; ++s) {
    int p = first_of(team) + s;
    if (s < w.team_size[team] && w.p.present[p]) {
      pos[2 * s] = obs_x(v, w.p.x[p]);
      pos[2 * s + 1] = obs_y(v, w.p.y[p]);
      dir[2 * s] = obs_dx(v, w.p.vx[p]);
      dir[2 * s + 1] = obs_dy(v, w.p.vy[p]);
    } else {
      pos[2 * s] = pos[2 * s + 1] = dir[2 * s] = dir[2 * s + 1] = -1.0f;
    }
  }
}

}  // namespace

void write_obs_simple115(const World& w, int agent, float* out) {
  Perspective v = perspective_of(w, agent);
  write_team(w, v, v.own, out + 0, out + 22);
  write_team(w, v, v.opp, out + 44, out + 66);
  out[88] = obs_x(v, w.ball.x);
  out[89] = obs_y(v, w.ball.y);
  out[90] = obs_ball_z(w);
  out[91] = obs_dx(v, w.ball.vx);
  out[92] = obs_dy(v, w.ball.vy);
  out[93] = w.ball.vz * kStepSeconds;
  for (int i = 94; i < 115; ++i) out[i] = 0.0f;
  out[94 + owned_side(w, v)] = 1.0f;
  int active = w.agents[agent].player;
  if (active >= 0) out[97 + slot_of(active)] = 1.0f;
  out[108 + w.m.game_mode] = 1.0f;
}

}  // namespace trackfield::football
