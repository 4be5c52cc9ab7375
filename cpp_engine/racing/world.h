// The whole state of one racing world as plain arrays over car slots, the RNG included,
// so a world can be copied, snapshotted and stepped on any thread with identical results.
#ifndef TRACKFIELD_RACING_WORLD_H
#define TRACKFIELD_RACING_WORLD_H

#include <cstdint>

#include "common/rng.h"
#include "racing/ai_driver.h"
#include "racing/car.h"
#include "racing/config.h"

namespace trackfield::racing {

constexpr int kObservationRing = 4;  // control periods of observed states kept for observation delays
constexpr int kSteerHistory = 10;    // control periods of applied steering kept for reward code (race_state)

// What an observation reads of one car: its physics state plus race flags, as of the
// moment the observation describes (observation_delay_steps before now).
struct SeenCar {
  CarState car;
  float progress;  // along the centre line from the race's reference point (start offset + distance covered), m
  float slipstream;
  bool off_course;
  bool in_contact;
};

struct RaceWorld {
  Rng rng;
  int steps;        // control steps since reset
  float time_s;     // race time
  bool terminated, truncated;

  CarState car[kMaxCars];
  AiDriver driver[kMaxCars];
  // Controls issued in the last kMaxControlDelay + 1 control periods (ring, newest at
  // control_head); an action delayed by k physics steps is read from here.
  CarControl issued[kMaxControlDelay + 1][kMaxCars];
  int control_head;

  // Race bookkeeping per car.
  float progress[kMaxCars];     // centre-line distance covered since the start, m
  float start_offset[kMaxCars]; // where the car started relative to the race's reference point (the
                                // start line on a grid, the first car otherwise), m: orders the field
  int lap[kMaxCars];            // start-line crossings since the start
  float lap_start_time[kMaxCars], last_lap_s[kMaxCars], best_lap_s[kMaxCars];
  float lap_start_progress[kMaxCars];  // progress at the last forward crossing, m
  float off_time[kMaxCars];     // cumulative off-course time under the rule, s
  float tyre_off_time[kMaxCars][4];
  float wall_time[kMaxCars];    // cumulative wall-contact time, s
  float contact_time[kMaxCars]; // cumulative time touching another car, s
  float slipstream[kMaxCars];   // this physics step's strength, 0..1
  bool off_course[kMaxCars];
  bool finished[kMaxCars];
  float finish_time[kMaxCars];
  float penalty_s[kMaxCars];        // slow-down time still to serve
  float penalty_total_s[kMaxCars];  // slow-down time given this episode
  uint8_t prev_contact[kMaxCars][kMaxCars];  // last control step's contacts (penalties count new ones)
  // Contacts during the last control step: contact[i][j] is ContactClass of i against j.
  uint8_t contact[kMaxCars][kMaxCars];

  // The previous control step's values, for the rewards of s -> s'.
  float prev_progress[kMaxCars], prev_off_time[kMaxCars], prev_wall_time[kMaxCars];
  // Steering command applied in each of the last kSteerHistory control periods, newest
  // first: reward code penalises sawing at the wheel from it (trackfield.reward_design).
  float steer_history[kMaxCars][kSteerHistory];
  float reward[kMaxCars];
  float components[kMaxCars][kNumComponents];

  // The built-in AI's suggestion for an agent's car (ai_actions): an agent that sends
  // exactly it may reverse out of a spin even without allow_reverse.
  CarControl ai_suggested[kMaxCars];
  bool ai_suggested_valid[kMaxCars];
  bool ai_reverse[kMaxCars];  // this period: the agent sent the AI's suggestion, reverse allowed

  SeenCar seen[kObservationRing][kMaxCars];  // ring over control periods, newest at seen_head
  int seen_head;
};

}  // namespace trackfield::racing

#endif
