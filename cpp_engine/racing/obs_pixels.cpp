// The `pixels` observation and rgb_array frames: a top-down chase view that turns with
// the car (its nose up, the car a quarter of the way up from the bottom), drawn by the
// shared rasteriser: grass, run-off, kerbs, asphalt, the start line and every car.
#include <cmath>
#include <cstring>

#include "common/raster.h"
#include "racing/obs.h"
#include "racing/step.h"

namespace trackfield::racing {

namespace {

using raster::Color;
constexpr Color kGrass{52, 110, 48}, kRunoff{150, 140, 110}, kKerb{200, 40, 40}, kAsphalt{90, 90, 96};
constexpr Color kLine{235, 235, 235}, kOwn{255, 220, 0}, kOther{40, 110, 230}, kOtherAgent{240, 120, 40};

// Paints into an RGB or grey raster::Canvas.
struct CanvasPaint {
  raster::Canvas canvas;
  int width() const { return canvas.width; }
  int height() const { return canvas.height; }
  void background(Color col) const { raster::fill_columns(canvas, [col](int) { return col; }); }
  void triangle(float x0, float y0, float x1, float y1, float x2, float y2, Color col) const {
    raster::fill_triangle_px(canvas, x0, y0, x1, y1, x2, y2, col);
  }
};

// Paints straight into YUV 4:2:0 planes (BT.601 limited range, what H.264 encoders
// take): no RGB image and no conversion pass. A chroma sample takes the colour of its
// 2 x 2 block's top-left pixel, so colours bleed over one block at most at edges.
struct Yuv420Paint {
  Yuv420Planes out;
  int w, h;
  int width() const { return w; }
  int height() const { return h; }
  static void yuv(Color c, uint8_t* y, uint8_t* u, uint8_t* v) {
    *y = static_cast<uint8_t>(((66 * c.r + 129 * c.g + 25 * c.b + 128) >> 8) + 16);
    *u = static_cast<uint8_t>(((-38 * c.r - 74 * c.g + 112 * c.b + 128) >> 8) + 128);
    *v = static_cast<uint8_t>(((112 * c.r - 94 * c.g - 18 * c.b + 128) >> 8) + 128);
  }
  void background(Color col) const {
    uint8_t y, u, v;
    yuv(col, &y, &u, &v);
    for (int r = 0; r < h; ++r) std::memset(out.y + static_cast<size_t>(r) * out.y_stride, y, w);
    for (int r = 0; r < h / 2; ++r) {
      std::memset(out.u + static_cast<size_t>(r) * out.uv_stride, u, w / 2);
      std::memset(out.v + static_cast<size_t>(r) * out.uv_stride, v, w / 2);
    }
  }
  void triangle(float x0, float y0, float x1, float y1, float x2, float y2, Color col) const {
    uint8_t y, u, v;
    yuv(col, &y, &u, &v);
    raster::scan_triangle_px(w, h, x0, y0, x1, y1, x2, y2, [&](int px, int py) {
      out.y[static_cast<size_t>(py) * out.y_stride + px] = y;
      if ((px | py) & 1) return;
      const size_t c = static_cast<size_t>(py >> 1) * out.uv_stride + (px >> 1);
      out.u[c] = u;
      out.v[c] = v;
    });
  }
};

template <typename Paint>
struct View {
  Paint paint;
  float cx, cy, cos_yaw, sin_yaw, px_per_m, anchor_x, anchor_y;
  void to_px(float wx, float wy, float* px, float* py) const {
    float dx = wx - cx, dy = wy - cy;
    float fwd = dx * cos_yaw + dy * sin_yaw, left = -dx * sin_yaw + dy * cos_yaw;
    *px = anchor_x - left * px_per_m;
    *py = anchor_y - fwd * px_per_m;
  }
  void quad(const float* x, const float* y, Color col) const {  // corners in order
    float px[4], py[4];
    for (int k = 0; k < 4; ++k) to_px(x[k], y[k], px + k, py + k);
    paint.triangle(px[0], py[0], px[1], py[1], px[2], py[2], col);
    paint.triangle(px[0], py[0], px[2], py[2], px[3], py[3], col);
  }
};

// A band over segment i between distances a and b outward from the left (side +1) or
// right (side -1) painted edge, or across the centre line (side 0, offsets + left).
template <typename V>
void band(const V& v, const Track& t, int i, int side, float a, float b, Color col) {
  int j = i + 1 == t.n ? 0 : i + 1;
  float nx = -t.tangent_y[i], ny = t.tangent_x[i];
  auto at = [&](int k, float off, float* x, float* y) {
    float d = side > 0 ? t.width_left[k] + off : side < 0 ? -(t.width_right[k] + off) : off;
    *x = t.x[k] + nx * d;
    *y = t.y[k] + ny * d;
  };
  float x[4], y[4];
  at(i, a, x, y);
  at(j, a, x + 1, y + 1);
  at(j, b, x + 2, y + 2);
  at(i, b, x + 3, y + 3);
  v.quad(x, y, col);
}

template <typename V>
void draw_car(const V& v, const CarState& c, const CarParams& p, Color col) {
  float cy = std::cos(c.yaw), sy = std::sin(c.yaw);
  float hl = 0.5f * p.length, hw = 0.5f * p.width;
  float x[4], y[4];
  const float fx[4] = {hl, hl, -hl, -hl}, fy[4] = {hw, -hw, -hw, hw};
  for (int k = 0; k < 4; ++k) {
    x[k] = c.x + fx[k] * cy - fy[k] * sy;
    y[k] = c.y + fx[k] * sy + fy[k] * cy;
  }
  v.quad(x, y, col);
}

template <typename Paint>
void chase_view(const RaceWorld& w, const RaceConfig& cfg, int car, const Paint& paint, float metres) {
  const Track& t = *cfg.track;
  const CarParams& p = car_params(cfg.car);
  const CarState& me = seen_cars(w, cfg)[car].car;
  const int width = paint.width(), height = paint.height();
  View<Paint> v{paint, me.x, me.y, std::cos(me.yaw), std::sin(me.yaw), static_cast<float>(width) / metres,
                0.5f * static_cast<float>(width), 0.75f * static_cast<float>(height)};
  v.paint.background(kGrass);
  // Segments near enough to show: walk both ways from the car's segment.
  float reach = metres * (0.75f + static_cast<float>(height) / static_cast<float>(width));
  float spacing = t.length / static_cast<float>(t.n);
  int span = std::min(t.n / 2, static_cast<int>(reach / std::max(spacing, 0.1f)) + 2);
  for (int pass = 0; pass < 3; ++pass) {
    for (int k = -span; k <= span; ++k) {
      int i = ((me.track_segment + k) % t.n + t.n) % t.n;
      if (pass == 0) {
        band(v, t, i, 1, 0.0f, t.wall_distance, kRunoff);
        band(v, t, i, -1, 0.0f, t.wall_distance, kRunoff);
      } else if (pass == 1) {
        band(v, t, i, 1, 0.0f, t.kerb_width, kKerb);
        band(v, t, i, -1, 0.0f, t.kerb_width, kKerb);
      } else {
        int j = i + 1 == t.n ? 0 : i + 1;
        float x[4] = {0}, y[4] = {0};
        float nxi = -t.tangent_y[i], nyi = t.tangent_x[i];
        x[0] = t.x[i] + nxi * t.width_left[i];  y[0] = t.y[i] + nyi * t.width_left[i];
        x[1] = t.x[j] + nxi * t.width_left[j];  y[1] = t.y[j] + nyi * t.width_left[j];
        x[2] = t.x[j] - nxi * t.width_right[j]; y[2] = t.y[j] - nyi * t.width_right[j];
        x[3] = t.x[i] - nxi * t.width_right[i]; y[3] = t.y[i] - nyi * t.width_right[i];
        v.quad(x, y, kAsphalt);
        if (i == 0) {  // the start line, a metre deep
          float x0 = t.x[0], y0 = t.y[0], tx = t.tangent_x[0], ty = t.tangent_y[0];
          float lx = -ty, ly = tx, wl = t.width_left[0], wr = t.width_right[0];
          float qx[4] = {x0 + lx * wl, x0 + lx * wl + tx, x0 - lx * wr + tx, x0 - lx * wr};
          float qy[4] = {y0 + ly * wl, y0 + ly * wl + ty, y0 - ly * wr + ty, y0 - ly * wr};
          v.quad(qx, qy, kLine);
        }
      }
    }
  }
  int g0 = group_start(cfg, car);
  const SeenCar* seen = seen_cars(w, cfg);
  for (int j = g0; j < g0 + cfg.cars_per_group; ++j) {
    if (j == car) continue;
    bool agent = (j - g0) < cfg.agents_per_group;
    draw_car(v, seen[j].car, p, agent ? kOtherAgent : kOther);
  }
  draw_car(v, me, p, kOwn);
}

}  // namespace

void draw_chase_view(const RaceWorld& w, const RaceConfig& cfg, int car, uint8_t* out, int width, int height,
                     int channels, float metres) {
  chase_view(w, cfg, car, CanvasPaint{{out, width, height, channels, 1, 1, 0, 0, false}}, metres);
}

void draw_chase_view_yuv420(const RaceWorld& w, const RaceConfig& cfg, int car, int width, int height, float metres,
                            const Yuv420Planes& out) {
  chase_view(w, cfg, car, Yuv420Paint{out, width, height}, metres);
}

void write_pixels(const RaceWorld& w, const RaceConfig& cfg, int agent, uint8_t* out) {
  draw_chase_view(w, cfg, cfg.agent_car(agent), out, cfg.pixel_width, cfg.pixel_height, 3, cfg.pixel_metres);
}

}  // namespace trackfield::racing
