// The top-k tests' policy: policy_tiny (192-key sort tiles, 128-key select tiles) with candidate
// buffers of at least 8 keys: n / 64 for n of a few thousand, so buffers overflow on skewed keys
// and fit on random ones.
#pragma once

#include "test_policies.cuh"

namespace top_k_test {

struct policy_tiny_top_k : ringsweep_test::policy_tiny {
  static constexpr int TOP_K_MIN_CAPACITY = 8;
};

}  // namespace top_k_test
