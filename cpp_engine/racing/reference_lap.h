// The reference lap: the built-in AI at full skill, no braking error, alone on the
// track, timed over one flying lap (launched at the fastest point of its line). The
// benchmark prints it for every track and the physics tests hold gt3 at
// Monza to a real GT3 race lap.
#ifndef TRACKFIELD_RACING_REFERENCE_LAP_H
#define TRACKFIELD_RACING_REFERENCE_LAP_H

#include "racing/car.h"
#include "racing/racing_line.h"

namespace trackfield::racing {

struct ReferenceLap {
  bool completed = false;     // crossed the line twice within max_time_s
  float lap_time_s = 0.0f;
  float top_speed = 0.0f;     // m/s
  float min_speed = 0.0f;     // m/s, slowest point of the timed lap
  float off_course_s = 0.0f;  // with three or more tyres out
  float wall_s = 0.0f;
};

ReferenceLap reference_lap(const Track& track, const CarParams& params, const RacingLine& line, int physics_hz = 100,
                           int control_hz = 10, float max_time_s = 600.0f);

}  // namespace trackfield::racing

#endif
