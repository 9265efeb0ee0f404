// Compile-fail case (tests/sort/CMakeLists.txt): a policy that still names the look-back depth `L`
// (OLD_POLICY_NAME=1) or the ring's slots `N_TABLE` (2), the members' names before LOOKBACK_DEPTH
// and STATUS_SLOTS, must not compile: nothing reads the old names, so it would silently sort with
// the defaults' depth or ring.
#include <ringsweep/ringsweep.cuh>

struct old_policy : ringsweep::policy_defaults {
#if OLD_POLICY_NAME == 1
  static constexpr int L = 256;
#else
  static constexpr int N_TABLE = 2048;
#endif
};

cudaError_t sort_with_old_names(unsigned* keys, std::size_t n) {
  return ringsweep::tuning::sort_keys<old_policy>(keys, n);
}
