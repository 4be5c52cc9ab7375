// A minimal test framework for the engine's C++ tests: TEST(name) { CHECK(...); }.
// test_main.cpp runs every registered test and ends with "N passed, M failed".
#ifndef TRACKFIELD_TESTS_CHECK_H
#define TRACKFIELD_TESTS_CHECK_H

#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace trackfield::testing {

struct TestCase {
  const char* name;
  std::function<void()> body;
};

inline std::vector<TestCase>& registry() {
  static std::vector<TestCase> tests;
  return tests;
}

struct Registrar {
  Registrar(const char* name, std::function<void()> body) { registry().push_back({name, std::move(body)}); }
};

struct CheckFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void fail(const char* file, int line, const std::string& what) {
  std::ostringstream out;
  out << file << ":" << line << ": " << what;
  throw CheckFailure(out.str());
}

}  // namespace trackfield::testing

#define TF_CONCAT2(a, b) a##b
#define TF_CONCAT(a, b) TF_CONCAT2(a, b)
#define TEST(name)                                                                          \
  static void name();                                                                       \
  static ::trackfield::testing::Registrar TF_CONCAT(registrar_, name)(#name, &name);       \
  static void name()

#define CHECK(cond) \
  do { if (!(cond)) ::trackfield::testing::fail(__FILE__, __LINE__, "CHECK(" #cond ") failed"); } while (0)

#define CHECK_EQ(a, b)                                                                      \
  do {                                                                                      \
    const auto& va_ = (a);                                                                  \
    const auto& vb_ = (b);                                                                  \
    if (!(va_ == vb_)) {                                                                    \
      std::ostringstream msg_;                                                              \
      msg_ << "CHECK_EQ(" #a ", " #b ") failed: " << va_ << " != " << vb_;                  \
      ::trackfield::testing::fail(__FILE__, __LINE__, msg_.str());                          \
    }                                                                                       \
  } while (0)

// The expression must throw std::exception whose message contains `fragment`.
#define CHECK_THROWS(expr, fragment)                                                        \
  do {                                                                                      \
    bool thrown_ = false;                                                                   \
    try { expr; } catch (const std::exception& e_) {                                        \
      thrown_ = true;                                                                       \
      if (std::string(e_.what()).find(fragment) == std::string::npos)                       \
        ::trackfield::testing::fail(__FILE__, __LINE__,                                     \
                                    std::string("wrong message: ") + e_.what());            \
    }                                                                                       \
    if (!thrown_) ::trackfield::testing::fail(__FILE__, __LINE__, "no exception from " #expr); \
  } while (0)

#endif
