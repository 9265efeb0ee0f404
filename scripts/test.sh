#!/usr/bin/env bash
# Build and run every test that can run here.
#   1. build/       RelWithDebInfo, CUDA when nvcc exists: all tests (gpu-labelled ones skip
#                   without a GPU), the consumer (install / find_package / add_subdirectory) tests.
#   2. build-asan/  ASan + UBSan, no CUDA: the SIMT-backend tests (label simt).
#   3. build-tsan/  race detection (ThreadSanitizer fibers), no CUDA: the tests labelled race
#                   (the sort kernels, and a racy canary that must be reported).
# Extra arguments go to both ctest runs (e.g. -R smoke). Safe to run again on the same tree.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh all  # installs missing Debian packages (Boost.Context, Catch2, ...); no-op otherwise
jobs="${RINGSWEEP_JOBS:-2}"

echo "== build: RelWithDebInfo =="
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "${jobs}"
ctest --test-dir build --output-on-failure -j "${jobs}" "$@"

echo "== build-asan: address + undefined sanitizers, SIMT backend =="
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DRINGSWEEP_SANITIZE=address_undefined -DRINGSWEEP_ENABLE_CUDA=OFF
cmake --build build-asan -j "${jobs}"
ctest --test-dir build-asan --output-on-failure -j "${jobs}" -L simt "$@"

echo "== build-tsan: race detection in shared memory, SIMT backend =="
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DRINGSWEEP_SANITIZE=thread -DRINGSWEEP_ENABLE_CUDA=OFF \
  -DRINGSWEEP_BUILD_EXAMPLES=OFF -DRINGSWEEP_BUILD_BENCH=OFF
cmake --build build-tsan -j "${jobs}" --target race_sort_test_simt simt_race_canary
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure -j "${jobs}" -L race "$@"
