// Build-time check of ringsweep_tune's pipelined and fused variants (bench/common/pipelined.cuh,
// fused.cuh) and of the retire as it was until 2026-11-28 (carry_tail.cuh): ptxas with
// -warn-spills -warn-lmem-usage -Werror (ringsweep_add_spill_check, tests/spill/CMakeLists.txt)
// fails if one spills, for the key and value types the tune cases sort: with
// RINGSWEEP_SPILL_ARCH=90 the sm_90 variants (built for sm_90), with 80 policy_sm80's (built for
// sm_80). Built by scripts/gpu_session.sh stage, not by CI: the variants are off in every shipped
// policy.
#include <ringsweep/ringsweep.cuh>

#include <cstdint>

#include "common/carry_tail.cuh"
#include "common/early_values.cuh"
#include "common/fused.cuh"
#include "common/pipelined.cuh"

namespace {

template <class Policy, class Key>
cudaError_t keys_only() {
  std::size_t bytes = 0;
  ringsweep::double_buffer<Key> kb(nullptr, nullptr);
  return ringsweep::tuning::sort_keys<Policy>(nullptr, bytes, kb, 1);
}

template <class Policy, class Key, class Value>
cudaError_t pairs() {
  std::size_t bytes = 0;
  ringsweep::double_buffer<Key> kb(nullptr, nullptr);
  ringsweep::double_buffer<Value> vb(nullptr, nullptr);
  return ringsweep::tuning::sort_pairs<Policy>(nullptr, bytes, kb, vb, 1);
}

template <class Policy>
int instantiate() {
  return int(keys_only<Policy, std::uint32_t>()) + int(keys_only<Policy, float>()) +
         int(keys_only<Policy, std::uint64_t>()) + int(keys_only<Policy, std::uint16_t>()) +
         int(keys_only<Policy, std::uint8_t>()) + int(pairs<Policy, std::uint32_t, std::uint32_t>()) +
         int(pairs<Policy, std::uint64_t, std::uint32_t>()) + int(pairs<Policy, std::uint32_t, std::uint64_t>()) +
         int(pairs<Policy, std::uint64_t, std::uint64_t>()) + int(pairs<Policy, std::uint8_t, std::uint8_t>());
}

}  // namespace

int ringsweep_tune_spill_check() {
#if RINGSWEEP_SPILL_ARCH == 80
  return instantiate<tune::sm80_pipelined>() + instantiate<tune::early_values<ringsweep::policy_sm80>>();
#else
  return instantiate<tune::sm90_pipelined>() + instantiate<tune::sm90_pipelined_ring1024>() +
         instantiate<tune::min3_16_pipelined>() + instantiate<tune::min3_16>() +
         instantiate<tune::sm90_22_pipelined_bulk>() + instantiate<tune::min3_16_pipelined_bulk>() +
         instantiate<tune::min3_fused<22, 2>>() + instantiate<tune::min3_fused<22, 4>>() +
         instantiate<tune::min3_fused<20, 2>>() + instantiate<tune::min3_fused<24, 2>>() +
         instantiate<tune::early_values<ringsweep::policy_sm90>>() +
         instantiate<tune::carry_retire<ringsweep::policy_sm90>>();
#endif
}
