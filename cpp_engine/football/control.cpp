// Controlled agents: GRF's 19 actions applied to each agent's active player, sticky
// movement/sprint/dribble, the one-touch kick buffer, and who each agent controls.
#include "football/step.h"

namespace trackfield::football {

namespace {

constexpr int kKickBufferSteps = 3;  // a kick pressed just before the ball arrives still happens

float player_speed(const World& w, int p, bool sprint, bool dribble) {
  float speed = sprint ? kSprintSpeed : kRunSpeed;
  if (w.ball.owner == p && dribble) speed = kDribbleSpeed;
  return speed * (1.0f - kTiredSlowdown * w.p.tired[p]);
}

bool set_piece_frozen(const World& w) {
  return w.m.game_mode != kModeNormal && w.m.mode_steps < kSetPieceDelaySteps;
}

void execute_kick(World& w, Agent& agent, int kick) {
  int p = agent.player;
  Vec2 aim = agent.direction ? Vec2{kDirX[agent.direction], kDirY[agent.direction]}
                             : Vec2{w.p.face_x[p], w.p.face_y[p]};
  if (kick == kShot)
    shoot(w, p, aim, 1.0f);
  else
    try_pass(w, p, kick, aim, 1.0f);
  agent.pending_kick = 0;
  agent.pending_steps = 0;
}

void start_slide(World& w, int p) {
  if (w.p.slide_steps[p] > 0 || w.ball.owner == p) return;
  w.p.slide_steps[p] = kSlideSteps;
}

}  // namespace

void apply_agent_actions(World& w, const int32_t* actions) {
  for (int a = 0; a < w.num_agents; ++a) {
    Agent& agent = w.agents[a];
    int p = agent.player;
    int act = actions[a];
    if (act >= kLeft && act <= kBottomLeft) agent.direction = static_cast<int8_t>(act);
    else if (act == kReleaseDirection) agent.direction = 0;
    else if (act == kSprint) agent.sprint = true;
    else if (act == kReleaseSprint) agent.sprint = false;
    else if (act == kDribble) agent.dribble = true;
    else if (act == kReleaseDribble) agent.dribble = false;
    if (p < 0) continue;

    bool frozen = set_piece_frozen(w);
    if (act >= kLongPass && act <= kShot && !frozen) {
      agent.pending_kick = static_cast<int8_t>(act);
      agent.pending_steps = kKickBufferSteps;
    } else if (act == kSliding && !frozen && w.m.game_mode == kModeNormal) {
      start_slide(w, p);
    }
    if (agent.pending_kick && w.ball.owner == p && !frozen) execute_kick(w, agent, agent.pending_kick);
    if (agent.pending_steps > 0 && --agent.pending_steps == 0) agent.pending_kick = 0;

    // A set-piece taker waits on the spot until the restart is played.
    if (w.m.game_mode != kModeNormal && p == w.m.taker) {
      w.p.want_vx[p] = w.p.want_vy[p] = 0.0f;
      w.p.sprinting[p] = false;
      continue;
    }
    if (agent.direction) {
      float speed = player_speed(w, p, agent.sprint, agent.dribble);
      w.p.want_vx[p] = kDirX[agent.direction] * speed;
      w.p.want_vy[p] = kDirY[agent.direction] * speed;
      if (w.p.slide_steps[p] == 0) {
        w.p.face_x[p] = kDirX[agent.direction];
        w.p.face_y[p] = kDirY[agent.direction];
      }
    } else {
      w.p.want_vx[p] = w.p.want_vy[p] = 0.0f;
    }
    w.p.sprinting[p] = agent.sprint && agent.direction != 0;
  }
}

// Each agent drives one player: the ball carrier or the intended pass receiver when
// its team has the ball, otherwise the player nearest the ball (with hysteresis so
// control does not flicker between two equally near players).
void select_active_players(World& w) {
  for (int p = 0; p < kMaxPlayers; ++p) w.p.controlled_by[p] = -1;
  Vec2 ball = ball_pos(w);
  for (int team = 0; team < 2; ++team) {
    int agents[kMaxAgents];
    int n = 0;
    for (int a = 0; a < w.num_agents; ++a)
      if (w.agents[a].team == team) agents[n++] = a;
    if (n == 0) continue;
    bool taken[kMaxPlayers] = {};
    int candidates = 0;
    for (int s = 0; s < w.team_size[team]; ++s) {
      int p = first_of(team) + s;
      if (w.p.present[p] && w.p.controllable[p]) ++candidates;
    }
    // Every controllable player has an agent: a fixed one-to-one mapping.
    if (n >= candidates) {
      int k = 0;
      for (int s = 0; s < w.team_size[team] && k < n; ++s) {
        int p = first_of(team) + s;
        if (!(w.p.present[p] && w.p.controllable[p])) continue;
        w.agents[agents[k++]].player = p;
      }
      for (; k < n; ++k) w.agents[agents[k]].player = -1;
    } else {
      for (int k = 0; k < n; ++k) {
        Agent& agent = w.agents[agents[k]];
        int forced = -1;
        if (k == 0) {
          if (w.ball.owner >= 0 && team_of(w.ball.owner) == team) forced = w.ball.owner;
          // A pass in flight hands control to its receiver, except a back-pass to the
          // keeper: the keeper's AI collects it, then the agent takes over the carrier.
          else if (w.ball.pass_receiver >= 0 && team_of(w.ball.pass_receiver) == team &&
                   w.p.role[w.ball.pass_receiver] != kRoleGK)
            forced = w.ball.pass_receiver;
          if (forced >= 0 && !w.p.controllable[forced]) forced = -1;
        }
        int best = -1;
        float best_d = 1e30f;
        for (int s = 0; s < w.team_size[team]; ++s) {
          int p = first_of(team) + s;
          if (!w.p.present[p] || !w.p.controllable[p] || taken[p]) continue;
          float d = distance(player_pos(w, p), ball);
          if (d < best_d) best_d = d, best = p;
        }
        int cur = agent.player;
        bool cur_ok = cur >= 0 && w.p.present[cur] && w.p.controllable[cur] && !taken[cur] &&
                      team_of(cur) == team;
        int chosen = forced;
        if (chosen < 0 || taken[chosen]) {
          chosen = best;
          if (cur_ok && best >= 0 && distance(player_pos(w, cur), ball) < best_d + 2.0f) chosen = cur;
        }
        if (chosen >= 0 && chosen != cur) agent.pending_kick = 0;
        agent.player = chosen;
        if (chosen >= 0) taken[chosen] = true;
      }
    }
    for (int k = 0; k < n; ++k) {
      int p = w.agents[agents[k]].player;
      if (p >= 0) w.p.controlled_by[p] = static_cast<int8_t>(agents[k]);
    }
  }
}

}  // namespace trackfield::football
