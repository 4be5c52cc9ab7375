// Collision detection: tunnelling head-on at 20 m/s, parallel cars 0.5 m apart, an
// overpass, a static obstacle, a plus-shaped crossing, and the hashed pass against all pairs.
#include <cmath>
#include <vector>

#include "common/rng.h"
#include "driving/collision.h"
#include "tests/check.h"

using namespace trackfield;
using namespace trackfield::driving;

namespace {

// Agents as (start pose, end pose, z, length, width) rows, with the arrays detect_collisions reads.
struct Scene {
  std::vector<double> x0, y0, h0, x1, y1, h1;
  std::vector<float> z, length, width;
  std::vector<uint8_t> collided;
  std::vector<int32_t> partner;

  void add(double ax, double ay, double ah, double bx, double by, double bh, float az = 0.0f, float len = 4.5f,
           float wid = 1.8f) {
    x0.push_back(ax), y0.push_back(ay), h0.push_back(ah), x1.push_back(bx), y1.push_back(by), h1.push_back(bh);
    z.push_back(az), length.push_back(len), width.push_back(wid);
  }

  void run() {
    const int n = static_cast<int>(x0.size());
    CollisionScratch scratch;
    collision_scratch_init(scratch, n, -200, -200, 200, 200);
    CollisionInput in;
    in.count = n;
    in.x0 = x0.data(), in.y0 = y0.data(), in.heading0 = h0.data();
    in.x1 = x1.data(), in.y1 = y1.data(), in.heading1 = h1.data();
    in.z = z.data(), in.length = length.data(), in.width = width.data();
    collided.assign(n, 9), partner.assign(n, 9);
    detect_collisions(in, scratch, collided.data(), partner.data());
  }
};

}  // namespace

TEST(driving_collision_head_on_tunnelling) {
  // 20 m/s each for 0.3 s: 6 m per step, the cars swap places without overlapping at either end.
  Scene s;
  s.add(-3.0, 0.0, 0.0, 3.0, 0.0, 0.0);
  s.add(3.0, 0.0, M_PI, -3.0, 0.0, M_PI);
  const Box a0{-3, 0, 0, 2.25, 0.9}, a1{3, 0, 0, 2.25, 0.9}, b0{3, 0, M_PI, 2.25, 0.9}, b1{-3, 0, M_PI, 2.25, 0.9};
  CHECK(!boxes_overlap(a0, b0) && !boxes_overlap(a1, b1));
  CHECK(pair_collides(a0, a1, b0, b1));
  s.run();
  CHECK(s.collided[0] == 1 && s.collided[1] == 1);
  CHECK(s.partner[0] == 1 && s.partner[1] == 0);
}

TEST(driving_collision_parallel_cars_do_not_touch) {
  Scene s;
  s.add(0.0, 0.0, 0.0, 6.0, 0.0, 0.0);
  s.add(0.0, 2.3, 0.0, 6.0, 2.3, 0.0);  // 1.8 m wide: 0.5 m apart
  s.add(-8.0, 0.0, 0.0, -2.0, 0.0, 0.0);  // the car behind, 3.5 m gap
  s.run();
  for (int i = 0; i < 3; ++i) CHECK(s.collided[i] == 0 && s.partner[i] == -1);
}

TEST(driving_collision_overpass) {
  Scene s;
  s.add(0.0, 0.0, 0.0, 6.0, 0.0, 0.0, 0.0f);
  s.add(3.0, -3.0, M_PI / 2, 3.0, 3.0, M_PI / 2, 6.0f);  // crosses above, 6 m higher
  s.run();
  CHECK(s.collided[0] == 0 && s.collided[1] == 0);
  s.z[1] = 1.0f;  // same crossing at (nearly) the same level
  s.run();
  CHECK(s.collided[0] == 1 && s.collided[1] == 1);
}

TEST(driving_collision_static_obstacle_and_plus_crossing) {
  Scene s;
  s.add(0.0, 0.0, 0.0, 18.0, 0.0, 0.0);                       // 60 m/s through...
  s.add(10.0, 0.5, 0.3, 10.0, 0.5, 0.3, 0.0f, 1.0f, 1.0f);    // ...a static 1 m box
  s.add(50.0, 0.0, 0.0, 50.0, 0.0, 0.0, 0.0f, 6.0f, 0.4f);    // a thin static bar
  s.add(50.0, -6.0, M_PI / 2, 50.0, 0.0, M_PI / 2, 0.0f, 6.0f, 0.4f);  // ends as a plus sign over it
  s.run();
  CHECK(s.collided[0] == 1 && s.partner[0] == 1 && s.partner[1] == 0);
  CHECK(s.collided[2] == 1 && s.partner[2] == 3);
}

TEST(driving_collision_hash_matches_all_pairs) {
  Rng rng;
  rng_seed(rng, 11, 0);
  Scene s;
  for (int i = 0; i < 300; ++i) {
    const double x = rng_range(rng, -150, 150), y = rng_range(rng, -150, 150), h = rng_range(rng, -3.1f, 3.1f);
    const double v = rng_range(rng, 0, 20) * 0.3, dh = rng_range(rng, -0.2f, 0.2f);
    s.add(x, y, h, x + v * std::cos(h), y + v * std::sin(h), h + dh, rng_range(rng, 0, 1),
          rng_range(rng, 0.8f, 7.0f), rng_range(rng, 0.8f, 3.0f));
  }
  s.run();
  int hits = 0;
  for (int i = 0; i < 300; ++i) {
    int want = -1;
    for (int j = 0; j < 300 && want < 0; ++j) {
      if (j == i) continue;
      const Box a0{s.x0[i], s.y0[i], s.h0[i], 0.5 * s.length[i], 0.5 * s.width[i]};
      const Box a1{s.x1[i], s.y1[i], s.h1[i], 0.5 * s.length[i], 0.5 * s.width[i]};
      const Box b0{s.x0[j], s.y0[j], s.h0[j], 0.5 * s.length[j], 0.5 * s.width[j]};
      const Box b1{s.x1[j], s.y1[j], s.h1[j], 0.5 * s.length[j], 0.5 * s.width[j]};
      if (pair_collides(a0, a1, b0, b1)) want = j;
    }
    CHECK_EQ(s.partner[i], want);
    CHECK_EQ(static_cast<int>(s.collided[i]), want >= 0 ? 1 : 0);
    hits += want >= 0;
  }
  CHECK(hits > 0);
}
