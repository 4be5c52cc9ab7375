// Controlled agents: GRF's 19 actions applied to each agent's active player, sticky
// movement/sprint/dribble, the one-touch kick buffer, and who each agent controls.
#include <algorithm>

#include "football/step.h"

namespace trackfield::football {

namespace {

// A kick queued on the way to the ball (kKickBufferSteps) has run its animation while he
// got there: it meets the ball no sooner than 3 steps after the press (GRF, measured:
// pressed 1-4 steps after reset, struck at steps 5, 5, 6, 7) and at once if the press is
// older.
constexpr int kFirstTouchKickSteps = 3;

float player_speed(const World& w, int p, bool sprint, bool dribble) {
  float speed = sprint ? kSprintSpeed : kRunSpeed;
  if (w.ball.owner == p && dribble) speed = kDribbleSpeed;
  return speed_of(w, p, speed);
}

// The pitch direction of an agent's movement action. A right-team agent sees the pitch
// rotated by 180 degrees and its actions are too (GRF mirrors a right-side controller;
// measured: a right agent pressing left moves towards its own goal), so one policy can
// play either side.
Vec2 action_direction(const Agent& agent) {
  const float sign = agent.team == 0 ? 1.0f : -1.0f;
  return {kDirX[agent.direction] * sign, kDirY[agent.direction] * sign};
}

// Someone else struck the ball in the last step and it is flying away from player p: GRF's
// controller drops a buffered kick when the player's time to the ball jumps.
bool ball_struck_away_from(const World& w, int p) {
  if (w.ball.owner >= 0 || w.ball.last_touch < 0 || w.ball.last_touch == p ||
      w.ball.flight_time > 1.5f * kStepSeconds)
    return false;
  return dot(Vec2{w.ball.vx, w.ball.vy}, ball_pos(w) - player_pos(w, p)) > 0.0f;
}

// GRF's controller reads a kick button as a kick only in a ball context (its
// possessionContext): the player is the match's designated possession player, or his
// possession amount, (opponents' time to the ball + 0.2 s) / (his + 0.2 s), is at least
// 0.85 (0.65 for a ball above 1.5 m). Otherwise the press is a defender's and is not
// queued: an opponent's ball won by a player who had pressed a pass is his, not struck on.
bool kick_press_counts(const World& w, int p, BallRaceCache& races) {
  if (w.m.steps == 0) return false;  // GRF, measured: a kick pressed on an episode's first step is never played
  if (w.m.game_mode != kModeNormal || w.ball.owner == p) return true;
  const int team = team_of(p);
  float mine, theirs;
  if (w.ball.owner < 0) {
    const BallRace& race = ball_race(w, races);
    if (race.team_fastest[team] == p && race.team_best[team] <= race.team_best[1 - team]) return true;
    mine = race.seconds[p];
    theirs = race.team_best[1 - team];
  } else {
    mine = distance(player_pos(w, p), ball_pos(w)) / kSprintSpeed;
    theirs = team_of(w.ball.owner) != team ? 0.0f : 1e30f;
    for (int s = 0; s < w.team_size[1 - team] && theirs > 0.0f; ++s) {
      const int q = first_of(1 - team) + s;
      if (w.p.present[q]) theirs = std::fmin(theirs, distance(player_pos(w, q), ball_pos(w)) / kSprintSpeed);
    }
  }
  const float context = (theirs + 0.2f) / (mine + 0.2f) - 1.0f + 0.15f + (w.ball.z > 1.5f ? 0.2f : 0.0f);
  return context >= 0.0f;
}

bool set_piece_frozen(const World& w) {
  return w.m.game_mode != kModeNormal && w.m.mode_steps < kSetPieceDelaySteps;
}

void execute_kick(World& w, Agent& agent, int kick) {
  int p = agent.player;
  Vec2 aim = agent.direction ? action_direction(agent) : Vec2{w.p.face_x[p], w.p.face_y[p]};
  if (kick == kShot)
    shoot(w, p, aim, 1.0f);
  else
    try_pass(w, p, kick, aim, 1.0f, kAgentPassReach);
  agent.pending_kick = 0;
  agent.pending_steps = 0;
}

// A kick is an animation: the ball leaves the foot kKickWindup steps after the press
// for a player running at where it goes; one step more from a standstill, one more for
// a pass than a shot, up to two more the further he must turn (GRF, measured: a shot
// 3-4 steps running at goal and 4-5 standing; a pass 5-6 standing, 5-6 turned back to
// the keeper). A pass goes where its receiver is, not where the stick points.
int kick_windup_steps(const World& w, const Agent& agent) {
  int p = agent.player;
  Vec2 face{w.p.face_x[p], w.p.face_y[p]};
  Vec2 aim = agent.direction ? action_direction(agent) : face;
  bool shot = agent.pending_kick == kShot;
  if (shot) {
    aim = Vec2{attack_goal_x(team_of(p)), 0.0f} - player_pos(w, p);
  } else {
    int receiver = choose_pass_receiver(w, p, aim, kAgentPassReach);
    if (receiver >= 0) aim = player_pos(w, receiver) - player_pos(w, p);
  }
  float turn = std::acos(clampf(dot(face, normalized(aim, face)), -1.0f, 1.0f));  // radians
  bool standing = length(player_vel(w, p)) < 2.0f;
  int steps = kKickWindup + static_cast<int>(turn * (2.0f / 3.14159265f) + 0.5f) + (standing ? 1 : 0) + (shot ? 0 : 1);
  return steps < kMaxKickWindup ? steps : kMaxKickWindup;
}

// GRF's human controller slides only out of possession: not while its team has the
// ball, nor while the player is the one nearer a loose ball than any opponent (GRF's
// designated possession player). Measured: a random player at reset does not slide.
void start_slide(World& w, int p) {
  if (w.p.slide_steps[p] > 0 || w.ball.owner == p) return;
  int team = team_of(p);
  if (ball_owner_team(w) == team) return;
  if (w.ball.owner < 0 &&
      distance(player_pos(w, p), ball_pos(w)) < nearest_opponent_distance(w, team, ball_pos(w))) return;
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

// GRF's magnet for the selected player (PlayerController::_MovementCommand): while the
// ball is loose, he is his team's nearest to it and his team would reach it first, he
// runs for it whatever is pressed (measured in GRF, tools/football_probes.py loose_ball:
// a player holding "up", the ball 22 m to his side, owns it 40 steps later, as here);
// while an opponent would be there first, his run bends towards the ball by how near he
// is to winning the race and how well the pressed way agrees, and not at all when he
// heads for his own half.
bool chase_loose_ball(World& w, int p, const Agent& agent, BallRaceCache& races) {
  if (w.ball.owner >= 0 || w.m.game_mode != kModeNormal) return false;
  const BallRace& race = ball_race(w, races);
  const float mine = race.seconds[p];
  // Only the team's man nearest the ball (GRF's designated team possession player).
  if (mine > race.team_best[agent.team]) return false;
  const float theirs = race.team_best[1 - agent.team];
  Vec2 to = intercept_point(w, p) - player_pos(w, p);
  float d = length(to);
  if (d < 1e-3f) return false;
  Vec2 auto_dir = to * (1.0f / d);
  Vec2 manual = agent.direction ? action_direction(agent) : Vec2{};
  float bias = 1.0f;
  if (mine > theirs) {
    float amount = (theirs + 0.2f) / (mine + 0.2f);
    float closeness = std::sqrt(clampf((std::fmax(amount, 0.5f) - 0.5f) * 2.0f, 0.0f, 1.0f));
    float same_way = agent.direction ? 1.0f - std::acos(clampf(dot(manual, auto_dir), -1.0f, 1.0f)) / 3.14159265f : 0.0f;
    const float own_half_x = agent.team == 0 ? -1.0f : 1.0f;
    float to_own_half = clampf((manual.x * own_half_x + 1.0f) * 0.5f, 0.0f, 1.0f);
    bias = closeness * (same_way * 0.5f + 0.5f) * (1.0f - to_own_half);
    if (bias <= 0.01f) return false;
  }
  // GRF blends the two movements, speed included: a player pressing nothing drifts
  // towards a ball he is losing the race for.
  const float auto_speed = player_speed(w, p, true, false) * std::fmin(d / 2.0f, 1.0f);
  const float manual_speed = agent.direction ? player_speed(w, p, agent.sprint, false) : 0.0f;
  Vec2 v = manual * (manual_speed * (1.0f - bias)) + auto_dir * (auto_speed * bias);
  w.p.want_vx[p] = v.x;
  w.p.want_vy[p] = v.y;
  Vec2 dir = normalized(v, auto_dir);
  if (w.p.slide_steps[p] == 0) {
    w.p.face_x[p] = dir.x;
    w.p.face_y[p] = dir.y;
  }
  return true;
}

// The sticky flags and one-step switches an action sets (GRF: a sticky action holds
// until its release; builtin_ai hands the player to the AI and clears every flag).
void update_sticky(Agent& agent, int act) {
  agent.builtin_ai = act == kBuiltinAi;
  if (act >= kLeft && act <= kBottomLeft) agent.direction = static_cast<int8_t>(act);
  switch (act) {
    case kReleaseDirection: agent.direction = 0; break;
    case kSprint: agent.sprint = true; break;
    case kReleaseSprint: agent.sprint = false; break;
    case kDribble: agent.dribble = true; break;
    case kReleaseDribble: agent.dribble = false; break;
    case kKeeperRush: agent.keeper_rush = true; break;
    case kReleaseKeeperRush: agent.keeper_rush = false; break;
    case kPressure: agent.pressure = true; break;
    case kReleasePressure: agent.pressure = false; break;
    case kTeamPressure: agent.team_pressure = true; break;
    case kReleaseTeamPressure: agent.team_pressure = false; break;
    case kBuiltinAi:
      agent.direction = 0;
      agent.sprint = agent.dribble = agent.keeper_rush = agent.pressure = agent.team_pressure = false;
      agent.pending_kick = agent.pending_steps = agent.kick_windup = 0;
      break;
    default: break;
  }
  // Releasing a kick button before the ball has arrived withdraws the buffered press
  // (a kick whose wind-up has started is committed, as an animation is in GRF).
  const bool release_kick = act >= kReleaseLongPass && act <= kReleaseShot;
  if (release_kick && agent.kick_windup == 0 && agent.pending_kick == act - kReleaseLongPass + kLongPass)
    agent.pending_kick = agent.pending_steps = 0;
}

// switch: the agent takes the team-mate nearest the ball that nobody drives, while its
// team is not on the ball (GRF keeps the carrier selected). Only with fewer agents than
// controllable players; the keeper is skipped as the automatic selection skips him.
void switch_player(World& w, int a) {
  Agent& agent = w.agents[a];
  if (ball_owner_team(w) == agent.team) return;
  int agents_on_team = 0, candidates = 0;
  for (int k = 0; k < w.num_agents; ++k) agents_on_team += w.agents[k].team == agent.team;
  for (int s = 0; s < w.team_size[agent.team]; ++s) {
    int p = first_of(agent.team) + s;
    candidates += w.p.present[p] && w.p.controllable[p];
  }
  if (agents_on_team >= candidates) return;
  int best = -1;
  float best_d = 1e30f;
  for (int s = 0; s < w.team_size[agent.team]; ++s) {
    int p = first_of(agent.team) + s;
    if (!w.p.present[p] || !w.p.controllable[p] || w.p.controlled_by[p] >= 0 || p == agent.player) continue;
    if (w.p.role[p] == kRoleGK) continue;
    float d = distance(player_pos(w, p), ball_pos(w));
    if (d < best_d) best_d = d, best = p;
  }
  if (best < 0) return;
  if (agent.player >= 0) w.p.controlled_by[agent.player] = -1;
  agent.player = best;
  w.p.controlled_by[best] = static_cast<int8_t>(a);
  agent.pending_kick = agent.pending_steps = agent.kick_windup = 0;
  agent.switch_hold = kSwitchHoldSteps;
}

// Runs player p to where he can meet the ball, slowing within 2 m of that point; `turn`
// also faces him there.
void run_to_meet_ball(World& w, int p, const Agent& agent, bool turn) {
  Vec2 to = intercept_point(w, p) - player_pos(w, p);
  float d = length(to);
  float speed = player_speed(w, p, agent.sprint, false) * std::fmin(d / 2.0f, 1.0f);
  Vec2 v = d > 1e-3f ? to * (speed / d) : Vec2{};
  w.p.want_vx[p] = v.x;
  w.p.want_vy[p] = v.y;
  if (turn && d > 1e-3f && w.p.slide_steps[p] == 0) {
    w.p.face_x[p] = to.x / d;
    w.p.face_y[p] = to.y / d;
  }
}

// pressure: while the opponents have the ball or it is loose, the active player runs at
// it by himself (towards where he can meet it), whatever direction is held.
bool press_ball(World& w, int p, const Agent& agent) {
  if (!agent.pressure || ball_owner_team(w) == agent.team || w.m.game_mode != kModeNormal) return false;
  run_to_meet_ball(w, p, agent, true);
  return true;
}

}  // namespace

void apply_agent_actions(World& w, const int32_t* actions, BallRaceCache& races) {
  for (int a = 0; a < w.num_agents; ++a) {
    Agent& agent = w.agents[a];
    int act = actions[a];
    const bool was_ai = agent.builtin_ai;
    update_sticky(agent, act);
    if (act == kSwitch) switch_player(w, a);
    int p = agent.player;
    if (p < 0) continue;
    if (agent.builtin_ai) {
      // The AI plays this player (ai.cpp); taking over, it decides at once.
      if (!was_ai) w.p.ai_wait[p] = 0;
      continue;
    }

    bool frozen = set_piece_frozen(w);
    // GRF, measured: the first kick pressed is the one played; presses during its
    // wind-up (a shot after a pass, a pass after a shot) change nothing.
    if (act >= kLongPass && act <= kShot && !frozen && agent.pending_kick == 0 && kick_press_counts(w, p, races)) {
      agent.pending_kick = static_cast<int8_t>(act);
      agent.pending_steps = kKickBufferSteps;
    } else if (act == kSliding && !frozen && w.m.game_mode == kModeNormal) {
      start_slide(w, p);
    }
    if (agent.pending_kick && w.ball.owner != p && ball_struck_away_from(w, p))
      agent.pending_kick = agent.pending_steps = 0;  // GRF drops the buffer when the ball flies off
    if (agent.pending_kick && w.ball.owner == p && !frozen) {
      if (agent.kick_windup == 0) {
        const int pressed_ago = kKickBufferSteps - agent.pending_steps;
        // Pressed before his opening touch, which comes a step before GRF reports him
        // (Ball::first_touch_steps counts down to that report): the kick is the touch.
        if (w.ball.first_touch_steps > 1) w.ball.first_touch_is_kick = true;
        agent.kick_windup = static_cast<int8_t>(
            w.ball.first_touch_is_kick ? std::max(1, kFirstTouchKickSteps - pressed_ago) : kick_windup_steps(w, agent));
      }
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
      run_to_meet_ball(w, p, agent, false);
    } else if (magnet_to_ball(w, p, agent)) {
      // handled: stepping onto a loose ball at the feet
    } else if (chase_loose_ball(w, p, agent, races)) {
      // handled: the selected player goes for a loose ball (GRF's magnet)
    } else if (press_ball(w, p, agent)) {
      // handled: running at the ball (full action set's pressure)
    } else if (agent.direction) {
      float speed = player_speed(w, p, agent.sprint, agent.dribble);
      Vec2 dir = action_direction(agent);
      w.p.want_vx[p] = dir.x * speed;
      w.p.want_vy[p] = dir.y * speed;
      if (w.p.slide_steps[p] == 0) {
        w.p.face_x[p] = dir.x;
        w.p.face_y[p] = dir.y;
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
    int candidates = 0, lineup = 0;
    for (int s = 0; s < w.team_size[team]; ++s) {
      int p = first_of(team) + s;
      lineup += w.p.controllable[p];
      if (w.p.present[p] && w.p.controllable[p]) ++candidates;
    }
    // Every controllable player of the line-up has an agent: a fixed one-to-one mapping,
    // kept when a player is sent off (his agent then drives nobody, -1) so that each
    // agent stays with its player.
    if (n >= lineup) {
      int k = 0;
      for (int s = 0; s < w.team_size[team] && k < n; ++s) {
        int p = first_of(team) + s;
        if (!w.p.controllable[p]) continue;
        w.agents[agents[k++]].player = w.p.present[p] ? p : -1;
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
          if (cur_ok && agent.switch_hold > 0) chosen = cur;  // the player the agent switched to
        }
        if (agent.switch_hold > 0) --agent.switch_hold;
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
