// Every field of a restored racing world, checked before a step reads it (see
// common/restore_check.h). Ranges are generous physical bounds: wide enough for any state
// the engine reaches, narrow enough that no arithmetic on them overflows or casts out of
// range.
#include "racing/restore_check.h"

#include "common/restore_check.h"

namespace trackfield::racing {
namespace {

constexpr double kWorldM = 1e5;       // positions, m (tracks span a few km)
constexpr double kSpeed = 300.0;      // m/s
constexpr double kAccel = 1e3;        // m/s^2 (100 g)
constexpr double kOmega = 3e3;        // rad/s (wheels)
constexpr double kLoad = 1e6;         // N
constexpr double kTime = 1e8;         // s of race clock
constexpr double kDistance = 1e9;     // m of progress

void check_car(const RestoreCheck& rc, const CarState& c, int i, int segments, float length, bool used,
               const char* where) {
  std::string p = where;
  auto name = [&](const char* f) { return (p + f); };
  rc.real(c.x, -kWorldM, kWorldM, name("x").c_str(), i);
  rc.real(c.y, -kWorldM, kWorldM, name("y").c_str(), i);
  rc.real(c.z, -kWorldM, kWorldM, name("z").c_str(), i);
  rc.real(c.yaw, -8.0, 8.0, name("yaw").c_str(), i);
  rc.real(c.vx, -kSpeed, kSpeed, name("vx").c_str(), i);
  rc.real(c.vy, -kSpeed, kSpeed, name("vy").c_str(), i);
  rc.real(c.yaw_rate, -100.0, 100.0, name("yaw_rate").c_str(), i);
  rc.real(c.ax, -kAccel, kAccel, name("ax").c_str(), i);
  rc.real(c.ay, -kAccel, kAccel, name("ay").c_str(), i);
  rc.real(c.vz, -kSpeed, kSpeed, name("vz").c_str(), i);
  for (int t = 0; t < 4; ++t) {
    rc.real(c.wheel_omega[t], -kOmega, kOmega, name("wheel_omega").c_str(), i);
    rc.real(c.tyre_load[t], -kLoad, kLoad, name("tyre_load").c_str(), i);
    rc.real(c.slip_angle[t], -8.0, 8.0, name("slip_angle").c_str(), i);
    rc.real(c.slip_ratio[t], -2.0, 2.0, name("slip_ratio").c_str(), i);
    rc.flag(c.tyre_out[t], name("tyre_out").c_str(), i);
  }
  rc.real(c.steer, -1.0, 1.0, name("steer").c_str(), i);
  rc.real(c.steer_input, -1.0, 1.0, name("steer_input").c_str(), i);
  rc.real(c.throttle, 0.0, 1.0, name("throttle").c_str(), i);
  rc.real(c.brake, 0.0, 1.0, name("brake").c_str(), i);
  rc.integer(c.gear, 0, kMaxGears, name("gear").c_str(), i);
  rc.real(c.rpm, 0.0, 1e5, name("rpm").c_str(), i);
  rc.flag(c.in_reverse, name("in_reverse").c_str(), i);
  rc.integer(c.track_segment, used ? 0 : -1, segments - 1, name("track_segment").c_str(), i);
  rc.real(c.s, -1.0, length + 1.0, name("s").c_str(), i);  // [0, length] up to rounding
  rc.real(c.d, -kWorldM, kWorldM, name("d").c_str(), i);
  rc.real(c.heading_error, -8.0, 8.0, name("heading_error").c_str(), i);
  rc.flag(c.wall_contact, name("wall_contact").c_str(), i);
  rc.real(c.wall_impact_speed, 0.0, 2 * kSpeed, name("wall_impact_speed").c_str(), i);
  rc.real(c.signed_speed, -kSpeed, kSpeed, name("signed_speed").c_str(), i);
}

}  // namespace

void check_restored_world(const RaceWorld& w, const RaceConfig& cfg) {
  const RestoreCheck rc("racing");
  const int n = cfg.track->n, cars = cfg.num_cars();
  const float length = cfg.track->length;
  rc.integer(w.steps, 0, 1LL << 30, "steps");
  rc.real(w.time_s, 0.0, kTime, "time_s");
  rc.flag(w.terminated, "terminated");
  rc.flag(w.truncated, "truncated");
  rc.integer(w.control_head, 0, kMaxControlDelay, "control_head");
  rc.integer(w.seen_head, 0, kObservationRing - 1, "seen_head");
  for (int i = 0; i < kMaxCars; ++i) {
    const bool used = i < cars;
    check_car(rc, w.car[i], i, n, length, used, "car.");
    for (int r = 0; r < kObservationRing; ++r) {
      const SeenCar& s = w.seen[r][i];
      check_car(rc, s.car, i, n, length, used, "seen.car.");
      rc.real(s.progress, -kDistance, kDistance, "seen.progress", i);
      rc.real(s.slipstream, 0.0, 1.5, "seen.slipstream", i);
      rc.flag(s.off_course, "seen.off_course", i);
      rc.flag(s.in_contact, "seen.in_contact", i);
    }
    const AiDriver& d = w.driver[i];
    rc.real(d.skill, 0.0, 2.0, "driver.skill", i);
    rc.real(d.lateral_preference, -100.0, 100.0, "driver.lateral_preference", i);
    rc.real(d.braking_noise, 0.0, 1.0, "driver.braking_noise", i);
    rc.flag(d.hold_line, "driver.hold_line", i);
    rc.real(d.noise, -1.0, 1.0, "driver.noise", i);
    rc.integer(d.noise_block, -1, 1LL << 30, "driver.noise_block", i);
    rc.real(d.stuck_s, 0.0, kTime, "driver.stuck_s", i);
    rc.real(d.reversing_s, 0.0, kTime, "driver.reversing_s", i);
    rc.real(d.pinned_s, 0.0, kTime, "driver.pinned_s", i);
    rc.real(d.backing_s, 0.0, kTime, "driver.backing_s", i);
    for (int k = 0; k <= kMaxControlDelay; ++k) {
      rc.real(w.issued[k][i].throttle_brake, -1.0, 1.0, "issued.throttle_brake", i);
      rc.real(w.issued[k][i].steer, -1.0, 1.0, "issued.steer", i);
    }
    rc.real(w.progress[i], -kDistance, kDistance, "progress", i);
    rc.real(w.start_offset[i], -kDistance, kDistance, "start_offset", i);
    rc.integer(w.lap[i], -(1LL << 30), 1LL << 30, "lap", i);
    rc.real(w.lap_start_time[i], -1.0, kTime, "lap_start_time", i);
    rc.real(w.last_lap_s[i], 0.0, kTime, "last_lap_s", i);
    rc.real(w.best_lap_s[i], 0.0, kTime, "best_lap_s", i);
    rc.real(w.lap_start_progress[i], -kDistance, kDistance, "lap_start_progress", i);
    rc.real(w.off_time[i], 0.0, kTime, "off_time", i);
    for (int t = 0; t < 4; ++t) rc.real(w.tyre_off_time[i][t], 0.0, kTime, "tyre_off_time", i);
    rc.real(w.wall_time[i], 0.0, kTime, "wall_time", i);
    rc.real(w.contact_time[i], 0.0, kTime, "contact_time", i);
    rc.real(w.slipstream[i], 0.0, 1.5, "slipstream", i);
    rc.flag(w.off_course[i], "off_course", i);
    rc.flag(w.finished[i], "finished", i);
    rc.real(w.finish_time[i], 0.0, kTime, "finish_time", i);
    rc.real(w.penalty_s[i], 0.0, kTime, "penalty_s", i);
    rc.real(w.penalty_total_s[i], 0.0, kTime, "penalty_total_s", i);
    for (int j = 0; j < kMaxCars; ++j) {
      rc.integer(w.prev_contact[i][j], 0, 3, "prev_contact", i);
      rc.integer(w.contact[i][j], 0, 3, "contact", i);
    }
    rc.real(w.prev_progress[i], -kDistance, kDistance, "prev_progress", i);
    rc.real(w.prev_off_time[i], 0.0, kTime, "prev_off_time", i);
    rc.real(w.prev_wall_time[i], 0.0, kTime, "prev_wall_time", i);
    for (int k = 0; k < kSteerHistory; ++k) rc.real(w.steer_history[i][k], -1.0, 1.0, "steer_history", i);
    rc.real(w.reward[i], -1e9, 1e9, "reward", i);
    for (int k = 0; k < kNumComponents; ++k) rc.real(w.components[i][k], -1e9, 1e9, "components", i);
  }
}

}  // namespace trackfield::racing
