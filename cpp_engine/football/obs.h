// Observation writers. Each writes one agent's observation into caller-owned memory,
// seen from the agent's side: a right-team agent gets the pitch rotated by 180 degrees
// and its own team reported as "left", as GRF does, so one policy plays both sides.
#ifndef TRACKFIELD_FOOTBALL_OBS_H
#define TRACKFIELD_FOOTBALL_OBS_H

#include <cstdint>
#include <vector>

#include "common/field_spec.h"
#include "football/env_config.h"
#include "football/world.h"

namespace trackfield::football {

// The agent's view of the pitch: GRF units, rotated for right-team agents.
struct Perspective {
  int own, opp;
  float sign;
};

inline Perspective perspective_of(const World& w, int agent) {
  int own = w.agents[agent].team;
  return {own, 1 - own, own == 0 ? 1.0f : -1.0f};
}
inline float obs_x(const Perspective& v, float x) { return x * kXToObs * v.sign; }
inline float obs_y(const Perspective& v, float y) { return y * kYToObs * v.sign; }
// The ball's height as GRF reports it: its centre, in metres (z is its lowest point).
inline float obs_ball_z(const World& w) { return w.ball.z + kBallRadius; }
// GRF's "direction": movement over one step, in GRF units.
inline float obs_dx(const Perspective& v, float vx) { return vx * kStepSeconds * kXToObs * v.sign; }
inline float obs_dy(const Perspective& v, float vy) { return vy * kStepSeconds * kYToObs * v.sign; }
// 0 none, 1 the agent's team, 2 the opponents.
inline int owned_side(const World& w, const Perspective& v) {
  int t = reported_owner_team(w);
  return t < 0 ? 0 : (t == v.own ? 1 : 2);
}

// raw: GRF's dict, flattened to float32 in the order raw_fields() lists. n_sticky is
// the action set's sticky_action_count (GRF lists the set's sticky actions).
std::vector<FieldSpec> raw_fields(int own_players, int opp_players, int n_sticky = kNumStickyActions);
int raw_size(int own_players, int opp_players, int n_sticky = kNumStickyActions);
void write_obs_raw(const World& w, int agent, int n_sticky, float* out);

void write_obs_simple115(const World& w, int agent, float* out);
// height x width x 4, channels last (GRF's default 72 x 96).
void write_obs_smm(const World& w, int agent, int width, int height, uint8_t* out);

}  // namespace trackfield::football

#endif
