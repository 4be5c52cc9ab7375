// Traffic-light cycling and the stop-line test (the phase model is described in lights.h).
#include "driving/lights.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace trackfield::driving {

namespace {

bool chance(Rng& rng, float p) { return rng_uniform(rng) < p; }

// Whether two headings (rad) are parallel or opposite within the phase tolerance.
bool same_axis(float a, float b) {
  const double d = std::fabs(std::remainder(static_cast<double>(a) - b, 3.14159265358979323846));
  return d < kPhaseHeadingTolerance;
}

// The longest green phase k of a junction with n >= 2 phases may show so that no phase is
// red for more than red_max (lights.h): phase j's red is sum_{q != j} (G_q + Y_q) + n C, and
// G_q <= (red_max - n C) / (n - 1) - Y_q for every q keeps each sum within red_max.
float green_cap(int n, float yellow, float clearance, float red_max) {
  return std::max(0.1f, (red_max - n * clearance) / static_cast<float>(n - 1) - yellow);
}

}  // namespace

void build_light_layout(LightLayout& layout) {
  int groups = layout.num_groups(), lights = layout.num_lights();
  if (layout.num_junctions < 0 || layout.num_junctions > kMaxJunctions)
    throw std::invalid_argument("lights: " + std::to_string(layout.num_junctions) +
                                " signalised junctions, at most " + std::to_string(kMaxJunctions));
  if (groups > kMaxLightGroups)
    throw std::invalid_argument("lights: " + std::to_string(groups) + " light groups, at most " +
                                std::to_string(kMaxLightGroups));
  if (lights > kMaxLights)
    throw std::invalid_argument("lights: " + std::to_string(lights) + " lights, at most " +
                                std::to_string(kMaxLights));
  if (static_cast<int>(layout.stop_line_a.size()) != lights ||
      static_cast<int>(layout.stop_line_b.size()) != lights ||
      static_cast<int>(layout.lane_heading.size()) != lights)
    throw std::invalid_argument("lights: stop lines and headings must have one entry per light");
  for (int l = 0; l < lights; ++l)
    if (layout.light_group[l] < 0 || layout.light_group[l] >= groups)
      throw std::invalid_argument("lights: light " + std::to_string(l) + " names group " +
                                  std::to_string(layout.light_group[l]) + " of " + std::to_string(groups));
  for (int g = 0; g < groups; ++g) {
    int j = layout.group_junction[g];
    if (j < 0 || j >= layout.num_junctions)
      throw std::invalid_argument("lights: group " + std::to_string(g) + " names junction " +
                                  std::to_string(j) + " of " + std::to_string(layout.num_junctions));
  }
  // A group's heading: its first light's (a group without lights joins any phase harmlessly).
  std::vector<float> heading(groups, 0.0f);
  std::vector<uint8_t> has_heading(groups, 0);
  for (int l = 0; l < lights; ++l) {
    int g = layout.light_group[l];
    if (!has_heading[g]) heading[g] = layout.lane_heading[l], has_heading[g] = 1;
  }
  // Phases junction by junction, so a junction's phases are consecutive in rank order.
  layout.group_phase.assign(groups, -1);
  layout.phase_junction.clear();
  layout.phase_rank.clear();
  layout.junction_phases.assign(layout.num_junctions, 0);
  layout.junction_first_phase.assign(layout.num_junctions, 0);
  std::vector<int> phase_heading_group;  // phase -> the group whose heading defines it
  for (int j = 0; j < layout.num_junctions; ++j) {
    layout.junction_first_phase[j] = layout.num_phases();
    for (int g = 0; g < groups; ++g) {
      if (layout.group_junction[g] != j) continue;
      for (int p = layout.junction_first_phase[j]; p < layout.num_phases(); ++p)
        if (same_axis(heading[g], heading[phase_heading_group[p]])) {
          layout.group_phase[g] = p;
          break;
        }
      if (layout.group_phase[g] >= 0) continue;
      layout.group_phase[g] = layout.num_phases();
      layout.phase_rank.push_back(layout.junction_phases[j]++);
      layout.phase_junction.push_back(j);
      phase_heading_group.push_back(g);
    }
  }
}

void reset_lights(LightState& s, const LightLayout& layout, const LightConfig& cfg, Rng& rng) {
  for (int j = 0; j < kMaxJunctions; ++j) s.junction_offset_s[j] = s.junction_cycle_s[j] = 0.0f;
  for (int p = 0; p < kMaxLightGroups; ++p) s.phase_start_s[p] = s.phase_green_s[p] = s.phase_yellow_s[p] = 0.0f;
  for (int g = 0; g < kMaxLightGroups; ++g) s.group_removed[g] = s.group_stuck[g] = 0;
  for (int l = 0; l < kMaxLights; ++l) s.light_removed[l] = 0;
  s.time_s = 0.0;
  s.enabled = 1;
  if (!cfg.randomised) {
    // CARLA's defaults: green, yellow, then red (the all-red clearance) before the next turn.
    for (int j = 0; j < layout.num_junctions; ++j) {
      const int first = layout.junction_first_phase[j], n = layout.junction_phases[j];
      for (int k = 0; k < n; ++k) {
        s.phase_green_s[first + k] = cfg.green_s;
        s.phase_yellow_s[first + k] = cfg.yellow_s;
        s.phase_start_s[first + k] = k * (cfg.green_s + cfg.yellow_s + cfg.red_s);
      }
      s.junction_cycle_s[j] = n * (cfg.green_s + cfg.yellow_s + cfg.red_s);
    }
    advance_lights(s, layout, 0.0f);
    return;
  }
  // The draws happen in a fixed order whatever the outcome, so one removal never shifts the
  // random stream of the rest of the episode.
  float red[kMaxLightGroups], yellow[kMaxLightGroups], green[kMaxLightGroups];
  for (int j = 0; j < layout.num_junctions; ++j) {
    const int first = layout.junction_first_phase[j], n = layout.junction_phases[j];
    for (int k = 0; k < n; ++k) {
      red[k] = std::min(cfg.red_s * rng_range(rng, cfg.red_scale_lo, cfg.red_scale_hi), cfg.red_max_s);
      yellow[k] = cfg.yellow_s * rng_range(rng, cfg.yellow_scale_lo, cfg.yellow_scale_hi);
      green[k] = cfg.green_s * rng_range(rng, cfg.green_scale_lo, cfg.green_scale_hi);
    }
    float cycle = 0.0f;
    if (n == 1) {
      cycle = green[0] + yellow[0] + red[0];
    } else if (n > 1) {
      for (int k = 0; k < n; ++k) {
        green[k] = std::min(green[k], green_cap(n, yellow[k], cfg.clearance_s, cfg.red_max_s));
        cycle += green[k] + yellow[k] + cfg.clearance_s;
      }
    }
    float start = 0.0f;
    for (int k = 0; k < n; ++k) {
      s.phase_green_s[first + k] = green[k];
      s.phase_yellow_s[first + k] = yellow[k];
      s.phase_start_s[first + k] = start;
      start += green[k] + yellow[k] + cfg.clearance_s;
    }
    s.junction_cycle_s[j] = cycle;
    s.junction_offset_s[j] = rng_uniform(rng) * cycle;
  }
  s.enabled = chance(rng, cfg.p_episode_without_lights) ? 0 : 1;
  for (int g = 0; g < layout.num_groups(); ++g) {
    s.group_removed[g] = chance(rng, cfg.p_group_removed) ? 1 : 0;
    bool stuck = chance(rng, cfg.p_stuck_green);
    s.group_stuck[g] = (stuck && !s.group_removed[g]) ? 1 : 0;
  }
  for (int l = 0; l < layout.num_lights(); ++l) s.light_removed[l] = chance(rng, cfg.p_light_removed) ? 1 : 0;
  advance_lights(s, layout, 0.0f);
}

void advance_lights(LightState& s, const LightLayout& layout, float dt) {
  s.time_s += dt;
  for (int g = 0; g < kMaxLightGroups; ++g) s.group_colour[g] = kNone;
  if (!s.enabled) return;
  for (int g = 0; g < layout.num_groups(); ++g) {
    if (s.group_removed[g]) continue;
    if (s.group_stuck[g]) {
      s.group_colour[g] = kGreen;
      continue;
    }
    const int p = layout.group_phase[g], j = layout.group_junction[g];
    const double cycle = s.junction_cycle_s[j];
    if (!(cycle > 0.0)) continue;
    const float t = static_cast<float>(std::fmod(s.time_s + s.junction_offset_s[j], cycle));
    const float into_turn = t - s.phase_start_s[p];
    const float green = s.phase_green_s[p], yellow = s.phase_yellow_s[p];
    if (into_turn >= 0.0f && into_turn < green) s.group_colour[g] = kGreen;
    else if (into_turn >= green && into_turn < green + yellow) s.group_colour[g] = kYellow;
    else s.group_colour[g] = kRed;
  }
}

LightColour light_colour(const LightState& s, int group) {
  if (group < 0 || group >= kMaxLightGroups) return kNone;
  return static_cast<LightColour>(s.group_colour[group]);
}

LightColour light_colour_of_light(const LightState& s, const LightLayout& layout, int light) {
  if (light < 0 || light >= layout.num_lights() || s.light_removed[light]) return kNone;
  return light_colour(s, layout.light_group[light]);
}

bool crossed_stop_line(Vec2 p0, Vec2 p1, Vec2 a, Vec2 b, float lane_heading) {
  Vec2 dir{std::cos(lane_heading), std::sin(lane_heading)};
  Vec2 along = b - a;
  // The line's normal, pointing the way traffic goes: "beyond" is its positive side.
  Vec2 n{-along.y, along.x};
  float n_dot_dir = dot(n, dir);
  if (std::fabs(n_dot_dir) < 1e-6f * length(n)) return false;  // degenerate: line along the lane
  if (n_dot_dir < 0.0f) n = n * -1.0f;
  if (dot(p1 - p0, dir) <= 0.0f) return false;  // not travelling with the lane
  float s0 = dot(p0 - a, n), s1 = dot(p1 - a, n);
  if (!(s0 < 0.0f && s1 >= 0.0f)) return false;
  // Where the path meets the line, as a fraction of the segment from a to b.
  Vec2 hit = p0 + (p1 - p0) * (s0 / (s0 - s1));
  float u = dot(hit - a, along) / length_sq(along);
  return u >= 0.0f && u <= 1.0f;
}

bool stop_line_violation(LightColour colour, Vec2 p0, Vec2 p1, Vec2 a, Vec2 b, float lane_heading) {
  return colour == kRed && crossed_stop_line(p0, p1, a, b, lane_heading);
}

}  // namespace trackfield::driving
