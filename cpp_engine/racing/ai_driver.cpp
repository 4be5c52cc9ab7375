#include "racing/ai_driver.h"

#include <algorithm>
#include <cmath>

#include "common/angle.h"

namespace trackfield::racing {

namespace {

constexpr int kNoiseBlock = 100;      // line points (~200 m) per braking-error draw
constexpr float kSpeedGain = 0.5f;    // pedal per m/s of speed error
constexpr float kEdgeMargin = 1.2f;   // m the car's centre keeps inside the painted edge beyond half its width
constexpr float kLookTime = 0.25f;       // s: targets the speed this far ahead (control period plus a margin; 0.2 s cost pack racing contact)
constexpr float kControlPeriod = 0.1f;  // s between calls (10 Hz)
constexpr float kPinnedSpeed = 1.0f;    // m/s below which a car is barely moving
constexpr float kPinnedS = 3.0f;        // s barely moving before it backs off
constexpr float kBackOffS = 1.0f;       // s it reverses for
constexpr float kPreviewTime = 0.10f;   // s of line ahead the steering anticipates
constexpr float kLateralGain = 1.5f;    // Stanley gain on the lateral error, 1/s
constexpr float kYawDamping = 0.05f;    // rad of steering per rad/s of yaw-rate error
// rad of extra lock per m/s^2 of the line's lateral acceleration: the front-minus-rear slip
// angle a gt3 runs at 1.5 g (about 0.03-0.06 rad). Without it Stanley's law held the lock
// only with a 1.5 m lateral error, which ran cars wide off long fast corners.
constexpr float kUndersteer = 0.001f;
constexpr float kFollowDecel = 7.0f;          // m/s^2 a follower assumes it can out-brake the car ahead by
constexpr float kStraightCurvature = 0.004f;  // 1/m: below it (radius over 250 m) the line counts as straight
constexpr float kYieldOverlap = 0.5f;         // car lengths ahead (at aggression 0) that win a corner
constexpr float kOffsetRate = 3.0f;           // m/s: how fast it moves across the track to a new offset
constexpr float kOverlapClear = 0.7f;         // m beyond a car's width closer than which the car behind drops back
constexpr float kOffsetDecel = 8.0f;          // m/s^2 it plans to slow at for a tighter offset path

// Nearest line point to the car, refined from the centre-line segment's entry.
int nearest_line_point(const RacingLine& line, const CarState& c) {
  int n = line.size();
  int k = line.index_of_segment[std::clamp(c.track_segment, 0, static_cast<int>(line.index_of_segment.size()) - 1)];
  auto dist2 = [&](int i) {
    float dx = line.x[i] - c.x, dy = line.y[i] - c.y;
    return dx * dx + dy * dy;
  };
  for (int step : {1, -1}) {
    while (dist2((k + step + n) % n) < dist2(k)) k = (k + step + n) % n;
  }
  return k;
}

// Slip angle at which the magic formula peaks: (1 - E) u + E atan(u) = tan(pi / 2C), u = B alpha.
float peak_slip_angle(const CarParams& p) {
  float goal = std::tan(1.5707963f / std::max(p.pacejka_c, 1.05f));
  float lo = 0.0f, hi = 20.0f;
  for (int it = 0; it < 24; ++it) {
    float u = 0.5f * (lo + hi);
    ((1.0f - p.pacejka_e) * u + p.pacejka_e * std::atan(u) < goal ? lo : hi) = u;
  }
  return 0.5f * (lo + hi) / p.pacejka_b;
}

// Speed the car can carry at line point j when it runs `shift` m left of the line:
// the line's speed scaled by the corner speed on the offset path's curvature,
// k' = k / (1 - k |shift|), against the line's own (m v^2 k = mu (m g + L v^2)).
float offset_speed(const CarParams& p, const RacingLine& line, int j, float shift) {
  float k = std::abs(line.curvature[j]);
  // Towards the inside the path is tighter; towards the outside it is wider, but the line
  // already uses the track's width there (out of a corner it runs to the edge), so the
  // car has to tighten it as much to stay on the track.
  float inward = std::abs(shift);
  if (k < 1e-4f) return line.speed[j];
  float tight = k / std::max(1.0f - k * inward, 0.2f);
  float aero = kProfileGrip * p.mu * 0.5f * kAirDensity * p.lift_area / p.mass;  // 1/m
  if (tight <= aero) return line.speed[j];  // downforce holds the tighter path at any speed
  if (k <= aero)  // the line's corner is flat out; the tighter path's own limit
    return std::min(line.speed[j], std::sqrt(kProfileGrip * p.mu * kGravity / (tight - aero)));
  float ratio = std::sqrt((k - aero) / (tight - aero));
  return line.speed[j] * std::min(ratio, 1.0f);
}

// Fastest speed now from which the car can slow to what its offset path allows over the
// next stretch of line (from `ahead` points on), braking at `decel`.
float offset_target(const CarParams& p, const RacingLine& line, int k, int ahead, float shift, float decel) {
  int m = line.size();
  constexpr int kSpan = 60;  // points (120 m) of line ahead
  float best = 1e9f;
  for (int i = ahead; i < ahead + kSpan; i += 2) {
    int j = (k + i) % m;
    float vj = offset_speed(p, line, j, shift);
    if (vj >= line.speed[j]) continue;
    float dist = static_cast<float>(i - ahead) * kLineSpacing;
    best = std::min(best, std::sqrt(vj * vj + 2.0f * decel * dist));
  }
  return best;
}

// The curvature of the first corner (radius under 100 m) within the next 120 m of line,
// 0 if none: + a left-hander.
float corner_ahead(const RacingLine& line, int k) {
  int m = line.size();
  for (int i = 0; i < 60; i += 3) {
    float c = line.curvature[(k + i) % m];
    if (std::abs(c) > 0.01f) return c;
  }
  return 0.0f;
}

struct Traffic {
  float offset = 0.0f;      // m to move left of the line
  float speed_cap = 1e9f;   // m/s
  float min_d = -1e9f, max_d = 1e9f;  // where cars alongside leave room for our centre, m left of the centre line
};

// How the cars around change this car's plan: give a car alongside half a lane each,
// pass a slower car ahead on the side with more room (always past a stopped one), follow
// it at a safe gap when there is no room, cover the inside when a faster car closes.
Traffic read_traffic(const CarState& self, const CarParams& p, const Track& track, const RacingLine& line, int k,
                     float want_speed, float driver_aggression, const CarState* cars, int n, int self_index) {
  Traffic t;
  float v = car_speed(self);
  float lane = p.width + 1.2f;
  float line_d = line.offset[k];
  TrackPos here = project(track, {self.x, self.y}, self.track_segment);
  float nearest_ahead = 1e9f;
  float min_d = -1e9f, max_d = 1e9f;  // where cars alongside leave room for our centre
  bool defended = false;
  for (int j = 0; j < n; ++j) {
    if (j == self_index) continue;
    const CarState& o = cars[j];
    float ds = wrap_ds(track, o.s, self.s);  // + ahead
    float dd = o.d - self.d;
    if (std::abs(ds) < p.length + 1.5f) {  // alongside: stay on our side of it, a lane apart
      if (dd > 0.0f) max_d = std::min(max_d, o.d - lane);
      else min_d = std::max(min_d, o.d + lane);
      // Less than a car length behind a car in our lane (one stopped crossways, say):
      // no faster than it, or we pin it where it is stuck.
      if (ds > 0.0f && std::abs(dd) < p.width + 0.3f) t.speed_cap = std::min(t.speed_cap, car_speed(o));
      // Squeezed closer than a lane to a car whose nose is ahead (at speed the steering
      // cannot hold the lane exactly, or the edge pinches it): drop back out of the overlap.
      else if (ds > 0.0f && std::abs(dd) < p.width + kOverlapClear)
        t.speed_cap = std::min(t.speed_cap, std::max(car_speed(o) - 1.5f, 0.0f));
      // A corner it has lost: side by side into a corner with the other car's nose ahead,
      // it lifts and tucks in behind rather than running two wide through it.
      float vo = car_speed(o);
      if (v > 10.0f && ds > kYieldOverlap * p.length * (1.0f - driver_aggression) && corner_ahead(line, k) != 0.0f)
        t.speed_cap = std::min(t.speed_cap, std::max(vo - 2.0f, 0.8f * vo));
      continue;
    }
    float vo = car_speed(o);
    if (ds > 0.0f && ds < 80.0f) {
      bool in_path = std::abs(o.d - (line_d + t.offset)) < lane || std::abs(dd) < p.width + 0.5f;
      if (!in_path) continue;
      // Its speed a moment from now (it may be braking already), and the speed from which
      // we can still stop behind it if it keeps braking as hard as we assume we can.
      float vo_soon = std::max(vo + std::min(o.ax, 0.0f) * 0.3f, 0.0f);
      float gap = p.length + 1.5f + (0.25f - 0.1f * driver_aggression) * v;
      float follow = ds > gap ? std::sqrt(vo_soon * vo_soon + 2.0f * kFollowDecel * (ds - gap))
                              : std::max(vo_soon - (gap - ds), 0.0f);
      float closing = std::max(v - vo, 0.0f);
      bool near = ds < p.length + 10.0f || (ds - p.length) < 2.5f * closing;
      if (near && ds < nearest_ahead) {
        nearest_ahead = ds;
        // Room for our centre a lane beside it, inside the edge margin the steering keeps.
        float room_left = here.width_left - kEdgeMargin - 0.5f * p.width - (o.d + lane);
        float room_right = (o.d - lane) + here.width_right - kEdgeMargin - 0.5f * p.width;
        bool stopped = vo < 3.0f;
        // Attack on a straight or into the braking zone (not mid-corner), with a speed
        // advantage that shrinks with aggression; always pass a stopped car.
        bool straight = std::abs(line.curvature[k]) < kStraightCurvature;
        float edge = 1.0f + 3.0f * (1.0f - driver_aggression);
        // Into a corner only down the inside (a pass round the outside runs out of track).
        float corner = corner_ahead(line, k);
        bool left = corner > 0.0f ? true : corner < 0.0f ? false : room_left > room_right;
        float room = left ? room_left : room_right;
        bool passing = (room > 0.0f && want_speed > vo + edge && straight) || stopped;
        if (stopped && room <= 0.0f) left = !left;
        if (passing) t.offset = (left ? o.d + lane : o.d - lane) - line_d;
        if (!passing || std::abs(dd) < p.width + 0.8f) t.speed_cap = std::min(t.speed_cap, follow);
      } else if (std::abs(dd) < p.width + 0.4f) {
        t.speed_cap = std::min(t.speed_cap, follow);
      }
    } else if (ds < 0.0f && ds > -15.0f && vo > v + 1.0f && !defended &&
               std::abs(line.curvature[k]) < kStraightCurvature) {
      // Attacked on a straight: one move to cover the inside of the next corner (in the
      // corner itself it keeps its line: the line already runs to the apex).
      defended = true;
      float corner = corner_ahead(line, k);
      float inside = corner != 0.0f ? (corner > 0.0f ? 1.0f : -1.0f) : (line.curvature[k] >= 0.0f ? 1.0f : -1.0f);
      t.offset += 0.8f * inside;
    }
  }
  // Never steer back into a car alongside (the pass that put us there ends, or the line
  // runs through it): the wanted lateral position keeps a lane from it; squeezed between
  // two cars, take the middle.
  t.min_d = min_d;
  t.max_d = max_d;
  return t;
}

}  // namespace

CarControl ai_control(const CarState& self, const CarParams& p, const Track& track, const RacingLine& line,
                      AiDriver& driver, const CarState* cars, int n, int self_index, Rng& rng) {
  int m = line.size();
  int k = nearest_line_point(line, self);
  float v = car_speed(self);

  // Stuck: reverse out, steering the nose back towards the direction of travel.
  bool crossways = std::abs(self.heading_error) > 0.8f || self.wall_contact;
  driver.stuck_s = (v < 2.0f && crossways) ? driver.stuck_s + kControlPeriod : 0.0f;
  if (driver.reversing_s > 0.0f || driver.stuck_s > 1.0f) {
    driver.reversing_s += kControlPeriod;
    if (driver.reversing_s < 2.5f && std::abs(self.heading_error) > 0.35f) {
      driver.stuck_s = 0.0f;
      return {-1.0f, self.heading_error > 0.0f ? 1.0f : -1.0f};
    }
    driver.reversing_s = 0.0f;
  }
  // Pinned: barely moving for a while though pointing the right way, e.g. nosed into a
  // car that is itself stuck against the wall, which then cannot back out either. Back
  // off straight for a moment to give it room.
  driver.pinned_s = v < kPinnedSpeed ? driver.pinned_s + kControlPeriod : 0.0f;
  if (driver.backing_s > 0.0f || driver.pinned_s > kPinnedS) {
    driver.pinned_s = 0.0f;
    driver.backing_s += kControlPeriod;
    if (driver.backing_s <= kBackOffS) return {-1.0f, 0.0f};
    driver.backing_s = 0.0f;
  }

  int block = k / kNoiseBlock;
  if (block != driver.noise_block) {
    driver.noise_block = block;
    driver.noise = driver.braking_noise > 0.0f ? -driver.braking_noise * rng_uniform(rng) : 0.0f;
  }
  int ahead = static_cast<int>(v * kLookTime / kLineSpacing) + 1;
  float target = driver.skill * (1.0f + driver.noise) * line.speed[(k + ahead) % m];

  float offset = driver.lateral_preference;
  float room_min = -1e9f, room_max = 1e9f;  // where cars alongside leave room for our centre
  if (!driver.hold_line) {
    Traffic t = read_traffic(self, p, track, line, k, target, driver.aggression, cars, n, self_index);
    offset += t.offset;
    target = std::min(target, std::max(t.speed_cap, 0.0f));
    // Move across gradually: a lateral step at speed is a steering snap that spins the car.
    float step = kOffsetRate * kControlPeriod;
    offset = std::clamp(offset, driver.offset - step, driver.offset + step);
    // But never steer back into a car alongside (the pass that put us there ends, or the
    // line runs through it): keep a lane from it; squeezed between two cars, take the middle.
    float want = line.offset[k] + offset;
    if (t.min_d <= t.max_d) want = std::clamp(want, t.min_d, t.max_d);
    else want = 0.5f * (t.min_d + t.max_d);
    room_min = std::min(t.min_d, want);
    room_max = std::max(t.max_d, want);
    offset = driver.offset = want - line.offset[k];
  }
  // Off its line (making room, passing, rejoining): the speed of the path it is on and
  // the one it is heading for, not the line's.
  float pace = driver.skill * (1.0f + driver.noise);
  float now_shift = self.d - line.offset[k];
  if (std::abs(offset) > 0.3f) target = std::min(target, pace * offset_target(p, line, k, ahead, offset, kOffsetDecel));
  if (std::abs(now_shift) > 0.5f)
    target = std::min(target, pace * offset_target(p, line, k, ahead, now_shift, kOffsetDecel));

  // Steering: the line's curvature a little ahead (the rack and the control period lag),
  // plus the heading error to the line and the lateral error from it (Stanley's law),
  // all about the line shifted by the offset and kept on the track.
  int kp = (k + static_cast<int>(v * kPreviewTime / kLineSpacing) + 1) % m;
  TrackPos at = project(track, {line.x[kp], line.y[kp]}, self.track_segment);
  // Moved off the line it keeps kEdgeMargin from the painted edge beyond half its width;
  // the line itself may run closer (out of a corner it uses the kerb).
  float half = 0.5f * p.width + kEdgeMargin;
  float line_d = line.offset[kp];
  // The line ahead may sweep across the track faster than the offset: the point steered
  // for still keeps the lane from a car alongside.
  float want_d = std::clamp(std::clamp(line_d + offset, room_min, room_max), std::min(-(at.width_right - half), line_d),
                            std::max(at.width_left - half, line_d));
  float shift = want_d - line.offset[kp];
  float ex = self.x - (line.x[k] + shift * line.normal_x[k]), ey = self.y - (line.y[k] + shift * line.normal_y[k]);
  float lateral_error = ex * line.normal_x[k] + ey * line.normal_y[k];  // + left of the line
  float line_heading = std::atan2(-line.normal_x[kp], line.normal_y[kp]);
  float heading_error = line_heading - self.yaw;
  // Off the line, the path it steers for is the line shifted by an offset that the
  // track's edges may pinch: head along that path, not along the line (a line crossing
  // the track under a car held at the edge otherwise leads it off).
  if (std::abs(offset) > 0.01f) {
    int k2 = (kp + std::max(5, static_cast<int>(v * 0.5f / kLineSpacing))) % m;
    TrackPos at2 = project(track, {line.x[k2], line.y[k2]}, self.track_segment);
    float line_d2 = line.offset[k2];
    float want_d2 = std::clamp(line_d2 + offset, std::min(-(at2.width_right - half), line_d2),
                               std::max(at2.width_left - half, line_d2));
    float dist = static_cast<float>((k2 - kp + m) % m) * kLineSpacing;
    heading_error += std::atan2((want_d2 - line_d2) - shift, dist);
  }
  heading_error = wrap_pi(heading_error);
  float kappa = line.curvature[kp];
  float feedforward = std::atan(p.wheelbase * kappa);
  float correction = heading_error + std::atan2(-kLateralGain * lateral_error, v + 5.0f);
  float damping = kYawDamping * (kappa * v - self.yaw_rate);
  float ay = std::clamp(v * v * kappa, -20.0f, 20.0f);
  float use = std::min(std::abs(ay) / (p.mu * (kGravity + 0.5f * kAirDensity * p.lift_area * v * v / p.mass)), 0.86f);
  float understeer = kUndersteer * ay / (1.0f - use * use);
  float delta = feedforward + understeer + correction + damping;
  // Past the front tyres' peak slip angle more lock gives less grip: keep the front wheels
  // at most at the peak from the direction the front axle travels.
  float peak = peak_slip_angle(p);
  if (self.vx > 5.0f) {
    float travel = std::atan2(self.vy + self.yaw_rate * p.cg_to_front, self.vx);
    delta = std::clamp(delta, travel - peak, travel + peak);
  }
  float steer = std::clamp(delta / p.max_steer, -1.0f, 1.0f);
  if (std::abs(heading_error) > 1.6f) steer = heading_error > 0.0f ? 1.0f : -1.0f;  // facing backwards: turn round

  float front_slip = std::max(std::abs(self.slip_angle[0]), std::abs(self.slip_angle[1]));
  float wide = kappa >= 0.0f ? -lateral_error : lateral_error;
  float room = (kappa >= 0.0f ? self.d + at.width_right : at.width_left - self.d) - 0.5f * p.width;
  float pedal = std::clamp(kSpeedGain * (target - v), -1.0f, 1.0f);
  // Understeering wide of the line, where more lock cannot help: lift (throttle unloads the
  // front axle), gradually (a throttle snapped shut at the limit swings the rear out); near
  // the edge brake, but lightly (hard braking at the limit unloads the rear and spins it).
  if (front_slip > 0.5f * peak && wide > 0.5f)
    pedal = std::min(pedal, room < 2.0f ? -std::min(0.3f, 0.1f * wide) : std::max(0.0f, self.throttle - 0.15f));
  // While the rear tyres slide ease off the throttle, and the brakes, which unload them further.
  float rear_slip = std::max(std::abs(self.slip_angle[2]), std::abs(self.slip_angle[3]));
  if (rear_slip > 0.10f) {
    float keep = std::max(0.0f, 1.0f - 8.0f * (rear_slip - 0.10f));
    pedal = pedal > 0.0f ? pedal * keep : std::max(pedal, -0.2f - 0.8f * keep);
  }
  return {pedal, steer};
}

}  // namespace trackfield::racing
