// What every agent's observation of one world needs and would otherwise recompute per
// agent or pair: which slots hold a live vehicle as an additive 0 / +inf (so the nearest-
// vehicle distances vectorise) and, for sets, the vehicles' heading cosines and sines (20
// sincos per agent were a tenth of a step). Built once per world just before its observations are written
// (DriveDomain::write_live: the shared batch calls it right before write_obs on every
// path: reset, step and set_state) into a thread-local view, since a world is plain data
// and observation writing is const.
//
// A view is used only for the world it was built from: it is keyed by the world's address,
// step count, generator state and identity counter; any other world (or a call that was
// not preceded by write_live) gets nullptr and the writer computes the same values itself.
//
// A grid of the live vehicles for the nearest-vehicle search was tried here and dropped:
// in a town the 20 nearest of ~75 vehicles spread over most of it, so the rings visit
// nearly every vehicle and the plain scan was as fast. What pays is scanning only the live
// vehicles: the view lists them (ascending slot, so ties break as over all slots) with
// their positions packed, and the scan skips the empty, ended and static-obstacle-free
// slots (with half the slots live, 2.5x fewer pairs).
#ifndef TRACKFIELD_DRIVING_OBS_VIEW_H
#define TRACKFIELD_DRIVING_OBS_VIEW_H

#include <cstdint>

#include "driving/config.h"
#include "driving/world.h"

namespace trackfield::driving {

struct ObsView {
  // Key of the world it describes.
  const DriveWorld* world = nullptr;
  int steps = -1;
  uint64_t rng_state = 0;
  int next_agent_id = -1;
  double absent[kMaxVehicles];              // 0 for a live vehicle, +inf otherwise
  double cos_h[kMaxVehicles], sin_h[kMaxVehicles];  // of each live vehicle's heading (0 elsewhere)
  // The observation columns that do not depend on the observer, as every writer computes
  // them: clip1(observed length / 7 m), clip1(observed width / 3 m), clip1(speed / 30 m/s)
  // (flat's); 0 for slots that are not live.
  float length_col[kMaxVehicles], width_col[kMaxVehicles], speed_col[kMaxVehicles];
  int live_count;                           // live vehicles, listed by ascending slot:
  int live_slot[kMaxVehicles];
  double live_x[kMaxVehicles], live_y[kMaxVehicles];
};

// Builds the calling thread's view of w.
void prepare_obs_view(const DriveWorld& w, const DriveConfig& cfg);

// The calling thread's view if it describes w, else nullptr.
const ObsView* obs_view_for(const DriveWorld& w);

}  // namespace trackfield::driving

#endif
