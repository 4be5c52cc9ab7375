// Every field of a restored football world, checked before a step reads it (see
// common/restore_check.h); the indices the step follows are vetted again, with their
// relations, in FootballDomain::check_world. Ranges are generous physical bounds.
#include "football/restore_check.h"

#include "common/restore_check.h"

namespace trackfield::football {
namespace {

constexpr double kPosM = 1e3;    // m: the pitch is 105 x 68
constexpr double kSpeed = 200.0; // m/s
constexpr double kSteps = 1 << 30;

}  // namespace

void check_restored_world(const World& w) {
  const RestoreCheck rc("football");
  const Players& p = w.p;
  rc.reals(p.x, -kPosM, kPosM, "players.x");
  rc.reals(p.y, -kPosM, kPosM, "players.y");
  rc.reals(p.vx, -kSpeed, kSpeed, "players.vx");
  rc.reals(p.vy, -kSpeed, kSpeed, "players.vy");
  rc.reals(p.face_x, -1.5, 1.5, "players.face_x");
  rc.reals(p.face_y, -1.5, 1.5, "players.face_y");
  rc.reals(p.tired, 0.0, 1.0, "players.tired");
  rc.reals(p.winded, 0.0, 1.0, "players.winded");
  rc.reals(p.pace, 0.0, 3.0, "players.pace");
  rc.reals(p.tiring, 0.0, 5.0, "players.tiring");
  rc.reals(p.stamina, 0.0, 2.0, "players.stamina");
  rc.reals(p.kicking, 0.0, 2.0, "players.kicking");
  rc.reals(p.kick_error, 0.0, 10.0, "players.kick_error");
  rc.reals(p.home_x, -kPosM, kPosM, "players.home_x");
  rc.reals(p.home_y, -kPosM, kPosM, "players.home_y");
  rc.reals(p.shape_x, -10.0, 10.0, "players.shape_x");
  rc.reals(p.shape_y, -10.0, 10.0, "players.shape_y");
  rc.reals(p.shape_target_x, -kPosM, kPosM, "players.shape_target_x");
  rc.reals(p.shape_target_y, -kPosM, kPosM, "players.shape_target_y");
  rc.integers(p.shape_step, -1, kSteps, "players.shape_step");
  rc.reals(p.want_vx, -kSpeed, kSpeed, "players.want_vx");
  rc.reals(p.want_vy, -kSpeed, kSpeed, "players.want_vy");
  rc.integers(p.yellow_cards, 0, 2, "players.yellow_cards");
  rc.integers(p.ai_wait, 0, 127, "players.ai_wait");
  rc.integers(p.kick_cooldown, 0, 10000, "players.kick_cooldown");
  rc.flags(p.present, "players.present");
  rc.flags(p.lazy, "players.lazy");
  rc.flags(p.controllable, "players.controllable");
  rc.flags(p.sprinting, "players.sprinting");
  rc.flags(p.offside_mark, "players.offside_mark");

  const Ball& b = w.ball;
  rc.real(b.x, -kPosM, kPosM, "ball.x");
  rc.real(b.y, -kPosM, kPosM, "ball.y");
  rc.real(b.z, -kPosM, kPosM, "ball.z");
  rc.real(b.vx, -kSpeed, kSpeed, "ball.vx");
  rc.real(b.vy, -kSpeed, kSpeed, "ball.vy");
  rc.real(b.vz, -kSpeed, kSpeed, "ball.vz");
  rc.flag(b.shot_in_flight, "ball.shot_in_flight");
  rc.real(b.flight_time, 0.0, 1e8, "ball.flight_time");
  rc.flag(b.first_touch_is_kick, "ball.first_touch_is_kick");

  for (int a = 0; a < kMaxAgents; ++a) {
    const Agent& ag = w.agents[a];
    rc.flag(ag.sprint, "agents.sprint", a);
    rc.flag(ag.dribble, "agents.dribble", a);
    rc.flag(ag.keeper_rush, "agents.keeper_rush", a);
    rc.flag(ag.pressure, "agents.pressure", a);
    rc.flag(ag.team_pressure, "agents.team_pressure", a);
    rc.flag(ag.builtin_ai, "agents.builtin_ai", a);
    if (a < w.num_agents) rc.integer(ag.pending_steps, 0, 127, "agents.pending_steps", a);
  }

  const Match& m = w.m;
  rc.integers(m.score, 0, kSteps, "match.score");
  rc.integer(m.steps, 0, kSteps, "match.steps");
  rc.integer(m.game_duration, 1, kSteps, "match.game_duration");
  rc.integer(m.mode_steps, 0, kSteps, "match.mode_steps");
  rc.real(m.restart_x, -kPosM, kPosM, "match.restart_x");
  rc.real(m.restart_y, -kPosM, kPosM, "match.restart_y");
  rc.integer(m.prev_game_mode, 0, kNumGameModes - 1, "match.prev_game_mode");
  rc.reals(m.possession_amount, 0.0, 2.0, "match.possession_amount");
  rc.integers(m.attack_runner, -1, kMaxPlayers - 1, "match.attack_runner");
  rc.integers(m.attack_run_steps, 0, kSteps, "match.attack_run_steps");
  rc.integers(m.forward_support, -1, kMaxPlayers - 1, "match.forward_support");
  rc.real(m.ball_avg_slow_x, -kPosM, kPosM, "match.ball_avg_slow_x");
  rc.real(m.ball_avg_slow_y, -kPosM, kPosM, "match.ball_avg_slow_y");
  rc.real(m.ball_avg_fast_x, -kPosM, kPosM, "match.ball_avg_fast_x");
  rc.real(m.ball_avg_fast_y, -kPosM, kPosM, "match.ball_avg_fast_y");
  rc.real(m.possession_side, -2.0, 2.0, "match.possession_side");
  rc.flag(m.deterministic, "match.deterministic");
  rc.flag(m.offsides, "match.offsides");
  rc.flags(m.goal_this_step, "match.goal_this_step");
  rc.flag(m.terminated, "match.terminated");
  rc.flag(m.truncated, "match.truncated");

  rc.reals(w.reward, -1e9, 1e9, "reward");
  for (int a = 0; a < kMaxAgents; ++a)
    for (int k = 0; k < kNumRewardComponents; ++k) rc.real(w.reward_components[a][k], -1e9, 1e9, "reward_components", a);
}

}  // namespace trackfield::football
