#!/usr/bin/env bash
# The prepared plan for a machine with a GPU: two calls of at most 330 s each over the pack that
# `scripts/gpu_session.sh stage` built (.gpu/, carried). Run it through gpu_session.sh:
#
#   scripts/gpu_session.sh plan OUT 1      # call 1: correctness (a failure here is fixed first)
#   scripts/gpu_session.sh plan OUT 2      # call 2: speed
#   RS_DRY_RUN=1 scripts/gpu_session.sh plan OUT 1    # anywhere: every command with its budget, nothing run
#
# The exact device-tool calls and what to do with the results: docs/gpu_plan.md.
#
# Call 1, in the issue's order, each part within its budget (seconds; environment overrides):
#   tests     RS_P1_TESTS_S=80     every program of .gpu/gpu_tests.tsv (CMake's list of nvcc tests,
#                                  new ones included) but the stress test, RS_TEST_TIMEOUT=25 each;
#                                  a test labelled `mpi` runs under mpirun with RS_MPI_RANKS=2 ranks
#   stress    RS_P1_STRESS_S=60    stress_test_gpu: plain sorts (device, tiny and the tune pipelined
#                                  policy) vs cub::DeviceRadixSort, segmented vs
#                                  cub::DeviceSegmentedRadixSort, argsort vs CUB's pairs sort of
#                                  0..n-1, host-resident sorts vs std::stable_sort through a device
#                                  budget of 1/8 to 1/64 of the data
#   sanitize  RS_P1_SANITIZE_S=110 memcheck, racecheck, synccheck, initcheck (shares 22/38/18/22 %)
#                                  over the plain (tiny, api), segmented, pipelined (tiny test policy;
#                                  the tune policy through the stress test's pipelined kind),
#                                  host-resident paths, and top_k / device-count tests when built
#   ptx80     RS_P1_PTX80_S=35     the sort tests built from compute_80 PTX (.gpu/bin80)
# Call 2, CUB in the same process, L2 flushed, in/out form, medians of RS_BENCH_REPS=3:
#   table     RS_P2_TABLE_S=75     keys u32 i32 f32 u64, pairs u32/u32 u64/u32, narrow and sorted
#                                  rows, n = 2^16 2^20 2^22 2^24 2^26 2^28: one process (and JSON) per n
#   segmented RS_P2_SEG_S=40       segmented/ rows (2^24 keys) and argsort/ rows at the same n
#   host      RS_P2_HOST_S=25      one host-resident row: u32 keys, 2^27, pinned, budget 1/8
#   tune      RS_P2_TUNE_S=104     every ringsweep_tune case at 2^24 and 2^28, runs a and b
#                                  (RS_TUNE_REPS=5), then bench/tune_summary.py's verdicts
#   new       RS_P2_NEW_S=25       rows matching RS_NEW_FILTERS (default: top_k and device_count
#                                  rows, and batched top-k of 8 and 256 rows of 131072 keys, k 64,
#                                  beside CUB's DeviceBatchedTopK) in any benchmark binary of the
#                                  pack; skipped when none exist
#   mpi       RS_P2_MPI_S=15       the distributed benchmark (any *distributed*bench* in the pack),
#                                  two ranks on the one GPU, when mpirun is there or carried
# Every part is also capped by what is left of RS_PLAN_S (305 s, counted from this script's
# start; the device call's timeout_s is 330), less 6 s to pack; what a budget cut is printed
# (tests not run, benchmark rows not run, a sanitizer run ended early) and written to the summary.
#
# Output: OUT/<tag>-call<N>.tar.gz holding <tag>/call<N>/ (logs, raw JSON, tune logs, verdicts,
# summaries, env.txt), ready for `tar -C bench/results/gpu -xzf`, and OUT/summary-call<N>.txt (also
# kept current while the call runs, so a killed call still returns it). <tag> is RS_RESULT_TAG or
# <device>-<UTC date>, e.g. h100-2026-11-27. The work happens outside OUT (at most 8 files come back
# from OUT).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2

usage() {
  echo "usage: $0 OUT 1|2   (RS_DRY_RUN=1: print the commands and budgets only)" >&2
  exit 2
}
[[ $# -ge 2 ]] || usage
out="$1"
call="$2"
[[ "${call}" == 1 || "${call}" == 2 ]] || usage

dry="${RS_DRY_RUN:-0}"
total="${RS_PLAN_S:-305}"
reserve=6          # seconds kept for the summaries and the packing at the end
t0=$(date +%s)
vclock=0           # dry run: the seconds every command so far would take at its limit

now() {
  if [[ "${dry}" == 1 ]]; then echo $((t0 + vclock)); else date +%s; fi
}
left() { echo $((t0 + total - reserve - $(now))); }
min() { if (($1 < $2)); then echo "$1"; else echo "$2"; fi; }

mkdir -p "${out}"
out=$(cd "${out}" && pwd)

# ---- the pack and the device ----------------------------------------------------------------
if [[ "${dry}" == 1 && -f .gpu/pack.tar.gz && ! -d .gpu/bin ]]; then
  # A dry run here reads the pack's lists, then removes what it unpacked: left in .gpu, the
  # unpacked programs would travel with the pack and put the call over the 64 MiB that go to the GPU machine.
  mapfile -t unpacked < <(tar -tzf .gpu/pack.tar.gz | awk -F/ 'NF > 1 && $2 != "" && $2 != "build_info.txt" {print $2}' | sort -u)
  trap 'for u in "${unpacked[@]}"; do rm -rf ".gpu/${u}"; done' EXIT
fi
if [[ -f .gpu/pack.tar.gz && ! -d .gpu/bin ]]; then
  tar -C .gpu -xzf .gpu/pack.tar.gz
elif [[ -f .gpu/pack.tar.xz && ! -d .gpu/bin ]]; then
  tar -C .gpu -xJf .gpu/pack.tar.xz 2>/dev/null ||
    python3 -c "import tarfile; tarfile.open('.gpu/pack.tar.xz').extractall('.gpu')"  # no xz program there
fi
if [[ ! -d .gpu/bin && "${dry}" != 1 ]]; then
  echo "gpu_plan: no .gpu/bin: run 'scripts/gpu_session.sh stage' first and carry .gpu" >&2
  exit 2
fi
export LD_LIBRARY_PATH="${PWD}/.gpu/lib:${LD_LIBRARY_PATH:-}"
# compute-sanitizer where CUDA puts it, if the PATH lacks it.
export PATH="${PATH}:/usr/local/cuda/bin:/usr/local/cuda/compute-sanitizer"
if [[ "${dry}" == 1 ]]; then
  gpu_name="${RS_DEVICE:-dry run}"
elif command -v nvidia-smi >/dev/null; then
  gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
else
  gpu_name="unknown"
fi
dev=$(echo "${gpu_name}" | tr 'A-Z' 'a-z' | grep -oE '\b[a-z]?[0-9]{3,4}[a-z]?\b' | head -n 1)
[[ -n "${dev}" ]] || dev=$(echo "${gpu_name}" | tr 'A-Z ' 'a-z_' | tr -cd 'a-z0-9_' | cut -c1-20)
[[ -n "${dev}" ]] || dev=gpu
tag="${RS_RESULT_TAG:-${dev}-$(date -u +%F)}"
work_root="${RS_PLAN_WORK:-${TMPDIR:-/tmp}/rs_plan}"
work="${work_root}/${tag}/call${call}"
rm -rf "${work}"
mkdir -p "${work}"
summary="${work}/summary.txt"
summary_out="${out}/summary-call${call}.txt"
: >"${summary}"

# say LINE: the console, the summary, and the summary's copy in OUT (kept current).
say() {
  printf '%s\n' "$*" | tee -a "${summary}"
  cp -f "${summary}" "${summary_out}" 2>/dev/null
}
cuts=()
record_cut() {
  cuts+=("$*")
  say "CUT: $*"
}

# timed NAME LOG LIMIT CMD...: CMD within LIMIT seconds (TERM, then KILL 5 s later), its output
# appended to LOG, one summary line. The dry run prints it and counts as spent the seconds the
# command is expected to take (`expect`, set by the caller for this command: what the H100 run of
# 2026-11-24 took, or the whole limit where a command uses its budget), at most LIMIT.
last_rc=0
expect=""
timed() {
  local name="$1" log="$2" limit="$3" start secs
  shift 3
  last_rc=0
  if ((limit < 1)); then
    record_cut "${name}: no time left"
    last_rc=125
    return 125
  fi
  printf '== %s (limit %d s): %s\n' "${name}" "${limit}" "$*" >>"${log}"
  local from
  from=$(($(wc -l <"${log}") + 1))
  if [[ "${dry}" == 1 ]]; then
    local e="${expect:-${limit}}"
    ((e > limit)) && e="${limit}"
    printf '[dry] t=%4d s  limit %4d s  expect %4d s  %-28s %s\n' "${vclock}" "${limit}" "${e}" "${name}" "$*"
    vclock=$((vclock + e))
    expect=""
    return 0
  fi
  expect=""
  start=$(date +%s.%N)
  timeout -k 5 "${limit}" "$@" </dev/null >>"${log}" 2>&1
  last_rc=$?
  secs=$(awk "BEGIN {printf \"%.1f\", $(date +%s.%N) - ${start}}")
  local note=""
  ((last_rc == 124 || last_rc == 137)) && note="BUDGET ENDED "
  say "$(printf '%-40s rc=%-3s %6s s of %3d  %s%s' "${name}" "${last_rc}" "${secs}" "${limit}" "${note}" \
    "$(tail -n "+${from}" "${log}" | tail -n 2 | tr '\n' ' ' | cut -c1-80)")"
  return "${last_rc}"
}

# part NAME BUDGET: starts a part; part_left then gives what is left of it (and of the call).
part_name=""
part_end=0
part() {
  part_name="$1"
  local budget
  budget=$(min "$2" "$(left)")
  ((budget < 0)) && budget=0
  part_end=$(($(now) + budget))
  say ""
  say "## ${part_name}: budget ${budget} s (asked $2; $(left) s left of the call)"
}
part_left() {
  local l=$((part_end - $(now)))
  ((l < 0)) && l=0
  echo "${l}"
}

# MPI: a launcher for two ranks on the one GPU, from the machine or from the pack (.gpu/mpi, which
# stage fills from the staging machine's Open MPI when a packed program links libmpi).
mpi_cmd=()
mpi_reason=""
find_mpi() {
  local run="" c m="${PWD}/.gpu/mpi/usr" a=lib/x86_64-linux-gnu
  local candidates=() menv=()
  if [[ -n "${RS_MPIRUN:-}" ]]; then  # a launcher to use, or `none`
    [[ "${RS_MPIRUN}" != none ]] && candidates=("${RS_MPIRUN}")
  else
    candidates=("$(command -v mpirun)" "$(command -v mpiexec)" "${m}/bin/mpirun")
  fi
  for c in "${candidates[@]}"; do
    [[ -n "${c}" ]] || continue
    if [[ "${c}" == "${m}/bin/mpirun" ]]; then
      [[ -e "${c}" ]] || continue
      # The staging machine's Open MPI (Debian layout, relocated; checked there with the system's
      # copy hidden: two ranks and an allreduce ran, PMIx warned of a help file it could not find).
      # Its environment goes to mpirun and the ranks only: its libraries must not shadow the GPU
      # machine's for anything else.
      menv=(OPAL_PREFIX="${m}" PMIX_INSTALL_PREFIX="${m}/${a}/pmix2" PATH="${m}/bin:${PATH}"
        LD_LIBRARY_PATH="${m}/${a}:${m}/${a}/openmpi/lib:${m}/${a}/pmix2/lib:${LD_LIBRARY_PATH}")
    fi
    if timeout 10 env "${menv[@]}" "${c}" --version >/dev/null 2>&1; then
      run="${c}"
      break
    fi
  done
  if [[ -z "${run}" ]]; then
    mpi_reason="no working mpirun or mpiexec on this machine and none carried in .gpu/mpi${RS_MPIRUN:+ (RS_MPIRUN=${RS_MPIRUN})}"
    return 1
  fi
  local version
  version=$(env "${menv[@]}" "${run}" --version 2>&1 | head -n 1)
  say "mpi: ${run} (${version})"
  if [[ "${version}" == *"Open MPI"* ]]; then
    # As root Open MPI wants to be told; one GPU: both ranks on device 0, no binding.
    mpi_cmd=(env "${menv[@]}" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "${run}" --oversubscribe
      --bind-to none -x LD_LIBRARY_PATH -np "${RS_MPI_RANKS:-2}")
  else
    mpi_cmd=(env "${menv[@]}" "${run}" -np "${RS_MPI_RANKS:-2}")
  fi
  return 0
}

# ---- the environment, for the README table ----------------------------------------------------
{
  echo "tag: ${tag}  call: ${call}  started: $(date -u +%FT%TZ)"
  echo "gpu: ${gpu_name}"
  if [[ "${dry}" != 1 ]]; then
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,pci.bus_id --format=csv 2>&1
    nvidia-smi 2>&1 | grep -E "Driver Version|CUDA Version" | head -n 2
    echo "compute-sanitizer: $(compute-sanitizer --version 2>&1 | tail -n 1)"
    echo "ncu: $(command -v ncu || echo none)"
    echo "mpirun: $(command -v mpirun || command -v mpiexec || echo none)"
    echo "python3: $(python3 --version 2>&1)"
    echo "host: $(uname -r), $(nproc) cores, $(awk '/MemTotal/ {print $2 / 1048576 " GiB"}' /proc/meminfo)"
  fi
  echo "--- build (from stage) ---"
  cat .gpu/build_info.txt 2>/dev/null || echo "no .gpu/build_info.txt"
} >"${work}/env.txt" 2>&1
say "gpu_plan call ${call}: ${gpu_name}, results as ${tag}/call${call}, ${total} s in all ($(date -u +%T) UTC)"
[[ "${dry}" == 1 ]] && say "DRY RUN: nothing runs; each command is shown with its limit and the seconds it is expected to take (t: the expected start)"
grep -E "^commit|^nvcc|^cccl" "${work}/env.txt" | sed 's/^/  /'

# ======================================= call 1 ==============================================

has_label() { [[ ",$1," == *",$2,"* ]]; }

run_tests() {
  part "tests (every nvcc test program of gpu_tests.tsv but the stress test)" "${RS_P1_TESTS_S:-80}"
  local name exe labels args limit ran=0 failed=() not_run=() log tsv=.gpu/gpu_tests.tsv
  mkdir -p "${work}/tests"
  # A dry run before any stage shows the list CMake wrote at configure time.
  [[ ! -f "${tsv}" && "${dry}" == 1 && -f build-gpu/gpu_tests.tsv ]] && tsv=build-gpu/gpu_tests.tsv
  if [[ ! -f "${tsv}" ]]; then
    record_cut "tests: ${tsv} missing (stage did not run?)"
    return
  fi
  while IFS=$'\t' read -r name exe labels args; do
    [[ -z "${name}" ]] && continue
    has_label "${labels}" stress && continue
    if [[ ! -x ".gpu/bin/${exe}" && "${dry}" != 1 ]]; then
      failed+=("${name} (not in the pack)")
      say "${name}: .gpu/bin/${exe} not in the pack"
      continue
    fi
    limit=$(min "${RS_TEST_TIMEOUT:-25}" "$(part_left)")
    if ((limit < 3)); then
      not_run+=("${name}")
      continue
    fi
    log="${work}/tests/${name}.log"
    local launch=()
    if has_label "${labels}" mpi; then
      if ((${#mpi_cmd[@]} == 0)) && ! find_mpi; then
        say "${name}: skipped, ${mpi_reason}"
        not_run+=("${name} (no MPI)")
        continue
      fi
      launch=("${mpi_cmd[@]}")
    fi
    # 0.3-3.4 s each on the H100 (2026-11-24), the backend's and the examples' under 0.7 s.
    expect=2
    [[ "${name}" == simt_* || "${name}" == example_* ]] && expect=1
    # shellcheck disable=SC2086  # the arguments are ctest's, split as ctest would
    timed "${name}" "${log}" "${limit}" "${launch[@]}" ".gpu/bin/${exe}" ${args}
    ((last_rc != 0)) && failed+=("${name} rc=${last_rc}")
    ran=$((ran + 1))
    # A failing test can print megabytes: keep the head and the tail.
    if [[ -f "${log}" ]] && (($(stat -c %s "${log}") > 400000)); then
      { head -c 100000 "${log}"; echo "[... cut ...]"; tail -c 200000 "${log}"; } >"${log}.t" && mv "${log}.t" "${log}"
    fi
  done <"${tsv}"
  say "tests: ${ran} ran, ${#failed[@]} failed${failed:+: ${failed[*]}}"
  ((${#not_run[@]} > 0)) && record_cut "tests: the budget ended before ${#not_run[@]} programs: ${not_run[*]}"
}

run_stress() {
  part "stress (random sorts vs CUB and std::stable_sort)" "${RS_P1_STRESS_S:-60}"
  local limit secs
  limit=$(part_left)
  secs=$((limit - 20))  # start-up, the last batch, the report
  if ((secs < 5)); then
    record_cut "stress: ${limit} s left, not run"
    return
  fi
  timed "stress" "${work}/stress.log" "${limit}" env RINGSWEEP_STRESS_SECONDS="${secs}" \
    RINGSWEEP_STRESS_MAX_LOG2="${RS_STRESS_MAX_LOG2:-26}" .gpu/bin/stress_test_gpu
  grep -E "^stress:|^FAILED" "${work}/stress.log" 2>/dev/null | head -n 14 | while read -r l; do say "  ${l}"; done
}

# Sanitizer reports are lines "========= <Message>" (details are indented further).
sanitizer_reports() {
  grep -E '^========= [A-Z]' "$1" 2>/dev/null |
    grep -vcE 'COMPUTE-SANITIZER|ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY|Saved host backtrace|Target application|Program hit|ERROR SUMMARY'
}

# The paths the sanitizers check: name | program | Catch filter | environment (KEY=value,...).
sanitize_runs() {
  echo "plain tiny|sort_tiny_test_gpu|[tiny]|"
  echo "plain api|sort_api_test_gpu|[api]|"
  echo "segmented|segmented_sort_test_gpu|[segmented]|"
  echo "pipelined tiny|sort_pipelined_test_gpu|[pipelined]~[faulty]|"
  echo "pipelined tune|stress_test_gpu||RINGSWEEP_STRESS_KINDS=pipelined,RINGSWEEP_STRESS_MAX_LOG2=22"
  echo "host|host_sort_test_gpu|[host]~[alloc]|"
  # Later features, when built (their tests' file names as the issues give them).
  local f
  for f in .gpu/bin/top_k*_test_gpu .gpu/bin/segmented_top_k*_test_gpu .gpu/bin/*device_count*_test_gpu; do
    [[ -x "${f}" ]] && echo "$(basename "${f}" _test_gpu)|$(basename "${f}")||"
  done
}

run_sanitize() {
  part "compute-sanitizer (plain, segmented, pipelined, host-resident)" "${RS_P1_SANITIZE_S:-110}"
  command -v compute-sanitizer >/dev/null 2>&1 || [[ "${dry}" == 1 ]] || {
    record_cut "sanitize: compute-sanitizer not found"
    return
  }
  local runs=() r tool share each log reports name exe filter envs limit
  mapfile -t runs < <(sanitize_runs)
  local present=()
  for r in "${runs[@]}"; do
    IFS='|' read -r name exe filter envs <<<"${r}"
    if [[ -x ".gpu/bin/${exe}" || "${dry}" == 1 ]]; then
      present+=("${r}")
    else
      say "sanitize ${name}: .gpu/bin/${exe} not in the pack, skipped"
    fi
  done
  ((${#present[@]} == 0)) && return
  # Each tool gets its share of what is left (weights: racecheck is the slow one), each run of a
  # tool an equal part of what is left of the tool's share, so time a run leaves flows on.
  local spec weight wleft=100 tool_end runs_left
  for spec in memcheck:22 racecheck:38 synccheck:18 initcheck:22; do
    tool="${spec%%:*}"
    weight="${spec#*:}"
    share=$(($(part_left) * weight / wleft))
    wleft=$((wleft - weight))
    tool_end=$(($(now) + share))
    runs_left=${#present[@]}
    log="${work}/sanitize_${tool}.log"
    : >"${log}"
    for r in "${present[@]}"; do
      IFS='|' read -r name exe filter envs <<<"${r}"
      each=$(((tool_end - $(now)) / runs_left))
      runs_left=$((runs_left - 1))
      limit=$(min "${each}" "$(part_left)")
      local env_args=()
      if [[ -n "${envs}" ]]; then
        IFS=',' read -r -a env_args <<<"${envs}"
      fi
      # The stress test stops itself before the limit, so that its report is whole.
      [[ "${exe}" == stress_test_gpu ]] && env_args+=("RINGSWEEP_STRESS_SECONDS=$((limit * 2 / 5 > 1 ? limit * 2 / 5 : 1))")
      # (No --leak-check: the tests leave pools and contexts to process exit, as the 2026-11-24
      # baseline of 0 reports did.)
      local cmd=(env "${env_args[@]}" compute-sanitizer --tool "${tool}" --error-exitcode 99 ".gpu/bin/${exe}")
      [[ -n "${filter}" ]] && cmd+=("${filter}")
      # Seconds on the H100 (2026-11-24): memcheck, synccheck, initcheck 1-3 per test; racecheck
      # used every second it had.
      [[ "${tool}" != racecheck ]] && expect=3
      timed "sanitize ${tool} ${name}" "${log}" "${limit}" "${cmd[@]}"
      ((last_rc == 124 || last_rc == 137)) && record_cut "sanitize ${tool} ${name}: the budget (${limit} s) ended the run; what ran was checked"
    done
    reports=$(sanitizer_reports "${log}")
    say "sanitize ${tool}: ${reports} reports"
    grep -E '^========= [A-Z]' "${log}" | grep -vE 'ERROR SUMMARY|COMPUTE-SANITIZER' | sort | uniq -c | sort -rn |
      head -n 4 | while read -r l; do say "  ${l}"; done
  done
}

run_ptx80() {
  part "compute_80 PTX (policy_sm80 JIT-compiled)" "${RS_P1_PTX80_S:-35}"
  local f limit n=0 programs=(.gpu/bin80/*)
  [[ "${dry}" == 1 && ! -d .gpu/bin80 ]] && programs=(.gpu/bin80/{smoke_gpu,sort_tiny_test_gpu,sort_api_test_gpu})
  for f in "${programs[@]}"; do
    [[ -x "${f}" || "${dry}" == 1 ]] || continue
    n=$((n + 1))
    limit=$(part_left)
    if ((limit < 3)); then
      record_cut "compute_80 $(basename "${f}"): budget ended"
      continue
    fi
    expect=12  # the JIT compilation: 0.4-11.7 s per program on the H100
    timed "compute_80 $(basename "${f}")" "${work}/ptx80.log" "${limit}" env RINGSWEEP_EXPECT_PTX_ARCH=800 "${f}"
  done
  ((n == 0)) && say "compute_80: .gpu/bin80 is empty"
}

# ======================================= call 2 ==============================================

reps="${RS_BENCH_REPS:-3}"
min_time="${RS_MIN_TIME:-0.05}"

# bench_rows NAME LIMIT BINARY FILTER BASENAME [ARGS...]: lists the rows FILTER selects, runs them
# into BASENAME.json / .txt, and says which listed rows did not run (the budget ended them).
bench_rows() {
  local name="$1" limit="$2" bin="$3" filter="$4" base="$5"
  shift 5
  local list="${work}/${base}.list" txt="${work}/${base}.txt" json="${work}/${base}.json"
  if [[ ! -x "${bin}" && "${dry}" != 1 ]]; then
    say "${name}: $(basename "${bin}") not in the pack, skipped"
    return
  fi
  if [[ "${dry}" != 1 ]]; then
    timeout -k 5 60 "${bin}" --benchmark_list_tests=true --benchmark_filter="${filter}" "$@" >"${list}" 2>/dev/null
    grep -v "no CUDA device" "${list}" >"${list}.t"
    mv "${list}.t" "${list}"
    if [[ ! -s "${list}" ]]; then
      say "${name}: no rows match in $(basename "${bin}") (not built yet?), skipped"
      rm -f "${list}"
      return
    fi
  fi
  limit=$(min "${limit}" "$(part_left)")
  timed "${name}" "${txt}" "${limit}" "${bin}" --benchmark_filter="${filter}" --benchmark_min_time="${min_time}" \
    --benchmark_repetitions="${reps}" --benchmark_out="${json}" --benchmark_out_format=json "$@"
  [[ "${dry}" == 1 ]] && return
  # A process the budget ended leaves its JSON unfinished: keep the rows it holds.
  if ((last_rc != 0)) && [[ -f "${json}" ]] && ! python3 - "${json}" <<'PY' 2>/dev/null; then
import json, sys
path = sys.argv[1]
text = open(path).read()
try:
    json.loads(text)
    sys.exit(0)
except ValueError:
    pass
# Google Benchmark writes one object per row, each closed by a line "    }": cut after the last.
end = text.rfind("\n    }")
doc = json.loads(text[:end + 6] + "\n  ]\n}\n") if end > 0 else None
if not doc or not doc.get("benchmarks"):
    sys.exit(1)
doc["context"]["salvaged"] = "rows of a run the plan's budget ended"
json.dump(doc, open(path, "w"), indent=1)
PY
    mv -f "${json}" "${json}.partial"
  fi
  # Rows listed but absent from the output: cut by the budget (or the process died).
  local missing
  missing=$(awk 'NR == FNR { n = $1; sub(/_(mean|median|stddev|cv)$/, "", n); seen[n] = 1; next }
                 !($1 in seen) { print $1 }' "${txt}" "${list}")
  if [[ -n "${missing}" ]]; then
    record_cut "${name}: $(echo "${missing}" | wc -l) of $(wc -l <"${list}") rows not run, e.g. $(echo "${missing}" | head -n 3 | tr '\n' ' ')"
  fi
  grep -E "ERROR OCCURRED|skipping" "${txt}" | head -n 5 | while read -r l; do say "  ${l}"; done
}

# The Google Benchmark programs of the pack (the distributed one runs under MPI, see run_mpi).
bench_binaries() {
  local f
  for f in .gpu/bin/*bench*; do
    [[ -x "${f}" && "${f}" != *distributed* ]] && echo "${f}"
  done
}

run_table() {
  part "the table (issue #22 rows)" "${RS_P2_TABLE_S:-75}"
  # Each size gets what is left in proportion to its weight among the sizes still to run (about
  # its rows' run time: 48 s for 2^16..2^28 on the H100, half of it 2^28), so time a size leaves
  # flows on to the larger ones.
  local spec lg n w wleft=60
  for spec in 16:5 20:5 22:6 24:8 26:12 28:24; do
    lg="${spec%%:*}"
    w="${spec#*:}"
    n=$((1 << lg))
    bench_rows "table 2^${lg}" "$(($(part_left) * w / wleft))" .gpu/bin/ringsweep_sort_bench \
      "^((keys/(u32|i32|f32|u64)|pairs/(u32|u64))/entropy:1\\.000|narrow/[^/]+/[^/]+|sorted/[^/]+/[^/]+)/n:${n}/" \
      "table_2e${lg}"
    wleft=$((wleft - w))
  done
}

run_segmented() {
  part "segmented and argsort rows (issue #25)" "${RS_P2_SEG_S:-40}"
  local budget
  budget=$(part_left)
  bench_rows "segmented 2^24" "$((budget * 3 / 5))" .gpu/bin/ringsweep_sort_bench '^segmented/' segmented
  bench_rows "argsort" "$(part_left)" .gpu/bin/ringsweep_sort_bench \
    '^argsort/[^/]+/[^/]+/n:(65536|1048576|4194304|16777216|67108864|268435456)/' argsort
}

run_host() {
  part "host-resident row (issue #26)" "${RS_P2_HOST_S:-25}"
  bench_rows "host u32 2^27 pinned 1/8" "$(part_left)" .gpu/bin/ringsweep_host_sort_bench \
    '^host/u32/keys/n:134217728/pinned/budget:1_8/ringsweep(/|$)' host_2e27 --rs_min_log2=27 --rs_max_log2=27
  [[ -f "${work}/host_2e27.txt" ]] && grep -E "GB/s" "${work}/host_2e27.txt" | head -n 4 | while read -r l; do say "  ${l}"; done
}

run_tune() {
  part "tune variants at 2^24 and 2^28, runs a and b" "${RS_P2_TUNE_S:-104}"
  local cases="keys_u32,keys_i32,keys_f32,pairs_u32,lowent_u32,keys_u64,pairs_u64,keys_u16,keys_u8${RS_TUNE_EXTRA_CASES:+,${RS_TUNE_EXTRA_CASES}}"
  local spec run lg w wleft=10 limit log line_buf=()
  command -v stdbuf >/dev/null 2>&1 && line_buf=(stdbuf -oL)  # rows reach the log before a kill
  # The retire before and after 2026-11-28 at 2^28, timed and traced (its own command: as the
  # last case of a run it would be the first one a budget cuts).
  timed "tune trace_retire 2^28" "${work}/tune_trace_retire_2e28.txt" "$(($(part_left) < 15 ? $(part_left) : 15))" \
    "${line_buf[@]}" .gpu/bin/ringsweep_tune 28 "${RS_TUNE_REPS:-5}" trace_retire
  [[ -f "${work}/tune_trace_retire_2e28.txt" ]] &&
    grep -E " trace " "${work}/tune_trace_retire_2e28.txt" | cut -c1-200 | while read -r l; do say "  ${l}"; done
  for spec in a:24:1 a:28:4 b:24:1 b:28:4; do
    IFS=: read -r run lg w <<<"${spec}"
    limit=$(($(part_left) * w / wleft))
    wleft=$((wleft - w))
    log="${work}/tune_${run}_2e${lg}.txt"
    timed "tune ${run} 2^${lg}" "${log}" "${limit}" "${line_buf[@]}" .gpu/bin/ringsweep_tune "${lg}" \
      "${RS_TUNE_REPS:-5}" "${cases}"
    if ((last_rc == 124 || last_rc == 137)); then
      record_cut "tune ${run} 2^${lg}: the budget (${limit} s) ended it after: $(grep -E ' ms ' "${log}" | tail -n 1 | cut -c1-70)"
    fi
  done
  [[ "${dry}" == 1 ]] && return
  for lg in 24 28; do
    if [[ -f "${work}/tune_a_2e${lg}.txt" && -f "${work}/tune_b_2e${lg}.txt" ]]; then
      python3 bench/tune_summary.py "${work}/tune_a_2e${lg}.txt" "${work}/tune_b_2e${lg}.txt" \
        >"${work}/tune_verdicts_2e${lg}.txt" 2>&1
      say "tune verdicts 2^${lg}:"
      sed -n '/^Winners\|^No variant/,$p' "${work}/tune_verdicts_2e${lg}.txt" | head -n 12 | while read -r l; do say "  ${l}"; done
      grep -E "^MISMATCH" "${work}/tune_verdicts_2e${lg}.txt" | head -n 5 | while read -r l; do say "  ${l}"; done
    fi
  done
}

run_new() {
  part "rows of later features (top-k, device counts)" "${RS_P2_NEW_S:-25}"
  local filters="${RS_NEW_FILTERS:-^top_k/ ^device_count/ ^batched_top_k/f32/rows:(8|256)/row:131072/}" f bin nbins budget
  mapfile -t bins < <(bench_binaries)
  nbins=${#bins[@]}
  if ((nbins == 0)); then
    say "no benchmark programs in the pack"
    return
  fi
  budget=$(part_left)
  local nf
  nf=$(($(echo "${filters}" | wc -w) + 1))  # and torch.topk's share
  for f in ${filters}; do
    for bin in "${bins[@]}"; do
      # The host-sort benchmark measures the bus before listing: it has no such rows.
      [[ "${bin}" == *host_sort* ]] && continue
      bench_rows "${f#^} rows ($(basename "${bin}"))" "$((budget / nf))" "${bin}" "${f}" \
        "new_$(echo "${f}" | tr -cd 'a-z_')_$(basename "${bin}")"
    done
  done
  # torch.topk(sorted=True) on the batched rows' shapes, where PyTorch is installed (it says so
  # and times nothing where it is not).
  local torch_filter="${RS_TORCH_FILTER:-f32/rows:(8|256)/row:131072/}"
  timed "torch.topk ${torch_filter}" "${work}/new_torch.txt" "$(min "$((budget / nf))" "$(part_left)")" \
    python3 bench/top_k_torch.py --filter "${torch_filter}" --reps 10 --out "${work}/new_torch.json"
}

run_mpi() {
  part "distributed sort, two ranks on the one GPU" "${RS_P2_MPI_S:-15}"
  local bin
  bin=$(ls .gpu/bin/*distributed*bench* 2>/dev/null | head -n 1)
  if [[ -z "${bin}" ]]; then
    say "distributed: no *distributed*bench* program in the pack (not built yet), skipped"
    return
  fi
  if [[ "${dry}" != 1 ]] && ((${#mpi_cmd[@]} == 0)) && ! find_mpi; then
    record_cut "distributed: ${mpi_reason}"
    return
  fi
  ((${#mpi_cmd[@]} == 0)) && mpi_cmd=(mpirun -np "${RS_MPI_RANKS:-2}")
  # shellcheck disable=SC2086  # RS_MPI_ARGS: the benchmark's own arguments, split
  timed "distributed ${RS_MPI_RANKS:-2} ranks" "${work}/distributed.txt" "$(part_left)" "${mpi_cmd[@]}" "${bin}" \
    ${RS_MPI_ARGS:-}
}

summaries() {
  [[ "${dry}" == 1 ]] && return
  command -v python3 >/dev/null 2>&1 || return
  # The table's JSON files as one (bench.json: the file compare.py and plot.py take).
  python3 - "${work}" <<'EOF' 2>>"${work}/summary_errors.txt"
import glob, json, os, sys
work = sys.argv[1]
merged = None
for path in sorted(glob.glob(os.path.join(work, "table_2e*.json")), key=lambda p: int(p.split("2e")[-1][:-5])):
    with open(path) as f:
        d = json.load(f)
    if merged is None:
        merged = d
    else:
        merged["benchmarks"] += d["benchmarks"]
if merged is not None:
    with open(os.path.join(work, "bench.json"), "w") as f:
        json.dump(merged, f, indent=1)
EOF
  local jsons=()
  mapfile -t jsons < <(ls "${work}"/bench.json "${work}"/segmented.json "${work}"/argsort.json "${work}"/host_2e27.json \
    "${work}"/new_*.json 2>/dev/null)
  if ((${#jsons[@]} > 0)); then
    python3 bench/plot.py "${jsons[@]}" --summary-only --out "${work}/summary" >>"${work}/summary_errors.txt" 2>&1 &&
      say "" && say "bench/plot.py summary (${work##*/}/summary/summary.md):" &&
      head -c 7000 "${work}/summary/summary.md"
  fi
  local baseline=bench/results/gpu/h100-2026-11-24/run6_final_speed/bench.json
  if [[ -f "${work}/bench.json" && -f "${baseline}" && "${dev}" == h100 ]]; then
    python3 bench/compare.py "${baseline}" "${work}/bench.json" >"${work}/compare_run6.txt" 2>&1
    say "vs ${baseline}: $(tail -n 1 "${work}/compare_run6.txt")"
  fi
}

# ============================================================================================

if [[ "${call}" == 1 ]]; then
  [[ "${RS_SKIP_TESTS:-0}" == 1 ]] || run_tests
  [[ "${RS_SKIP_STRESS:-0}" == 1 ]] || run_stress
  [[ "${RS_SKIP_SANITIZE:-0}" == 1 ]] || run_sanitize
  [[ "${RS_SKIP_PTX80:-0}" == 1 ]] || run_ptx80
else
  [[ "${RS_SKIP_TABLE:-0}" == 1 ]] || run_table
  [[ "${RS_SKIP_SEGMENTED:-0}" == 1 ]] || run_segmented
  [[ "${RS_SKIP_HOST:-0}" == 1 ]] || run_host
  [[ "${RS_SKIP_TUNE:-0}" == 1 ]] || run_tune
  [[ "${RS_SKIP_NEW:-0}" == 1 ]] || run_new
  [[ "${RS_SKIP_MPI:-0}" == 1 ]] || run_mpi
  summaries
fi

# The lines that matter, last (the end of the output is what comes back first): failures, the
# stress and sanitizer counts, the verdicts' winners.
say ""
say "recap:"
grep -E "rc=([1-9]|1[0-9][0-9])|^tests:|^  stress:|^  FAILED|^sanitize [a-z]+: [0-9]|^compute_80|^table 2|^segmented 2\^24 |^argsort +rc|^host u32 2|^tune [ab] |^  [a-z_0-9]+ n=2\^[0-9]+: .*\(\+|^distributed|^mpi:" "${summary}" |
  grep -v "^recap" | cut -c1-140 | while read -r l; do printf '  %s\n' "${l}"; done
say ""
say "gpu_plan call ${call}: done in $(($(now) - t0)) s of ${total}; ${#cuts[@]} cut$( ((${#cuts[@]} == 1)) || echo s)"
for c in "${cuts[@]}"; do say "  cut: ${c}"; done
if [[ "${dry}" != 1 ]]; then
  tar -C "${work_root}" -czf "${out}/${tag}-call${call}.tar.gz" "${tag}/call${call}"
  cp -f "${summary}" "${summary_out}"
  echo "results: ${out}/${tag}-call${call}.tar.gz ($(du -h "${out}/${tag}-call${call}.tar.gz" | cut -f1));" \
    "here: tar -C bench/results/gpu -xzf <it>"
fi
exit 0
