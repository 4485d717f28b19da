# Entry points for people and CI. Each target installs what is missing, configures once, and builds
# incrementally, so running it twice rebuilds nothing.
PRESET ?= $(if $(CI),ci,default)
BUILD_DIR := build
JOBS ?= $(shell nproc)
SCENARIO ?= scenarios/default.json
MAKEFLAGS += --no-print-directory

.PHONY: all deps configure build run gui screenshot test validate bench clean

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

validate: build
	$(BUILD_DIR)/bin/aisim validate

bench: build
	tests/bench/run-bench.sh $(BUILD_DIR)/bin/aisim $(BUILD_DIR)/bench

clean:
	rm -rf $(BUILD_DIR) results
