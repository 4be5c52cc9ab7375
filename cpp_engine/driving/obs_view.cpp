// The per-world observation view (obs_view.h).
#include "driving/obs_view.h"

#include <cmath>
#include <limits>

#include "driving/heading_trig.h"
#include "driving/obs_parts.h"
#include "driving/observed.h"


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
  int n = 0;
  for (int j = 0; j < kMaxVehicles; ++j) {
    const bool live = w.state[j] == kAlive;
    view.absent[j] = live ? 0.0 : std::numeric_limits<double>::infinity();
    view.cos_h[j] = view.sin_h[j] = 0.0;
    if (live) heading_cos_sin(j, v.heading[j], view.cos_h[j], view.sin_h[j]);
    view.length_col[j] = live ? obs::clip1(observed_size(cfg, v.length[j]) / 7.0) : 0.0f;
    view.width_col[j] = live ? obs::clip1(observed_size(cfg, v.width[j]) / 3.0) : 0.0f;
    view.speed_col[j] = live ? obs::clip1(v.v[j] / 30.0) : 0.0f;
    if (live) view.live_slot[n] = j, view.live_x[n] = v.x[j], view.live_y[n] = v.y[j], ++n;
  }
  view.live_count = n;
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
