// Football pictures: the viewer's frame (render_mode="rgb_array", videos) with a
// scoreboard, clock, game mode, shirt numbers, the controlled players marked and the
// ball's height shown by its shadow; and the compact `pixels` / `pixels_gray`
// observations, seen from the agent's side.
#include "football/render.h"

#include <cmath>
#include <cstdio>

#include "common/raster.h"
#include "football/obs.h"

namespace trackfield::football {

namespace {

using raster::Canvas;
using raster::Color;

constexpr float kMargin = 3.0f;  // metres of surroundings drawn around the pitch
constexpr float kViewHalfX = kHalfLength + kMargin;
constexpr float kViewHalfY = kHalfWidth + kMargin;
const char* const kModeNames[kNumGameModes] = {"NORMAL", "KICK OFF", "GOAL KICK", "FREE KICK", "CORNER", "THROW IN", "PENALTY"};

const Color kWhite{235, 235, 235};

Canvas pitch_canvas(uint8_t* pixels, int width, int height, int channels, bool flip) {
  return Canvas{pixels, width, height, channels, width / (2.0f * kViewHalfX), height / (2.0f * kViewHalfY),
                -kViewHalfX, -kViewHalfY, flip};
}

void draw_pitch(const Canvas& c) {
  // Mown stripes 7.5 m wide along x, then the markings.
  raster::fill_columns(c, [&c](int px) {
    float wx = (c.flip ? c.width - px - 0.5f : px + 0.5f) / c.scale_x + c.origin_x;
    return static_cast<int>(std::floor((wx + kHalfLength) / 7.5f)) % 2 == 0 ? Color{58, 140, 62} : Color{52, 128, 56};
  });
  raster::rect(c, -kHalfLength, -kHalfWidth, kHalfLength, kHalfWidth, kWhite);
  raster::line(c, 0, -kHalfWidth, 0, kHalfWidth, kWhite);
  raster::circle(c, 0, 0, kSetPieceDistance, kWhite);
  for (float side : {-1.0f, 1.0f}) {
    float gx = side * kHalfLength;
    raster::rect(c, gx - side * kPenaltyBoxDepth, -kPenaltyBoxHalfWidth, gx, kPenaltyBoxHalfWidth, kWhite);
    raster::rect(c, gx - side * 5.5f, -9.16f, gx, 9.16f, kWhite);
    raster::rect(c, gx, -kGoalHalfWidth, gx + side * 2.0f, kGoalHalfWidth, Color{250, 250, 250});
  }
}

// The ball's shadow stays on the ground; the ball is drawn raised by its height.
void draw_ball(const Canvas& c, const World& w, float min_px) {
  raster::fill_disc(c, w.ball.x + w.ball.z * 0.3f, w.ball.y + w.ball.z * 0.3f, 0.45f, Color{30, 70, 30}, min_px);
  raster::fill_disc(c, w.ball.x, w.ball.y - w.ball.z * 0.5f, 0.55f, Color{255, 255, 255}, min_px);
}

// "MM:SS": a broadcast clock that runs 90 minutes over the game's duration.
void format_clock(const World& w, char* out, size_t n) {
  const int duration = w.m.game_duration > 0 ? w.m.game_duration : 3000;
  const int seconds = static_cast<int>(static_cast<long long>(w.m.steps) * 90 * 60 / duration);
  std::snprintf(out, n, "%02d:%02d", seconds / 60, seconds % 60);
}

void draw_scoreboard(const Canvas& c, const World& w) {
  const int size = std::max(1, c.width / 400);
  const int bar = (raster::kGlyphHeight + 4) * size;
  raster::fill_rect_px(c, 0, 0, c.width, bar, Color{20, 30, 25});
  char clock[16], score[48], steps[32];
  format_clock(w, clock, sizeof(clock));
  std::snprintf(score, sizeof(score), "LEFT %d - %d RIGHT", w.m.score[0], w.m.score[1]);
  std::snprintf(steps, sizeof(steps), "STEP %d/%d", w.m.steps, w.m.game_duration);
  const int y = 2 * size;
  raster::text(c, 2 * size, y, clock, size, Color{255, 255, 255});
  raster::text(c, (c.width - raster::text_width(score, size)) / 2, y, score, size, Color{255, 255, 255});
  const char* mode = w.m.game_mode >= 0 && w.m.game_mode < kNumGameModes ? kModeNames[w.m.game_mode] : "";
  const int right = c.width - raster::text_width(mode, size) - 2 * size;
  raster::text(c, right, y, mode, size, w.m.game_mode == kModeNormal ? Color{170, 200, 170} : Color{255, 220, 60});
  if (c.width >= 600) raster::text(c, right - raster::text_width(steps, size) - 6 * size, y, steps, size, Color{170, 170, 170});
}

}  // namespace

int render_height(int width) { return static_cast<int>(std::lround(width * kViewHalfY / kViewHalfX)); }

void render_rgb(const World& w, int width, int height, uint8_t* rgb) {
  const Canvas c = pitch_canvas(rgb, width, height, 3, false);
  draw_pitch(c);
  const Color team_color[2] = {{220, 60, 50}, {50, 90, 220}};
  const Color keeper_color[2] = {{250, 160, 40}, {40, 200, 220}};
  const bool numbers = c.scale_x >= 6.0f;
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (!w.p.present[p]) continue;
    const int t = team_of(p);
    if (w.p.controlled_by[p] >= 0) raster::fill_disc(c, w.p.x[p], w.p.y[p], 1.4f, Color{255, 230, 0}, 1.5f);
    raster::fill_disc(c, w.p.x[p], w.p.y[p], 0.95f, w.p.role[p] == kRoleGK ? keeper_color[t] : team_color[t], 1.5f);
    if (!numbers) continue;
    char number[4];
    std::snprintf(number, sizeof(number), "%d", slot_of(p) + 1);
    const int size = std::max(1, static_cast<int>(c.scale_x / 10.0f));
    raster::text(c, static_cast<int>(raster::to_px(c, w.p.x[p])) - raster::text_width(number, size) / 2 + size / 2,
                 static_cast<int>(raster::to_py(c, w.p.y[p])) - raster::kGlyphHeight * size / 2, number, size,
                 Color{255, 255, 255});
  }
  draw_ball(c, w, 1.5f);
  draw_scoreboard(c, w);
}

void write_obs_pixels(const World& w, int agent, int width, int height, int channels, uint8_t* out) {
  const Perspective v = perspective_of(w, agent);
  const Canvas c = pitch_canvas(out, width, height, channels, v.own == 1);
  draw_pitch(c);
  // Fixed colours from the agent's side, apart in grey too: own team light, opponents dark.
  const Color own{255, 120, 80}, own_keeper{255, 190, 120}, opp{30, 40, 140}, opp_keeper{10, 10, 60};
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (!w.p.present[p]) continue;
    const bool mine = team_of(p) == v.own, keeper = w.p.role[p] == kRoleGK;
    raster::fill_disc(c, w.p.x[p], w.p.y[p], 0.95f, mine ? (keeper ? own_keeper : own) : (keeper ? opp_keeper : opp));
  }
  const int active = w.agents[agent].player;
  if (active >= 0) raster::fill_disc(c, w.p.x[active], w.p.y[active], 0.6f, Color{255, 255, 0});
  draw_ball(c, w, 0.5f);
}

}  // namespace trackfield::football
