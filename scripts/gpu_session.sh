#!/usr/bin/env bash
# On a machine with a GPU: run the GPU test binaries, the demo and the benchmark against CUB from
# binaries built elsewhere (nvcc needs no GPU), and leave logs and JSON in an output folder.
#
#   scripts/gpu_session.sh stage            # here: build the sm_90 GPU binaries into .gpu/
#   scripts/gpu_session.sh run OUT [FILTER] # there: tests, demo, then benchmarks matching FILTER
#
# `stage` builds build-gpu/ (Release, sm_90 only, no SIMT) and copies the executables, and the
# Google Benchmark shared library they need, into .gpu/ (ignored by git), so that the folder can be
# carried to a lent GPU machine, which has no Catch2 or Google Benchmark of its own.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode="${1:-}"

if [[ "${mode}" == stage ]]; then
  set -e
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DRINGSWEEP_BUILD_SIMT=OFF >/dev/null
  targets=(smoke_gpu key_traits_test_gpu warp_vector_load_test_gpu block_radix_rank_test_gpu decoupled_lookback_test_gpu
           sort_tiny_test_gpu sort_api_test_gpu sort_large_test_gpu concurrency_test_gpu
           bad_input_test_gpu large_n_test_gpu graph_capture_test_gpu ringsweep_demo_gpu ringsweep_sort_bench ringsweep_tune
           example_sort_keys_gpu example_argsort_gpu example_two_phase_gpu example_descending_bits_gpu
           example_thrust_interop_gpu)
  cmake --build build-gpu -j "${RINGSWEEP_JOBS:-2}" --target "${targets[@]}"
  rm -rf .gpu && mkdir -p .gpu/bin .gpu/lib
  for t in "${targets[@]}"; do
    find build-gpu -type f -name "${t}" -perm -u+x -exec cp {} .gpu/bin/ \;
  done
  lib=$(ldd .gpu/bin/ringsweep_sort_bench | awk '/libbenchmark/ {print $3}')
  [[ -n "${lib}" ]] && cp "${lib}" .gpu/lib/
  grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || { mkdir -p .git/info; echo '/.gpu/' >>.git/info/exclude; }
  du -sh .gpu
  exit 0
fi

if [[ "${mode}" != run || $# -lt 2 ]]; then
  echo "usage: $0 stage | run OUT [BENCH_FILTER]" >&2
  exit 2
fi
out="$2"
filter="${3:-}"
mkdir -p "${out}"
export LD_LIBRARY_PATH="${PWD}/.gpu/lib:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "${out}/gpu.txt"

summary=()
if [[ "${RS_SKIP_TESTS:-0}" != 1 ]]; then
  for t in smoke_gpu key_traits_test_gpu warp_vector_load_test_gpu block_radix_rank_test_gpu decoupled_lookback_test_gpu \
           sort_tiny_test_gpu sort_api_test_gpu sort_large_test_gpu concurrency_test_gpu \
           bad_input_test_gpu large_n_test_gpu graph_capture_test_gpu; do
    start=$(date +%s.%N)
    timeout "${RS_TEST_TIMEOUT:-150}" ".gpu/bin/${t}" >"${out}/test_${t}.log" 2>&1
    rc=$?
    secs=$(awk "BEGIN {print $(date +%s.%N) - ${start}}")
    summary+=("$(printf '%-30s rc=%-3s %6.1f s  %s' "${t}" "${rc}" "${secs}" "$(tail -n 2 "${out}/test_${t}.log" | tr '\n' ' ' | cut -c1-90)")")
  done
  # One file back for all the test logs.
  tail -n 30 "${out}"/test_*.log >"${out}/tests.log" 2>&1
  rm -f "${out}"/test_*.log
  timeout 120 .gpu/bin/ringsweep_demo_gpu >>"${out}/tests.log" 2>&1
  summary+=("demo rc=$?: $(tail -n 3 "${out}/tests.log" | tr '\n' ' ' | cut -c1-200)")
  # The examples check their own results; two_phase captures a sort in a CUDA graph and replays it.
  for e in example_sort_keys_gpu example_argsort_gpu example_two_phase_gpu example_descending_bits_gpu \
           example_thrust_interop_gpu; do
    echo "== ${e}" >>"${out}/tests.log"
    timeout 60 ".gpu/bin/${e}" >>"${out}/tests.log" 2>&1
    summary+=("${e} rc=$?")
  done
fi

if [[ -n "${filter}" ]]; then
  timeout "${RS_BENCH_TIMEOUT:-400}" .gpu/bin/ringsweep_sort_bench --benchmark_filter="${filter}" \
    --benchmark_min_time="${RS_MIN_TIME:-0.05}" ${RS_BENCH_ARGS:-} \
    --benchmark_out="${out}/bench.json" --benchmark_out_format=json >"${out}/bench.txt" 2>&1
  summary+=("bench rc=$?")
  grep -E "ringsweep|cub" "${out}/bench.txt" | awk '{print $1, $2, $NF}' | tail -n 60
  # Against the committed baseline (same GPU model: the ringsweep / CUB ratio is comparable).
  baseline=bench/results/gpu/h100_sort_bench.json
  if [[ -f "${baseline}" ]] && command -v python3 >/dev/null; then
    python3 bench/compare.py "${baseline}" "${out}/bench.json" >"${out}/compare.txt" 2>&1
    summary+=("vs ${baseline}: $(tail -n 1 "${out}/compare.txt")")
  fi
fi
printf '%s\n' "${summary[@]}"
