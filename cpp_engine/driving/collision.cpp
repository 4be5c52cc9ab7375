// Box overlap, corner paths and the hashed all-pairs pass (collision.h).
#include "driving/collision.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace trackfield::driving {

namespace {

struct Frame {
  double cx, cy, ux, uy;  // centre and unit heading; the lateral axis is (-uy, ux)
};

Frame frame_of(const Box& b) { return {b.x, b.y, std::cos(b.heading), std::sin(b.heading)}; }

void corner(const Box& b, const Frame& f, int k, double& x, double& y) {
  const double lx = (k == 0 || k == 3) ? b.half_length : -b.half_length;
  const double ly = (k < 2) ? b.half_width : -b.half_width;
  x = f.cx + f.ux * lx - f.uy * ly;
  y = f.cy + f.uy * lx + f.ux * ly;
}

// Half extent of box b projected on unit axis (ax, ay).
double radius_on(const Box& b, const Frame& f, double ax, double ay) {
  return b.half_length * std::fabs(f.ux * ax + f.uy * ay) + b.half_width * std::fabs(-f.uy * ax + f.ux * ay);
}

void to_local(const Frame& f, double x, double y, double* out) {
  const double dx = x - f.cx, dy = y - f.cy;
  out[0] = f.ux * dx + f.uy * dy, out[1] = -f.uy * dx + f.ux * dy;
}

Box box_at(const CollisionInput& in, int i, bool end) {
  return end ? Box{in.x1[i], in.y1[i], in.heading1[i], 0.5 * in.length[i], 0.5 * in.width[i]}
             : Box{in.x0[i], in.y0[i], in.heading0[i], 0.5 * in.length[i], 0.5 * in.width[i]};
}

void mark(uint8_t* collided, int32_t* partner, int i, int j) {
  collided[i] = 1;
  if (partner[i] < 0 || j < partner[i]) partner[i] = j;
}

}  // namespace

void collision_scratch_init(CollisionScratch& s, int capacity, float min_x, float min_y, float max_x,
                            float max_y) {
  spatial_hash_init(s.hash, min_x, min_y, max_x, max_y, kCollisionCellSize, capacity);
  s.hx.assign(capacity, 0.0f), s.hy.assign(capacity, 0.0f);
}

bool boxes_overlap(const Box& a, const Box& b) {
  const Frame fa = frame_of(a), fb = frame_of(b);
  const double dx = fb.cx - fa.cx, dy = fb.cy - fa.cy;
  const double axes[4][2] = {{fa.ux, fa.uy}, {-fa.uy, fa.ux}, {fb.ux, fb.uy}, {-fb.uy, fb.ux}};
  for (const auto& ax : axes) {
    const double gap = std::fabs(dx * ax[0] + dy * ax[1]);
    if (gap > radius_on(a, fa, ax[0], ax[1]) + radius_on(b, fb, ax[0], ax[1])) return false;
  }
  return true;
}

// Slab test.
bool segment_hits_local_box(double px, double py, double qx, double qy, double half_length,
                            double half_width) {
  const double p[2] = {px, py}, q[2] = {qx, qy}, half[2] = {half_length, half_width};
  double t0 = 0.0, t1 = 1.0;
  for (int a = 0; a < 2; ++a) {
    const double d = q[a] - p[a];
    if (d == 0.0) {
      if (std::fabs(p[a]) > half[a]) return false;
      continue;
    }
    double lo = (-half[a] - p[a]) / d, hi = (half[a] - p[a]) / d;
    if (lo > hi) std::swap(lo, hi);
    t0 = std::max(t0, lo), t1 = std::min(t1, hi);
    if (t0 > t1) return false;
  }
  return true;
}

bool pair_collides(const Box& a0, const Box& a1, const Box& b0, const Box& b1) {
  if (boxes_overlap(a0, b0) || boxes_overlap(a1, b1)) return true;
  const Box* pairs[2][4] = {{&a0, &a1, &b0, &b1}, {&b0, &b1, &a0, &a1}};  // moving at t, t + 1; other at t, t + 1
  for (const auto& m : pairs) {
    const Frame f0 = frame_of(*m[0]), f1 = frame_of(*m[1]), g0 = frame_of(*m[2]), g1 = frame_of(*m[3]);
    for (int k = 0; k < 4; ++k) {
      double px, py, qx, qy, lp[2], lq[2];
      corner(*m[0], f0, k, px, py);
      corner(*m[1], f1, k, qx, qy);
      to_local(g0, px, py, lp);
      to_local(g1, qx, qy, lq);
      if (segment_hits_local_box(lp[0], lp[1], lq[0], lq[1], m[2]->half_length, m[2]->half_width)) return true;
    }
  }
  return false;
}

void detect_collisions(const CollisionInput& in, CollisionScratch& s, uint8_t* collided, int32_t* partner) {
  const int n = in.count;
  if (n > static_cast<int>(s.hx.size())) throw std::length_error("detect_collisions: more agents than capacity");
  double max_reach = 0.0;  // largest half diagonal + travel of any agent
  for (int i = 0; i < n; ++i) {
    collided[i] = 0, partner[i] = -1;
    s.hx[i] = static_cast<float>(in.x1[i]), s.hy[i] = static_cast<float>(in.y1[i]);
    const double reach = 0.5 * std::hypot(in.length[i], in.width[i]) +
                         std::hypot(in.x1[i] - in.x0[i], in.y1[i] - in.y0[i]);
    max_reach = std::max(max_reach, reach);
  }
  spatial_hash_rebuild(s.hash, s.hx.data(), s.hy.data(), n);
  for (int i = 0; i < n; ++i) {
    const Box a0 = box_at(in, i, false), a1 = box_at(in, i, true);
    // A colliding partner's end centre lies within the sum of both agents' reaches (half
    // diagonal + travel). In the other box's rotating frame a corner moves along a chord,
    // which comes no nearer the centre than r cos(d_heading / 2): the 10 % margin covers
    // heading changes up to 0.8 rad a step (the steering limits allow far less).
    const double reach = 0.5 * std::hypot(in.length[i], in.width[i]) +
                         std::hypot(in.x1[i] - in.x0[i], in.y1[i] - in.y0[i]);
    const float radius = static_cast<float>(1.1 * (reach + max_reach)) + 1e-3f;
    spatial_hash_query(s.hash, s.hx.data(), s.hy.data(), s.hx[i], s.hy[i], radius, [&](int j, float) {
      if (j <= i || std::fabs(in.z[i] - in.z[j]) > kCollisionHeight) return;
      if (!pair_collides(a0, a1, box_at(in, j, false), box_at(in, j, true))) return;
      mark(collided, partner, i, j);
      mark(collided, partner, j, i);
    });
  }
}

}  // namespace trackfield::driving
