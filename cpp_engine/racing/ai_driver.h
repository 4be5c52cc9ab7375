// The built-in driver: follows its racing line (curvature preview plus
// Stanley's heading and lateral-error feedback) at a pace fraction of
// the line's speed profile, brakes with a per-corner error, and races the cars around
// it: follows a slower car it cannot pass, pulls out to the side with more room to
// overtake, keeps a lane from a car alongside (never steering back into it) and covers the inside when
// attacked from behind.
#ifndef TRACKFIELD_RACING_AI_DRIVER_H
#define TRACKFIELD_RACING_AI_DRIVER_H

#include "common/rng.h"
#include "racing/racing_line.h"

namespace trackfield::racing {

struct AiDriver {
  float skill = 1.0f;               // fraction of the line's speed it targets
  float lateral_preference = 0.0f;  // m it keeps left (+) of its line when alone
  float braking_noise = 0.0f;       // relative spread of its braking points
  bool hold_line = false;           // ignore traffic (an opponent held to one side)
  // 0..1: how close it follows and how small a speed advantage it attacks with (0.5: default).
  float aggression = 0.5f;
  float offset = 0.0f;  // m left of its line it steers for now (moves towards the plan at a limited rate)
  // The current braking error and the stretch of line it was drawn for.
  float noise = 0.0f;
  int noise_block = -1;
  // Recovery: seconds spent stuck (slow and crossways or on a wall), seconds reversing.
  float stuck_s = 0.0f;
  float reversing_s = 0.0f;
  // Pinned: seconds barely moving while pointing the right way; seconds backing off.
  float pinned_s = 0.0f;
  float backing_s = 0.0f;
};

// This car's control for the next period. `cars` are the n cars it races (its group),
// self_index its place among them. Draws from rng only when it reaches a new stretch of
// line. Stuck crossways or against a wall, it backs out (the car must allow reverse).
CarControl ai_control(const CarState& self, const CarParams& params, const Track& track, const RacingLine& line,
                      AiDriver& driver, const CarState* cars, int n, int self_index, Rng& rng);

}  // namespace trackfield::racing

#endif
