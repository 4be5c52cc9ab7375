// The shared utilities: RNG streams and the spatial hash against brute force.
#include <algorithm>
#include <cmath>
#include <vector>

#include "common/angle.h"
#include "common/rng.h"
#include "common/spatial_hash.h"
#include "tests/check.h"

using namespace trackfield;

TEST(rng_is_uniform_in_unit_interval_and_streams_differ) {
  Rng a, b;
  rng_seed(a, 42, 0);
  rng_seed(b, 42, 1);
  double sum = 0;
  int same = 0;
  for (int i = 0; i < 20000; ++i) {
    float u = rng_uniform(a), v = rng_uniform(b);
    CHECK(u >= 0.0f && u < 1.0f);
    sum += u;
    same += u == v;
  }
  CHECK(sum / 20000 > 0.49 && sum / 20000 < 0.51);
  CHECK(same < 10);
}

TEST(spatial_hash_query_equals_brute_force) {
  Rng rng;
  rng_seed(rng, 7, 0);
  const int n = 500;
  std::vector<float> xs(n), ys(n);
  for (int i = 0; i < n; ++i) xs[i] = rng_range(rng, -60, 60), ys[i] = rng_range(rng, -40, 40);
  SpatialHash h;
  spatial_hash_init(h, -55, -35, 55, 35, 4.0f, n);  // some points fall outside: clamped into border cells
  spatial_hash_rebuild(h, xs.data(), ys.data(), n);
  for (int q = 0; q < 200; ++q) {
    float x = rng_range(rng, -70, 70), y = rng_range(rng, -50, 50), r = rng_range(rng, 0.1f, 15);
    std::vector<int> found, expected;
    spatial_hash_query(h, xs.data(), ys.data(), x, y, r, [&](int id, float) { found.push_back(id); });
    for (int i = 0; i < n; ++i)
      if ((xs[i] - x) * (xs[i] - x) + (ys[i] - y) * (ys[i] - y) <= r * r) expected.push_back(i);
    std::sort(found.begin(), found.end());
    CHECK(found == expected);
  }
}

TEST(wrap_pi_is_constant_time_for_any_angle) {
  const float pi = 3.14159265f;
  CHECK(std::fabs(wrap_pi(0.5f) - 0.5f) < 1e-6f);
  CHECK(std::fabs(wrap_pi(0.5f + 8 * pi) - 0.5f) < 1e-4f);
  CHECK(std::fabs(wrap_pi(-0.5f - 6 * pi) + 0.5f) < 1e-4f);
  CHECK(wrap_pi(pi) < pi && wrap_pi(-pi) >= -pi);  // [-pi, pi)
  // Huge angles (a loop subtracting 2 pi never ends on these) wrap at once into range.
  for (float a : {1e30f, -1e30f, 3.4e38f, 1e7f}) CHECK(wrap_pi(a) >= -pi && wrap_pi(a) < pi);
  CHECK(std::isnan(wrap_pi(NAN)) && std::isnan(wrap_pi(INFINITY)));
  CHECK(wrap_pi(1e300) >= -3.15 && wrap_pi(1e300) < 3.15);
}
