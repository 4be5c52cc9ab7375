// Traffic-light cycling and the stop-line test (the phase model is described in lights.h).
#include "driving/lights.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace trackfield::driving {

namespace {

bool chance(Rng& rng, float p) { return rng_uniform(rng) < p; }

float cycle_period(const LightState& s) { return s.green_s + s.yellow_s + s.red_s; }

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
  layout.junction_groups.assign(layout.num_junctions, 0);
  layout.group_rank.assign(groups, 0);
  for (int g = 0; g < groups; ++g) {
    int j = layout.group_junction[g];
    if (j < 0 || j >= layout.num_junctions)
      throw std::invalid_argument("lights: group " + std::to_string(g) + " names junction " +
                                  std::to_string(j) + " of " + std::to_string(layout.num_junctions));
    layout.group_rank[g] = layout.junction_groups[j]++;
  }
}

void reset_lights(LightState& s, const LightLayout& layout, const LightConfig& cfg, Rng& rng) {
  // The draws happen in a fixed order whatever the outcome, so one removal never shifts the
  // random stream of the rest of the episode.
  s.red_s = std::min(cfg.red_s * rng_range(rng, cfg.red_scale_lo, cfg.red_scale_hi), cfg.red_max_s);
  s.yellow_s = cfg.yellow_s * rng_range(rng, cfg.yellow_scale_lo, cfg.yellow_scale_hi);
  s.green_s = cfg.green_s * rng_range(rng, cfg.green_scale_lo, cfg.green_scale_hi);
  s.time_s = 0.0;
  s.enabled = chance(rng, cfg.p_episode_without_lights) ? 0 : 1;
  float period = cycle_period(s);
  for (int j = 0; j < kMaxJunctions; ++j) s.junction_offset_s[j] = 0.0f;
  for (int j = 0; j < layout.num_junctions; ++j)
    s.junction_offset_s[j] = rng_uniform(rng) * period * static_cast<float>(layout.junction_groups[j]);
  for (int g = 0; g < kMaxLightGroups; ++g) s.group_removed[g] = s.group_stuck[g] = 0;
  for (int g = 0; g < layout.num_groups(); ++g) {
    s.group_removed[g] = chance(rng, cfg.p_group_removed) ? 1 : 0;
    bool stuck = chance(rng, cfg.p_stuck_green);
    s.group_stuck[g] = (stuck && !s.group_removed[g]) ? 1 : 0;
  }
  for (int l = 0; l < kMaxLights; ++l) s.light_removed[l] = 0;
  for (int l = 0; l < layout.num_lights(); ++l) s.light_removed[l] = chance(rng, cfg.p_light_removed) ? 1 : 0;
  advance_lights(s, layout, 0.0f);
}

void advance_lights(LightState& s, const LightLayout& layout, float dt) {
  s.time_s += dt;
  float period = cycle_period(s);
  for (int g = 0; g < kMaxLightGroups; ++g) s.group_colour[g] = kNone;
  if (!s.enabled || period <= 0.0f) return;
  for (int g = 0; g < layout.num_groups(); ++g) {
    if (s.group_removed[g]) continue;
    if (s.group_stuck[g]) {
      s.group_colour[g] = kGreen;
      continue;
    }
    int j = layout.group_junction[g];
    float cycle = period * static_cast<float>(layout.junction_groups[j]);
    float t = static_cast<float>(std::fmod(s.time_s + s.junction_offset_s[j], static_cast<double>(cycle)));
    float into_turn = t - period * static_cast<float>(layout.group_rank[g]);
    if (into_turn >= 0.0f && into_turn < s.green_s) s.group_colour[g] = kGreen;
    else if (into_turn >= s.green_s && into_turn < s.green_s + s.yellow_s) s.group_colour[g] = kYellow;
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
