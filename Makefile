# PerfDojo: `make run` and `make check` work on a fresh Debian 12 machine.
# They install missing packages, configure (once), build, then run.

BUILD      ?= build
BUILD_TYPE ?= Release
KERNEL     ?= kernels/bench/softmax.dojo
STRATEGY   ?= heuristic
BUDGET     ?= 120
JOBS       ?= $(shell nproc)

CMAKE_FLAGS = -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld \
  -DCMAKE_MODULE_LINKER_FLAGS=-fuse-ld=lld \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit

.PHONY: all deps configure build run check clean

all: build

deps:
	@./scripts/install-deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The main job: optimize a bundled kernel (softmax at a reduced shape)
# automatically (the x86 expert pass by default; STRATEGY=random searches
# for BUDGET seconds); every candidate is compiled, validated against the
# original and timed. Prints the speedup and writes the best kernel, its
# move script, a report and plots to perfdojo-search-<kernel>/.
run: build
	$(BUILD)/bin/perfdojo-search $(KERNEL) --strategy=$(STRATEGY) \
	  --budget-seconds=$(BUDGET) --cache=$(BUILD)/search-cache

check: build
	./scripts/check.sh $(BUILD)

clean:
	rm -rf $(BUILD)
