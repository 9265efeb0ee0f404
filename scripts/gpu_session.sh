#!/usr/bin/env bash
# On a machine with a GPU: run the GPU tests, the differential stress test, compute-sanitizer, the
# sort tests built from compute_80 PTX only, and the benchmark against CUB, from binaries built
# elsewhere (nvcc needs no GPU), leaving logs and JSON in an output folder.
#
#   scripts/gpu_session.sh stage               # here: build the GPU binaries into .gpu/
#   scripts/gpu_session.sh plan OUT 1          # there: the plan's call 1 (correctness), under 330 s
#   scripts/gpu_session.sh plan OUT 2          # there: the plan's call 2 (speed), under 330 s
#                                              # (scripts/gpu_plan.sh; the calls: docs/gpu_plan.md;
#                                              # RS_DRY_RUN=1: commands and budgets, nothing run)
#   scripts/gpu_session.sh run OUT [FILTER]    # there: every part below, then benchmarks matching FILTER
#   scripts/gpu_session.sh sanitize OUT        # there: the compute-sanitizer part alone
#   scripts/gpu_session.sh stress OUT          # there: the stress part alone
#   scripts/gpu_session.sh tune OUT            # there: the policy variants, traced runs, ncu
#   scripts/gpu_session.sh speed OUT           # there: issue #22's benchmark table, then the
#                                              # variants twice (runs a and b) at 2^24 and 2^28
#   scripts/gpu_session.sh segmented OUT       # there: issue #25's rows (segmented sorts, argsort)
#   scripts/gpu_session.sh host OUT [LOG2...]  # there: issue #26's rows (sort_*_host) at 2^LOG2 keys
#
# `stage` configures build-gpu/ (Release, sm_90 only, every nvcc program: RINGSWEEP_GPU_PROGRAMS=ON)
# and takes the test list from build-gpu/gpu_tests.tsv, which CMake writes as it registers the
# tests (every test nvcc builds: the library's, the SIMT backend's own simt_*_gpu, the examples,
# large_n_test, graph_capture_test; the stress test runs as its own part), so the list is never
# typed by hand. These nvcc builds are what CI (no GPU) leaves out: there they prove nothing the
# spill gate, tests/abi and smoke_gpu do not. It builds those and the benchmarks (every
# ringsweep_*bench* target, found by name, and ringsweep_tune), then the sort
# tests once more from compute_80 PTX only (build-gpu80/: the driver JIT-compiles it for the GPU
# and the dispatcher must pick policy_sm80), strips them and packs everything into .gpu/
# (ignored by git) with the Google Benchmark shared library where it is the installed one (and Open MPI's runtime when a program
# links libmpi, in .gpu/mpi) and build_info.txt (commit, nvcc, CCCL), to be carried to a GPU
# machine (64 MiB at most with the working tree; stage prints both sizes), which has no Catch2 or
# Google Benchmark of its own.
#
# `run` fits one 10-minute call: the parts run in this order, each within its own budget, and the
# benchmark gets what is left of RS_TOTAL_S (default 570 s):
#   1. GPU tests        one after another, RS_TEST_TIMEOUT s each (default 150)   RS_SKIP_TESTS=1
#   2. stress           RS_STRESS_SECONDS of random sorts vs CUB (default 90)     RS_SKIP_STRESS=1
#   3. sanitizers       memcheck, racecheck, synccheck, initcheck over the sort tests at small
#                       sizes (tiny policies, then the shipped one), RS_SANITIZE_S s per tool
#                       (default 30; rc 124: the budget ended a run, what ran was checked); the
#                       summary counts each tool's reports, which must be 0       RS_SKIP_SANITIZE=1
#   4. compute_80 PTX   the sort tests from .gpu/bin80 with RINGSWEEP_EXPECT_PTX_ARCH=800
#                                                                                 RS_SKIP_PTX80=1
#   5. benchmark        only with FILTER; compared with bench/results/gpu/h100-2026-11-24/run6_final_speed/bench.json
#
# `tune` (a second call) times every ringsweep_tune variant against CUB for every case at
# 2^RS_TUNE_LOGS (default "24 26 28"), RS_TUNE_REPS repetitions (default 5), then the small-sort
# latency cases (dependent launch on and off) at 2^RS_LATENCY_LOGS (default "12 14 16 18 20", 25
# repetitions), then the instrumented
# cases (trace_u32, trace_pairs, trace_u64, trace_retire: per-tile phase medians and 90th
# percentiles; trace_retire the retire before and after 2026-11-28) at the
# largest size, then, when ncu exists, profiles every onesweep launch of one sort per variant and
# CUB's (keys_u32 at 2^24: SpeedOfLight, Occupancy, LaunchStats, WarpStateStats) within
# RS_NCU_S s (default 150). All within RS_TOTAL_S.
#
# `speed` (one call) runs the benchmark rows issue #22 asks for, CUB in the same run: keys u32,
# i32, f32, u64 and pairs u32/u32, u64/u32 at entropy 1.0, the narrow-key and the sorted-input
# rows, n = 2^16, 2^18, ..., 2^28, RS_BENCH_REPS repetitions (default 3), within RS_BENCH_S s
# (default 300); then every tune case at 2^24 and 2^28 twice (runs a and b, RS_TUNE_REPS
# repetitions each, default 7), and bench/tune_summary.py's verdicts over the two runs.
#
# `segmented` (one call) runs the benchmark rows issue #25 asks for, CUB in the same run: every
# segmented/ row (2^24 u32 keys, keys only and with u32 values, in 1, 2^6, 2^12, 2^14, 2^18, 2^20 equal segments
# and power-law sizes; ringsweep against cub::DeviceSegmentedRadixSort and cub::DeviceSegmentedSort)
# and the argsort/ rows at n = 2^16, 2^18, ..., 2^28 (ringsweep::argsort with and without the sorted
# keys against a sequence kernel plus cub::DeviceRadixSort::SortPairs), RS_BENCH_REPS repetitions
# (default 3) within RS_BENCH_S s (default 300); then prints bench/plot.py's summary tables
# (--summary-only, into OUT/summary/) and any row whose output check failed.
#
# `host` (one call per few sizes) runs ringsweep_host_sort_bench (issue #26: host_sort_keys u32 and
# u64, host_sort_pairs u32/u32 through a device budget of 1/8 of the data, pinned and pageable,
# plus the fitting path; std::sort on one thread and on every core; the bus limit from the
# pinned cudaMemcpy bandwidth it measures first) at n = 2^LOG2 (default 26 27 28), one process and
# one JSON (OUT/host_2e<LOG2>_<type>_<keys|pairs>.json) per size and key type, so a timeout loses
# one of them; RS_HOST_REPS repetitions (default 3; std::sort on one thread runs once), each
# process within what is left of RS_TOTAL_S (570 s). A one-core std::sort of 2^30 keys takes
# about two minutes: run `host OUT 29` and `host OUT 30` (RS_HOST_REPS=1) as calls of their own.
# Then bench/plot.py's host table (--summary-only, into OUT/summary/) and any failed check.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode="${1:-}"

# Sort-test binaries also built from compute_80 PTX (each one adds a few MiB to the carry).
ptx80_targets=(smoke_gpu sort_tiny_test_gpu sort_api_test_gpu)

if [[ "${mode}" == stage ]]; then
  set -e
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  # sm_90 machine code only (90-real): the PTX a plain `90` adds would double the carry, and an H100
  # or H200 runs the machine code (the compute_80 PTX builds below test the JIT path). The CUDA
  # runtime as a shared library, carried once: linked statically it is 680 KB in each of some 55
  # programs.
  # Google Benchmark built here in Release, linked statically: the installed Debian library is
  # built without NDEBUG and heads every benchmark log with its DEBUG warning. The source is
  # RS_BENCHMARK_SOURCE (a source tree of it) or else Debian's own source of the installed version
  # (1.7.1, checksum pinned), downloaded once into build-gpu/; without either, the installed library.
  benchmark_source=()
  benchmark_tree=build-gpu/google-benchmark-1.7.1
  benchmark_sha256=6430e4092653380d9dc4ccb45a1e2dc9259d581f4866dc0759713126056bc1d7
  if [[ -z "${RS_BENCHMARK_SOURCE:-}" && ! -f "${benchmark_tree}/CMakeLists.txt" ]] &&
     grep -q "built as DEBUG" /usr/lib/x86_64-linux-gnu/libbenchmark.so* 2>/dev/null; then
    mkdir -p build-gpu
    if curl -sSfL --max-time 60 -o build-gpu/benchmark.orig.tar.gz \
         http://deb.debian.org/debian/pool/main/b/benchmark/benchmark_1.7.1.orig.tar.gz &&
       echo "${benchmark_sha256}  build-gpu/benchmark.orig.tar.gz" | sha256sum -c --quiet -; then
      mkdir -p "${benchmark_tree}"
      tar xzf build-gpu/benchmark.orig.tar.gz -C "${benchmark_tree}" --strip-components=1
    fi
    rm -f build-gpu/benchmark.orig.tar.gz
  fi
  if [[ -n "${RS_BENCHMARK_SOURCE:-}" ]]; then
    benchmark_source=("-DRINGSWEEP_BENCHMARK_SOURCE_DIR=$(cd "${RS_BENCHMARK_SOURCE}" && pwd)")
  elif [[ -f "${benchmark_tree}/CMakeLists.txt" ]]; then
    benchmark_source=("-DRINGSWEEP_BENCHMARK_SOURCE_DIR=$(cd "${benchmark_tree}" && pwd)")
  elif grep -q "built as DEBUG" /usr/lib/x86_64-linux-gnu/libbenchmark.so* 2>/dev/null; then
    echo "stage: the installed Google Benchmark is a DEBUG build (its warning will head every benchmark log);" \
      "RS_BENCHMARK_SOURCE=<a Google Benchmark source tree> builds it in Release" >&2
  fi
  # CUB's DeviceTopK and DeviceBatchedTopK for the top-k benchmark's baselines: the toolkit's CCCL
  # (3.0) has neither; the cuda-cccl wheel (PyPI, 1.2.1: CCCL 3.6) carries the headers. Downloaded
  # once into build-gpu/; without the network the top-k benchmark has no CUB rows, as before.
  cccl_wheel_dir=build-gpu/cuda-cccl-1.2.1
  if [[ ! -d "${cccl_wheel_dir}/cuda/cccl/headers/include/cub" ]]; then
    mkdir -p build-gpu
    if python3 -m pip download --quiet --no-deps --only-binary=:all: --dest build-gpu/wheel cuda-cccl==1.2.1 \
         >/dev/null 2>&1; then
      mkdir -p "${cccl_wheel_dir}"
      python3 -m zipfile -e build-gpu/wheel/cuda_cccl-1.2.1-*.whl "${cccl_wheel_dir}" >/dev/null
    fi
    rm -rf build-gpu/wheel
  fi
  cccl_include=()
  if [[ -d "${cccl_wheel_dir}/cuda/cccl/headers/include/cub" ]]; then
    cccl_include=("-DRINGSWEEP_BENCH_CCCL_INCLUDE_DIR=$(cd "${cccl_wheel_dir}/cuda/cccl/headers/include" && pwd)")
  else
    echo "stage: no cuda-cccl wheel (pip download cuda-cccl==1.2.1 failed): no CUB rows in the top-k benchmark" >&2
  fi
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real \
    -DCMAKE_CUDA_RUNTIME_LIBRARY=Shared -DRINGSWEEP_GPU_PROGRAMS=ON \
    "${benchmark_source[@]}" "${cccl_include[@]}" "${launcher[@]}" >/dev/null
  # name <TAB> executable <TAB> arguments, for every nvcc-built test but the stress test: from the
  # list CMake writes as it registers the tests (name, target, labels, arguments; RingsweepTesting.cmake).
  awk -F'\t' -v OFS='\t' '$3 !~ /(^|,)stress(,|$)/ {print $1, $2, $4}' build-gpu/gpu_tests.tsv >build-gpu/gpu_run.tsv
  mapfile -t test_targets < <(cut -f2 build-gpu/gpu_tests.tsv | sort -u)
  # Every benchmark program nvcc builds (ringsweep_*bench*, not the SIMT builds), found by name so
  # that a new one (top-k, distributed) joins the pack without an edit here, and the tune program.
  mapfile -t bench_targets < <(ninja -C build-gpu -t targets all 2>/dev/null |
    sed -nE 's/^(ringsweep_[A-Za-z0-9_]*bench[A-Za-z0-9_]*): phony$/\1/p' | grep -v '_simt$' | sort -u)
  targets=("${test_targets[@]}" "${bench_targets[@]}" ringsweep_tune)
  echo "stage: ${#test_targets[@]} test programs, benchmarks: ${bench_targets[*]} ringsweep_tune"
  # RS_STAGE_PACK_ONLY=1: pack what build-gpu and build-gpu80 hold, building nothing (to check the
  # packing, or to re-pack after building some targets by hand).
  if [[ "${RS_STAGE_PACK_ONLY:-0}" != 1 ]]; then
    cmake --build build-gpu -j "${RINGSWEEP_JOBS:-2}" --target "${targets[@]}"
    # ringsweep_tune's pipelined variants must compile without spills (ptxas -Werror, sm_80 and sm_90).
    # A variant that spills is reported, not fatal: it is packed and timed like the others, and
    # the ship rule (spill-free only) reads the list from the pack's tune_spills.txt.
    if ! cmake --build build-gpu -j "${RINGSWEEP_JOBS:-2}" --target ringsweep_tune_spill_check_sm80 \
      ringsweep_tune_spill_check_sm90 -- -k 0 >build-gpu/tune_spill_check.log 2>&1; then
      echo "stage: some ringsweep_tune variants spill (not shippable): build-gpu/tune_spill_check.log"
    fi
    grep -E 'spill stores|stack frame' build-gpu/tune_spill_check.log >build-gpu/tune_spills.txt || true
    cmake -S . -B build-gpu80 -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80-virtual \
      -DCMAKE_CUDA_RUNTIME_LIBRARY=Shared \
      -DRINGSWEEP_GPU_PROGRAMS=ON -DRINGSWEEP_BUILD_SIMT=OFF -DRINGSWEEP_BUILD_EXAMPLES=OFF -DRINGSWEEP_BUILD_BENCH=OFF \
      "${launcher[@]}" >/dev/null
    cmake --build build-gpu80 -j "${RINGSWEEP_JOBS:-2}" --target "${ptx80_targets[@]}"
  fi
  rm -rf .gpu && mkdir -p .gpu/pack/bin .gpu/pack/bin80 .gpu/pack/lib
  for t in "${targets[@]}"; do
    find build-gpu -type f -name "${t}" -perm -u+x -exec cp {} .gpu/pack/bin/ \;
  done
  for t in "${ptx80_targets[@]}"; do
    if [[ -d build-gpu80 ]]; then find build-gpu80 -type f -name "${t}" -perm -u+x -exec cp {} .gpu/pack/bin80/ \;; fi
  done
  cp build-gpu/tune_spills.txt .gpu/pack/tune_spills.txt 2>/dev/null || true
  cp build-gpu/gpu_run.tsv .gpu/pack/gpu_run.tsv         # for `run` (name, program, arguments)
  cp build-gpu/gpu_tests.tsv .gpu/pack/gpu_tests.tsv     # for `plan` (name, program, labels, arguments)
  # Shared libraries the GPU machine lacks: Google Benchmark's, the CUDA runtime this build used,
  # and MPI's (below).
  for b in .gpu/pack/bin/* .gpu/pack/bin80/*; do
    [[ -f "${b}" ]] || continue
    ldd "${b}" 2>/dev/null | awk '/libbenchmark|libcudart/ {print $3}' || true
  done | sort -u | while read -r lib; do if [[ -f "${lib}" ]]; then cp -L "${lib}" .gpu/pack/lib/; fi; done
  # A program linked with MPI (the distributed sort) runs there under mpirun, which the GPU
  # machine may lack (docs/gpu_plan.md): carry this machine's Open MPI when it has one, laid out
  # as one relocatable prefix (OPAL_PREFIX=.gpu/mpi; the plan sets it when it uses this copy).
  mpi_lib=$(for b in .gpu/pack/bin/*; do ldd "${b}" 2>/dev/null | awk '/libmpi[._]/ {print $3}' || true; done |
    sort -u | head -n 1) || true
  if [[ -n "${mpi_lib}" ]] && command -v mpirun >/dev/null; then
    scripts/gpu_session.sh stage-mpi .gpu/pack/mpi "${mpi_lib}" || echo "stage: Open MPI not carried (see above)" >&2
  fi
  {
    echo "commit: $(git rev-parse HEAD)$(git diff --quiet HEAD -- include bench tests examples simt 2>/dev/null || echo ' (+ uncommitted changes)')"
    echo "branch: $(git rev-parse --abbrev-ref HEAD)"
    echo "nvcc: $(nvcc --version | grep -E 'release' | sed 's/.*release //')"
    echo "cccl: $(grep -rhE '^#define CCCL_VERSION [0-9]+' "$(dirname "$(command -v nvcc)")/../include" 2>/dev/null | head -n 1 | awk '{print $3}')"
    echo "host compiler: $(c++ --version | head -n 1)"
    echo "staged: $(date -u +%FT%TZ) on $(uname -n)"
  } >.gpu/pack/build_info.txt
  strip .gpu/pack/bin/* .gpu/pack/bin80/* 2>/dev/null || true  # host symbols only; fatbins stay
  du -h -d 1 .gpu/pack | sort -h
  tar -C .gpu/pack -czf .gpu/pack.tar.gz .
  bytes=$(du -sb .gpu/pack.tar.gz | cut -f1)
  if ((bytes > 48 * 1024 * 1024)); then  # xz packs fatbins tighter (a few seconds more to unpack there)
    tar -C .gpu/pack -cf - . | xz -9e -T "${RINGSWEEP_JOBS:-2}" >.gpu/pack.tar.xz && rm -f .gpu/pack.tar.gz
  fi
  echo "largest programs:"
  ls -S -l .gpu/pack/bin | head -n 6 | awk 'NR > 1 {printf "  %6.1f MiB  %s\n", $5 / 1048576, $9}' || true
  rm -rf .gpu/pack
  bytes=$(du -sb .gpu | cut -f1)
  # What travels with it: the tracked files and the untracked ones git does not ignore.
  tree=$( { git ls-files -z; git ls-files -z --others --exclude-standard; } | xargs -0 -r du -cb 2>/dev/null |
    awk '$2 == "total" {t += $1} END {print t + 0}') || true
  echo "stage: .gpu is $((bytes / 1048576)) MiB ($((bytes / 1024)) KiB, $(wc -l <build-gpu/gpu_tests.tsv) tests listed)," \
    "the working tree $((tree / 1048576)) MiB: $(((bytes + tree) / 1048576)) of the 64 MiB that go to the GPU machine"
  if ((bytes + tree > 62 * 1024 * 1024)); then
    echo "gpu_session: .gpu and the working tree are $((bytes + tree)) bytes, over what goes to the GPU machine (64 MiB)" >&2
    exit 1
  fi
  exit 0
fi

# stage-mpi DIR LIBMPI (called by stage): the Open MPI runtime this machine runs (Debian/Ubuntu
# packages: the one holding LIBMPI, openmpi-bin, openmpi-common, PMIx), every file at its own path
# under DIR (DIR/usr/bin/orterun, ...), plus every library they load but the C runtime's, so that
# OPAL_PREFIX=DIR/usr relocates it on a machine without MPI (gpu_plan.sh's find_mpi sets it).
if [[ "${mode}" == stage-mpi ]]; then
  set -e
  dir="$2"
  mkdir -p "${dir}"
  own=$(dpkg -S "$(readlink -f "$3")" 2>/dev/null | cut -d: -f1 | head -n 1)
  for p in ${own} openmpi-bin openmpi-common libopenmpi3 libopenmpi3t64 libpmix2 libpmix2t64; do
    dpkg -L "${p}" 2>/dev/null || true
  done | sort -u | grep -vE '^/usr/share/(doc|man|lintian)/|^/usr/lib/x86_64-linux-gnu/openmpi/include' |
    while read -r f; do
      if [[ -L "${f}" || -f "${f}" ]]; then cp --parents -P "${f}" "${dir}/"; fi
    done
  if [[ -e "${dir}/usr/bin/orterun" ]]; then ln -sf orterun "${dir}/usr/bin/mpirun"; fi
  libs="${dir}/usr/lib/x86_64-linux-gnu"
  mkdir -p "${libs}"
  find "${dir}" -type f -print0 | xargs -0 file -L 2>/dev/null | awk -F: '/ELF/ {print $1}' | xargs -r ldd 2>/dev/null |
    awk '$3 ~ /^\// {print $3}' | sort -u |
    grep -vE '/(libc|libm|libdl|librt|libpthread|libgcc_s|libstdc\+\+|libcuda|ld-linux[^/]*)\.so' |
    while read -r lib; do
      if [[ ! -e "${dir}${lib}" && ! -e "${libs}/$(basename "${lib}")" ]]; then cp -L "${lib}" "${libs}/"; fi
    done
  du -sh "${dir}"
  exit 0
fi

if [[ "${mode}" == plan ]]; then
  shift
  exec scripts/gpu_plan.sh "$@"
fi

if [[ "${mode}" != run && "${mode}" != sanitize && "${mode}" != stress && "${mode}" != tune && "${mode}" != speed &&
  "${mode}" != segmented && "${mode}" != host ]] || [[ $# -lt 2 ]]; then
  echo "usage: $0 stage | plan OUT 1|2 | run OUT [BENCH_FILTER] | sanitize OUT | stress OUT | tune OUT | speed OUT | segmented OUT" \
    "| host OUT [LOG2...]" >&2
  exit 2
fi
out="$2"
filter="${3:-}"
mkdir -p "${out}"
t0=$(date +%s)
if [[ -f .gpu/pack.tar.gz && ! -d .gpu/bin ]]; then
  tar -C .gpu -xzf .gpu/pack.tar.gz
elif [[ -f .gpu/pack.tar.xz && ! -d .gpu/bin ]]; then
  tar -C .gpu -xJf .gpu/pack.tar.xz 2>/dev/null ||
    python3 -c "import tarfile; tarfile.open('.gpu/pack.tar.xz').extractall('.gpu')"  # no xz program there
fi
export LD_LIBRARY_PATH="${PWD}/.gpu/lib:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "${out}/gpu.txt"

summary=()
# timed NAME LOG TIMEOUT CMD...: runs CMD with a timeout, appends its output to LOG, adds a line.
timed() {
  local name="$1" log="$2" limit="$3"
  shift 3
  local start rc secs
  start=$(date +%s.%N)
  echo "== ${name}: $*" >>"${log}"
  timeout "${limit}" "$@" >>"${log}" 2>&1
  rc=$?
  secs=$(awk "BEGIN {print $(date +%s.%N) - ${start}}")
  summary+=("$(printf '%-34s rc=%-3s %6.1f s  %s' "${name}" "${rc}" "${secs}" "$(tail -n 2 "${log}" | tr '\n' ' ' | cut -c1-90)")")
  return ${rc}
}

run_tests() {
  local name exe args
  while IFS=$'\t' read -r name exe args; do
    # shellcheck disable=SC2086  # the arguments are ctest's, split as ctest would
    timed "${name}" "${out}/tests.log" "${RS_TEST_TIMEOUT:-150}" ".gpu/bin/${exe}" ${args}
  done <.gpu/gpu_run.tsv
}

run_stress() {
  local secs="${RS_STRESS_SECONDS:-90}"
  RINGSWEEP_STRESS_SECONDS="${secs}" timed stress "${out}/stress.log" "$((secs + 60))" .gpu/bin/stress_test_gpu
  grep -E "^stress:|FAILED" "${out}/stress.log" | head -n 12
}

# Sanitizer reports are lines "========= <Message>" (details are indented further).
sanitizer_reports() {
  grep -E '^========= [A-Z]' "$1" | grep -vcE 'COMPUTE-SANITIZER|ERROR SUMMARY|RACECHECK SUMMARY|Saved host backtrace|Target application'
}

run_sanitize() {
  local budget="${RS_SANITIZE_S:-30}" tool log reports
  # Small sizes: the tiny test policies (tiles of 128 to 384 keys), then the shipped policy's
  # public-API tests (up to 50,000 keys); each tool gets the budget, split between the two.
  for tool in memcheck racecheck synccheck initcheck; do
    log="${out}/sanitize_${tool}.log"
    : >"${log}"
    timed "sanitize ${tool} (tiny)" "${log}" "$((budget / 2))" compute-sanitizer --tool "${tool}" \
      --error-exitcode 99 .gpu/bin/sort_tiny_test_gpu "[tiny]"
    timed "sanitize ${tool} (api)" "${log}" "$((budget / 2))" compute-sanitizer --tool "${tool}" \
      --error-exitcode 99 .gpu/bin/sort_api_test_gpu "[api]"
    reports=$(sanitizer_reports "${log}")
    summary+=("sanitize ${tool}: ${reports} reports")
    grep -E '^========= [A-Z]' "${log}" | head -n 5
  done
}

run_ptx80() {
  local t
  for t in "${ptx80_targets[@]}"; do
    RINGSWEEP_EXPECT_PTX_ARCH=800 timed "compute_80 ${t}" "${out}/ptx80.log" "${RS_TEST_TIMEOUT:-150}" ".gpu/bin80/${t}"
  done
}

run_tune() {
  local lg left cases="keys_u32,keys_i32,keys_f32,pairs_u32,lowent_u32,keys_u64,pairs_u64,keys_u16,keys_u8"
  local logs="${RS_TUNE_LOGS:-24 26 28}" last
  for lg in ${logs}; do
    left=$(( ${RS_TOTAL_S:-570} - ($(date +%s) - t0) - ${RS_NCU_S:-150} ))
    if ((left < 20)); then summary+=("tune 2^${lg} skipped: no time left"); continue; fi
    timed "tune 2^${lg}" "${out}/tune_2e${lg}.txt" "${left}" .gpu/bin/ringsweep_tune "${lg}" "${RS_TUNE_REPS:-5}" "${cases}"
    last="${lg}"
  done
  # Small sorts: programmatic dependent launch on and off (launch latency is much of their time).
  for lg in ${RS_LATENCY_LOGS:-12 14 16 18 20}; do
    left=$(( ${RS_TOTAL_S:-570} - ($(date +%s) - t0) - ${RS_NCU_S:-150} ))
    if ((left < 20)); then summary+=("latency 2^${lg} skipped: no time left"); continue; fi
    timed "latency 2^${lg}" "${out}/tune_latency_2e${lg}.txt" "${left}" .gpu/bin/ringsweep_tune "${lg}" 25 \
      latency_u32,latency_pairs,latency_u64
  done
  left=$(( ${RS_TOTAL_S:-570} - ($(date +%s) - t0) - ${RS_NCU_S:-150} ))
  if ((left >= 20)); then
    timed "tune trace 2^${last:-26}" "${out}/tune_trace.txt" "${left}" .gpu/bin/ringsweep_tune "${last:-26}" 3 \
      trace_u32,trace_pairs,trace_u64,trace_retire
  fi
  if command -v ncu >/dev/null 2>&1; then
    left=$(( ${RS_TOTAL_S:-570} - ($(date +%s) - t0) ))
    timed "ncu onesweep launches" "${out}/ncu.txt" "$((left > 10 ? left : 10))" ncu \
      --kernel-name regex:'onesweep_kernel|Onesweep' --launch-count 400 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
      .gpu/bin/ringsweep_tune 24 1 keys_u32
  else
    summary+=("ncu: not found")
  fi
}

# Issue #22's table: the sizes 2^16, 2^18, ..., 2^28 of the main, narrow and sorted rows.
speed_filter='^((keys/(u32|i32|f32|u64)|pairs/(u32|u64))/entropy:1\.000|narrow/[^/]+/[^/]+|sorted/[^/]+/[^/]+)/n:(65536|262144|1048576|4194304|16777216|67108864|268435456)/'

run_speed() {
  local lg run cases="keys_u32,keys_i32,keys_f32,pairs_u32,lowent_u32,keys_u64,pairs_u64,keys_u16,keys_u8"
  timed "bench (issue #22 rows)" "${out}/bench.txt" "${RS_BENCH_S:-300}" .gpu/bin/ringsweep_sort_bench \
    --benchmark_filter="${speed_filter}" --benchmark_min_time="${RS_MIN_TIME:-0.05}" \
    --benchmark_repetitions="${RS_BENCH_REPS:-3}" --benchmark_out="${out}/bench.json" --benchmark_out_format=json
  for run in a b; do
    for lg in 24 28; do
      timed "tune ${run} 2^${lg}" "${out}/tune_${run}_2e${lg}.txt" 120 .gpu/bin/ringsweep_tune "${lg}" \
        "${RS_TUNE_REPS:-7}" "${cases}"
    done
  done
  python3 bench/tune_summary.py "${out}"/tune_a_2e24.txt "${out}"/tune_b_2e24.txt >"${out}/tune_verdicts_2e24.txt" 2>&1
  python3 bench/tune_summary.py "${out}"/tune_a_2e28.txt "${out}"/tune_b_2e28.txt >"${out}/tune_verdicts_2e28.txt" 2>&1
  tail -n 12 "${out}/tune_verdicts_2e24.txt" "${out}/tune_verdicts_2e28.txt"
}

# Issue #25's rows: every segmented row (n = 2^24 only), argsort at 2^16, 2^18, ..., 2^28.
# (Google Benchmark matches the filter against the whole name, '/manual_time' included.)
segmented_filter='^(segmented/|argsort/[^/]+/[^/]+/n:(65536|262144|1048576|4194304|16777216|67108864|268435456)/)'

run_segmented() {
  timed "bench (issue #25 rows)" "${out}/bench.txt" "${RS_BENCH_S:-300}" .gpu/bin/ringsweep_sort_bench \
    --benchmark_filter="${segmented_filter}" --benchmark_min_time="${RS_MIN_TIME:-0.05}" \
    --benchmark_repetitions="${RS_BENCH_REPS:-3}" --benchmark_out="${out}/bench.json" --benchmark_out_format=json
  # A row whose warm-up output failed its check is skipped with the reason (no timing).
  grep -E "ERROR OCCURRED|skipping" "${out}/bench.txt" | head -n 20
  if [[ -s "${out}/bench.json" ]]; then
    python3 bench/plot.py "${out}/bench.json" --summary-only --out "${out}/summary" >/dev/null 2>&1 &&
      cat "${out}/summary/summary.md"
  fi
}

# Issue #26's rows: per size and key type one process and one JSON (see the top of this file).
run_host() {
  local lg sort left logs="${*:-26 27 28}"
  for lg in ${logs}; do
    for sort in u32/keys u64/keys u32/pairs; do
      left=$(( ${RS_TOTAL_S:-570} - ($(date +%s) - t0) ))
      if ((left < 30)); then
        summary+=("host ${sort} 2^${lg} skipped: ${left} s left of RS_TOTAL_S")
        continue
      fi
      timed "host ${sort} 2^${lg}" "${out}/host.txt" "${left}" .gpu/bin/ringsweep_host_sort_bench \
        --rs_min_log2="${lg}" --rs_max_log2="${lg}" --benchmark_filter="^host/${sort}/" \
        --benchmark_min_time="${RS_MIN_TIME:-0.05}" --benchmark_repetitions="${RS_HOST_REPS:-3}" \
        --benchmark_out="${out}/host_2e${lg}_${sort/\//_}.json" --benchmark_out_format=json ||
        mv -f "${out}/host_2e${lg}_${sort/\//_}.json" "${out}/host_2e${lg}_${sort/\//_}.json.partial" 2>/dev/null
    done
  done
  # The measured bandwidths, skipped sizes, and any row whose check failed (no timing).
  grep -E "GB/s|skipping|ERROR OCCURRED" "${out}/host.txt" | sort -u | head -n 20
  if compgen -G "${out}/host_2e*.json" >/dev/null; then
    python3 bench/plot.py "${out}"/host_2e*.json --summary-only --out "${out}/summary" >/dev/null 2>&1 &&
      cat "${out}/summary/summary.md"
  fi
}

case "${mode}" in
  host) run_host "${@:3}" ;;
  tune) run_tune ;;
  segmented) run_segmented ;;
  speed) run_speed ;;
  sanitize) run_sanitize ;;
  stress) run_stress ;;
  run)
    [[ "${RS_SKIP_TESTS:-0}" == 1 ]] || run_tests
    [[ "${RS_SKIP_STRESS:-0}" == 1 ]] || run_stress
    [[ "${RS_SKIP_SANITIZE:-0}" == 1 ]] || run_sanitize
    [[ "${RS_SKIP_PTX80:-0}" == 1 ]] || run_ptx80
    ;;
esac
# One file back for the test logs: the tail of each run.
[[ -f "${out}/tests.log" ]] && { tail -c 200000 "${out}/tests.log" >"${out}/tests.tail"; mv "${out}/tests.tail" "${out}/tests.log"; }

if [[ "${mode}" == run && -n "${filter}" ]]; then
  left=$(( ${RS_TOTAL_S:-570} - ($(date +%s) - t0) ))
  bench_limit="${RS_BENCH_TIMEOUT:-${left}}"
  if ((bench_limit < 30)); then
    summary+=("bench skipped: ${left} s left of RS_TOTAL_S")
  else
    timeout "${bench_limit}" .gpu/bin/ringsweep_sort_bench --benchmark_filter="${filter}" \
      --benchmark_min_time="${RS_MIN_TIME:-0.05}" ${RS_BENCH_ARGS:-} \
      --benchmark_out="${out}/bench.json" --benchmark_out_format=json >"${out}/bench.txt" 2>&1
    summary+=("bench rc=$? (limit ${bench_limit} s)")
    grep -E "ringsweep|cub" "${out}/bench.txt" | awk '{print $1, $2, $NF}' | tail -n 60
    # Against the committed baseline (same GPU model: the ringsweep / CUB ratio is comparable).
    baseline=bench/results/gpu/h100-2026-11-24/run6_final_speed/bench.json
    if [[ -f "${baseline}" ]] && command -v python3 >/dev/null; then
      python3 bench/compare.py "${baseline}" "${out}/bench.json" >"${out}/compare.txt" 2>&1
      summary+=("vs ${baseline}: $(tail -n 1 "${out}/compare.txt")")
    fi
  fi
fi
printf '%s\n' "${summary[@]}" | tee "${out}/summary.txt"
