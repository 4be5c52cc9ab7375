// The per-world observation view (obs_view.h).
#include "driving/obs_view.h"

#include <cmath>
#include <limits>


namespace trackfield::driving {

namespace {

ObsView& thread_view() {
  thread_local ObsView view;
  return view;
}

}  // namespace

void prepare_obs_view(const DriveWorld& w, const DriveConfig& cfg) {
  ObsView& view = thread_view();
  const Vehicles& v = w.veh;
  for (int j = 0; j < kMaxVehicles; ++j) view.absent[j] = w.state[j] == kAlive ? 0.0 : std::numeric_limits<double>::infinity();
  if (cfg.observation == DriveObservation::kSets)
    for (int j = 0; j < kMaxVehicles; ++j) view.cos_h[j] = std::cos(v.heading[j]), view.sin_h[j] = std::sin(v.heading[j]);
  view.world = &w, view.steps = w.steps, view.rng_state = w.rng.state, view.next_agent_id = w.next_agent_id;
}

const ObsView* obs_view_for(const DriveWorld& w) {
  const ObsView& view = thread_view();
  if (view.world != &w || view.steps != w.steps || view.rng_state != w.rng.state ||
      view.next_agent_id != w.next_agent_id)
    return nullptr;
  return &view;
}

}  // namespace trackfield::driving
