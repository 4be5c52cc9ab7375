// The map's static picture (map_raster.h).
#include "driving/map_raster.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/raster.h"
#include "driving/map.h"

namespace trackfield::driving {

namespace {

constexpr float kMargin = 4.0f;  // m of picture beyond the outermost quad corner

}  // namespace

void build_map_raster(MapRaster& r, const Map& map) {
  float lo_x = 0, lo_y = 0, hi_x = 1, hi_y = 1;
  if (!map.corner_x.empty()) {
    lo_x = *std::min_element(map.corner_x.begin(), map.corner_x.end());
    hi_x = *std::max_element(map.corner_x.begin(), map.corner_x.end());
    lo_y = *std::min_element(map.corner_y.begin(), map.corner_y.end());
    hi_y = *std::max_element(map.corner_y.begin(), map.corner_y.end());
  }
  lo_x -= kMargin, lo_y -= kMargin, hi_x += kMargin, hi_y += kMargin;
  const double area = static_cast<double>(hi_x - lo_x) * (hi_y - lo_y);
  r.cell = std::max(kRasterCell, static_cast<float>(std::sqrt(area / static_cast<double>(kRasterMaxCells))) * 1.01f);
  r.x0 = lo_x, r.y0 = lo_y;
  r.cols = std::max(1, static_cast<int>(std::ceil((hi_x - lo_x) / r.cell)));
  r.rows = std::max(1, static_cast<int>(std::ceil((hi_y - lo_y) / r.cell)));
  const int W = r.cols, H = r.rows;
  std::vector<uint8_t> road(static_cast<size_t>(W) * H, 0), edge(static_cast<size_t>(W) * H, 0);
  const float inv = 1.0f / r.cell;
  auto u = [&](float x) { return (x - r.x0) * inv; };
  auto v = [&](float y) { return (y - r.y0) * inv; };
  auto mark = [&](std::vector<uint8_t>& layer) {
    return [&layer, W](int x, int y) { layer[static_cast<size_t>(y) * W + x] = 1; };
  };
  for (int q = 0; q < map.quad_count; ++q) {
    const float* cx = &map.corner_x[4 * q];
    const float* cy = &map.corner_y[4 * q];
    raster::scan_triangle_px(W, H, u(cx[0]), v(cy[0]), u(cx[1]), v(cy[1]), u(cx[2]), v(cy[2]), mark(road));
    raster::scan_triangle_px(W, H, u(cx[0]), v(cy[0]), u(cx[2]), v(cy[2]), u(cx[3]), v(cy[3]), mark(road));
  }
  for (int q = 0; q < map.paved_count; ++q) {  // paved surface is road too
    const float* cx = &map.paved_x[4 * q];
    const float* cy = &map.paved_y[4 * q];
    raster::scan_triangle_px(W, H, u(cx[0]), v(cy[0]), u(cx[1]), v(cy[1]), u(cx[2]), v(cy[2]), mark(road));
    raster::scan_triangle_px(W, H, u(cx[0]), v(cy[0]), u(cx[2]), v(cy[2]), u(cx[3]), v(cy[3]), mark(road));
  }
  // Boundary polylines, stepped at a quarter cell so no cell they cross is skipped.
  const std::vector<double>& bp = map.boundary_points;
  for (size_t b = 0; b + 1 < map.boundary_offsets.size(); ++b)
    for (int64_t k = map.boundary_offsets[b]; k + 1 < map.boundary_offsets[b + 1]; ++k) {
      const double* p = &bp[3 * k];
      const double len = std::hypot(p[3] - p[0], p[4] - p[1]);
      const int n = static_cast<int>(len / (0.25 * r.cell)) + 1;
      for (int i = 0; i <= n; ++i) {
        const double t = static_cast<double>(i) / n;
        const int x = static_cast<int>(std::floor(u(static_cast<float>(p[0] + t * (p[3] - p[0])))));
        const int y = static_cast<int>(std::floor(v(static_cast<float>(p[1] + t * (p[4] - p[1])))));
        if (x >= 0 && y >= 0 && x < W && y < H) edge[static_cast<size_t>(y) * W + x] = 1;
      }
    }
  // Edge cells: a drivable cell with a non-drivable one in its 3 x 3 neighbourhood, or a
  // non-drivable cell with a drivable one in its 5 x 5: 1.5 m at 0.5 m cells, so that 1 m
  // observation pixels never step over a road edge whatever their rotation.
  r.stride = (W + 3) / 4;
  r.packed.assign(static_cast<size_t>(r.stride) * H, 0);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const size_t i = static_cast<size_t>(y) * W + x;
      const int reach = road[i] ? 1 : 2;
      bool other = false, line = false;
      for (int dy = -reach; dy <= reach; ++dy)
        for (int dx = -reach; dx <= reach; ++dx) {
          const int xx = x + dx, yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= W || yy >= H) continue;
          const size_t j = static_cast<size_t>(yy) * W + xx;
          other |= road[j] != road[i];
          line |= std::abs(dx) <= 1 && std::abs(dy) <= 1 && edge[j];
        }
      const int bits = (road[i] ? kRasterDrivable : 0) | (other || line ? kRasterBoundary : 0);
      r.packed[static_cast<size_t>(y) * r.stride + (x >> 2)] |= static_cast<uint8_t>(bits << ((x & 3) * 2));
    }
}

}  // namespace trackfield::driving
