// One environment step (0.1 s of game time): actions, AI, kSubsteps of physics, then
// the rules that act once per step, rewards and GRF's episode-end conditions.
#include "football/step.h"

namespace trackfield::football {

void step_world(World& w, const EnvConfig& cfg, const int32_t* actions) {
  const ScenarioConfig& sc = scenario_of(cfg, w);
  const int prev_left = w.m.score[0], prev_right = w.m.score[1];
  const int prev_mode = w.m.game_mode;
  w.m.goal_this_step[0] = w.m.goal_this_step[1] = false;

  if (w.m.game_mode != kModeNormal) run_set_piece(w);
  BallRaceCache races;
  apply_agent_actions(w, actions, races);
  run_ai(w, sc, cfg.teammate_ai, races);
  ContactPairs contacts;
  const int num_contacts = find_contact_candidates(w, contacts);
  for (int sub = 0; sub < kSubsteps; ++sub) {
    step_player_motion(w);
    separate_players(w, contacts, num_contacts);
    if (w.m.game_mode != kModeNormal && w.ball.owner < 0) break;  // stopped: the ball waits
    step_ball_motion(w);
    if (check_goal_or_out(w)) break;
    resolve_ball_control(w, sc);
  }
  resolve_tackles(w, sc);
  update_stamina(w);
  ++w.m.steps;

  update_first_touch(w);
  bool possession_changed = false;
  int owned = reported_owner_team(w);
  if (owned >= 0) {
    possession_changed = w.m.last_owned_team >= 0 && owned != w.m.last_owned_team;
    w.m.last_owned_team = owned;
  }
  select_active_players(w);
  compute_rewards(w, cfg, prev_left, prev_right);

  bool scored = w.m.goal_this_step[0] || w.m.goal_this_step[1];
  bool left_play = prev_mode == kModeNormal && w.m.game_mode != kModeNormal;
  w.m.terminated = (sc.end_episode_on_score && scored) || (sc.end_episode_on_out_of_play && left_play) ||
                   (sc.end_episode_on_possession_change && possession_changed);
  w.m.truncated = !w.m.terminated && w.m.steps > sc.game_duration;
  if (w.m.terminated || w.m.truncated) return;

  if (scored) place_kickoff(w, w.m.goal_this_step[0] ? 1 : 0);
  if (w.m.steps == sc.second_half) place_kickoff(w, 1);
}

}  // namespace trackfield::football
