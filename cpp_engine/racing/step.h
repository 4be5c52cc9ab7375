// One racing control step and the pieces it is made of, in the order they run.
#ifndef TRACKFIELD_RACING_STEP_H
#define TRACKFIELD_RACING_STEP_H

#include "racing/config.h"
#include "racing/world.h"

namespace trackfield::racing {

// A new episode: cars launched as the config's start kind says, race state cleared.
void reset_world(RaceWorld& w, const RaceConfig& cfg, uint64_t seed);

// One control step: agents' actions ([num_agents, 2] float32, already checked) and the
// AI's controls through the action delay, `substeps` physics steps with contacts and
// slipstream, race bookkeeping, rewards, episode end.
void step_world(RaceWorld& w, const RaceConfig& cfg, const float* actions);

// Race bookkeeping after one physics step: progress, laps, off-course, wall and contact times.
void update_race(RaceWorld& w, const RaceConfig& cfg, const float* old_s);

// Whether a contact of class `cls` (ContactClass) is unsporting on a straight
// (rear-ending or side contact) or in a curve (anything but being rear-ended).
bool unsporting_contact(uint8_t cls, SectionKind kind);

// Car i's unweighted reward components over the control step just taken.
void car_components(const RaceWorld& w, const RaceConfig& cfg, int i, float* out);

// Rewards of the control step just taken, from the prev_* values to the current ones.
void compute_rewards(RaceWorld& w, const RaceConfig& cfg);

// The state an observation sees, taking observation_delay_steps into account.
const SeenCar* seen_cars(const RaceWorld& w, const RaceConfig& cfg);

// Group of a car and its first car.
inline int group_of(const RaceConfig& cfg, int car) { return car / cfg.cars_per_group; }
inline int group_start(const RaceConfig& cfg, int car) { return group_of(cfg, car) * cfg.cars_per_group; }

}  // namespace trackfield::racing

#endif
