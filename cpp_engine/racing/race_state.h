// Every car's full state as one flat row per car, for reward code written against
// trackfield.reward_design.CarState (world_info["race_state"] with race_state = true).
#ifndef TRACKFIELD_RACING_RACE_STATE_H
#define TRACKFIELD_RACING_RACE_STATE_H

#include "racing/config.h"
#include "racing/world.h"

namespace trackfield::racing {

// Scalars per car before the two per-car rows (contact class, signed distance) of
// num_cars each; the order is trackfield.reward_design.state.RAW_FIELDS.
constexpr int kRaceStateScalars = 71;

inline int race_state_size(const RaceConfig& cfg) { return cfg.num_cars() * (kRaceStateScalars + 2 * cfg.num_cars()); }

void write_race_state(const RaceWorld& w, const RaceConfig& cfg, double* out);

}  // namespace trackfield::racing

#endif
