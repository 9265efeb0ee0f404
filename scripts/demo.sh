#!/usr/bin/env bash
# Build and run the ringsweep demo (examples/demo.cu): sorts random keys of each supported type,
# checks every result on the host and prints one table.
#
# On a machine where `nvidia-smi -L` lists a GPU and CMake finds nvcc it builds ringsweep_demo_gpu
# (for this GPU's architecture, or $CUDAARCHS): 2^24 keys per case, also timed with CUB.
# Otherwise it builds ringsweep_demo for the CPU SIMT backend: 2^22 keys per case, a correctness
# demo (30 to 60 s on 2 cores), whose times say nothing about a GPU.
# Build directory: build-demo/ (Release, only the demo target, no tests: quick on a fresh clone).
# Arguments go to the demo, e.g. `scripts/demo.sh --log2 20` for 2^20 keys per case.
# RINGSWEEP_JOBS sets the build parallelism (default 2).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh demo  # installs missing Debian packages (CMake, Ninja, Boost.Context); no-op otherwise
jobs="${RINGSWEEP_JOBS:-2}"
build=build-demo

gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  gpu=1
fi

config=(-G Ninja -DCMAKE_BUILD_TYPE=Release
        -DRINGSWEEP_BUILD_EXAMPLES=ON -DRINGSWEEP_BUILD_TESTS=OFF -DRINGSWEEP_BUILD_BENCH=OFF)
if [[ ${gpu} == 1 ]]; then
  config+=(-DRINGSWEEP_ENABLE_CUDA=ON "-DCMAKE_CUDA_ARCHITECTURES=${CUDAARCHS:-native}")
else
  config+=(-DRINGSWEEP_ENABLE_CUDA=OFF)  # no GPU: no need to find or run nvcc
fi

echo "demo: configuring ${build}/"
mkdir -p "${build}"
if ! cmake -S . -B "${build}" "${config[@]}" >"${build}/configure.log" 2>&1; then
  cat "${build}/configure.log"
  echo "demo: cmake configuration failed (log above: ${build}/configure.log)" >&2
  exit 1
fi

target=ringsweep_demo
if [[ ${gpu} == 1 ]]; then
  if ninja -C "${build}" -t targets all 2>/dev/null | grep -q '^ringsweep_demo_gpu:'; then
    target=ringsweep_demo_gpu
  else
    echo "demo: a GPU is present but CMake found no CUDA compiler; running on the SIMT backend"
  fi
fi

echo "demo: building ${target}"
cmake --build "${build}" -j "${jobs}" --target "${target}"
exec "${build}/examples/${target}" "$@"
