// What the built-in AI's files share: a team's view of the pitch and the movement intents
// every decision ends in. ai.cpp runs the team; keeper.cpp decides for its goalkeeper.
#ifndef TRACKFIELD_FOOTBALL_AI_SHARED_H
#define TRACKFIELD_FOOTBALL_AI_SHARED_H

#include "football/step.h"

namespace trackfield::football {

struct TeamView {
  int team;
  float difficulty;
  float attack_sign;  // +1 when attacking towards +x
  Vec2 goal;          // centre of the goal this team attacks
  Vec2 own_goal;
};
TeamView team_view(const ScenarioConfig& sc, int team);

// How far the AI's kicks stray (kicks.cpp scales their angular error by it): 0.6 at 1.0,
// 1.0 at medium (the academy's two levels, where it was calibrated), and half that slope
// below medium, 1.28 at easy. GRF's difficulty moves its kicks far less (its shot and pass
// skills enter as 1 - 0.3 x skill); with our full slope an easy AI's attack scored a fifth
// less than GRF's easy against a random player and against AI 1.0 (docs/football_calibration_changelog.md,
// 2026-11-27).
inline float ai_kick_error(float difficulty) {
  return difficulty >= 0.6f ? 1.6f - difficulty : 1.0f + 0.5f * (0.6f - difficulty);
}

// Run (or sprint) to `target`, arriving rather than overshooting.
void move_towards(World& w, int p, Vec2 target, bool sprint);
// No run wanted this step: he stops where he is.
void stand_still(World& w, int p);
// p's team-mate on the pitch nearest `to`, lazy or not (with ai_only, one the AI drives), if
// nearer than `within`; -1 if none.
int nearest_team_mate(const World& w, int p, Vec2 to, float within = 1e30f, bool ai_only = false);

// GRF's pass choice on the ball (GetOnTheBallCommands): the team-mate p's team should play
// the ball to, or -1 when no one beats p by GRF's margins; `one_touch_penalty` is GRF's
// oneTouchIsHard for a ball played on first time (0 with the ball at his feet). `kind`, if
// given, gets the pass to play him (kShortPass, kLongPass or kHighPass: GRF's likeliest).
int best_pass_mate(World& w, int p, const TeamView& tv, float one_touch_penalty, int* kind = nullptr);
// GRF's oneTouchIsHard for player p meeting the ball as it is now: 0 (easy) .. 0.6.
float one_touch_is_hard(const World& w, int p);

// How offensive a role is (0 keeper and centre-backs .. 1 forwards), as GRF's AI rates it.
float role_mind_set(int role);
// The second-last opponent's upfield coordinate (towards the goal tv's team attacks).
float offside_line(const World& w, const TeamView& tv);

// shape.cpp: GRF's team shape off the ball. One step's view of who is on the ball or
// nearest it, worked out by update_team_shape, which also moves the shape's state on.
struct ShapeContext {
  int ball_player[2];  // each team's player on the ball or nearest getting to it
  int focus_player;    // the one of those two who gets there first
  Vec2 ball_path[4];   // the ball 0.2, 0.35, 0.5 and 0.65 s from now
};
void init_formation_spots(World& w);
void update_team_shape(World& w, const BallRace* race, ShapeContext& ctx);
// Where off-the-ball player p of a team in possession stands.
Vec2 shape_position(const World& w, int p, const TeamView& tv, const ShapeContext& ctx);

// marking.cpp: GRF's man-marking. marks[slot] is the opponent that slot of tv's team marks
// (-1: none); the three opponents most dangerous to tv's goal each get one marker.
void assign_man_marking(const World& w, const TeamView& tv, int8_t marks[kMaxTeamPlayers]);
// Where marker p stands against opponent `opp` (on_ball: he has the ball or is about to),
// starting from `desired` (his shape's spot): goal-side of him, nearer than he is to the
// point he would shoot from.
Vec2 marking_position(const World& w, int p, int opp, bool on_ball, Vec2 desired, const TeamView& tv);

// keeper.cpp: the goalkeeper's run for this step (rush_ordered: his agent holds
// keeper_rush; race: the loose-ball race, null when the ball is owned).
void decide_keeper(World& w, int p, const TeamView& tv, bool rush_ordered, const BallRace* race);
// The keeper has just won the ball from the other team: gather it, clear it or play it on
// first time; true if he struck it.
bool keeper_plays_first_time(World& w, int p, const TeamView& tv);

}  // namespace trackfield::football

#endif  // TRACKFIELD_FOOTBALL_AI_SHARED_H
