// Vehicle state rows for the incident recorder (recorder.h).
#include "driving/recorder.h"

namespace trackfield::driving {

void write_vehicle_states(const DriveWorld& w, const DriveConfig& cfg, float* out) {
  const Vehicles& v = w.veh;
  const int rows = state_rows(cfg);
  for (int r = 0; r < rows; ++r, out += kStateRowSize) {
    const int i = r < cfg.slots ? r : kMaxAgents + (r - cfg.slots);
    const bool present = w.state[i] != kEmpty;
    if (!present) {
      for (int k = 0; k < kStateRowSize - 1; ++k) out[k] = 0.0f;
      out[kStateRowSize - 1] = -1.0f;
      continue;
    }
    out[0] = static_cast<float>(v.x[i]), out[1] = static_cast<float>(v.y[i]);
    out[2] = static_cast<float>(v.heading[i]), out[3] = static_cast<float>(v.v[i]);
    out[4] = v.length[i], out[5] = v.width[i];
    out[6] = static_cast<float>(w.state[i]);
    out[7] = i < kMaxAgents ? static_cast<float>(w.agent_id[i]) : -1.0f;
  }
}

}  // namespace trackfield::driving
