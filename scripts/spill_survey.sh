#!/usr/bin/env bash
# Spill survey (by hand, nvcc only, no GPU): builds segmented_sort_pairs (every kernel of a
# segmented sort: classification and tiny network, compact, medium and small blocks, the large
# segments' passes) for every key type x value size below, for each architecture, and lists the
# kernels that spill or use local memory and any build error. The spill gate
# (tests/spill/spill_check.cu) builds a chosen few of these combinations in CI; this covers the
# rest when a change touches the segmented kernels' registers.
#
#   scripts/spill_survey.sh [ARCH...]          # default: 90 80
#   SURVEY_KEYS="std::uint32_t float" SURVEY_VALUES="std::uint16_t v16" scripts/spill_survey.sh 90
#
# About 5 minutes of one core per architecture for the default lists (run in parallel).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
archs=("$@")
((${#archs[@]} > 0)) || archs=(90 80)
keys="${SURVEY_KEYS:-std::uint8_t std::int8_t std::uint16_t __half std::uint32_t float std::uint64_t double}"
values="${SURVEY_VALUES:-std::uint8_t std::uint16_t std::uint32_t std::uint64_t v16}"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

{
  echo '#include <ringsweep/ringsweep.cuh>'
  echo '#include <cstdint>'
  echo 'struct alignas(16) v16 { std::uint32_t w[4]; };'
  echo 'template <class Key, class Value> cudaError_t segmented() {'
  echo '  std::size_t bytes = 0;'
  echo '  const int* offsets = nullptr;'
  echo '  return ringsweep::segmented_sort_pairs(nullptr, bytes, static_cast<const Key*>(nullptr),'
  echo '      static_cast<Key*>(nullptr), static_cast<const Value*>(nullptr), static_cast<Value*>(nullptr), 1, 1,'
  echo '      offsets, offsets);'
  echo '}'
  echo 'cudaError_t survey() {'
  echo '  cudaError_t e = cudaSuccess;'
  for k in ${keys}; do
    for v in ${values}; do
      echo "  e = e != cudaSuccess ? e : segmented<${k}, ${v}>();"
    done
  done
  echo '  return e;'
  echo '}'
} >"${work}/survey.cu"

for a in "${archs[@]}"; do
  (nvcc -std=c++17 "-arch=sm_${a}" -cubin -Iinclude -Xptxas -warn-spills,-warn-lmem-usage \
     -o "${work}/survey_${a}.cubin" "${work}/survey.cu" >"${work}/sm_${a}.log" 2>&1
   echo "rc $?" >>"${work}/sm_${a}.log") &
done
wait
status=0
for a in "${archs[@]}"; do
  log="${work}/sm_${a}.log"
  found=$(grep -E "spilled|stack frame|error" "${log}" | grep -v "size of stack frame: 0 bytes" || true)
  if [[ -n ${found} ]] || ! grep -q "^rc 0$" "${log}"; then
    status=1
    echo "== sm_${a}: spills or errors"
    # The kernel's name, demangled, then what ptxas said of it.
    grep -E "spilled|stack frame|error" "${log}" | grep -v "size of stack frame: 0 bytes" |
      sed -E "s/.*function '([^']*)'.*, ([0-9]+ bytes spill stores.*|size of stack frame.*)/\1 \2/" |
      while read -r name rest; do
        echo "$(echo "${name}" | c++filt | sed -E 's/ringsweep::arch_[0-9]+::(detail::)?//g' | cut -c1-200)  ${rest}"
      done | sort -u
    grep -E "^rc" "${log}"
  else
    echo "== sm_${a}: no spills"
  fi
done
exit "${status}"
