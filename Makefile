# Developer targets. The package itself builds with pip (setup.py); these add the C++
# tests and the sanitizer runs that the issue asks for.
#   make build      pip install -e . (with the dev extras)
#   make test       the Python tests (README's command) and the C++ tests
#   make test-cpp   the C++ tests (cpp_engine/tests), -O2
#   make asan       C++ tests and the Python fuzz/determinism/snapshot tests under
#                   -fsanitize=address,undefined (the Python part needs this tree's venv)
#   make asan-quick the C++ tests under the sanitizers (CI runs this, via tests/test_sanitizers.py)
#   make bench      python -m trackfield.bench
#   make bench-cpp  build/bench_engine: the engine alone, no Python (for profiling)
CXX ?= g++
PYTHON ?= python
BUILD ?= build
ENGINE_SRC := $(shell find cpp_engine -name '*.cpp' -not -path 'cpp_engine/bindings/*' -not -path 'cpp_engine/tests/*' -not -path 'cpp_engine/tools/*')
TEST_SRC := $(wildcard cpp_engine/tests/*.cpp)
HEADERS := $(shell find cpp_engine -name '*.h')
CXXFLAGS_COMMON := -std=c++17 -Wall -Wextra -Icpp_engine -pthread
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1

.PHONY: build test test-cpp asan asan-quick bench bench-cpp clean

build:
	$(PYTHON) -m pip install -e ".[dev]"

$(BUILD)/cpp_tests: $(ENGINE_SRC) $(TEST_SRC) $(HEADERS)
	@mkdir -p $(BUILD)
	$(CXX) $(CXXFLAGS_COMMON) -O2 $(ENGINE_SRC) $(TEST_SRC) -o $@

$(BUILD)/cpp_tests_asan: $(ENGINE_SRC) $(TEST_SRC) $(HEADERS)
	@mkdir -p $(BUILD)
	$(CXX) $(CXXFLAGS_COMMON) $(SANITIZE) $(ENGINE_SRC) $(TEST_SRC) -o $@

test-cpp: $(BUILD)/cpp_tests
	$(BUILD)/cpp_tests

test: test-cpp
	$(PYTHON) -m pytest -q

asan-quick: $(BUILD)/cpp_tests_asan
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 $(BUILD)/cpp_tests_asan

# The extension built with the sanitizers in a copy of the tree, then the Python tests
# that push bad input through the bindings, with the sanitizer runtime preloaded.
asan: asan-quick
	rm -rf $(BUILD)/asan-tree && mkdir -p $(BUILD)/asan-tree/pkg
	cp -r cpp_engine envs scenarios tests setup.py pyproject.toml $(BUILD)/asan-tree/
	cd $(BUILD)/asan-tree && TRACKFIELD_SANITIZE=1 $(PYTHON) setup.py -q build_ext --inplace
	ln -sfn ../envs $(BUILD)/asan-tree/pkg/trackfield && ln -sfn ../scenarios $(BUILD)/asan-tree/envs/scenarios
	cd $(BUILD)/asan-tree && PYTHONPATH=$$PWD/pkg \
	  LD_PRELOAD="$$($(CXX) -print-file-name=libasan.so) $$($(CXX) -print-file-name=libubsan.so)" \
	  ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(PYTHON) -m pytest -q -p no:cacheprovider tests/test_fuzz.py tests/test_snapshot_fuzz.py tests/racing/test_racing_fuzz.py tests/test_determinism.py tests/test_state.py tests/core

bench:
	$(PYTHON) -m trackfield.bench

$(BUILD)/bench_engine: $(ENGINE_SRC) cpp_engine/tools/bench_main.cpp $(HEADERS)
	@mkdir -p $(BUILD)
	$(CXX) $(CXXFLAGS_COMMON) -O3 -g $(ENGINE_SRC) cpp_engine/tools/bench_main.cpp -o $@

bench-cpp: $(BUILD)/bench_engine
	$(BUILD)/bench_engine --scenario 3v1 --repr simple115v2
	$(BUILD)/bench_engine --scenario 11v11 --repr simple115v2
	$(BUILD)/bench_engine --scenario 11v11 --repr smm
	$(BUILD)/bench_engine --scenario 11v11 --repr pixels

clean:
	rm -rf $(BUILD) envs/_engine*.so
