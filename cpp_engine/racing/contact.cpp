#include "racing/contact.h"

#include <algorithm>
#include <cmath>

namespace trackfield::racing {

namespace {

struct Box {
  float cx, cy;   // centre
  float ux, uy;   // unit forward
  float hl, hw;   // half length, half width
};

Box box_of(const CarState& c, const CarParams& p) {
  return {c.x, c.y, std::cos(c.yaw), std::sin(c.yaw), 0.5f * p.length, 0.5f * p.width};
}

// Half extent of a box along unit axis (nx, ny).
float radius_along(const Box& b, float nx, float ny) {
  return b.hl * std::abs(b.ux * nx + b.uy * ny) + b.hw * std::abs(-b.uy * nx + b.ux * ny);
}

// The corner of b furthest along (nx, ny) times sign.
void extreme_corner(const Box& b, float nx, float ny, float sign, float* px, float* py) {
  float best = -1e30f;
  for (int k = 0; k < 4; ++k) {
    float l = (k & 1) ? b.hl : -b.hl, w = (k & 2) ? b.hw : -b.hw;
    float x = b.cx + l * b.ux - w * b.uy, y = b.cy + l * b.uy + w * b.ux;
    float along = sign * (x * nx + y * ny);
    if (along > best) {
      best = along;
      *px = x;
      *py = y;
    }
  }
}

}  // namespace

bool collide_cars(CarState& a, const CarParams& pa, CarState& b, const CarParams& pb) {
  Box A = box_of(a, pa), B = box_of(b, pb);
  float dx = B.cx - A.cx, dy = B.cy - A.cy;
  const float axes[4][2] = {{A.ux, A.uy}, {-A.uy, A.ux}, {B.ux, B.uy}, {-B.uy, B.ux}};
  float depth = 1e30f, nx = 0.0f, ny = 0.0f;
  for (const auto& axis : axes) {  // separating axis test
    float along = dx * axis[0] + dy * axis[1];
    float overlap = radius_along(A, axis[0], axis[1]) + radius_along(B, axis[0], axis[1]) - std::abs(along);
    if (overlap <= 0.0f) return false;
    if (overlap < depth) {
      depth = overlap;
      float sign = along < 0.0f ? -1.0f : 1.0f;  // normal points from a to b
      nx = axis[0] * sign;
      ny = axis[1] * sign;
    }
  }
  float ax_ = A.cx, ay_ = A.cy, bx_ = B.cx, by_ = B.cy;
  extreme_corner(A, nx, ny, 1.0f, &ax_, &ay_);
  extreme_corner(B, nx, ny, -1.0f, &bx_, &by_);
  float px = 0.5f * (ax_ + bx_), py = 0.5f * (ay_ + by_);

  float inv_a = 1.0f / pa.mass, inv_b = 1.0f / pb.mass;
  float share_a = inv_a / (inv_a + inv_b);
  a.x -= nx * depth * share_a;
  a.y -= ny * depth * share_a;
  b.x += nx * depth * (1.0f - share_a);
  b.y += ny * depth * (1.0f - share_a);

  float rax = px - A.cx, ray = py - A.cy, rbx = px - B.cx, rby = py - B.cy;
  Vec2 va = world_velocity(a), vb = world_velocity(b);
  float vax = va.x, vay = va.y, vbx = vb.x, vby = vb.y;
  // Velocity of each contact point, then b's relative to a's.
  float pvax = vax - a.yaw_rate * ray, pvay = vay + a.yaw_rate * rax;
  float pvbx = vbx - b.yaw_rate * rby, pvby = vby + b.yaw_rate * rbx;
  float rvx = pvbx - pvax, rvy = pvby - pvay;
  float closing = rvx * nx + rvy * ny;
  if (closing < 0.0f) {
    float ra_n = rax * ny - ray * nx, rb_n = rbx * ny - rby * nx;
    float k = inv_a + inv_b + ra_n * ra_n / pa.yaw_inertia + rb_n * rb_n / pb.yaw_inertia;
    float j = -(1.0f + kCarRestitution) * closing / k;
    // Friction along the contact, at most mu times the normal impulse.
    float tx = -ny, ty = nx;
    float slide = rvx * tx + rvy * ty;
    float ra_t = rax * ty - ray * tx, rb_t = rbx * ty - rby * tx;
    float kt = inv_a + inv_b + ra_t * ra_t / pa.yaw_inertia + rb_t * rb_t / pb.yaw_inertia;
    float jt = std::clamp(-slide / kt, -kCarFriction * j, kCarFriction * j);
    float ix = j * nx + jt * tx, iy = j * ny + jt * ty;
    vax -= ix * inv_a;
    vay -= iy * inv_a;
    vbx += ix * inv_b;
    vby += iy * inv_b;
    a.yaw_rate -= (rax * iy - ray * ix) / pa.yaw_inertia;
    b.yaw_rate += (rbx * iy - rby * ix) / pb.yaw_inertia;
    set_world_velocity(a, {vax, vay});
    set_world_velocity(b, {vbx, vby});
  }
  return true;
}

ContactClass classify_contact(const CarState& self, const CarState& other, const CarParams& self_params,
                              const CarParams& other_params) {
  float dx = other.x - self.x, dy = other.y - self.y;
  float cy = std::cos(self.yaw), sy = std::sin(self.yaw);
  float ahead = dx * cy + dy * sy, aside = -dx * sy + dy * cy;
  float reach = 0.5f * (self_params.length + other_params.length) * 0.75f;
  float lane = 0.5f * (self_params.width + other_params.width) * 0.8f;
  if (std::abs(aside) < lane) {
    if (ahead > reach) return ContactClass::kRearEnd;
    if (ahead < -reach) return ContactClass::kRearEnded;
  }
  return ContactClass::kSide;
}

}  // namespace trackfield::racing
