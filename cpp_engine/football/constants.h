// Football dimensions, timings and the public GRF conventions.
// The engine works in metres and seconds on a 105 x 68 m pitch centred at the origin,
// left team defending x = -52.5: GRF's 110 x 72 m pitch scaled down, keeping every
// position's share of the half pitch. Observations use GRF's units, in which its lines lie
// at x = +-55 / 54.4 = +-1.011 and y = +-36 / 83.6 = +-0.4306 (gfootball_engine: the
// observation divides its metres by 54.4 and 83.6), so kXToObs / kYToObs put our lines
// there too (GRF's y axis points "down" the screen, so the action "top" moves towards
// negative y).
#ifndef TRACKFIELD_FOOTBALL_CONSTANTS_H
#define TRACKFIELD_FOOTBALL_CONSTANTS_H

namespace trackfield::football {

constexpr int kMaxTeamPlayers = 11;
constexpr int kMaxPlayers = 2 * kMaxTeamPlayers;
constexpr int kMaxAgents = kMaxPlayers;
constexpr int kNumActions = 19;       // GRF's "default" action set
constexpr int kNumActionsV2 = 20;     // "v2": default + builtin_ai
constexpr int kNumActionsFull = 33;   // "full": v2 + keeper_rush .. release_switch
constexpr int kNumStickyActions = 10;      // default and v2: 8 directions, sprint, dribble
constexpr int kNumStickyActionsFull = 13;  // full adds keeper_rush, pressure, team_pressure
constexpr int kNumGameModes = 7;
constexpr int kNumRewardComponents = 2;  // scoring, checkpoints
constexpr int kNumCheckpoints = 10;

constexpr float kHalfLength = 52.5f;
constexpr float kHalfWidth = 34.0f;
constexpr float kObsLineX = 55.0f / 54.4f;  // GRF's goal lines in its observation units
constexpr float kObsLineY = 36.0f / 83.6f;  // ... and its touchlines
constexpr float kXToObs = kObsLineX / kHalfLength;
constexpr float kYToObs = kObsLineY / kHalfWidth;
constexpr float kGoalHalfWidth = 0.044f * kHalfWidth / 0.42f;
constexpr float kGoalHeight = 2.44f;
constexpr float kPenaltyBoxDepth = 16.5f;
constexpr float kPenaltyBoxHalfWidth = 20.16f;
// GRF's restarts (referee.cpp), in metres of its 110 x 72 m pitch kept as shares of the
// half pitch like every position: the penalty spot 11 m out, goal kicks from 0.92 of the
// half length (4.4 m out; measured in its observations at x = 0.9301), the wall 9.15 m off.
constexpr float kGrfToX = kHalfLength / 55.0f;  // our metres per GRF metre along x
constexpr float kPenaltySpotDistance = 11.0f * kGrfToX;
constexpr float kGoalKickX = 0.92f * kHalfLength;
constexpr float kSetPieceDistance = 9.15f * kGrfToX;

constexpr int kStepsPerSecond = 10;
constexpr int kSubsteps = 5;
constexpr float kStepSeconds = 1.0f / kStepsPerSecond;
constexpr float kDt = kStepSeconds / kSubsteps;

// Player movement (m/s, m/s^2).
constexpr float kRunSpeed = 5.0f;      // GRF: walkVelocity 5, sprintVelocity 8, dribbleVelocity 3.5
constexpr float kSprintSpeed = 8.0f;
constexpr float kDribbleSpeed = 3.5f;
constexpr float kPlayerAccel = 6.5f;  // GRF, measured: 0 to 5 m/s in about 0.8 s
// An agent's dribbler (GRF, tools/football_probes.py turn with the ball, at three paces).
constexpr float kDribbleSprintPace = 5.5f;   // m/s: faster than this he is sprinting with it
constexpr float kDribbleSprintTurn = 0.52f;  // rad/s his run swings round at while sprinting (30 degrees)
constexpr float kDribbleBrake = 10.0f;       // m/s^2 he sheds unwanted speed at when slower
constexpr float kDribbleReverseBrake = 12.0f;  // m/s^2 he stops at when sent back
constexpr float kDribbleReverseCos = -0.5f;  // "back": over 120 degrees from his run
// With dribble held he keeps his run this long before a turn of over 60 degrees (GRF: 0.2-0.3 s).
constexpr int kDribbleTurnPauseSubsteps = 15;  // 0.3 s
constexpr float kDribbleTurnPauseCos = 0.5f;
constexpr float kBodyRadius = 0.4f;  // two players' centres stay 0.8 m apart
constexpr float kSlideSpeed = 7.5f;
constexpr int kSlideSteps = 6;
constexpr float kSprintTiring = 0.012f;  // sprint meter gained per sprinting step
// GRF's fatigue (player.cpp): 0.00003 x (2 - physical_stamina) of a player's freshness per
// metre run in play, over its match-duration factor (0.027 x 0.2 + 0.05, a 90-minute match
// played in 3,000 steps), down to 0.01 of it.
constexpr float kFatiguePerMetre = 0.00003f / (0.027f * 0.2f + 0.05f);
constexpr float kMostTired = 0.99f;
constexpr float kRestRecovery = 0.004f;  // sprint meter lost per non-sprinting step
constexpr float kTiredSlowdown = 0.35f;  // speed loss at sprint meter 1

// Ball.
constexpr float kGravity = 9.81f;
// The ball's height z is that of its lowest point; observations report its centre, as
// GRF's do (0.11 m at rest).
constexpr float kBallRadius = 0.11f;
// GRF's ball (its ball.cpp, and measured on GRF ball traces): the air takes 0.015 v^2
// and, while the ball is on the grass, the grass another 0.04 v^2 plus 1.6 m/s^2. A
// fast ball on the ground dies quickly (measured: a 21 m/s pass is at 9.6 m/s 17 m on,
// a low 27 m/s shot stops 35-44 m on) and a slow one rolls on (1.5-2 m/s^2 below 3 m/s).
constexpr float kBallAirDrag = 0.015f;    // loss to the air, proportional to v^2, 1/m
constexpr float kBallGrassDrag = 0.04f;   // loss to the grass, proportional to v^2, 1/m
constexpr float kBallRollDecel = 1.6f;    // rolling resistance on the grass, m/s^2
constexpr float kBallBounce = 0.62f;      // vertical restitution (GRF's bounce)
constexpr float kBallBounceLoss = 0.06f;  // m/s taken off each bounce's upward speed (GRF)
constexpr float kPitchMargin = 2.5f;      // players may run a little past the lines
constexpr float kDribbleOffset = 0.6f;    // ball ahead of the carrier's feet, m
constexpr float kControlRadius = 0.9f;    // a field player reaches the ball within this
constexpr float kReceiverRadius = 1.3f;   // ... and the intended receiver of a pass within this
constexpr float kBallReach = 0.7f;      // a player this near the ball can play it
constexpr float kMagnetRadius = 2.5f;   // a controlled player steps onto a loose ball this near
constexpr float kKeeperReach = 2.2f;  // a dive
// A keeper gets a hand to a shot if, by the time it reaches him, he has reacted and, for a
// shot wide of his hands, dived across (keeper_reaction, physics.cpp; fitted to GRF's keeper:
// running shots at his middle from 16 m mostly score against medium, from 20 m almost never).
constexpr float kKeeperReactionDelay = 0.30f;  // s of a shot's flight before a keeper can touch it
constexpr float kKeeperReactionSpan = 0.1f;    // s more until he is fully set
constexpr float kKeeperHandReach = 0.8f;       // m off his body he reaches without a dive
constexpr float kKeeperDiveSpeed = 2.5f;       // m/s: each m beyond that costs 0.4 s more
// The AI difficulty whose keeper reacts after exactly kKeeperReactionDelay; others react
// earlier or later by GRF's reaction-time formula (keeper_reaction_lag, physics.cpp).
constexpr float kKeeperTimingDifficulty = 0.9f;
constexpr float kKeeperHoldOffset = 0.7f;      // m off his body: a shot this near he holds (GRF parried 0.7-1.6 m off)
constexpr float kKeeperParryOffsetSpan = 1.0f; // m more over which holding falls ...
constexpr float kKeeperHoldOffBodyMin = 0.2f;  // ... to this share of his usual hold
constexpr float kParrySpeedShare = 0.7f;       // a parried shot keeps this share of its speed
constexpr float kFieldReactionDelay = 0.3f;    // s before a field player can touch an opponent's kick
constexpr float kFieldReachHeight = 1.9f;
// Handball (handballs=True; GRF has none): a loose ball reaching a field player between
// hip and shoulder, where a standing player's arms are, counts as touching an arm.
constexpr float kHandballLow = 0.8f;
constexpr float kHandballHigh = 1.6f;
constexpr float kKeeperReachHeight = 2.6f;
constexpr float kTackleRadius = 1.3f;
constexpr float kShotStandingPace = 1.0f;  // m/s: an agent's shot from slower is a standing one
constexpr float kStandingShotPower = 0.55f;  // GRF's shot power factors for a standing player
constexpr float kShotRunPull = 0.3f;        // rad an agent's shot turns towards a run across it
constexpr float kAgentShotSpread = 0.5f;    // m at the goal line, about GRF's auto-directed target
constexpr float kAiShotWideChance = 0.48f;  // an AI shot struck wide of a post (GRF: about half)
constexpr float kShotAwaySpread = 0.4f;     // rad of error for a shot struck against the run
constexpr float kKeeperClaimChance = 0.8f;  // per step, a keeper at a dribbler's ball in his box
constexpr float kKeeperFootBallSpeed = 10.0f;  // m/s: a ball this slow a keeper may play first time
constexpr float kSlideReach = 1.6f;
constexpr int kKickCooldownSubsteps = 12;  // a kicker cannot re-take the ball at once
// GRF, traced (tools/football_random_play.py receptions, 100 episodes each): a left field
// player meeting a team-mate's ball with a kick pressed 0-3 steps before is reported on it
// first in 29% / 26% / 24% of such receptions in counterattack_easy / pass_and_shoot / 3_vs_1
// (for a median 5 steps, then the kick leaves); the rest he strikes first time. With this
// chance, on top of the kicks pressed as he arrives, ours read 24% / 17% / 22%.
constexpr float kControlBeforeQueuedKick = 0.2f;
constexpr float kDeflectChance = 0.35f;    // a field player who fails to control a ball touches it
// Steps from pressing a kick to the ball leaving the foot (GRF, measured: 3-4 steps
// running at goal, 5-6 when the kick goes 100-110 degrees off the player's facing).
constexpr int kKickWindup = 4;
constexpr int kMaxKickWindup = 7;

// Set pieces: steps between the whistle and the restart being playable.
constexpr int kSetPieceDelaySteps = 10;
constexpr int kSetPieceMaxWaitSteps = 40;  // an idle controlled taker is then helped by the AI

enum GameMode : int {
  kModeNormal = 0,
  kModeKickOff = 1,
  kModeGoalKick = 2,
  kModeFreeKick = 3,
  kModeCorner = 4,
  kModeThrowIn = 5,
  kModePenalty = 6,
};

enum Role : int {
  kRoleGK = 0, kRoleCB, kRoleLB, kRoleRB, kRoleDM, kRoleCM, kRoleLM, kRoleRM, kRoleAM, kRoleCF,
  kNumRoles
};

enum Action : int {
  kIdle = 0, kLeft, kTopLeft, kTop, kTopRight, kRight, kBottomRight, kBottom, kBottomLeft,
  kLongPass, kHighPass, kShortPass, kShot, kSprint, kReleaseDirection, kReleaseSprint,
  kSliding, kDribble, kReleaseDribble,
  // v2 adds builtin_ai; full appends the rest in GRF's order (football_action_set.py).
  kBuiltinAi, kKeeperRush, kPressure, kTeamPressure, kSwitch, kReleaseLongPass, kReleaseHighPass,
  kReleaseShortPass, kReleaseShot, kReleaseKeeperRush, kReleaseSliding, kReleasePressure,
  kReleaseTeamPressure, kReleaseSwitch
};
static_assert(kReleaseSwitch + 1 == kNumActionsFull, "the full set has GRF's 33 actions");

// After a switch the agent keeps the chosen player this long before the automatic
// selection (nearest to the ball) may take over again.
constexpr int kSwitchHoldSteps = 10;

// Unit direction of movement actions 1..8 (index 0 unused), GRF's screen convention.
constexpr float kDirX[9] = {0, -1, -0.70710678f, 0, 0.70710678f, 1, 0.70710678f, 0, -0.70710678f};
constexpr float kDirY[9] = {0, 0, -0.70710678f, -1, -0.70710678f, 0, 0.70710678f, 1, 0.70710678f};

}  // namespace trackfield::football

#endif
