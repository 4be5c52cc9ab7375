// Angle wrapping in constant time, whatever the angle's size.
#ifndef TRACKFIELD_COMMON_ANGLE_H
#define TRACKFIELD_COMMON_ANGLE_H

#include <cmath>

namespace trackfield {

// An angle wrapped into [-pi, pi) in constant time, whatever its size (NaN stays NaN).
inline float wrap_pi(float a) {
  constexpr float kTwoPi = 6.283185307179586f;
  float r = std::remainder(a, kTwoPi);
  return r >= 0.5f * kTwoPi ? r - kTwoPi : r;
}
inline double wrap_pi(double a) {
  constexpr double kTwoPi = 6.283185307179586;
  double r = std::remainder(a, kTwoPi);
  return r >= 0.5 * kTwoPi ? r - kTwoPi : r;
}

}  // namespace trackfield

#endif
