#!/usr/bin/env bash
# Build and run every test that can run here.
#   1. build/       RelWithDebInfo, CUDA when nvcc exists: all tests (gpu-labelled ones skip
#                   without a GPU), the consumer (install / find_package / add_subdirectory) tests.
#                   Without a GPU the nvcc builds of tests and examples are compile checks, made
#                   as compute_90 PTX only ($RINGSWEEP_TEST_CUDA_ARCHS overrides; with a GPU:
#                   native); no debug information (-O2 -DNDEBUG);
#                   the spill gate (tests/sort/spill_check.cu) still compiles every kernel of the
#                   public API for sm_75, sm_80 and sm_90.
#   2. build-asan/  ASan + UBSan, no CUDA: the SIMT-backend tests (label simt).
#   3. build-tsan/  race detection (ThreadSanitizer fibers), no CUDA: the tests labelled race
#                   (the sort kernels, and a racy canary that must be reported).
# Extra arguments go to both ctest runs (e.g. -R smoke). Safe to run again on the same tree.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh all  # installs missing Debian packages (Boost.Context, Catch2, ...); no-op otherwise
jobs="${RINGSWEEP_JOBS:-2}"

# A compiler cache (scripts/setup.sh installs ccache) makes a second run on the same machine cheap.
cache=()
if command -v ccache >/dev/null 2>&1; then
  cache=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
# Without a GPU the nvcc test binaries are compile checks: compute_90 PTX only (no ptxas; the spill
# gate still builds sm_75, sm_80 and sm_90 code with ptxas).
archs="${RINGSWEEP_TEST_CUDA_ARCHS:-90-virtual}"
if [[ -z ${RINGSWEEP_TEST_CUDA_ARCHS:-} ]] && command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  archs=native
fi

echo "== build: RelWithDebInfo (CUDA architectures: ${archs}) =="
# Optimised and without debug information (a quarter of the compile time of -g on these sources);
# the sanitizer builds below keep line tables for their reports.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CUDA_ARCHITECTURES=${archs}" \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG" "-DCMAKE_CUDA_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG" "${cache[@]}"
cmake --build build -j "${jobs}"
ctest --test-dir build --output-on-failure -j "${jobs}" "$@"

echo "== build-asan: address + undefined sanitizers, SIMT backend =="
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
  -DRINGSWEEP_SANITIZE=address_undefined -DRINGSWEEP_ENABLE_CUDA=OFF -DRINGSWEEP_BUILD_BENCH=OFF "${cache[@]}"
cmake --build build-asan -j "${jobs}"
ctest --test-dir build-asan --output-on-failure -j "${jobs}" -L simt "$@"

echo "== build-tsan: race detection in shared memory, SIMT backend =="
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
  -DRINGSWEEP_SANITIZE=thread -DRINGSWEEP_ENABLE_CUDA=OFF \
  -DRINGSWEEP_BUILD_EXAMPLES=OFF -DRINGSWEEP_BUILD_BENCH=OFF "${cache[@]}"
cmake --build build-tsan -j "${jobs}" --target race_sort_test_simt simt_race_canary
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure -j "${jobs}" -L race "$@"
