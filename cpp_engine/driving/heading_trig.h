// cos and sin of vehicle headings, remembered per vehicle slot on the calling thread: one
// step of a world asks for those of the same heading several times (the off-road test,
// the observation view, each agent's own frame), a sincos each (libm's, ~5% of a step).
// The memory is keyed by the heading's bits, so a hit returns exactly what std::cos and
// std::sin return for that heading, whichever world or step asked before (a miss only
// recomputes). Thread-local: worlds stay plain data and threads never share it.
#ifndef TRACKFIELD_DRIVING_HEADING_TRIG_H
#define TRACKFIELD_DRIVING_HEADING_TRIG_H

#include <cmath>
#include <cstdint>
#include <cstring>

#include "driving/limits.h"

namespace trackfield::driving {

struct HeadingTrigMemory {
  uint64_t bits[kMaxVehicles];  // of the heading each slot's c, s belong to
  double c[kMaxVehicles], s[kMaxVehicles];
  HeadingTrigMemory() {
    for (int i = 0; i < kMaxVehicles; ++i) bits[i] = 0, c[i] = 1.0, s[i] = 0.0;  // heading +0
  }
};

// c = std::cos(heading), s = std::sin(heading), bit for bit; slot in [0, kMaxVehicles).
inline void heading_cos_sin(int slot, double heading, double& c, double& s) {
  thread_local HeadingTrigMemory memory;
  uint64_t bits;
  std::memcpy(&bits, &heading, sizeof bits);
  if (memory.bits[slot] != bits) {
    memory.bits[slot] = bits, memory.c[slot] = std::cos(heading), memory.s[slot] = std::sin(heading);
  }
  c = memory.c[slot], s = memory.s[slot];
}

}  // namespace trackfield::driving

#endif
