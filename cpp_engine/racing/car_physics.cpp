// The car's physics step: loads, tyre forces, powertrain and brakes, aerodynamics,
// integration, then the track under the car, walls and tyres out of bounds.
#include <algorithm>
#include <cmath>

#include "racing/car.h"
#include "common/angle.h"

namespace trackfield::racing {

namespace {

constexpr float kPi = 3.14159265f;
// Slip angles divide by the wheel's forward speed; below this the division would make
// the tyre stiffer than a 100 Hz explicit step can follow, so it is floored here.
constexpr float kSlipSpeedFloor = 5.0f;
constexpr float kStandstill = 0.3f;   // m/s
constexpr float kWallRestitution = 0.25f;
constexpr float kWallFriction = 0.35f;
// Traction control and ABS hold a tyre's longitudinal force to this share of the grip
// its cornering force leaves; ABS always allows kAbsFloor of the full grip.
constexpr float kAidLimit = 0.95f;
constexpr float kAbsFloor = 0.3f;

float wrap_angle(float a) { return wrap_pi(a); }  // O(1) for any angle

float magic_formula(float slip_angle, const CarParams& p) {
  float ba = p.pacejka_b * slip_angle;
  return std::sin(p.pacejka_c * std::atan(ba - p.pacejka_e * (ba - std::atan(ba))));
}

struct WheelGeometry {
  float x[4], y[4];  // body frame, from the centre of mass
};

WheelGeometry wheel_geometry(const CarParams& p) {
  float a = p.cg_to_front, b = p.wheelbase - p.cg_to_front, h = 0.5f * p.track_width;
  return {{a, a, -b, -b}, {h, -h, h, -h}};
}

// Static weight, downforce, then longitudinal and lateral transfer from last step's
// accelerations (split between the axles by their roll stiffness).
void tyre_loads(const CarState& c, const CarParams& p, float speed, float normal_weight, float* load) {
  float b = p.wheelbase - p.cg_to_front;
  float front_share = b / p.wheelbase;
  float down = 0.5f * kAirDensity * p.lift_area * speed * speed;
  float front = normal_weight * front_share + down * p.aero_front;
  float rear = normal_weight * (1.0f - front_share) + down * (1.0f - p.aero_front);
  float longitudinal = p.mass * c.ax * p.cg_height / p.wheelbase;
  front -= longitudinal;
  rear += longitudinal;
  float lateral = p.mass * c.ay * p.cg_height / p.track_width;  // right minus left, halved
  float roll_front = p.roll_stiffness_front;
  load[0] = 0.5f * front - lateral * roll_front;
  load[1] = 0.5f * front + lateral * roll_front;
  load[2] = 0.5f * rear - lateral * (1.0f - roll_front);
  load[3] = 0.5f * rear + lateral * (1.0f - roll_front);
  for (int k = 0; k < 4; ++k) load[k] = std::max(load[k], 0.0f);
}

// Longitudinal force each tyre is asked for: rear-wheel drive through an open
// differential, brakes by the bias, rolling resistance (more beyond the kerb).
void longitudinal_demand(CarState& c, const CarParams& p, const float* load, const float* wheel_vx,
                         float* demand) {
  float drive = 0.0f, braking = 0.0f;
  if (c.in_reverse) {
    drive = c.vx > -p.reverse_max_speed ? -c.brake * p.reverse_force : 0.0f;
    braking = c.throttle * p.brake_force;
  } else {
    c.gear = shift_gear(p, c.gear, c.vx);
    c.rpm = engine_rpm(p, c.gear, c.vx);
    drive = c.throttle * engine_torque(p, c.rpm) * p.gear_ratio[c.gear - 1] * p.final_drive *
            p.driveline_efficiency / p.wheel_radius;
    braking = c.brake * p.brake_force;
  }
  for (int k = 0; k < 4; ++k) {
    float dir = wheel_vx[k] > 0.0f ? 1.0f : (wheel_vx[k] < 0.0f ? -1.0f : 0.0f);
    float share = k < 2 ? p.brake_front : 1.0f - p.brake_front;
    float rolling = (p.rolling_resistance + (c.tyre_out[k] ? p.offtrack_drag : 0.0f)) * load[k];
    demand[k] = -dir * (0.5f * share * braking + rolling) + (k >= 2 ? 0.5f * drive : 0.0f);
  }
}

// Moves the car back inside a wall it crossed and takes the velocity into the wall
// away with restitution, scrubbing speed along it with friction.
void resolve_walls(CarState& c, const CarParams& p, const Track& track, const TrackPos& pos) {
  c.wall_contact = false;
  c.wall_impact_speed = 0.0f;
  float sh = std::sin(c.heading_error), ch = std::cos(c.heading_error);
  float hl = 0.5f * p.length, hw = 0.5f * p.width;
  float lo = 1e9f, hi = -1e9f;
  for (int k = 0; k < 4; ++k) {
    float cx = (k & 1) ? hl : -hl, cy = (k & 2) ? hw : -hw;
    float off = c.d + cx * sh + cy * ch;
    lo = std::min(lo, off);
    hi = std::max(hi, off);
  }
  float left_wall = pos.width_left + track.wall_distance, right_wall = -(pos.width_right + track.wall_distance);
  float push = 0.0f;  // along the track's left normal
  if (hi > left_wall) push = left_wall - hi;
  else if (lo < right_wall) push = right_wall - lo;
  if (push == 0.0f) return;
  float nx = -std::sin(pos.heading), ny = std::cos(pos.heading);
  c.x += push * nx;
  c.y += push * ny;
  c.d += push;
  // World velocity, split along the wall normal (pointing back onto the track) and the wall.
  Vec2 world = world_velocity(c);
  float wx = world.x, wy = world.y;
  float inward_x = push > 0 ? nx : -nx, inward_y = push > 0 ? ny : -ny;
  float vn = wx * inward_x + wy * inward_y;  // < 0 while moving into the wall
  if (vn < 0.0f) {
    float tx = wx - vn * inward_x, ty = wy - vn * inward_y;
    float vt = std::sqrt(tx * tx + ty * ty);
    float scrub = vt > 0.0f ? std::max(0.0f, vt - kWallFriction * (1.0f + kWallRestitution) * -vn) / vt : 0.0f;
    tx *= scrub;
    ty *= scrub;
    wx = tx - kWallRestitution * vn * inward_x;
    wy = ty - kWallRestitution * vn * inward_y;
    set_world_velocity(c, {wx, wy});
    c.yaw_rate *= 0.5f;
    c.wall_impact_speed = -vn;
  }
  c.wall_contact = true;
}

// Where the car is on the track, then walls and each tyre's in/out flag.
void locate(CarState& c, const CarParams& p, const Track& track, float dt) {
  TrackPos pos = project(track, {c.x, c.y}, c.track_segment);
  c.track_segment = pos.segment;
  c.s = pos.s;
  c.d = pos.d;
  c.heading_error = wrap_angle(c.yaw - pos.heading);
  c.vz = dt > 0.0f ? (pos.z - c.z) / dt : 0.0f;
  c.z = pos.z;
  resolve_walls(c, p, track, pos);
  WheelGeometry g = wheel_geometry(p);
  float sh = std::sin(c.heading_error), ch = std::cos(c.heading_error);
  for (int k = 0; k < 4; ++k) {
    float off = c.d + g.x[k] * sh + g.y[k] * ch;
    c.tyre_out[k] = !in_bounds(track, pos, off);
  }
}

}  // namespace

void place_car(CarState& c, const CarParams& p, const Track& track, float s, float d, float speed,
               float heading_offset) {
  c = CarState{};
  Vec2 at = point_at(track, s, d);
  c.x = at.x;
  c.y = at.y;
  TrackPos pos = project(track, at, -1);
  c.yaw = wrap_angle(pos.heading + heading_offset);
  c.vx = speed;
  c.signed_speed = speed;
  c.gear = shift_gear(p, 1, speed);
  c.rpm = engine_rpm(p, c.gear, speed);
  c.z = pos.z;
  c.track_segment = pos.segment;
  locate(c, p, track, 0.0f);
  c.vz = 0.0f;
  float load[4];
  tyre_loads(c, p, speed, p.mass * kGravity, load);
  for (int k = 0; k < 4; ++k) {
    c.tyre_load[k] = load[k];
    c.wheel_omega[k] = speed / p.wheel_radius;
  }
}

void step_car(CarState& c, const CarParams& p, const Track& track, CarControl control, float drag_scale,
              bool allow_reverse, float dt) {
  // Driver inputs; the rack follows the wheel at a limited rate.
  float tb = std::clamp(std::isfinite(control.throttle_brake) ? control.throttle_brake : 0.0f, -1.0f, 1.0f);
  c.steer_input = std::clamp(std::isfinite(control.steer) ? control.steer : 0.0f, -1.0f, 1.0f);
  c.throttle = std::max(tb, 0.0f);
  c.brake = std::max(-tb, 0.0f);
  float rack = p.steer_rate * dt;
  c.steer += std::clamp(c.steer_input - c.steer, -rack, rack);
  float delta = c.steer * p.max_steer;
  float cd = std::cos(delta), sd = std::sin(delta);

  float speed = car_speed(c);
  if (allow_reverse && speed < kStandstill) {
    if (!c.in_reverse && c.brake > 0.0f) c.in_reverse = true;
    else if (c.in_reverse && c.throttle > 0.0f) c.in_reverse = false;
  }
  if (c.in_reverse) c.gear = 1;

  // Gravity on the slope and banking under the car, in the body frame.
  int seg = segment_of(track, c);
  float grade = track.grade[seg], bank = track.banking[seg];
  float along = -kGravity * std::sin(grade), across = -kGravity * std::sin(bank);
  float she = std::sin(c.heading_error), che = std::cos(c.heading_error);
  float gx = along * che + across * she, gy = -along * she + across * che;
  float normal_weight = p.mass * kGravity * std::cos(grade) * std::cos(bank);

  float load[4];
  tyre_loads(c, p, speed, normal_weight, load);
  WheelGeometry g = wheel_geometry(p);
  float wheel_vx[4], wheel_vy[4];
  for (int k = 0; k < 4; ++k) {
    float vx = c.vx - c.yaw_rate * g.y[k], vy = c.vy + c.yaw_rate * g.x[k];
    if (k < 2) {  // front wheels: into the steered wheel's frame
      wheel_vx[k] = vx * cd + vy * sd;
      wheel_vy[k] = -vx * sd + vy * cd;
    } else {
      wheel_vx[k] = vx;
      wheel_vy[k] = vy;
    }
  }
  float demand[4];
  longitudinal_demand(c, p, load, wheel_vx, demand);

  float fx = 0.0f, fy = 0.0f, mz = 0.0f;
  for (int k = 0; k < 4; ++k) {
    float mu = p.mu * std::max(0.3f, 1.0f - p.mu_load_sensitivity * (load[k] / p.nominal_load - 1.0f));
    if (c.tyre_out[k]) mu *= p.offtrack_mu;
    if (k >= 2) mu *= p.rear_grip;
    float grip = mu * load[k];
    float alpha = std::atan2(wheel_vy[k], std::max(std::abs(wheel_vx[k]), kSlipSpeedFloor));
    float lateral = -grip * magic_formula(alpha, p);
    float room = std::sqrt(std::max(grip * grip - lateral * lateral, 0.0f));
    bool pushing = demand[k] * wheel_vx[k] > 0.0f || (wheel_vx[k] == 0.0f && demand[k] != 0.0f);
    if (pushing && p.traction_control && k >= 2) demand[k] = std::clamp(demand[k], -kAidLimit * room, kAidLimit * room);
    if (!pushing && p.abs) {
      float floor = std::max(kAidLimit * room, kAbsFloor * grip);
      demand[k] = std::clamp(demand[k], -floor, floor);
    }
    float longitudinal = demand[k];
    // Friction ellipse: a tyre asked for more than its grip gives its grip, shared in proportion.
    float asked = std::sqrt(longitudinal * longitudinal + lateral * lateral);
    float left_for_long = std::max(room, 1e-3f);
    if (asked > grip && asked > 0.0f) {
      longitudinal *= grip / asked;
      lateral *= grip / asked;
    }
    float usage = demand[k] / left_for_long;
    float kappa = std::abs(usage) <= 1.0f ? usage * p.peak_slip_ratio
                                          : std::copysign(std::min(1.0f, p.peak_slip_ratio + (std::abs(usage) - 1.0f)), usage);
    c.slip_ratio[k] = kappa;
    c.slip_angle[k] = alpha;
    c.tyre_load[k] = load[k];
    c.wheel_omega[k] = wheel_vx[k] / p.wheel_radius * (1.0f + kappa);
    float bx = longitudinal, by = lateral;
    if (k < 2) {  // back to the body frame
      bx = longitudinal * cd - lateral * sd;
      by = longitudinal * sd + lateral * cd;
    }
    fx += bx;
    fy += by;
    mz += g.x[k] * by - g.y[k] * bx;
  }
  float drag = 0.5f * kAirDensity * p.drag_area * drag_scale * speed;  // times velocity gives force
  fx += -drag * c.vx + p.mass * gx;
  fy += -drag * c.vy + p.mass * gy;

  c.ax = fx / p.mass;
  c.ay = fy / p.mass;
  float vx_before = c.vx;
  c.vx += (c.ax + c.yaw_rate * c.vy) * dt;
  c.vy += (c.ay - c.yaw_rate * c.vx) * dt;
  c.yaw_rate += mz / p.yaw_inertia * dt;
  // Brakes and rolling resistance stop the car; they never push it backwards.
  bool driving = c.in_reverse ? c.brake > 0.0f : c.throttle > 0.0f;
  if (!driving && vx_before * c.vx < 0.0f) c.vx = 0.0f;
  if (!driving && car_speed(c) < kStandstill && (c.brake > 0.0f || c.throttle == 0.0f)) {
    c.vx = c.vy = c.yaw_rate = 0.0f;
  }

  c.yaw = wrap_angle(c.yaw + c.yaw_rate * dt);
  float cy = std::cos(c.yaw), sy = std::sin(c.yaw);
  c.x += (c.vx * cy - c.vy * sy) * dt;
  c.y += (c.vx * sy + c.vy * cy) * dt;
  locate(c, p, track, dt);
  float v = car_speed(c);
  c.signed_speed = c.vx < 0.0f ? -v : v;
}

}  // namespace trackfield::racing
