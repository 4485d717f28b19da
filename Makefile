# Entry points for people and CI. Each target installs what is missing, configures once, and builds
# incrementally, so running it twice rebuilds nothing.
PRESET ?= $(if $(CI),ci,default)
BUILD_DIR := build
JOBS ?= $(shell nproc)
SCENARIO ?= scenarios/default.json
MAKEFLAGS += --no-print-directory

.PHONY: all deps configure build run gui screenshot test sanitize fuzz validate bench readme clean

all: build

deps:
	@.ci/install-deps

$(BUILD_DIR)/CMakeCache.txt: | deps
	cmake --preset $(PRESET)

configure: deps $(BUILD_DIR)/CMakeCache.txt

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/bin/aisim run $(SCENARIO)

gui: build
	$(BUILD_DIR)/bin/aisim-gui $(SCENARIO)

# The README's picture of the GUI, drawn offscreen by the GUI itself.
screenshot: build
	QT_QPA_PLATFORM=offscreen $(BUILD_DIR)/bin/aisim-gui scenarios/failures.json \
	    --what-if /workloads/0/checkpoint/interval=10min --screenshot gui/screenshot.png

test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

# The output blocks of README.md and docs/*.md (each after a `<!-- output: aisim ARGS -->` line) rewritten with
# what the build prints; ctest's readme.examples fails while one differs. Then make the text under a block use its
# numbers.
readme: build
	python3 tests/readme/readme_blocks.py write $(BUILD_DIR)/bin/aisim README.md docs/*.md

# Every test again in a build with AddressSanitizer and UndefinedBehaviorSanitizer (build-sanitize/); a report
# from either fails the test that triggered it, and CI runs this beside `make test`. All but validation.all and the
# validation cases' contract runs (scenario.validation-*), whose published-figure cases run the scenario tests'
# code at full length (8 minutes under ASan; run them there by hand with build-sanitize/bin/aisim validate).
SANITIZER_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:check_initialization_order=1 \
                 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
                 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizer/lsan.supp:print_suppressions=0
sanitize: deps
	@test -f build-sanitize/CMakeCache.txt || cmake --preset sanitize
	@cmake --build build-sanitize -j $(JOBS)
	$(SANITIZER_ENV) ctest --test-dir build-sanitize --output-on-failure -j $(JOBS) -E '^validation\.all$$|^scenario\.validation-'

# Each libFuzzer target (tests/fuzz) for FUZZ_SECONDS, or FUZZ_RUNS executions when given, in build-fuzz/ (clang);
# FUZZ_SEED=N fixes libFuzzer's random seed.
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_SEED ?=
fuzz: deps
	@test -f build-fuzz/CMakeCache.txt || cmake --preset fuzz
	@cmake --build build-fuzz --target aisim_fuzzers -j $(JOBS)
	FUZZ_SEED=$(FUZZ_SEED) tests/fuzz/run-fuzz.sh build-fuzz $(FUZZ_SECONDS) "$(FUZZ_RUNS)"

validate: build
	$(BUILD_DIR)/bin/aisim validate

bench: build
	tests/bench/run-bench.sh $(BUILD_DIR)/bin/aisim $(BUILD_DIR)/bench

clean:
	rm -rf $(BUILD_DIR) build-sanitize build-fuzz results
