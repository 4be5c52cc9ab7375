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
    try_pass(w, p, kick, aim, 1.0f, kAgentPassReach);
  agent.pending_kick = 0;
  agent.pending_steps = 0;
}

// A kick is an animation: the ball leaves the foot kKickWindup steps after the press,
// one more when the player must first turn more than 90 degrees towards the kick.
int kick_windup_steps(const World& w, const Agent& agent) {
  int p = agent.player;
  Vec2 face{w.p.face_x[p], w.p.face_y[p]};
  Vec2 aim = agent.direction ? Vec2{kDirX[agent.direction], kDirY[agent.direction]} : face;
  if (agent.pending_kick == kShot) aim = Vec2{attack_goal_x(team_of(p)), 0.0f} - player_pos(w, p);
  return kKickWindup + (dot(face, aim) < 0.0f ? 1 : 0);
}

void start_slide(World& w, int p) {
  if (w.p.slide_steps[p] > 0 || w.ball.owner == p) return;
  w.p.slide_steps[p] = kSlideSteps;
}

// GRF's ball magnet (use_magnet, on by default): a controlled player near a loose ball
// steps onto it whatever direction is pressed (measured in GRF: a player pressing left,
// then up, with the ball a metre to his right walks onto it), so the nearer attacker
// takes the ball as a footballer would.
bool magnet_to_ball(World& w, int p, const Agent& agent) {
  if (w.ball.owner >= 0 || w.ball.z > 0.5f || w.m.game_mode != kModeNormal) return false;
  Vec2 to_ball = ball_pos(w) - player_pos(w, p);
  float d = length(to_ball);
  if (d > kMagnetRadius || d < 1e-3f) return false;
  Vec2 dir = to_ball * (1.0f / d);
  float speed = player_speed(w, p, agent.sprint, false);
  w.p.want_vx[p] = dir.x * speed;
  w.p.want_vy[p] = dir.y * speed;
  if (w.p.slide_steps[p] == 0) {
    w.p.face_x[p] = dir.x;
    w.p.face_y[p] = dir.y;
  }
  return true;
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
    if (agent.pending_kick && w.ball.owner == p && !frozen) {
      if (agent.kick_windup == 0) agent.kick_windup = static_cast<int8_t>(kick_windup_steps(w, agent));
      if (--agent.kick_windup == 0) execute_kick(w, agent, agent.pending_kick);
    } else {
      agent.kick_windup = 0;  // the ball was lost before the kick: it is off
    }
    if (agent.kick_windup == 0 && agent.pending_steps > 0 && --agent.pending_steps == 0) agent.pending_kick = 0;

    // A set-piece taker waits on the spot until the restart is played.
    if (w.m.game_mode != kModeNormal && p == w.m.taker) {
      w.p.want_vx[p] = w.p.want_vy[p] = 0.0f;
      w.p.sprinting[p] = false;
      continue;
    }
    if (w.ball.owner < 0 && w.ball.pass_receiver == p && w.m.game_mode == kModeNormal) {
      // GRF moves a controlled pass receiver to meet the ball, whatever is pressed.
      Vec2 to = intercept_point(w, p) - player_pos(w, p);
      float d = length(to);
      float speed = player_speed(w, p, agent.sprint, false) * std::fmin(d / 2.0f, 1.0f);
      Vec2 v = d > 1e-3f ? to * (speed / d) : Vec2{};
      w.p.want_vx[p] = v.x;
      w.p.want_vy[p] = v.y;
    } else if (magnet_to_ball(w, p, agent)) {
      // handled: stepping onto a loose ball at the feet
    } else if (agent.direction) {
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
          // A pass in flight hands control to its receiver, the keeper included (GRF).
          else if (w.ball.pass_receiver >= 0 && team_of(w.ball.pass_receiver) == team)
            forced = w.ball.pass_receiver;
          if (forced >= 0 && !w.p.controllable[forced]) forced = -1;
        }
        // Otherwise, as in GRF, the keeper is never switched to during play while a
        // field player is available: it stays with the AI, even on the ball.
        bool keeper_receiving = forced >= 0 && forced == w.ball.pass_receiver;
        if (forced >= 0 && w.p.role[forced] == kRoleGK && candidates > n && !keeper_receiving) forced = -1;
        int best = -1;
        float best_d = 1e30f;
        for (int s = 0; s < w.team_size[team]; ++s) {
          int p = first_of(team) + s;
          if (!w.p.present[p] || !w.p.controllable[p] || taken[p]) continue;
          if (w.p.role[p] == kRoleGK && candidates > n) continue;
          float d = distance(player_pos(w, p), ball);
          if (d < best_d) best_d = d, best = p;
        }
        int cur = agent.player;
        bool cur_ok = cur >= 0 && w.p.present[cur] && w.p.controllable[cur] && !taken[cur] &&
                      team_of(cur) == team && !(w.p.role[cur] == kRoleGK && candidates > n);
        int chosen = forced;
        if (chosen < 0 || taken[chosen]) {
          chosen = best;
          if (cur_ok && best >= 0 && distance(player_pos(w, cur), ball) < best_d + 2.0f) chosen = cur;
        }
        if (chosen >= 0 && chosen != cur) agent.pending_kick = agent.kick_windup = 0;
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
