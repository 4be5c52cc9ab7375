// A scenario as GRF's builder records it: the config() fields plus the line-ups.
// Positions are in each team's own frame (own goal at x = -1), GRF units.
#ifndef TRACKFIELD_FOOTBALL_SCENARIO_CONFIG_H
#define TRACKFIELD_FOOTBALL_SCENARIO_CONFIG_H

#include "football/constants.h"

namespace trackfield::football {

struct PlayerSetup {
  float x = 0, y = 0;
  int role = kRoleCM;
  bool lazy = false;
  bool controllable = true;
};

struct ScenarioConfig {
  // builder.config() fields, with GRF's engine defaults.
  int game_duration = 3000;
  bool deterministic = false;
  bool offsides = true;
  bool end_episode_on_score = false;
  bool end_episode_on_out_of_play = false;
  bool end_episode_on_possession_change = false;
  float left_team_difficulty = 1.0f;
  float right_team_difficulty = 0.6f;
  int second_half = 999999999;
  bool control_all_players = false;
  // Not in GRF (which has no handball): a field player touched by the ball at arm
  // height (kHandballLow..kHandballHigh) is penalised with this probability.
  bool handballs = false;
  float handball_probability = 0.5f;
  // builder.SetBallPosition, in the left team's frame.
  float ball_x = 0, ball_y = 0;
  // builder.AddPlayer line-ups.
  int num_players[2] = {0, 0};
  PlayerSetup players[2][kMaxTeamPlayers];
};

}  // namespace trackfield::football

#endif
