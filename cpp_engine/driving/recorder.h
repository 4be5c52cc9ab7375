// The per-step vehicle states that the Python incident recorder keeps in its ring buffer
// (trackfield.driving.evaluation): one row per vehicle slot of a world, written straight
// into a caller-owned float32 array, so recording a step allocates nothing.
#ifndef TRACKFIELD_DRIVING_RECORDER_H
#define TRACKFIELD_DRIVING_RECORDER_H

#include "driving/config.h"
#include "driving/world.h"

namespace trackfield::driving {

// Columns of a state row.
constexpr int kStateRowSize = 8;
constexpr const char* kStateRowNames[kStateRowSize] = {"x", "y", "heading", "speed", "length", "width", "state",
                                                       "agent_id"};

// Rows per world: the agent slots, then the static obstacles.
inline int state_rows(const DriveConfig& cfg) { return cfg.slots + cfg.static_obstacles; }

// Writes state_rows(cfg) rows of kStateRowSize floats: x, y (m), heading (rad), signed speed
// (m/s), length, width (m), slot state (0 empty, 1 alive, 2 ended this step) and the
// occupant's agent id (-1 for static obstacles and empty slots). Empty slots are zeros
// apart from agent_id.
void write_vehicle_states(const DriveWorld& w, const DriveConfig& cfg, float* out);

}  // namespace trackfield::driving

#endif
