#include "racing/reference_lap.h"

#include <algorithm>
#include <cmath>

#include "racing/ai_driver.h"

namespace trackfield::racing {

ReferenceLap reference_lap(const Track& track, const CarParams& params, const RacingLine& line, int physics_hz,
                           int control_hz, float max_time_s) {
  ReferenceLap out;
  // Launch on the fastest point of the line (a straight), along the line at its speed.
  int k = static_cast<int>(std::max_element(line.speed.begin(), line.speed.end()) - line.speed.begin());
  TrackPos pos = project(track, {line.x[k], line.y[k]}, -1);
  float line_heading = std::atan2(-line.normal_x[k], line.normal_y[k]);
  CarState car;
  place_car(car, params, track, pos.s, pos.d, 0.9f * line.speed[k], line_heading - pos.heading);
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
      step_car(car, params, track, control, 1.0f, /*allow_reverse=*/true, dt);
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
