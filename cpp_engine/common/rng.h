// Per-world random numbers: PCG32 (O'Neill), seeded from (seed, stream id).
// One generator lives inside each world's state, so results never depend on
// which thread steps the world, and a snapshot captures the generator too.
#ifndef TRACKFIELD_COMMON_RNG_H
#define TRACKFIELD_COMMON_RNG_H

#include <cmath>
#include <cstdint>

namespace trackfield {

struct Rng {
  uint64_t state = 0x853c49e6748fea9bULL;
  uint64_t inc = 0xda3e39cb94b95bdbULL;
};

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

inline uint32_t rng_next_u32(Rng& rng) {
  uint64_t old = rng.state;
  rng.state = old * 6364136223846793005ULL + rng.inc;
  uint32_t xorshifted = static_cast<uint32_t>(((old >> 18u) ^ old) >> 27u);
  uint32_t rot = static_cast<uint32_t>(old >> 59u);
  return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

inline void rng_seed(Rng& rng, uint64_t seed, uint64_t stream) {
  rng.state = 0;
  rng.inc = (splitmix64(stream) << 1u) | 1u;
  rng_next_u32(rng);
  rng.state += splitmix64(seed ^ 0x6a09e667f3bcc909ULL);
  rng_next_u32(rng);
}

// Uniform in [0, 1).
inline float rng_uniform(Rng& rng) {
  return static_cast<float>(rng_next_u32(rng) >> 8) * (1.0f / 16777216.0f);
}

inline float rng_range(Rng& rng, float lo, float hi) { return lo + (hi - lo) * rng_uniform(rng); }

// Standard normal by Box-Muller (one value per call keeps the state small).
inline float rng_normal(Rng& rng) {
  float u1 = rng_uniform(rng);
  float u2 = rng_uniform(rng);
  if (u1 < 1e-7f) u1 = 1e-7f;
  return std::sqrt(-2.0f * std::log(u1)) * std::cos(6.2831853f * u2);
}

inline uint64_t rng_next_u64(Rng& rng) {
  return (static_cast<uint64_t>(rng_next_u32(rng)) << 32) | rng_next_u32(rng);
}

}  // namespace trackfield

#endif
