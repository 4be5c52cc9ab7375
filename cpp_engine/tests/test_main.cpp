// Runs every registered C++ test (or those whose name contains argv[1]).
#include <cstdio>
#include <cstring>
#include <exception>

#include "tests/check.h"

int main(int argc, char** argv) {
  int passed = 0, failed = 0;
  for (const auto& t : trackfield::testing::registry()) {
    if (argc > 1 && std::strstr(t.name, argv[1]) == nullptr) continue;
    try {
      t.body();
      ++passed;
      std::printf("ok    %s\n", t.name);
    } catch (const std::exception& e) {
      ++failed;
      std::printf("FAIL  %s\n      %s\n", t.name, e.what());
    }
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}
