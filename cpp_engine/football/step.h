// The football step, one free function per concern, in the order step_world runs them.
#ifndef TRACKFIELD_FOOTBALL_STEP_H
#define TRACKFIELD_FOOTBALL_STEP_H

#include <cstdint>

#include "football/env_config.h"
#include "football/world.h"

namespace trackfield::football {

// reset.cpp: place the line-ups and the ball for a new episode.
void reset_world(World& w, const EnvConfig& cfg, uint64_t seed, int episode);
void place_kickoff(World& w, int kicking_team);

// Who gets to a loose ball first: each player's seconds to reach it at a sprint along its
// rolling path, and each team's quickest (GRF's Team::GetTimeNeededToGetToBall).
struct BallRace {
  float seconds[kMaxPlayers];
  float team_best[2];
  int team_fastest[2];  // -1 for a team with nobody on the pitch
};
BallRace race_to_loose_ball(const World& w);
// One step's race, shared by the agents' controls and the AI: the players do not move
// until the physics runs, so the race is worked out again only if the ball was struck.
struct BallRaceCache {
  bool valid = false;
  float x, y, vx, vy;  // the ball it was worked out for
  BallRace race;
};
const BallRace& ball_race(const World& w, BallRaceCache& cache);

// control.cpp: agents' actions -> active players' intents, sticky flags, kicks.
void apply_agent_actions(World& w, const int32_t* actions, BallRaceCache& races);
void select_active_players(World& w);

// ai.cpp: the built-in AI moves every player no agent drives (and those whose agent
// chose builtin_ai); with teammate_ai false, an agent's team-mates stand idle instead.
void run_ai(World& w, const ScenarioConfig& sc, bool teammate_ai, BallRaceCache& races);
// Where player p can meet the moving ball: its position after the time needed to run there.
Vec2 intercept_point(const World& w, int p);
// An AI player who has just won the ball may strike it on at once; true if he did.
bool play_first_time(World& w, const ScenarioConfig& sc, int p);

// kicks.cpp: passes and shots. A pass goes to the team-mate that best fits the point
// `reach` metres along `aim` (choose_pass_receiver).
constexpr float kAgentPassReach = 6.6f;  // what an agent's one-step press means (GRF: 60 m x power 0.11)
constexpr float kAiClearanceReach = 30.0f;
// How far a keeper's pass may go, first time or not: GRF's first-time passes leave at
// about 25 m/s (tools/football_random_play.py keeper).
constexpr float kKeeperPassReach = 50.0f;
bool try_pass(World& w, int player, int kind, Vec2 aim, float error_scale, float reach);
void shoot(World& w, int player, Vec2 aim, float error_scale);
// GRF's panic clearance: a lofted kick away from trouble, towards the side the player faces.
void clear_ball(World& w, int player, float error_scale);
int choose_pass_receiver(const World& w, int player, Vec2 aim, float reach);

// physics.cpp: one substep of player and ball motion, possession and ball control.
void step_player_motion(World& w);
// Pairs of players that may touch within this step (found once per step; no allocation).
using ContactPairs = int8_t[kMaxPlayers * (kMaxPlayers - 1) / 2][2];
int find_contact_candidates(const World& w, ContactPairs& pairs);
void separate_players(World& w, const ContactPairs& pairs, int count);
void step_ball_motion(World& w);
float rolling_distance(float speed, float seconds);  // metres a ground ball covers
bool ball_bound_for_goal(const World& w, int team);  // the ball will roll into team's goal
void resolve_ball_control(World& w, const ScenarioConfig& sc);
// A keeper with the ball inside his own penalty box, where he may use his hands.
bool keeper_may_handle(const World& w, int p);
// How sure a keeper's hands are: an agent's at their best, an AI keeper's by his team's
// difficulty (GRF, measured at difficulty 0.6: a shot from 26 m is held 28 times in 30).
float keeper_hands(const World& w, const ScenarioConfig& sc, int p);

// rules.cpp: goals, ball out of play, tackles, fouls, offside, set pieces.
bool check_goal_or_out(World& w);  // true if play stopped this substep
void resolve_tackles(World& w, const ScenarioConfig& sc);
void run_set_piece(World& w);
void update_stamina(World& w);

// reward.cpp
void compute_rewards(World& w, const EnvConfig& cfg, int prev_score_left, int prev_score_right);

// step.cpp: the whole environment step.
void step_world(World& w, const EnvConfig& cfg, const int32_t* actions);

// Helpers shared by several files.
float team_difficulty(const ScenarioConfig& sc, int team);
inline const ScenarioConfig& scenario_of(const EnvConfig& cfg, const World& w) {
  return cfg.scenario[w.m.episode & 1];
}
// GRF's human controller keeps a kick pressed off the ball queued for 2 s (its action
// buffer), so a press on the way to the ball is played as the first touch: 2 s, and the
// steps its animation takes to reach the ball (control.cpp).
constexpr int kKickBufferSteps = 24;
// Ball::first_touch_steps: the steps until GRF first reports the player who took the
// opening ball (Match::opening_touch_step, reset.cpp), at most this many.
constexpr int kMaxOpeningTouchSteps = 7;
void give_ball(World& w, int player);
// True with probability `chance`; in deterministic mode, whenever chance >= 0.5.
bool roll_chance(World& w, float chance);
// Distance from `pos` to the nearest present player of the team opposing `team`.
float nearest_opponent_distance(const World& w, int team, Vec2 pos, int* who = nullptr);
// GRF's CouldWinABallDuelLikeliness: 0 when the carrier stands between `player` and the
// ball, 1 when the ball is on `player`'s side of him.
float ball_duel_likeliness(const World& w, int player);
void free_ball(World& w, Vec2 vel, float vz, int kicker);
// Once a step: Ball::first_touch_is_kick ends when the owner's pressed kick is called off
// (he loses the agent's selection or the AI takes him over) while he keeps the ball, and
// Ball::first_touch_steps counts down.
void update_first_touch(World& w);
void start_set_piece(World& w, int mode, int team, Vec2 spot);
// rules.cpp: a handball by `player` at `spot` (penalty in his own box, else a free kick).
void award_handball(World& w, int player, Vec2 spot);
// rules.cpp: player p leaves for the rest of the episode (second yellow card); his slot
// stays empty, a keeper is replaced in goal by the first team-mate on the pitch.
void send_off(World& w, int p);

}  // namespace trackfield::football

#endif
