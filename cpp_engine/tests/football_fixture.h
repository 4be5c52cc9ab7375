// A football EnvConfig built in C++ (no Python scenario loader), for tests and tools.
#ifndef TRACKFIELD_TESTS_FOOTBALL_FIXTURE_H
#define TRACKFIELD_TESTS_FOOTBALL_FIXTURE_H

#include "football/env_config.h"

namespace trackfield::football {

// academy_3_vs_1_with_keeper's line-up, as its scenario file builds it.
inline EnvConfig three_vs_one(int representation, int stack, bool deterministic = false) {
  ScenarioConfig sc;
  sc.game_duration = 400, sc.deterministic = deterministic, sc.offsides = false;
  sc.end_episode_on_score = sc.end_episode_on_out_of_play = sc.end_episode_on_possession_change = true;
  sc.ball_x = 0.62f;
  auto add = [&sc](int team, float x, float y, int role) {
    PlayerSetup& p = sc.players[team][sc.num_players[team]++];
    p.x = x, p.y = y, p.role = role;
  };
  add(0, -1.0f, 0.0f, kRoleGK), add(0, 0.6f, 0.0f, kRoleCM), add(0, 0.7f, 0.2f, kRoleCM), add(0, 0.7f, -0.2f, kRoleCM);
  add(1, -1.0f, 0.0f, kRoleGK), add(1, -0.75f, 0.0f, kRoleCB);
  EnvConfig cfg;
  cfg.representation = representation, cfg.stack = stack;
  cfg.scenario[0] = cfg.scenario[1] = sc;
  return cfg;
}

// 11_vs_11_stochastic's kick-off line-ups (medium AI on the right), a full 3,000-step game.
inline EnvConfig eleven_vs_eleven(int representation, int stack, float right_difficulty = 0.6f) {
  ScenarioConfig sc;
  const float shared[7][3] = {{-0.422f, -0.19576f, kRoleLB}, {-0.5f, -0.06356f, kRoleCB}, {-0.5f, 0.063559f, kRoleCB},
                              {-0.422f, 0.19576f, kRoleRB},  {-0.184212f, -0.10568f, kRoleCM},
                              {-0.267574f, 0.0f, kRoleCM},   {-0.184212f, 0.10568f, kRoleCM}};
  const float forwards[2][3][3] = {{{0.0f, 0.02f, kRoleRM}, {0.0f, -0.02f, kRoleCF}, {-0.01f, -0.2161f, kRoleLM}},
                                   {{-0.05f, 0.0f, kRoleRM}, {-0.01f, 0.216102f, kRoleCF}, {-0.01f, -0.2161f, kRoleLM}}};
  for (int team = 0; team < 2; ++team) {
    auto add = [&sc, team](float x, float y, float role) {
      PlayerSetup& p = sc.players[team][sc.num_players[team]++];
      p.x = x, p.y = y, p.role = static_cast<int>(role);
    };
    add(-1.0f, 0.0f, kRoleGK);
    add(forwards[team][0][0], forwards[team][0][1], forwards[team][0][2]);
    add(forwards[team][1][0], forwards[team][1][1], forwards[team][1][2]);
    for (const auto& p : shared) add(p[0], p[1], p[2]);
    add(forwards[team][2][0], forwards[team][2][1], forwards[team][2][2]);
  }
  sc.right_team_difficulty = right_difficulty;
  EnvConfig cfg;
  cfg.representation = representation, cfg.stack = stack;
  cfg.scenario[0] = cfg.scenario[1] = sc;
  return cfg;
}

}  // namespace trackfield::football

#endif
