// The whole state of one football world, as plain structs of arrays.
// Everything a step reads or writes lives here (the RNG included), so a world can be
// copied, snapshotted and stepped on any thread with identical results.
#ifndef TRACKFIELD_FOOTBALL_WORLD_H
#define TRACKFIELD_FOOTBALL_WORLD_H

#include <cstdint>

#include "common/rng.h"
#include "common/vec2.h"
#include "football/constants.h"
#include "football/scenario_config.h"

namespace trackfield::football {

// Player p belongs to team p / kMaxTeamPlayers; slots past a team's size are absent.
struct Players {
  float x[kMaxPlayers], y[kMaxPlayers];
  float vx[kMaxPlayers], vy[kMaxPlayers];
  float face_x[kMaxPlayers], face_y[kMaxPlayers];
  // GRF's fatigue (its tired_factor): builds with every metre run in play, never recovers,
  // and takes up to 30% off a player's skills (kicking, tackling).
  float tired[kMaxPlayers];   // 0 fresh .. 0.99
  // The sprint meter: rises while he sprints, falls while he does not, and slows a field
  // player. GRF has no such thing (its top speed never falls); it stands in for what GRF's
  // recent running does to its pressing and for the spacing GRF's team shape gives
  // (docs/football_fidelity.md, "What still differs").
  float winded[kMaxPlayers];  // 0 fresh .. 1 blown
  // GRF's player profiles (reset.cpp kPlayerProfiles), the same for both teams slot by
  // slot, each relative to the eleven profiles' average:
  float pace[kMaxPlayers];        // top speed factor
  float tiring[kMaxPlayers];      // how fast sprinting winds him (GRF: 2 - physical_stamina)
  float stamina[kMaxPlayers];     // GRF's physical_stamina itself (not relative)
  float kicking[kMaxPlayers];     // GRF's technical_shot itself (not relative)
  float kick_error[kMaxPlayers];  // kick error factor
  float home_x[kMaxPlayers], home_y[kMaxPlayers];  // start and kick-off spot, metres
  // GRF's formation spot (shape.cpp), in its formation units: x -1 own goal line .. +1 the
  // goal attacked, y -1 .. 1 across, mirrored with the attack direction.
  float shape_x[kMaxPlayers], shape_y[kMaxPlayers];
  // Where GRF's shape last put him and at which step (-1: not since his team had the ball).
  float shape_target_x[kMaxPlayers], shape_target_y[kMaxPlayers];
  int shape_step[kMaxPlayers];
  float want_vx[kMaxPlayers], want_vy[kMaxPlayers];  // this step's desired velocity
  int8_t role[kMaxPlayers];
  int8_t yellow_cards[kMaxPlayers];
  int8_t slide_steps[kMaxPlayers];    // > 0 while sliding
  int8_t turn_hold[kMaxPlayers];      // substeps a dribbling carrier has been sent round a corner
  int8_t ai_wait[kMaxPlayers];        // AI reaction delay left, steps
  int8_t controlled_by[kMaxPlayers];  // agent index, or -1 for the built-in AI
  int16_t kick_cooldown[kMaxPlayers];  // substeps before the player may touch the ball again
  bool present[kMaxPlayers];           // in the line-up and not sent off
  bool lazy[kMaxPlayers];
  bool controllable[kMaxPlayers];
  bool sprinting[kMaxPlayers];
  bool offside_mark[kMaxPlayers];  // was offside when the last pass was played
};

struct Ball {
  float x, y, z;
  float vx, vy, vz;
  int owner;            // player index, -1 when free
  int last_touch;       // player index, -1 before any touch
  int pass_receiver;    // intended receiver of the ball in flight, -1 if none
  bool shot_in_flight;  // last kick was a shot (keepers react to it)
  float flight_time;    // seconds since the ball was last struck (a keeper needs time to react)
  // The owner took the ball with a kick already pressed: GRF's first touch is that kick, and
  // GRF reports as owner only the last toucher while the ball is at his feet and not yet
  // struck, so nobody is reported owning it until it leaves (reported_owner()).
  bool first_touch_is_kick;
  // Steps before a player who starts an episode with the ball within reach has touched it:
  // GRF reports him only after that touch, and a kick he presses before it is the touch.
  int8_t first_touch_steps;
};

// One controlled agent: which player it drives now and its sticky actions.
struct Agent {
  int team;
  int player;             // active player index
  int8_t direction;       // sticky movement action 0 (none) or 1..8
  bool sprint, dribble;   // sticky
  bool keeper_rush, pressure, team_pressure;  // sticky (full action set)
  bool builtin_ai;        // this step's action was builtin_ai: the AI plays the player
  int8_t switch_hold;     // steps left in which a switched-to player stays selected
  int8_t pending_kick;    // a kick action waiting for the ball (one-touch buffer), 0 if none
  int8_t pending_steps;
  int8_t kick_windup;     // steps until a pressed kick leaves the foot (GRF's kick animations), 0 if none
  int8_t checkpoints_collected;
};

struct Match {
  int score[2];
  int steps;
  int game_duration;
  int episode;
  int game_mode;
  int mode_steps;        // steps since the set piece was whistled
  int restart_team;
  float restart_x, restart_y;
  int taker;             // player taking the set piece, -1 if none
  int last_owned_team;   // last team that owned the ball (-1 before anyone did)
  int prev_game_mode;
  int opening_touch_step;  // the step GRF first reports the player who takes the opening ball (reset.cpp)
  // GRF's team shape state (shape.cpp), per team: its fading hold on the ball (0.5 ..
  // 1.5), the player on an attacking run and the steps it has left, the forward support
  // player; and the ball's recent path and which way possession leaned (for both teams).
  float possession_amount[2];
  int attack_runner[2];
  int attack_run_steps[2];
  int forward_support[2];
  float ball_avg_slow_x, ball_avg_slow_y, ball_avg_fast_x, ball_avg_fast_y;
  float possession_side;
  bool deterministic;    // copied from the scenario: no random outcomes at all
  bool offsides;
  bool goal_this_step[2];
  bool terminated, truncated;
};

struct World {
  int team_size[2];  // line-up sizes (sent-off players keep their slot)
  Players p;
  Ball ball;
  Agent agents[kMaxAgents];
  int num_agents;
  Match m;
  Rng rng;
  float reward[kMaxAgents];
  float reward_components[kMaxAgents][kNumRewardComponents];
};

inline int team_of(int player) { return player / kMaxTeamPlayers; }
inline int slot_of(int player) { return player % kMaxTeamPlayers; }
inline int first_of(int team) { return team * kMaxTeamPlayers; }
inline Vec2 player_pos(const World& w, int p) { return {w.p.x[p], w.p.y[p]}; }
inline Vec2 player_vel(const World& w, int p) { return {w.p.vx[p], w.p.vy[p]}; }
inline Vec2 ball_pos(const World& w) { return {w.ball.x, w.ball.y}; }
inline int ball_owner_team(const World& w) { return w.ball.owner < 0 ? -1 : team_of(w.ball.owner); }
// Who GRF's observation says owns the ball (ball_owned_player / _team, the possession-change
// ending, the checkpoint reward): the carrier, once he has touched it and unless that touch
// is a kick he pressed before reaching it.
inline int reported_owner(const World& w) {
  return w.ball.first_touch_is_kick || w.ball.first_touch_steps > 0 ? -1 : w.ball.owner;
}
inline int reported_owner_team(const World& w) { return reported_owner(w) < 0 ? -1 : team_of(reported_owner(w)); }
// x of the goal a team attacks.
// The built-in AI moves this player this step: no agent controls him, or his agent chose
// builtin_ai (v2), which hands him to the AI as if no agent were there.
inline bool ai_drives(const World& w, int p) {
  const int a = w.p.controlled_by[p];
  return a < 0 || w.agents[a].builtin_ai;
}

// A player's speed for a gait (kSprintSpeed, kRunSpeed, kDribbleSpeed): his profile's pace,
// less what sprinting has taken out of a field player. GRF's top speed does not fall with
// fatigue at all (measured: its keeper running home 80 m in academy_empty_goal_close keeps
// 7.2 m/s, and GetMaxVelocity reads the raw profile); the keeper already runs as GRF's, the
// field players keep the sprint meter until GRF's team shape lands (docs/football_calibration_changelog.md,
// 2026-11-26).
inline float speed_of(const World& w, int p, float gait) {
  const float slowdown = w.p.role[p] == kRoleGK ? 0.0f : kTiredSlowdown * w.p.winded[p];
  return gait * w.p.pace[p] * (1.0f - slowdown);
}

inline float attack_goal_x(int team) { return team == 0 ? kHalfLength : -kHalfLength; }

}  // namespace trackfield::football

#endif
