// Uniform-grid spatial hash over points in a fixed rectangle.
// Buffers are sized once (cells and capacity); `rebuild` is a counting sort with
// no allocation, so it can run every step. Queries visit only the cells that
// overlap the query disc.
#ifndef TRACKFIELD_COMMON_SPATIAL_HASH_H
#define TRACKFIELD_COMMON_SPATIAL_HASH_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace trackfield {

struct SpatialHash {
  float min_x = 0, min_y = 0, cell_size = 1;
  int cols = 1, rows = 1;
  std::vector<int32_t> cell_start;  // cols*rows + 1 prefix offsets into `items`
  std::vector<int32_t> items;       // point ids sorted by cell
  std::vector<int32_t> point_cell;  // scratch: the cell of each point
};

inline void spatial_hash_init(SpatialHash& h, float min_x, float min_y, float max_x, float max_y,
                              float cell_size, int capacity) {
  if (!(cell_size > 0) || !(max_x > min_x) || !(max_y > min_y) || capacity < 0)
    throw std::invalid_argument("spatial hash: bad bounds, cell size or capacity");
  h.min_x = min_x;
  h.min_y = min_y;
  h.cell_size = cell_size;
  h.cols = std::max(1, static_cast<int>(std::ceil((max_x - min_x) / cell_size)));
  h.rows = std::max(1, static_cast<int>(std::ceil((max_y - min_y) / cell_size)));
  h.cell_start.assign(static_cast<size_t>(h.cols) * h.rows + 1, 0);
  h.items.assign(capacity, 0);
  h.point_cell.assign(capacity, 0);
}

inline int spatial_hash_cell(const SpatialHash& h, float x, float y) {
  int cx = static_cast<int>((x - h.min_x) / h.cell_size);
  int cy = static_cast<int>((y - h.min_y) / h.cell_size);
  cx = std::min(std::max(cx, 0), h.cols - 1);
  cy = std::min(std::max(cy, 0), h.rows - 1);
  return cy * h.cols + cx;
}

// Points outside the bounds are clamped into the border cells, so they are still found.
// Counting sort: count per cell, prefix-sum, then scatter in ascending id order.
inline void spatial_hash_rebuild(SpatialHash& h, const float* xs, const float* ys, int count) {
  if (count > static_cast<int>(h.items.size()))
    throw std::length_error("spatial hash: more points than its capacity");
  std::fill(h.cell_start.begin(), h.cell_start.end(), 0);
  for (int i = 0; i < count; ++i) {
    int c = spatial_hash_cell(h, xs[i], ys[i]);
    h.point_cell[i] = c;
    ++h.cell_start[c + 1];
  }
  for (size_t c = 1; c < h.cell_start.size(); ++c) h.cell_start[c] += h.cell_start[c - 1];
  // cell_start[c] doubles as the write cursor of cell c, ending at cell c + 1's start;
  // shifting the array one place right then restores the starts.
  for (int i = 0; i < count; ++i) h.items[h.cell_start[h.point_cell[i]]++] = i;
  for (size_t c = h.cell_start.size() - 1; c > 0; --c) h.cell_start[c] = h.cell_start[c - 1];
  h.cell_start[0] = 0;
}

// Calls visit(id, dist_sq) for every point within `radius` of (x, y).
template <typename Visit>
inline void spatial_hash_query(const SpatialHash& h, const float* xs, const float* ys, float x,
                               float y, float radius, Visit&& visit) {
  int x0 = static_cast<int>(std::floor((x - radius - h.min_x) / h.cell_size));
  int x1 = static_cast<int>(std::floor((x + radius - h.min_x) / h.cell_size));
  int y0 = static_cast<int>(std::floor((y - radius - h.min_y) / h.cell_size));
  int y1 = static_cast<int>(std::floor((y + radius - h.min_y) / h.cell_size));
  // Both ends clamp into the grid: border cells also hold the points beyond the bounds.
  x0 = std::min(std::max(x0, 0), h.cols - 1);
  x1 = std::min(std::max(x1, 0), h.cols - 1);
  y0 = std::min(std::max(y0, 0), h.rows - 1);
  y1 = std::min(std::max(y1, 0), h.rows - 1);
  float r2 = radius * radius;
  for (int cy = y0; cy <= y1; ++cy) {
    for (int cx = x0; cx <= x1; ++cx) {
      int c = cy * h.cols + cx;
      for (int k = h.cell_start[c]; k < h.cell_start[c + 1]; ++k) {
        int id = h.items[k];
        float dx = xs[id] - x, dy = ys[id] - y;
        float d2 = dx * dx + dy * dy;
        if (d2 <= r2) visit(id, d2);
      }
    }
  }
}

}  // namespace trackfield

#endif
