// Slipstream: a car in another's wake meets less air. The wake is strongest right
// behind the lead car, fades over a few dozen metres and with lateral offset, and only
// matters at speed.
#ifndef TRACKFIELD_RACING_SLIPSTREAM_H
#define TRACKFIELD_RACING_SLIPSTREAM_H

#include "racing/car.h"

namespace trackfield::racing {

// Fraction of drag removed at full wake strength (wind-tunnel figures for a car a
// length behind another are 30-40%).
constexpr float kSlipstreamDragCut = 0.35f;
constexpr float kWakeLength = 15.0f;    // m, e-folding distance of the wake behind the lead car
constexpr float kWakeRange = 60.0f;     // m, no wake beyond
constexpr float kWakeSpeed = 25.0f;     // m/s, wake at full strength from this lead speed up

// Wake strength in [0, 1] that `lead` casts on `self`.
float slipstream_strength(const CarState& self, const CarState& lead, const CarParams& lead_params);

}  // namespace trackfield::racing

#endif
