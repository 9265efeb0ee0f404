#!/usr/bin/env bash
# Build and run every test that can run here.
#   1. build/       RelWithDebInfo, CUDA when nvcc exists: all tests (gpu-labelled ones skip
#                   without a GPU), the consumer (install / find_package / add_subdirectory) tests.
#   2. build-asan/  ASan + UBSan, no CUDA: the SIMT-backend tests (label simt).
# Extra arguments go to both ctest runs (e.g. -R smoke). Safe to run again on the same tree.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
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
