// The line an AI drives and the speed it can carry along it: the line (from a file or
// the minimum-curvature solver in Python) resampled evenly, its curvature, and a
// grip- and power-limited speed profile for one car class.
#ifndef TRACKFIELD_RACING_RACING_LINE_H
#define TRACKFIELD_RACING_RACING_LINE_H

#include <vector>

#include "racing/car.h"
#include "racing/track.h"

namespace trackfield::racing {

constexpr float kLineSpacing = 2.0f;  // m between resampled line points
// The profile assumes this share of the tyres' peak grip: the margin a driver keeps
// for load transfer and corrections (the car at skill 1 laps without leaving the track).
constexpr float kProfileGrip = 0.92f;

struct RacingLine {
  std::vector<float> x, y;        // m, closed, evenly spaced
  std::vector<float> s;           // arc length along the line, m
  std::vector<float> curvature;   // 1/m, + left
  std::vector<float> speed;       // m/s the car can carry, braking for what follows included
  std::vector<float> offset;      // lateral offset from the centre line, m, + left
  std::vector<float> normal_x, normal_y;  // unit left normal of the line
  std::vector<int> index_of_segment;  // nearest line point to each centre-line point
  float length = 0.0f;
  int size() const { return static_cast<int>(x.size()); }
};

// Builds the line from m >= 10 points (x, y interleaved, closed, in the direction of
// travel) for `params`'s car. Throws std::invalid_argument for too few or non-finite
// points or a line that wanders off the track.
RacingLine build_racing_line(const Track& track, const CarParams& params, const float* xy, int m);

// Largest cornering speed on curvature kappa with downforce: m v^2 |k| = mu (m g + L v^2).
float corner_speed_limit(const CarParams& params, float kappa);

}  // namespace trackfield::racing

#endif
