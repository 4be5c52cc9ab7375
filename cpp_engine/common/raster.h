// A small software rasteriser shared by the domains' top-down views and pixel
// observations: RGB or grey canvases in caller-owned memory, world-to-pixel mapping,
// discs, lines, rectangles, circles and 5 x 7 text. No graphics library, no allocation.
#ifndef TRACKFIELD_COMMON_RASTER_H
#define TRACKFIELD_COMMON_RASTER_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace trackfield::raster {

struct Color {
  uint8_t r, g, b;
};

// Luminance (ITU-R BT.601), the grey value a colour draws with on a 1-channel canvas.
inline uint8_t grey(Color c) { return static_cast<uint8_t>((299 * c.r + 587 * c.g + 114 * c.b + 500) / 1000); }

// Pixel (px, py) shows world point (origin_x + px / scale_x, origin_y + py / scale_y),
// or its mirror image (the view rotated by 180 degrees) when `flip` is set. The two
// scales may differ, so that a fixed-size observation fills its frame.
struct Canvas {
  uint8_t* pixels;
  int width, height, channels;  // channels: 3 (RGB) or 1 (grey)
  float scale_x, scale_y;       // pixels per metre
  float origin_x, origin_y;     // world point at the top-left corner (before flipping)
  bool flip = false;
};

inline float to_px(const Canvas& c, float x) {
  float px = (x - c.origin_x) * c.scale_x;
  return c.flip ? c.width - px : px;
}
inline float to_py(const Canvas& c, float y) {
  float py = (y - c.origin_y) * c.scale_y;
  return c.flip ? c.height - py : py;
}

inline void put(const Canvas& c, int x, int y, Color col) {
  if (x < 0 || y < 0 || x >= c.width || y >= c.height) return;
  uint8_t* px = c.pixels + (static_cast<size_t>(y) * c.width + x) * c.channels;
  if (c.channels == 1) {
    px[0] = grey(col);
  } else {
    px[0] = col.r, px[1] = col.g, px[2] = col.b;
  }
}

// Fills the canvas row by row from one computed row: the colour of column x is
// column_color(x) (a background that varies along x only, such as mown stripes).
template <typename ColumnColor>
void fill_columns(const Canvas& c, ColumnColor&& column_color) {
  for (int x = 0; x < c.width; ++x) put(c, x, 0, column_color(x));
  const size_t row = static_cast<size_t>(c.width) * c.channels;
  for (int y = 1; y < c.height; ++y) std::memcpy(c.pixels + y * row, c.pixels, row);
}

// Calls plot(x, y) for every pixel of a width x height grid whose centre is inside the
// triangle (pixel units; edges shared by two triangles are covered once or twice, never
// left as a gap). The one scan behind every filled triangle, whatever a pixel holds.
template <typename Plot>
void scan_triangle_px(int width, int height, float x0, float y0, float x1, float y1, float x2, float y2, Plot&& plot) {
  float area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  if (std::fabs(area) < 1e-9f) return;
  // Wholly left or right of the canvas: no row can cover a pixel (views draw many such).
  if (std::max({x0, x1, x2}) < 0.0f || std::min({x0, x1, x2}) > static_cast<float>(width)) return;
  int ymin = std::max(0, static_cast<int>(std::floor(std::min({y0, y1, y2}))));
  int ymax = std::min(height - 1, static_cast<int>(std::ceil(std::max({y0, y1, y2}))));
  const float xs[3] = {x0, x1, x2}, ys[3] = {y0, y1, y2};
  for (int y = ymin; y <= ymax; ++y) {
    float py = static_cast<float>(y) + 0.5f;
    float lo = 1e30f, hi = -1e30f;
    for (int e = 0; e < 3; ++e) {  // where the row crosses each edge
      float ya = ys[e], yb = ys[(e + 1) % 3];
      if ((py < ya) == (py < yb)) continue;
      float x = xs[e] + (py - ya) / (yb - ya) * (xs[(e + 1) % 3] - xs[e]);
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    int xa = std::max(0, static_cast<int>(std::ceil(lo - 0.5f)));
    int xb = std::min(width - 1, static_cast<int>(std::floor(hi - 0.5f)));
    for (int x = xa; x <= xb; ++x) plot(x, y);
  }
}

// A triangle in pixel units, filled with one colour (scan_triangle_px's coverage rule).
inline void fill_triangle_px(const Canvas& c, float x0, float y0, float x1, float y1, float x2, float y2, Color col) {
  scan_triangle_px(c.width, c.height, x0, y0, x1, y1, x2, y2, [&](int x, int y) { put(c, x, y, col); });
}

// Calls span(y, xa, xb) for each row y of a width x height grid with the pixels xa..xb
// whose centres are inside the convex polygon of n <= 8 corners (pixel units, in order,
// either winding): one span per row and one division per edge, for views that draw many
// small quads. Same coverage rule as scan_triangle_px, so shared edges leave no gap.
template <typename Span>
void scan_convex_px(int width, int height, const float* xs, const float* ys, int n, Span&& span) {
  float xmin = xs[0], xmax = xs[0], ymin_f = ys[0], ymax_f = ys[0];
  for (int k = 1; k < n; ++k) {
    xmin = std::min(xmin, xs[k]), xmax = std::max(xmax, xs[k]);
    ymin_f = std::min(ymin_f, ys[k]), ymax_f = std::max(ymax_f, ys[k]);
  }
  if (xmax < 0.0f || xmin > static_cast<float>(width) || ymax_f < 0.0f || ymin_f > static_cast<float>(height)) return;
  float slope[8];
  for (int e = 0; e < n; ++e) {
    int f = e + 1 == n ? 0 : e + 1;
    slope[e] = ys[f] != ys[e] ? (xs[f] - xs[e]) / (ys[f] - ys[e]) : 0.0f;
  }
  int y0 = std::max(0, static_cast<int>(std::floor(ymin_f)));
  int y1 = std::min(height - 1, static_cast<int>(std::ceil(ymax_f)));
  for (int y = y0; y <= y1; ++y) {
    float py = static_cast<float>(y) + 0.5f;
    float lo = 1e30f, hi = -1e30f;
    for (int e = 0; e < n; ++e) {
      int f = e + 1 == n ? 0 : e + 1;
      if ((py < ys[e]) == (py < ys[f])) continue;
      float x = xs[e] + (py - ys[e]) * slope[e];
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    if (lo > hi) continue;  // the row passes below or above every edge
    // Clamped before the int conversion: a far corner must not overflow it.
    int xa = static_cast<int>(std::ceil(std::max(lo, -1.0f) - 0.5f));
    int xb = static_cast<int>(std::floor(std::min(hi, static_cast<float>(width) + 1.0f) - 0.5f));
    xa = std::max(0, xa), xb = std::min(width - 1, xb);
    if (xa <= xb) span(y, xa, xb);
  }
}

// A convex polygon in pixel units filled with one colour (scan_convex_px's coverage).
inline void fill_convex_px(const Canvas& c, const float* xs, const float* ys, int n, Color col) {
  const uint8_t g = grey(col);
  scan_convex_px(c.width, c.height, xs, ys, n, [&](int y, int xa, int xb) {
    uint8_t* p = c.pixels + (static_cast<size_t>(y) * c.width + xa) * c.channels;
    if (c.channels == 1) {
      std::memset(p, g, static_cast<size_t>(xb - xa + 1));
      return;
    }
    for (int x = xa; x <= xb; ++x, p += 3) p[0] = col.r, p[1] = col.g, p[2] = col.b;
  });
}

// Ellipses in pixel units (centre and radii). A pixel is covered when its centre is
// inside, and the pixel holding the centre always is, so small objects never vanish.
inline void fill_ellipse_px(const Canvas& c, float cx, float cy, float rx, float ry, Color col) {
  const int y0 = std::max(0, static_cast<int>(std::floor(cy - ry))), y1 = std::min(c.height - 1, static_cast<int>(cy + ry));
  const int x0 = std::max(0, static_cast<int>(std::floor(cx - rx))), x1 = std::min(c.width - 1, static_cast<int>(cx + rx));
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const float dx = (x + 0.5f - cx) / rx, dy = (y + 0.5f - cy) / ry;
      if (dx * dx + dy * dy <= 1.0f) put(c, x, y, col);
    }
  put(c, static_cast<int>(std::floor(cx)), static_cast<int>(std::floor(cy)), col);
}

// A disc of `radius_m` metres, at least `min_radius_px` pixels across each axis.
inline void fill_disc(const Canvas& c, float wx, float wy, float radius_m, Color col, float min_radius_px = 0.5f) {
  fill_ellipse_px(c, to_px(c, wx), to_py(c, wy), std::max(min_radius_px, radius_m * c.scale_x),
                  std::max(min_radius_px, radius_m * c.scale_y), col);
}

inline void line_px(const Canvas& c, float px0, float py0, float px1, float py1, Color col) {
  const int n = static_cast<int>(std::max(std::fabs(px1 - px0), std::fabs(py1 - py0))) + 1;
  for (int i = 0; i <= n; ++i) {
    const float t = static_cast<float>(i) / n;
    put(c, static_cast<int>(px0 + (px1 - px0) * t), static_cast<int>(py0 + (py1 - py0) * t), col);
  }
}

inline void line(const Canvas& c, float x0, float y0, float x1, float y1, Color col) {
  line_px(c, to_px(c, x0), to_py(c, y0), to_px(c, x1), to_py(c, y1), col);
}

inline void rect(const Canvas& c, float x0, float y0, float x1, float y1, Color col) {
  line(c, x0, y0, x1, y0, col), line(c, x1, y0, x1, y1, col);
  line(c, x1, y1, x0, y1, col), line(c, x0, y1, x0, y0, col);
}

inline void fill_rect_px(const Canvas& c, int x0, int y0, int x1, int y1, Color col) {
  for (int y = std::max(0, y0); y < std::min(c.height, y1); ++y)
    for (int x = std::max(0, x0); x < std::min(c.width, x1); ++x) put(c, x, y, col);
}

inline void circle(const Canvas& c, float wx, float wy, float r, Color col) {
  const int segments = std::max(12, std::min(96, static_cast<int>(r * c.scale_x)));
  for (int i = 0; i < segments; ++i) {
    const float a0 = 6.2831853f * i / segments, a1 = 6.2831853f * (i + 1) / segments;
    line(c, wx + r * std::cos(a0), wy + r * std::sin(a0), wx + r * std::cos(a1), wy + r * std::sin(a1), col);
  }
}

// 5 x 7 glyphs for digits, capital letters and ": - . /": one byte per row, bit 4 leftmost.
inline const uint8_t* glyph(char ch) {
  static const uint8_t kDigits[10][7] = {
      {14, 17, 19, 21, 25, 17, 14}, {4, 12, 4, 4, 4, 4, 14},    {14, 17, 1, 2, 4, 8, 31},
      {31, 2, 4, 2, 1, 17, 14},     {2, 6, 10, 18, 31, 2, 2},   {31, 16, 30, 1, 1, 17, 14},
      {6, 8, 16, 30, 17, 17, 14},   {31, 1, 2, 4, 8, 8, 8},     {14, 17, 17, 14, 17, 17, 14},
      {14, 17, 17, 15, 1, 2, 12}};
  static const uint8_t kLetters[26][7] = {
      {14, 17, 17, 31, 17, 17, 17}, {30, 17, 17, 30, 17, 17, 30}, {14, 17, 16, 16, 16, 17, 14},
      {28, 18, 17, 17, 17, 18, 28}, {31, 16, 16, 30, 16, 16, 31}, {31, 16, 16, 30, 16, 16, 16},
      {14, 17, 16, 23, 17, 17, 15}, {17, 17, 17, 31, 17, 17, 17}, {14, 4, 4, 4, 4, 4, 14},
      {7, 2, 2, 2, 2, 18, 12},      {17, 18, 20, 24, 20, 18, 17}, {16, 16, 16, 16, 16, 16, 31},
      {17, 27, 21, 21, 17, 17, 17}, {17, 17, 25, 21, 19, 17, 17}, {14, 17, 17, 17, 17, 17, 14},
      {30, 17, 17, 30, 16, 16, 16}, {14, 17, 17, 17, 21, 18, 13}, {30, 17, 17, 30, 20, 18, 17},
      {15, 16, 16, 14, 1, 1, 30},   {31, 4, 4, 4, 4, 4, 4},       {17, 17, 17, 17, 17, 17, 14},
      {17, 17, 17, 17, 17, 10, 4},  {17, 17, 17, 21, 21, 21, 10}, {17, 17, 10, 4, 10, 17, 17},
      {17, 17, 10, 4, 4, 4, 4},     {31, 1, 2, 4, 8, 16, 31}};
  static const uint8_t kColon[7] = {0, 12, 12, 0, 12, 12, 0}, kDash[7] = {0, 0, 0, 31, 0, 0, 0};
  static const uint8_t kDot[7] = {0, 0, 0, 0, 0, 12, 12}, kSlash[7] = {1, 1, 2, 4, 8, 16, 16};
  static const uint8_t kBlank[7] = {0, 0, 0, 0, 0, 0, 0};
  if (ch >= '0' && ch <= '9') return kDigits[ch - '0'];
  if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
  if (ch >= 'A' && ch <= 'Z') return kLetters[ch - 'A'];
  if (ch == ':') return kColon;
  if (ch == '-') return kDash;
  if (ch == '.') return kDot;
  if (ch == '/') return kSlash;
  return kBlank;
}

constexpr int kGlyphWidth = 6, kGlyphHeight = 7;  // advance (5 + 1 spacing) and height, at size 1

inline int text_width(const char* text, int size) { return static_cast<int>(std::strlen(text)) * kGlyphWidth * size; }

// Draws `text` with its top-left corner at pixel (x, y), each glyph pixel a size x size block.
inline void text(const Canvas& c, int x, int y, const char* text, int size, Color col) {
  for (int k = 0; text[k]; ++k) {
    const uint8_t* rows = glyph(text[k]);
    for (int r = 0; r < kGlyphHeight; ++r)
      for (int b = 0; b < 5; ++b)
        if (rows[r] & (16 >> b)) fill_rect_px(c, x + (k * kGlyphWidth + b) * size, y + r * size,
                                              x + (k * kGlyphWidth + b + 1) * size, y + (r + 1) * size, col);
  }
}

}  // namespace trackfield::raster

#endif
