// Headless engine benchmark, no Python: steps a football batch with random actions and
// prints one JSON line (the fields trackfield.bench prints). For profiling, e.g.
//   make bench-cpp && perf record build/bench_engine --scenario 11v11 --repr simple115v2
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "football/batch.h"
#include "tests/batch_fixture.h"
#include "tests/football_fixture.h"

using namespace trackfield;
using namespace trackfield::football;

int main(int argc, char** argv) {
  std::string scenario = "3v1", repr = "simple115v2";
  int envs = 64, threads = 1;
  double seconds = 3.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--scenario") scenario = value;
    else if (key == "--repr") repr = value;
    else if (key == "--envs") envs = std::atoi(value.c_str());
    else if (key == "--threads") threads = std::atoi(value.c_str());
    else if (key == "--seconds") seconds = std::atof(value.c_str());
    else {
      std::fprintf(stderr, "unknown argument %s (--scenario 3v1|11v11 --repr simple115v2|smm|pixels|raw "
                           "--envs N --threads T --seconds S)\n", key.c_str());
      return 2;
    }
  }
  const int rep = repr == "smm" ? kSmm : repr == "pixels" ? kPixels : repr == "raw" ? kRaw : kSimple115;
  const EnvConfig cfg = scenario == "11v11" ? eleven_vs_eleven(rep, 1) : three_vs_one(rep, 1);
  testing::BatchFixture<FootballDomain> f(cfg, envs, threads, true);
  f.batch->reset_all(0);
  Rng rng;
  rng_seed(rng, 1, 0);
  long long steps = 0;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    for (int k = 0; k < envs; ++k) f.int_actions()[k] = static_cast<int32_t>(rng_next_u32(rng) % kNumActions);
    f.batch->step();
    steps += envs;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  std::printf("{\"domain\": \"football\", \"scenario\": \"%s\", \"representation\": \"%s\", \"threads\": %d, "
              "\"envs\": %d, \"agents\": 1, \"steps_per_s\": %.0f, \"agent_steps_per_s\": %.0f}\n",
              scenario.c_str(), repr.c_str(), threads, envs, steps / elapsed, steps / elapsed);
  return 0;
}
