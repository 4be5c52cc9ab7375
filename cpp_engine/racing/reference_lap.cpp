#include "racing/reference_lap.h"

#include <algorithm>

#include "racing/ai_driver.h"

namespace trackfield::racing {

ReferenceLap reference_lap(const Track& track, const CarParams& params, const RacingLine& line, int physics_hz,
                           int control_hz, float max_time_s) {
  ReferenceLap out;
  const float lead_in = std::min(400.0f, 0.25f * track.length);
  float start_s = track.length - lead_in;
  int seg = std::min(track.n - 1, static_cast<int>(start_s / track.length * static_cast<float>(track.n)));
  while (seg + 1 < track.n && track.s[seg + 1] <= start_s) ++seg;
  int k = line.index_of_segment[seg];
  CarState car;
  place_car(car, params, track, start_s, line.offset[k], line.speed[k], 0.0f);
  AiDriver driver;
  Rng rng;
  rng_seed(rng, 1, 1);
  const float dt = 1.0f / static_cast<float>(physics_hz);
  const int substeps = std::max(1, physics_hz / control_hz);
  float time = 0.0f, lap_start = -1.0f;
  float min_speed = 1e9f, top = 0.0f, off = 0.0f, wall = 0.0f;
  while (time < max_time_s) {
    CarControl control = ai_control(car, params, track, line, driver, &car, 1, 0, rng);
    for (int sub = 0; sub < substeps; ++sub) {
      float prev_s = car.s;
      step_car(car, params, track, control, 1.0f, false, dt);
      time += dt;
      // The start line is s = 0: a jump from near the end of the lap to near its start.
      if (prev_s > 0.5f * track.length && car.s < 0.5f * track.length) {
        float before = track.length - prev_s, after = car.s;
        float crossed = time - dt + dt * before / std::max(before + after, 1e-6f);
        if (lap_start < 0.0f) {
          lap_start = crossed;
        } else {
          out.completed = true;
          out.lap_time_s = crossed - lap_start;
          out.top_speed = top;
          out.min_speed = min_speed;
          out.off_course_s = off;
          out.wall_s = wall;
          return out;
        }
      }
      if (lap_start >= 0.0f) {
        float v = car_speed(car);
        top = std::max(top, v);
        min_speed = std::min(min_speed, v);
        int out_count = car.tyre_out[0] + car.tyre_out[1] + car.tyre_out[2] + car.tyre_out[3];
        if (out_count >= 3) off += dt;
        if (car.wall_contact) wall += dt;
      }
    }
  }
  out.top_speed = top;
  out.min_speed = min_speed;
  out.off_course_s = off;
  out.wall_s = wall;
  return out;
}

}  // namespace trackfield::racing
