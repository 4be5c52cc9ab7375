// A racing batch's settings: the track and racing line (built once, shared read-only by
// every world), the scenario's launch, the rules and the reward weights. Python
// (trackfield.racing.config) fills it from a scenario and the user's keywords.
#ifndef TRACKFIELD_RACING_CONFIG_H
#define TRACKFIELD_RACING_CONFIG_H

#include <cstdint>
#include <memory>

#include "racing/car.h"
#include "racing/racing_line.h"
#include "racing/track.h"

namespace trackfield::racing {

constexpr int kMaxCars = 20;          // a GT Sport / GT7 lobby
constexpr int kMaxSections = 16;      // named sections a reward modifier can target
constexpr int kMaxControlDelay = 8;   // control periods an action can wait (0.8 s at 10 Hz)
constexpr int kMaxObservationDelay = 32;  // physics steps an observation can lag
constexpr int kTrackPoints = 60;      // per edge line in the features observation
constexpr int kCarsAhead = 5, kCarsBehind = 3;  // neighbours in the features observation
// Penalties (GT Sport's slow-down penalty): served on straights at no more than
// kPenaltySpeed; earned per second off course above that speed and per unsporting contact.
constexpr float kPenaltySpeed = 100.0f / 3.6f;  // m/s
constexpr float kUnsportingPenaltyS = 2.0f;
constexpr int kPointsPaid = 8;
constexpr int kPoints[kPointsPaid] = {10, 8, 6, 5, 4, 3, 2, 1};  // by final place, as in GT Sophy's races

enum Component : int {
  kProgress = 0, kOffCourseSq, kOffCourseLin, kWall, kTyreSlip, kPassing, kAnyCollision,
  kRearEnd, kUnsporting, kNumComponents
};
constexpr const char* kComponentNames[kNumComponents] = {
    "progress", "off_course_sq", "off_course_lin", "wall", "tyre_slip", "passing",
    "any_collision", "rear_end", "unsporting"};

enum class StartKind : int {
  kRolling = 0,    // cars launched near each other at speed (GT Sophy's base scenarios)
  kGrid = 1,       // two-wide grid behind the start line, standing or at grid_speed
  kSlipstream = 2, // on the longest straight, the opponent ahead and held to a side
  kSection = 3,    // just before a named section
};

enum class OffCourseRule : int { kThreeTyres = 0, kAnyTyre = 1 };
enum class Observation : int { kFeatures = 0, kPixels = 1 };

struct RaceConfig {
  std::shared_ptr<const Track> track;
  std::shared_ptr<const RacingLine> line;  // the AI's line and speed profile for this car
  CarKind car = CarKind::kGt3;

  // Cars: `groups` independent groups of `cars_per_group`; the first
  // `agents_per_group` cars of each group are the agents (slot order: group by group).
  int groups = 1;
  int cars_per_group = 1;
  int agents_per_group = 1;

  int physics_hz = 100;
  int control_hz = 10;
  float max_time_s = 150.0f;  // truncation
  int laps = 0;               // > 0: a car is finished after this many laps; the episode ends when every agent is
  float finish_distance_m = 0;// > 0: ... after covering this distance (section runs)
  float max_off_course_s = -1;// >= 0: the episode ends (terminated) once an agent car's off-course time exceeds it

  // Launch.
  StartKind start = StartKind::kRolling;
  float start_s_m = -1.0f;        // where the first agent starts along the centre line (< 0: uniform at random)
  int start_slot = 0;             // grid slot of the first agent (grid starts; -1: random each reset)
  float speed_min_kmh = 80.0f, speed_max_kmh = 200.0f;  // rolling launch speeds (fraction of line speed cap)
  float gap_min_m = 8.0f, gap_max_m = 40.0f;            // rolling: spacing between consecutive cars
  float grid_speed_kmh = 0.0f;    // grid: 0 = standing start
  float skill_min = 0.85f, skill_max = 1.0f;  // AI pace fraction, drawn per car
  float braking_noise = 0.05f;
  float ai_aggression = 0.5f;     // AI racecraft 0..1: following gap and the speed edge it attacks with
  int section = -1;               // kSection: the section id to start before
  float section_lead_m = 150.0f;  // kSection: start this far before the section
  float section_exit_m = 100.0f;  // kSection: the episode ends this far past its end
  float slipstream_gap_m = 20.0f; // kSlipstream: opponent this far ahead
  float slipstream_side_m = 2.0f; // kSlipstream: opponent held this far left (+) or right (-)

  // Rules.
  bool allow_reverse = false;
  bool penalties = false;  // slow-down penalties for cutting the course and unsporting contact
  OffCourseRule off_course_rule = OffCourseRule::kThreeTyres;
  int action_delay_steps = 0;       // physics steps between an action and its effect
  int observation_delay_steps = 0;  // physics steps an observation lags the state

  // Observation.
  Observation observation = Observation::kFeatures;
  int pixel_width = 96, pixel_height = 96;
  float pixel_metres = 120.0f;  // width of the chase view on the ground
  // Every car's full state in world_info["race_state"] (trackfield.reward_design.CarState).
  bool race_state = false;

  // Rewards: total = sum_k weight[k] * scale[section][k] * component[k].
  float weight[kNumComponents] = {};
  float section_scale[kMaxSections][kNumComponents];
  float passing_behind_m = 20.0f, passing_ahead_m = 40.0f;

  RaceConfig() {
    for (auto& row : section_scale)
      for (float& v : row) v = 1.0f;
  }

  int num_cars() const { return groups * cars_per_group; }
  int num_agents() const { return groups * agents_per_group; }
  int substeps() const { return physics_hz / control_hz; }
  float dt() const { return 1.0f / static_cast<float>(physics_hz); }
  // Car index of agent slot a, and whether a car is an agent's (the first of its group).
  int agent_car(int a) const { return (a / agents_per_group) * cars_per_group + a % agents_per_group; }
  bool is_agent_car(int car) const { return car % cars_per_group < agents_per_group; }
};

}  // namespace trackfield::racing

#endif
