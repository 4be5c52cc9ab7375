// Vehicle-vehicle collision detection over one step (detection only: no response).
//
// Two boxes collide in a step when they overlap at its start or end, or when a corner of
// either, moving in a straight line from its pose at t to its pose at t + 1, crosses the
// other box: GIGAFLOW's corner paths, which catch boxes that pass through each other within
// one step (two cars head-on at 20 m/s each move 6 m per 0.3 s step). The corner path is
// taken in the other box's own frame (the corner's offset from that box at t, then at
// t + 1): in the world frame a car's rear corners sweep through the place where the car
// following it ends up, so every car following closer than one step's travel would collide.
// The overlap at the end of the step is our addition: it costs little and catches two thin
// boxes crossing like a plus sign, where no corner is inside the other box.
//
// Candidates come from a per-step uniform hash of the end positions with cells at least
// twice the longest vehicle; static obstacles are agents whose two poses are equal.
#ifndef TRACKFIELD_DRIVING_COLLISION_H
#define TRACKFIELD_DRIVING_COLLISION_H

#include <cstdint>
#include <vector>

#include "common/spatial_hash.h"

namespace trackfield::driving {

// Agents whose heights differ by more than this never collide: vehicles are lower than
// 4 m and an overpass stands at least 5 m above the road it crosses.
constexpr float kCollisionHeight = 4.0f;
constexpr float kCollisionCellSize = 14.0f;  // m, 2 x the longest vehicle (bicycle.h)

struct Box {
  double x, y, heading, half_length, half_width;
};

// Poses of `count` agents at the start (x0, y0, heading0) and end (x1, y1, heading1) of a
// step, with each agent's z (at the end), length and width. Pointers to caller arrays.
struct CollisionInput {
  int count = 0;
  const double *x0 = nullptr, *y0 = nullptr, *heading0 = nullptr;
  const double *x1 = nullptr, *y1 = nullptr, *heading1 = nullptr;
  const float *z = nullptr, *length = nullptr, *width = nullptr;
};

// Buffers sized once for up to `capacity` agents: the hash and its float positions.
struct CollisionScratch {
  SpatialHash hash;
  std::vector<float> hx, hy;
};

// Bounds cover the map; agents beyond them still work (border cells hold them).
void collision_scratch_init(CollisionScratch& scratch, int capacity, float min_x, float min_y,
                            float max_x, float max_y);

// Separating-axis test of two boxes (touching counts as overlap).
bool boxes_overlap(const Box& a, const Box& b);

// True when segment p -> q meets the box [-half_length, half_length] x [-half_width, half_width].
bool segment_hits_local_box(double px, double py, double qx, double qy, double half_length,
                            double half_width);

// The pair rule above for boxes a and b at t (a0, b0) and t + 1 (a1, b1).
bool pair_collides(const Box& a0, const Box& a1, const Box& b0, const Box& b1);

// Writes collided[i] (0 / 1) and partner[i] (the lowest id it collided with, or -1) for
// every agent. Allocates nothing (throws std::length_error past the scratch capacity).
void detect_collisions(const CollisionInput& in, CollisionScratch& scratch, uint8_t* collided,
                       int32_t* partner);

}  // namespace trackfield::driving

#endif
