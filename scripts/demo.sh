#!/usr/bin/env bash
# Build and run the ringsweep demo: on the GPU when one is present (and nvcc built the GPU demo),
# otherwise on the CPU through the SIMT backend. Build directory: build (Release when it is new;
# an existing build keeps its build type, e.g. the RelWithDebInfo of scripts/test.sh).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs="${RINGSWEEP_JOBS:-2}"

build_type=()
if [[ ! -f build/CMakeCache.txt ]]; then
  build_type=(-DCMAKE_BUILD_TYPE=Release)
fi
cmake -S . -B build -G Ninja "${build_type[@]}" -DRINGSWEEP_BUILD_EXAMPLES=ON >/dev/null

target=ringsweep_demo
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  if ninja -C build -t targets all 2>/dev/null | grep -q '^ringsweep_demo_gpu:'; then
    target=ringsweep_demo_gpu
  else
    echo "demo: a GPU is present but no CUDA compiler was found; running on the SIMT backend"
  fi
fi

cmake --build build -j "${jobs}" --target "${target}"
exec "build/examples/${target}"
