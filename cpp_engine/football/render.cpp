#include "football/render.h"

#include <algorithm>
#include <cmath>

namespace trackfield::football {

namespace {

constexpr float kMargin = 3.0f;  // metres of surroundings drawn around the pitch
constexpr float kViewHalfX = kHalfLength + kMargin;
constexpr float kViewHalfY = kHalfWidth + kMargin;

struct Canvas {
  uint8_t* rgb;
  int width, height;
  float scale;  // pixels per metre
};

struct Color {
  uint8_t r, g, b;
};

void put(const Canvas& c, int x, int y, Color col) {
  if (x < 0 || y < 0 || x >= c.width || y >= c.height) return;
  uint8_t* px = c.rgb + (static_cast<size_t>(y) * c.width + x) * 3;
  px[0] = col.r, px[1] = col.g, px[2] = col.b;
}

float to_px(const Canvas& c, float x) { return (x + kViewHalfX) * c.scale; }
float to_py(const Canvas& c, float y) { return (y + kViewHalfY) * c.scale; }

void fill_disc(const Canvas& c, float wx, float wy, float radius_m, Color col) {
  float cx = to_px(c, wx), cy = to_py(c, wy);
  float r = std::max(1.5f, radius_m * c.scale);
  for (int y = static_cast<int>(cy - r); y <= static_cast<int>(cy + r); ++y)
    for (int x = static_cast<int>(cx - r); x <= static_cast<int>(cx + r); ++x)
      if ((x + 0.5f - cx) * (x + 0.5f - cx) + (y + 0.5f - cy) * (y + 0.5f - cy) <= r * r) put(c, x, y, col);
}

void line(const Canvas& c, float x0, float y0, float x1, float y1, Color col) {
  float px0 = to_px(c, x0), py0 = to_py(c, y0), px1 = to_px(c, x1), py1 = to_py(c, y1);
  int n = static_cast<int>(std::max(std::fabs(px1 - px0), std::fabs(py1 - py0))) + 1;
  for (int i = 0; i <= n; ++i) {
    float t = static_cast<float>(i) / n;
    put(c, static_cast<int>(px0 + (px1 - px0) * t), static_cast<int>(py0 + (py1 - py0) * t), col);
  }
}

void rect(const Canvas& c, float x0, float y0, float x1, float y1, Color col) {
  line(c, x0, y0, x1, y0, col), line(c, x1, y0, x1, y1, col);
  line(c, x1, y1, x0, y1, col), line(c, x0, y1, x0, y0, col);
}

void circle(const Canvas& c, float wx, float wy, float r, Color col) {
  for (int i = 0; i < 64; ++i) {
    float a0 = 6.2831853f * i / 64, a1 = 6.2831853f * (i + 1) / 64;
    line(c, wx + r * std::cos(a0), wy + r * std::sin(a0), wx + r * std::cos(a1), wy + r * std::sin(a1), col);
  }
}

void draw_pitch(const Canvas& c) {
  for (int y = 0; y < c.height; ++y)
    for (int x = 0; x < c.width; ++x) {
      float wx = x / c.scale - kViewHalfX;
      bool stripe = static_cast<int>(std::floor((wx + kHalfLength) / 7.5f)) % 2 == 0;
      put(c, x, y, stripe ? Color{58, 140, 62} : Color{52, 128, 56});
    }
  const Color white{235, 235, 235};
  rect(c, -kHalfLength, -kHalfWidth, kHalfLength, kHalfWidth, white);
  line(c, 0, -kHalfWidth, 0, kHalfWidth, white);
  circle(c, 0, 0, kSetPieceDistance, white);
  for (float side : {-1.0f, 1.0f}) {
    float gx = side * kHalfLength;
    rect(c, gx - side * kPenaltyBoxDepth, -kPenaltyBoxHalfWidth, gx, kPenaltyBoxHalfWidth, white);
    rect(c, gx - side * 5.5f, -9.16f, gx, 9.16f, white);
    rect(c, gx, -kGoalHalfWidth, gx + side * 2.0f, kGoalHalfWidth, Color{250, 250, 250});
  }
}

}  // namespace

int render_height(int width) { return static_cast<int>(std::lround(width * kViewHalfY / kViewHalfX)); }

void render_rgb(const World& w, int width, int height, uint8_t* rgb) {
  Canvas c{rgb, width, height, width / (2.0f * kViewHalfX)};
  draw_pitch(c);
  const Color team_color[2] = {{220, 60, 50}, {50, 90, 220}};
  const Color keeper_color[2] = {{250, 160, 40}, {40, 200, 220}};
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (!w.p.present[p]) continue;
    int t = team_of(p);
    if (w.p.controlled_by[p] >= 0) fill_disc(c, w.p.x[p], w.p.y[p], 1.4f, Color{255, 230, 0});
    fill_disc(c, w.p.x[p], w.p.y[p], 0.95f, w.p.role[p] == kRoleGK ? keeper_color[t] : team_color[t]);
  }
  // The ball's shadow stays on the ground; the ball rises with its height.
  fill_disc(c, w.ball.x + w.ball.z * 0.3f, w.ball.y + w.ball.z * 0.3f, 0.45f, Color{30, 70, 30});
  fill_disc(c, w.ball.x, w.ball.y - w.ball.z * 0.5f, 0.55f, Color{255, 255, 255});
}

}  // namespace trackfield::football
