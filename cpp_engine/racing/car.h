// A race car: parameters per class, the control a driver applies, the state the
// physics integrates, and the 100 Hz step.
//
// Model: a rigid body in the ground plane (x, y, yaw) with four tyres. Each tyre's
// force comes from a Pacejka-style magic formula in slip angle, scaled by its load
// (static weight, aerodynamic downforce, longitudinal and lateral load transfer, banking)
// with load sensitivity, and combined with the longitudinal force on a friction
// ellipse. Longitudinal tyre force is quasi-static: the driveline and brakes ask for a
// force, the tyre gives what grip allows and reports the slip ratio that force implies,
// so wheel speeds need no stiff integration at 100 Hz. Engine torque follows a curve
// through an automatic gearbox; drag, downforce and rolling resistance act on the body.
// Walls stand wall_distance beyond each edge (see track.h) and deflect the car with
// energy loss. Elevation, grade and banking come from the track under the car.
//
// Body frame: vx forward, vy left, yaw anticlockwise, all SI units. Tyre order: front
// left, front right, rear left, rear right.
#ifndef TRACKFIELD_RACING_CAR_H
#define TRACKFIELD_RACING_CAR_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "racing/track.h"

namespace trackfield::racing {

enum class CarKind : uint8_t { kRoad = 0, kGt3 = 1, kPrototype = 2 };
constexpr int kNumCarKinds = 3;
constexpr int kMaxGears = 8;
constexpr float kGravity = 9.81f;
constexpr float kAirDensity = 1.225f;

// Parameters of one car class; values and sources are in docs/racing_cars.md.
struct CarParams {
  const char* name;
  // Body.
  float mass;          // kg, with driver and half fuel
  float length, width; // m, the collision box
  float wheelbase;     // m
  float cg_to_front;   // m, centre of mass to the front axle
  float cg_height;     // m
  float track_width;   // m, between the tyre centres of an axle
  float yaw_inertia;   // kg m^2
  // Aerodynamics: force = 0.5 rho C A v^2.
  float drag_area;     // Cd A, m^2
  float lift_area;     // Cl A (downforce), m^2
  float aero_front;    // share of downforce on the front axle
  float rolling_resistance;  // coefficient, force = c * load
  // Tyres: Fy = mu Fz sin(C atan(B a - E (B a - atan(B a)))), mu falling with load.
  float mu;            // peak friction at the nominal load
  float mu_load_sensitivity;  // fractional loss of mu per nominal load of extra load
  float nominal_load;  // N per tyre
  float pacejka_b, pacejka_c, pacejka_e;
  float peak_slip_ratio;      // slip ratio at peak longitudinal force
  float wheel_radius;  // m
  float offtrack_mu;   // friction beyond the kerb (grass, gravel), fraction of mu
  float offtrack_drag; // extra rolling resistance coefficient beyond the kerb
  // Powertrain: torque(rpm) is linear between the points below, rear-wheel drive.
  float idle_rpm, peak_torque_rpm, max_rpm;
  float torque_at_idle, peak_torque, torque_at_max;  // N m at the crank
  int gears;
  float gear_ratio[kMaxGears];
  float final_drive;
  float driveline_efficiency;
  float upshift_rpm, downshift_rpm;
  float reverse_force;  // N at the wheels in reverse
  float reverse_max_speed;  // m/s
  // Brakes and steering.
  float brake_force;    // N, all four wheels at full pedal (tyres may give less)
  float brake_front;    // share on the front axle
  float max_steer;      // rad, road-wheel angle at steering 1
  float steer_rate;     // steering fraction per second the rack can move
  // Balance and driver aids.
  float roll_stiffness_front;  // share of the lateral load transfer taken by the front axle
  float rear_grip;      // rear tyre friction relative to the front (wider rear tyres)
  bool traction_control;  // drive force held inside what the rear tyres have left
  bool abs;             // brake force held inside what each tyre has left (a floor keeps it braking)
  // The AI's line.
  float line_edge_keep;  // m its racing line keeps inside the narrowest painted edge nearby
};

const CarParams& car_params(CarKind kind);
// The kind named params.name ("road", "gt3", "prototype"); throws std::invalid_argument
// listing the names otherwise.
CarKind car_kind_from_name(const std::string& name);

// One physics step's input: throttle (+) or brake (-) in [-1, 1], steering in [-1, 1]
// with 1 the full road-wheel angle to the left.
struct CarControl {
  float throttle_brake = 0.0f;
  float steer = 0.0f;
};

struct CarState {
  float x = 0, y = 0, z = 0;  // m, world
  float yaw = 0;              // rad
  float vx = 0, vy = 0;       // m/s, body frame
  float yaw_rate = 0;         // rad/s
  float ax = 0, ay = 0;       // m/s^2, body frame, of the last step (drives load transfer)
  float vz = 0;               // m/s, from the elevation under the car
  float wheel_omega[4] = {};  // rad/s
  float tyre_load[4] = {};    // N
  float slip_angle[4] = {};   // rad
  float slip_ratio[4] = {};   // (wheel speed - ground speed) / ground speed, clipped to [-1, 1]
  bool tyre_out[4] = {};      // tyre contact point beyond the painted edge plus kerb
  float steer = 0;            // steering fraction the rack has reached
  float steer_input = 0;      // the driver's last steering command
  float throttle = 0, brake = 0;  // the driver's last pedals, [0, 1]
  int gear = 1;
  float rpm = 0;
  bool in_reverse = false;
  // Where the car is on the track (updated by every step).
  int track_segment = -1;
  float s = 0, d = 0;         // arc length and offset (+ left) of the centre of mass
  float heading_error = 0;    // yaw minus the track heading, wrapped to [-pi, pi)
  bool wall_contact = false;  // touched a wall during the last step
  float wall_impact_speed = 0;// m/s into the wall during the last step, 0 without a touch
  float signed_speed = 0;     // m/s, negative when reversing
};

// Puts a car on the track at arc length s, offset d, moving at `speed` along the track
// heading plus heading_offset, wheels rolling, gear to match, no slip.
void place_car(CarState& car, const CarParams& params, const Track& track, float s, float d, float speed,
               float heading_offset);

// Advances the car by dt. drag_scale < 1 in a slipstream. With allow_reverse, holding
// the brake at a standstill engages reverse and the brake pedal then drives backwards;
// the throttle takes it out of reverse once stopped.
void step_car(CarState& car, const CarParams& params, const Track& track, CarControl control, float drag_scale,
              bool allow_reverse, float dt);

// Powertrain (powertrain.cpp). Crank torque at rpm (0 past max_rpm), engine rpm in a
// gear at a road speed, the gear the automatic box picks from `gear` at that speed, and
// the largest drive force the best gear gives at the wheels (speed profiles use it).
float engine_torque(const CarParams& params, float rpm);
float engine_rpm(const CarParams& params, int gear, float speed);
int shift_gear(const CarParams& params, int gear, float speed);
float drive_force_limit(const CarParams& params, float speed);

inline float car_speed(const CarState& car) { return std::sqrt(car.vx * car.vx + car.vy * car.vy); }

// The car's velocity in the world frame, and setting it from one.
inline Vec2 world_velocity(const CarState& c) {
  float cy = std::cos(c.yaw), sy = std::sin(c.yaw);
  return {c.vx * cy - c.vy * sy, c.vx * sy + c.vy * cy};
}
inline void set_world_velocity(CarState& c, Vec2 w) {
  float cy = std::cos(c.yaw), sy = std::sin(c.yaw);
  c.vx = w.x * cy + w.y * sy;
  c.vy = -w.x * sy + w.y * cy;
}

// The segment the car is on; a car never placed nor stepped (segment -1) counts as on segment 0.
inline int segment_of(const Track& track, const CarState& c) { return std::clamp(c.track_segment, 0, track.n - 1); }

}  // namespace trackfield::racing

#endif
