// The `pixels` observation and rgb_array frames: a top-down chase view that turns with
// the car (its nose up, the car a quarter of the way up from the bottom), drawn by the
// shared rasteriser: grass, run-off, kerbs, asphalt, the start line and every car.
//
// Only the track within `reach` of the car along the centre line is drawn. Segments that
// cannot reach the canvas are skipped before any corner is transformed, and each run of
// visible segments is cut into pieces that look straight at this scale (their straight
// edges stray from the bent ones by at most kPieceTolerancePx): one quad per band and
// piece instead of one per segment. Piece corners lie along the vertex normals, so
// neighbouring pieces share their edges and bends show no wedges of grass.
#include <algorithm>
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

constexpr float kPieceTolerancePx = 0.25f;
constexpr int kMaxPieceSegments = 64;
constexpr int kMaxPieces = 256;  // drawn in batches of this many (no allocation per frame)

// Paints into an RGB or grey raster::Canvas.
struct CanvasPaint {
  raster::Canvas canvas;
  int width() const { return canvas.width; }
  int height() const { return canvas.height; }
  void background(Color col) const { raster::fill_columns(canvas, [col](int) { return col; }); }
  void convex(const float* xs, const float* ys, int n, Color col) const { raster::fill_convex_px(canvas, xs, ys, n, col); }
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
  void convex(const float* xs, const float* ys, int n, Color col) const {
    uint8_t y, u, v;
    yuv(col, &y, &u, &v);
    raster::scan_convex_px(w, h, xs, ys, n, [&](int row, int xa, int xb) {
      std::memset(out.y + static_cast<size_t>(row) * out.y_stride + xa, y, static_cast<size_t>(xb - xa + 1));
      if (row & 1) return;
      const int ca = (xa + 1) >> 1, cb = xb >> 1;  // the even columns xa..xb hold the chroma samples
      if (cb < ca) return;
      const size_t c = static_cast<size_t>(row >> 1) * out.uv_stride + ca;
      std::memset(out.u + c, u, static_cast<size_t>(cb - ca + 1));
      std::memset(out.v + c, v, static_cast<size_t>(cb - ca + 1));
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
  // A world direction (vx, vy) as pixels per metre: the linear part of to_px.
  void dir_px(float vx, float vy, float* px, float* py) const {
    *px = (vx * sin_yaw - vy * cos_yaw) * px_per_m;
    *py = -(vx * cos_yaw + vy * sin_yaw) * px_per_m;
  }
  void quad(const float* x, const float* y, Color col) const {  // corners in order
    float px[4], py[4];
    for (int k = 0; k < 4; ++k) to_px(x[k], y[k], px + k, py + k);
    paint.convex(px, py, 4, col);
  }
  // False when nothing within `radius` metres of world point (wx, wy) can reach the canvas.
  bool may_show(float wx, float wy, float radius) const {
    float dx = wx - cx, dy = wy - cy;
    float fwd = dx * cos_yaw + dy * sin_yaw, left = -dx * sin_yaw + dy * cos_yaw;
    float w = static_cast<float>(paint.width()), h = static_cast<float>(paint.height());
    radius += 2.0f / px_per_m;  // slack for rounding
    return left <= anchor_x / px_per_m + radius && left >= (anchor_x - w) / px_per_m - radius &&
           fwd <= anchor_y / px_per_m + radius && fwd >= (anchor_y - h) / px_per_m - radius;
  }
};

// A centre-line point in pixels: position, left vertex normal (pixels per metre), widths.
struct EdgeFrame {
  float px, py, nx, ny, wl, wr;
};

template <typename V>
EdgeFrame edge_frame(const V& v, const Track& t, int k) {
  EdgeFrame f{0, 0, 0, 0, t.width_left[k], t.width_right[k]};
  v.to_px(t.x[k], t.y[k], &f.px, &f.py);
  v.dir_px(-t.vertex_tangent_y[k], t.vertex_tangent_x[k], &f.nx, &f.ny);
  return f;
}

struct Piece {
  EdgeFrame a, b;  // its first and last point
};

// The band between distances lo and hi outward from the left (side +1) or right (side -1)
// painted edge, or the asphalt between the edges (side 0).
template <typename V>
void band(const V& v, const Piece& p, int side, float lo, float hi, Color col) {
  float xs[4], ys[4];
  auto corner = [&](const EdgeFrame& f, float off, int k) {
    float d = side > 0 ? f.wl + off : side < 0 ? -(f.wr + off) : off > 0.0f ? f.wl : -f.wr;
    xs[k] = f.px + f.nx * d, ys[k] = f.py + f.ny * d;
  };
  corner(p.a, lo, 0), corner(p.b, lo, 1), corner(p.b, hi, 2), corner(p.a, hi, 3);
  v.paint.convex(xs, ys, 4, col);
}

// Run-off under kerbs under asphalt, each layer over every piece, so that where two
// stretches of track overlap (hairpins) asphalt still wins.
template <typename V>
void draw_pieces(const V& v, const Track& t, const Piece* pieces, int count) {
  for (int k = 0; k < count; ++k) {
    band(v, pieces[k], 1, 0.0f, t.wall_distance, kRunoff);
    band(v, pieces[k], -1, 0.0f, t.wall_distance, kRunoff);
  }
  for (int k = 0; k < count; ++k) {
    band(v, pieces[k], 1, 0.0f, t.kerb_width, kKerb);
    band(v, pieces[k], -1, 0.0f, t.kerb_width, kKerb);
  }
  for (int k = 0; k < count; ++k) band(v, pieces[k], 0, 1.0f, -1.0f, kAsphalt);
}

// Every corner drawn for segment i lies within this distance of point i.
float segment_reach(const Track& t, int i, int j) {
  float widest = std::max({t.width_left[i], t.width_left[j], t.width_right[i], t.width_right[j]});
  return segment_length(t, i) + widest + std::max(t.wall_distance, t.kerb_width) + 1.0f;
}

// Cuts the visible segments within `span` of `centre` into pieces and draws them.
template <typename V>
void draw_track(const V& v, const Track& t, int centre, int span) {
  Piece pieces[kMaxPieces];
  int count = 0;
  const float tol = kPieceTolerancePx / v.px_per_m;
  int start = -1, last = -1, segments = 0;  // the open piece: first point, last segment
  float length = 0, turn = 0, wl_lo = 0, wl_hi = 0, wr_lo = 0, wr_hi = 0;
  auto close = [&]() {
    if (start < 0) return;
    pieces[count++] = {edge_frame(v, t, start), edge_frame(v, t, last + 1 == t.n ? 0 : last + 1)};
    start = -1;
    if (count == kMaxPieces) draw_pieces(v, t, pieces, count), count = 0;
  };
  for (int k = -span; k <= span; ++k) {
    int i = ((centre + k) % t.n + t.n) % t.n, j = i + 1 == t.n ? 0 : i + 1;
    if (!v.may_show(t.x[i], t.y[i], segment_reach(t, i, j))) {
      close();
      continue;
    }
    if (start >= 0) {  // extend the open piece by segment i if it still looks straight
      float bend = std::fabs(t.tangent_x[last] * t.tangent_y[i] - t.tangent_y[last] * t.tangent_x[i]);
      float outer = std::max(t.width_left[j], t.width_right[j]) + t.wall_distance;
      float len = length + segment_length(t, i), tr = turn + bend;
      float nwl_lo = std::min(wl_lo, t.width_left[j]), nwl_hi = std::max(wl_hi, t.width_left[j]);
      float nwr_lo = std::min(wr_lo, t.width_right[j]), nwr_hi = std::max(wr_hi, t.width_right[j]);
      if (segments < kMaxPieceSegments && (len + outer * tr) * tr * 0.125f <= tol && nwl_hi - nwl_lo <= tol &&
          nwr_hi - nwr_lo <= tol) {
        last = i, ++segments, length = len, turn = tr;
        wl_lo = nwl_lo, wl_hi = nwl_hi, wr_lo = nwr_lo, wr_hi = nwr_hi;
        continue;
      }
      close();
    }
    start = i, last = i, segments = 1, length = segment_length(t, i), turn = 0;
    // Widths within tol of each other over the piece: its straight edges, which run
    // between the end points' widths, then stray by at most tol at any point between.
    wl_lo = std::min(t.width_left[i], t.width_left[j]), wl_hi = std::max(t.width_left[i], t.width_left[j]);
    wr_lo = std::min(t.width_right[i], t.width_right[j]), wr_hi = std::max(t.width_right[i], t.width_right[j]);
  }
  close();
  draw_pieces(v, t, pieces, count);
}

template <typename V>
void draw_start_line(const V& v, const Track& t) {
  float x0 = t.x[0], y0 = t.y[0], tx = t.tangent_x[0], ty = t.tangent_y[0];
  float lx = -ty, ly = tx, wl = t.width_left[0], wr = t.width_right[0];
  float qx[4] = {x0 + lx * wl, x0 + lx * wl + tx, x0 - lx * wr + tx, x0 - lx * wr};
  float qy[4] = {y0 + ly * wl, y0 + ly * wl + ty, y0 - ly * wr + ty, y0 - ly * wr};
  v.quad(qx, qy, kLine);
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
  float reach = metres * (0.75f + static_cast<float>(height) / static_cast<float>(width));
  float spacing = t.length / static_cast<float>(t.n);
  int span = std::min(t.n / 2, static_cast<int>(reach / std::max(spacing, 0.1f)) + 2);
  draw_track(v, t, me.track_segment, span);
  int from_start = std::min((me.track_segment % t.n + t.n) % t.n, t.n - (me.track_segment % t.n + t.n) % t.n);
  if (from_start <= span) draw_start_line(v, t);
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
