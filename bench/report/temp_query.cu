// ringsweep's temporary storage for n = 2^16..2^32, from the library's own size query (d_temp ==
// nullptr: writes temp_bytes, launches nothing, reads no pointer). Built against the SIMT backend
// so that it runs without a GPU; the answer does not depend on the backend.
//
// Prints CSV: case,arch,form,n,bytes. `arch` names the tuning policy (sm_80: policy_sm80, sm_90:
// policy_sm90); `public` rows come from the public API, which picks the policy of the current
// device (the SIMT backend reports compute capability 9.0, so they must equal the sm_90 rows).

#include <ringsweep/ringsweep.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

struct no_value {};

/// Size query of one (policy, case, form); returns false if the library reports an error.
template <class Policy, class Key, class Value>
bool query_detail(bool double_buffer, std::size_t n, std::size_t& bytes) {
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  cudaError_t e = cudaSuccess;
  if (double_buffer) {
    ringsweep::double_buffer<Key> keys(nullptr, nullptr);
    if constexpr (pairs) {
      ringsweep::double_buffer<Value> values(nullptr, nullptr);
      e = ringsweep::tuning::sort_pairs<Policy, Key, Value>(nullptr, bytes, keys, values, n);
    } else {
      e = ringsweep::tuning::sort_keys<Policy, Key>(nullptr, bytes, keys, n);
    }
  } else {
    if constexpr (pairs) {
      e = ringsweep::tuning::sort_pairs<Policy, Key, Value>(nullptr, bytes, static_cast<const Key*>(nullptr),
                                                            static_cast<Key*>(nullptr),
                                                            static_cast<const Value*>(nullptr),
                                                            static_cast<Value*>(nullptr), n);
    } else {
      e = ringsweep::tuning::sort_keys<Policy, Key>(nullptr, bytes, static_cast<const Key*>(nullptr),
                                                    static_cast<Key*>(nullptr), n);
    }
  }
  return e == cudaSuccess;
}

template <class Key, class Value>
bool query_public(bool double_buffer, std::size_t n, std::size_t& bytes) {
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  cudaError_t e = cudaSuccess;
  if (double_buffer) {
    ringsweep::double_buffer<Key> keys(nullptr, nullptr);
    if constexpr (pairs) {
      ringsweep::double_buffer<Value> values(nullptr, nullptr);
      e = ringsweep::sort_pairs(nullptr, bytes, keys, values, n);
    } else {
      e = ringsweep::sort_keys(nullptr, bytes, keys, n);
    }
  } else {
    if constexpr (pairs) {
      e = ringsweep::sort_pairs(nullptr, bytes, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr),
                                static_cast<const Value*>(nullptr), static_cast<Value*>(nullptr), n);
    } else {
      e = ringsweep::sort_keys(nullptr, bytes, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr), n);
    }
  }
  return e == cudaSuccess;
}

int failures = 0;

template <class Key, class Value>
void print_case(const char* name) {
  for (int log_n = 16; log_n <= 32; ++log_n) {
    const std::size_t n = std::size_t(1) << log_n;
    for (int db = 0; db < 2; ++db) {
      const char* form = db ? "double_buffer" : "in_out";
      std::size_t b80 = 0, b90 = 0, bpub = 0;
      const bool ok = query_detail<ringsweep::policy_sm80, Key, Value>(db != 0, n, b80) &&
                      query_detail<ringsweep::policy_sm90, Key, Value>(db != 0, n, b90) &&
                      query_public<Key, Value>(db != 0, n, bpub);
      if (!ok) {
        std::fprintf(stderr, "temp_query: size query failed for %s %s n=%zu\n", name, form, n);
        ++failures;
        continue;
      }
      std::printf("%s,sm_80,%s,%zu,%zu\n", name, form, n, b80);
      std::printf("%s,sm_90,%s,%zu,%zu\n", name, form, n, b90);
      std::printf("%s,public,%s,%zu,%zu\n", name, form, n, bpub);
    }
  }
}

}  // namespace

int main() {
  std::printf("case,arch,form,n,bytes\n");
  print_case<u32, no_value>("keys_u32");
  print_case<u64, no_value>("keys_u64");
  print_case<float, no_value>("keys_f32");
  print_case<u32, u32>("pairs_u32_u32");
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
