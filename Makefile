# remat: the README's two commands are `make run` and `make test`.
# Both install the Debian packages they need when missing (as root), then build.
LLVM    ?= /usr/lib/llvm-22
BUILD   ?= build
ASAN    ?= build-asan
FUZZ    ?= build-fuzz
FUZZ_SECONDS ?= 60
PREFIX  ?= /usr/local
JOBS    ?= $(shell nproc)
PACKAGES = llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22 cmake g++ python3 \
           pkg-config graphviz openmpi-bin libopenmpi-dev

.PHONY: all deps deps-torch deps-fuzz build build-asan build-fuzz fuzz run test install clean \
        pictures contracts

all: build

# apt-get only when something is missing; `apt-get update` first: fresh machines have
# empty package lists. OpenMPI (mpirun, mpi.h) is for remat-run's real ranks (test/mpi);
# lld links (CMakeLists.txt: the static tools).
deps:
	@if [ ! -e $(LLVM)/lib/libMLIRCAPIIR.a ] || [ ! -x $(LLVM)/bin/mlir-opt ] || \
	    [ ! -x $(LLVM)/bin/FileCheck ] || [ ! -x $(LLVM)/bin/lit ] || \
	    { [ ! -x $(LLVM)/bin/ld.lld ] && ! command -v ld.lld >/dev/null; } || \
	    ! command -v cmake >/dev/null || ! command -v g++ >/dev/null || \
	    ! command -v python3 >/dev/null || ! command -v pkg-config >/dev/null || \
	    ! command -v dot >/dev/null || \
	    ! command -v mpirun >/dev/null || ! pkg-config --exists ompi-c; then \
	  echo "installing: $(PACKAGES)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PACKAGES); \
	fi

# The PyTorch importer's tests (test/import, test/torch) need Debian's torch, networkx
# (torch's min-cut partitioner imports it) and torchvision (the vision models of
# vision.test). The lock timeout lets two installs wait for each other.
TORCH_PACKAGES = python3-torch python3-networkx python3-numpy python3-torchvision
deps-torch:
	@if ! /usr/bin/python3 -c 'import torch, networkx, numpy, torchvision' >/dev/null 2>&1; then \
	  echo "installing: $(TORCH_PACKAGES)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    -o DPkg::Lock::Timeout=600 $(TORCH_PACKAGES); \
	fi

# The fuzz harnesses (test/fuzz) need Debian's clang-22 and its libFuzzer runtime.
FUZZ_PACKAGES = clang-22 libclang-rt-22-dev
FUZZER_LIB = $(LLVM)/lib/clang/22/lib/linux/libclang_rt.fuzzer-$(shell uname -m).a
deps-fuzz:
	@if ! command -v clang-22 >/dev/null || ! command -v clang++-22 >/dev/null || \
	    [ ! -e $(FUZZER_LIB) ]; then \
	  echo "installing: $(FUZZ_PACKAGES)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    -o DPkg::Lock::Timeout=600 $(FUZZ_PACKAGES); \
	fi

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLLVM_ROOT=$(LLVM) \
	  -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null

$(ASAN)/CMakeCache.txt: | deps
	cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DREMAT_SANITIZE=ON -DLLVM_ROOT=$(LLVM) >/dev/null

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

build-asan: deps $(ASAN)/CMakeCache.txt
	cmake --build $(ASAN) -j $(JOBS)

# remat instrumented for libFuzzer (and ASan, UBSan) with clang; only the harnesses and
# what they link are built.
$(FUZZ)/CMakeCache.txt: | deps deps-fuzz
	cmake -S . -B $(FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREMAT_FUZZ=ON \
	  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 -DLLVM_ROOT=$(LLVM) >/dev/null

build-fuzz: deps deps-fuzz $(FUZZ)/CMakeCache.txt
	cmake --build $(FUZZ) -j $(JOBS) --target fuzz_ir fuzz_inputs fuzz_options fuzz_pipeline

# Each harness for FUZZ_SECONDS, one after another, corpora kept in $(FUZZ)/fuzz-runs/.
fuzz: build-fuzz
	@for h in fuzz_ir fuzz_inputs fuzz_options fuzz_pipeline; do \
	  echo "== $$h for $(FUZZ_SECONDS) s"; \
	  nice -n 10 sh test/fuzz/run.sh $(FUZZ) $$h $(FUZZ_SECONDS) $(FUZZ)/fuzz-runs/$$h || exit 1; \
	done

# The main job on the bundled example: split the dropout joint function, report bytes.
# The build's ~100 lines go to $(BUILD)/build.log, so the result is what shows; on a
# failure, the log's end and where the rest is.
run: deps $(BUILD)/CMakeCache.txt
	@echo "make run: building into $(BUILD)/ (log: $(BUILD)/build.log)"
	@cmake --build $(BUILD) -j $(JOBS) > $(BUILD)/build.log 2>&1 || \
	  { tail -n 40 $(BUILD)/build.log; \
	    echo "make run: the build failed; the whole log is $(BUILD)/build.log"; exit 1; }
	$(BUILD)/bin/remat-opt --remat-mincut --remat-report examples/dropout.mlir

# Every test: lit (IR tests and C unit tests) on the normal and the sanitizer build, and
# a bounded run of each fuzz harness (test/fuzz, 60 s in all).
test: build build-asan build-fuzz deps-torch
	python3 test/run_tests.py $(BUILD) $(ASAN) --fuzz $(FUZZ)

# The README's pictures (docs/pictures/): min-cut splits drawn by --remat-dot (rendered by
# Graphviz) and --remat-timeline.
pictures: build
	docs/pictures/render.sh $(BUILD)

# docs/design.md's pass contracts, from each pass's `contract` (remat-opt --help).
contracts: build
	python3 docs/contracts.py $(BUILD)

# Headers, libremat.so, the mlir-opt plugin, tools, rt.irdl.mlir, the CMake package
# (lib/cmake/remat) and lib/pkgconfig/remat.pc under PREFIX; relocatable.
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZ)
