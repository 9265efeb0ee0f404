#!/usr/bin/env bash
# Build and run every test that can run here, each test binary built once per backend.
#   1. build/       every test. The SIMT-backend tests, examples and report tools are built once,
#                   with AddressSanitizer and UndefinedBehaviorSanitizer (-Og -g1), and run under
#                   them with every seed and worker count; the compile-fail, consumer (install,
#                   add_subdirectory, FetchContent, find_package), abi and report tests run too.
#                   nvcc, when it exists: with a GPU (nvidia-smi lists one) every nvcc test and
#                   example is built for it and run; without one they would only be compile
#                   checks, so only those that prove something are built (RINGSWEEP_GPU_PROGRAMS=OFF):
#                   the spill gate (tests/spill/spill_check.cu: every kernel of the public API for
#                   sm_75, sm_80 and sm_90, no spills), the abi units and their symbol test, and
#                   smoke_gpu (the nvcc test main and helpers), as compute_90 PTX
#                   ($RINGSWEEP_TEST_CUDA_ARCHS overrides). scripts/gpu_session.sh stage builds the rest.
#   2. build-tsan/  race detection (ThreadSanitizer fibers), no CUDA: the tests labelled race
#                   (the sort kernels, and a racy canary that must be reported). Built at a lower
#                   priority beside build/'s tests, which leave about a third of the cores idle (a
#                   launch of one block keeps one worker busy; the fault injection sleeps); run
#                   after them.
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
archs="${RINGSWEEP_TEST_CUDA_ARCHS:-90-virtual}"
gpu_programs=OFF
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  gpu_programs=ON
  [[ -n ${RINGSWEEP_TEST_CUDA_ARCHS:-} ]] || archs=native
fi
timer() { echo "== ${1}: $(($(date +%s) - t0)) s"; }

t0=$(date +%s)
echo "== build: ASan + UBSan for the SIMT backend; nvcc: ${archs}, every program: ${gpu_programs} =="
# -Og, line tables only (full debug information would double the compile time). -Og, not -O2: the
# sanitized sort tests compile in about half of -O2's time (sort_variants_test: 141 s of CPU instead
# of 288 s) and run in the same CPU time; ASan and UBSan check every access and operation left after
# optimisation at either level. RINGSWEEP_SIMT_FORCEINLINE=inline: the library's __forceinline__
# functions are left to the compiler instead of inlined into every caller, each copy instrumented
# again (a third of sort_variants_test's compile time; its run takes the same CPU time, some other
# tests' runs took longer in the measured CI run). docs/testing.md, "CI time".
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-Og -g1 -DNDEBUG -DRINGSWEEP_SIMT_FORCEINLINE=inline" \
  "-DCMAKE_CUDA_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG" "-DCMAKE_CUDA_ARCHITECTURES=${archs}" \
  -DRINGSWEEP_SANITIZE=address_undefined "-DRINGSWEEP_GPU_PROGRAMS=${gpu_programs}" "${cache[@]}"
cmake --build build -j "${jobs}"
timer "build/ built"

# The race stage's build, in the background at nice 10: it takes the cores build/'s tests leave
# idle. Its tests run afterwards at normal priority (their watchdogs time spin-waits).
tsan_log=build/tsan-build.log
(
  set -e
  renice -n 10 -p "${BASHPID}" > /dev/null || true  # before any child: they inherit it
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
    -DRINGSWEEP_SANITIZE=thread -DRINGSWEEP_ENABLE_CUDA=OFF \
    -DRINGSWEEP_BUILD_EXAMPLES=OFF -DRINGSWEEP_BUILD_BENCH=OFF "${cache[@]}"
  cmake --build build-tsan -j "${jobs}" --target race_sort_test_simt simt_race_canary
) > "${tsan_log}" 2>&1 < /dev/null &
tsan_pid=$!

# One test more than cores: two at a time kept 1.8 of the 2 cores busy (host-side reference
# sorts, launches of one block, the fault injection's sleeps); 3 at a time took 217 s where 2
# took 235 (every build/ test, warm caches, idle 2-core machine, 2026-11-29).
test_jobs="${RINGSWEEP_TEST_JOBS:-$((jobs + 1))}"
status=0
ctest --test-dir build --output-on-failure -j "${test_jobs}" "$@" || status=$?
timer "build/ tested"
tsan_status=0
wait "${tsan_pid}" || tsan_status=$?
echo "== build-tsan: race detection in shared memory, SIMT backend (built beside the tests above) =="
cat "${tsan_log}"
if [[ ${status} -ne 0 ]]; then
  echo "== build/: tests failed" >&2
  exit "${status}"
fi
if [[ ${tsan_status} -ne 0 ]]; then
  echo "== build-tsan/: the build failed" >&2
  exit "${tsan_status}"
fi
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure -j "${jobs}" -L race "$@"
timer "build-tsan/ tested"
