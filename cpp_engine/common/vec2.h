// Small 2-D vector maths shared by every domain.
#ifndef TRACKFIELD_COMMON_VEC2_H
#define TRACKFIELD_COMMON_VEC2_H

#include <cmath>

namespace trackfield {

struct Vec2 {
  float x = 0.0f;
  float y = 0.0f;
};

inline Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
inline Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
inline Vec2 operator*(Vec2 a, float s) { return {a.x * s, a.y * s}; }
inline Vec2 operator*(float s, Vec2 a) { return {a.x * s, a.y * s}; }
inline float dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
inline float cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
inline float length_sq(Vec2 a) { return dot(a, a); }
inline float length(Vec2 a) { return std::sqrt(dot(a, a)); }
inline float distance(Vec2 a, Vec2 b) { return length(a - b); }
inline float distance_sq(Vec2 a, Vec2 b) { return length_sq(a - b); }

inline Vec2 normalized(Vec2 a, Vec2 fallback = {1.0f, 0.0f}) {
  float len = length(a);
  return len > 1e-6f ? a * (1.0f / len) : fallback;
}

inline Vec2 rotated(Vec2 a, float angle) {
  float c = std::cos(angle), s = std::sin(angle);
  return {c * a.x - s * a.y, s * a.x + c * a.y};
}

// Moves `current` towards `target` by at most `max_step`.
inline Vec2 approach(Vec2 current, Vec2 target, float max_step) {
  Vec2 d = target - current;
  float len = length(d);
  if (len <= max_step || len < 1e-9f) return target;
  return current + d * (max_step / len);
}

inline float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

}  // namespace trackfield

#endif
