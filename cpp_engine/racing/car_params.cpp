// The three car classes. Figures are public specifications of representative cars
// (see docs/racing_cars.md): a mid-engined road sports car, a GT3 race car in Monza
// trim, and a Le Mans prototype; tyre and aero figures are typical published values.
#include <stdexcept>
#include <string>

#include "racing/car.h"

namespace trackfield::racing {

namespace {

// A mid-engined road sports car (Porsche 718 Cayman class): ~270 kW, 1.1 g road
// tyres, no aero to speak of.
constexpr CarParams kRoad = {
    "road",
    /*mass*/ 1450, /*length*/ 4.40f, /*width*/ 1.80f, /*wheelbase*/ 2.48f, /*cg_to_front*/ 1.17f,
    /*cg_height*/ 0.48f, /*track_width*/ 1.52f, /*yaw_inertia*/ 2100,
    /*drag_area*/ 0.68f, /*lift_area*/ 0.10f, /*aero_front*/ 0.50f, /*rolling_resistance*/ 0.013f,
    /*mu*/ 1.10f, /*mu_load_sensitivity*/ 0.12f, /*nominal_load*/ 3600, /*b c e*/ 9.0f, 1.45f, 0.35f,
    /*peak_slip_ratio*/ 0.12f, /*wheel_radius*/ 0.33f, /*offtrack_mu*/ 0.55f, /*offtrack_drag*/ 0.06f,
    /*rpm idle peak max*/ 1500, 4500, 7800, /*torque*/ 330, 430, 330,
    /*gears*/ 6, {3.67f, 2.21f, 1.56f, 1.24f, 1.03f, 0.86f, 0, 0}, /*final_drive*/ 3.89f,
    /*driveline_efficiency*/ 0.88f, /*upshift_rpm*/ 7400, /*downshift_rpm*/ 4000,
    /*reverse_force*/ 5000, /*reverse_max_speed*/ 8.0f,
    /*brake_force*/ 1.35f * 1450 * kGravity, /*brake_front*/ 0.64f, /*max_steer*/ 0.55f, /*steer_rate*/ 3.0f,
    /*roll_stiffness_front*/ 0.58f, /*rear_grip*/ 1.04f, /*traction_control*/ true, /*abs*/ true,
    /*line_edge_keep*/ 0.7f};

// GT3 (Porsche 911 GT3 R / Audi R8 LMS class): ~370 kW after balance of performance,
// slicks, about 0.45 of its weight in downforce at 250 km/h in Monza trim.
constexpr CarParams kGt3 = {
    "gt3",
    /*mass*/ 1330, /*length*/ 4.60f, /*width*/ 2.00f, /*wheelbase*/ 2.60f, /*cg_to_front*/ 1.43f,
    /*cg_height*/ 0.40f, /*track_width*/ 1.65f, /*yaw_inertia*/ 2200,
    /*drag_area*/ 0.82f, /*lift_area*/ 2.40f, /*aero_front*/ 0.42f, /*rolling_resistance*/ 0.015f,
    /*mu*/ 1.55f, /*mu_load_sensitivity*/ 0.10f, /*nominal_load*/ 3500, /*b c e*/ 11.0f, 1.5f, 0.3f,
    /*peak_slip_ratio*/ 0.10f, /*wheel_radius*/ 0.34f, /*offtrack_mu*/ 0.50f, /*offtrack_drag*/ 0.08f,
    /*rpm idle peak max*/ 3000, 6500, 9000, /*torque*/ 380, 520, 400,
    /*gears*/ 6, {3.00f, 2.20f, 1.75f, 1.45f, 1.23f, 1.07f, 0, 0}, /*final_drive*/ 3.20f,
    /*driveline_efficiency*/ 0.90f, /*upshift_rpm*/ 8700, /*downshift_rpm*/ 5500,
    /*reverse_force*/ 5000, /*reverse_max_speed*/ 8.0f,
    /*brake_force*/ 2.6f * 1330 * kGravity, /*brake_front*/ 0.60f, /*max_steer*/ 0.35f, /*steer_rate*/ 5.0f,
    /*roll_stiffness_front*/ 0.55f, /*rear_grip*/ 1.06f, /*traction_control*/ true, /*abs*/ true,
    /*line_edge_keep*/ 0.5f};

// Le Mans prototype (LMP1 / hypercar class): ~500 kW, 1030 kg, high downforce.
constexpr CarParams kPrototype = {
    "prototype",
    /*mass*/ 1030, /*length*/ 4.65f, /*width*/ 1.90f, /*wheelbase*/ 3.00f, /*cg_to_front*/ 1.62f,
    /*cg_height*/ 0.30f, /*track_width*/ 1.60f, /*yaw_inertia*/ 1700,
    /*drag_area*/ 0.80f, /*lift_area*/ 3.60f, /*aero_front*/ 0.45f, /*rolling_resistance*/ 0.014f,
    /*mu*/ 1.70f, /*mu_load_sensitivity*/ 0.10f, /*nominal_load*/ 3000, /*b c e*/ 12.0f, 1.5f, 0.3f,
    /*peak_slip_ratio*/ 0.09f, /*wheel_radius*/ 0.35f, /*offtrack_mu*/ 0.50f, /*offtrack_drag*/ 0.08f,
    /*rpm idle peak max*/ 4000, 7000, 9500, /*torque*/ 500, 680, 500,
    /*gears*/ 7, {2.90f, 2.15f, 1.72f, 1.44f, 1.24f, 1.10f, 1.00f, 0}, /*final_drive*/ 3.70f,
    /*driveline_efficiency*/ 0.92f, /*upshift_rpm*/ 9200, /*downshift_rpm*/ 6000,
    /*reverse_force*/ 4500, /*reverse_max_speed*/ 8.0f,
    /*brake_force*/ 3.2f * 1030 * kGravity, /*brake_front*/ 0.58f, /*max_steer*/ 0.32f, /*steer_rate*/ 5.0f,
    /*roll_stiffness_front*/ 0.55f, /*rear_grip*/ 1.06f, /*traction_control*/ true, /*abs*/ true,
    /*line_edge_keep*/ 0.9f};

}  // namespace

const CarParams& car_params(CarKind kind) {
  switch (kind) {
    case CarKind::kRoad: return kRoad;
    case CarKind::kPrototype: return kPrototype;
    default: return kGt3;
  }
}

CarKind car_kind_from_name(const std::string& name) {
  std::string names;
  for (int k = 0; k < kNumCarKinds; ++k) {
    auto kind = static_cast<CarKind>(k);
    if (name == car_params(kind).name) return kind;
    names += (k ? ", " : "") + std::string(car_params(kind).name);
  }
  throw std::invalid_argument("car: unknown car '" + name + "'; choose one of " + names);
}

}  // namespace trackfield::racing
