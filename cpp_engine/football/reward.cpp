// Reward components per agent: scoring (+1 goal for, -1 against) and GRF's
// checkpoints (10 x 0.1 for carrying the ball towards the opponent goal, all unpaid
// ones paid on scoring, never more than 1 in an episode).
#include <cmath>

#include "football/step.h"

namespace trackfield::football {

void compute_rewards(World& w, const EnvConfig& cfg, int prev_score_left, int prev_score_right) {
  int goals_left = w.m.score[0] - prev_score_left;
  int goals_right = w.m.score[1] - prev_score_right;
  for (int a = 0; a < w.num_agents; ++a) {
    Agent& agent = w.agents[a];
    float scoring = static_cast<float>(agent.team == 0 ? goals_left - goals_right : goals_right - goals_left);
    float checkpoints = 0.0f;
    if (scoring >= 1.0f) {
      checkpoints = 0.1f * (kNumCheckpoints - agent.checkpoints_collected);
      agent.checkpoints_collected = kNumCheckpoints;
    } else if (reported_owner(w) >= 0 && reported_owner(w) == agent.player && team_of(reported_owner(w)) == agent.team) {
      // Distance to the opponent goal centre (1, 0), in GRF units, from the agent's side.
      float sign = agent.team == 0 ? 1.0f : -1.0f;
      float dx = (w.ball.x * sign) * kXToObs - 1.0f;
      float dy = (w.ball.y * sign) * kYToObs;
      float d = std::sqrt(dx * dx + dy * dy);
      while (agent.checkpoints_collected < kNumCheckpoints &&
             d <= 0.99f - agent.checkpoints_collected * (0.8f / 9.0f)) {
        checkpoints += 0.1f;
        ++agent.checkpoints_collected;
      }
    }
    w.reward_components[a][0] = scoring;
    w.reward_components[a][1] = checkpoints;
    w.reward[a] = cfg.scoring_weight * scoring + cfg.checkpoint_weight * checkpoints;
  }
}

}  // namespace trackfield::football
