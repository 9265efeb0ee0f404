// Tuning policies: one struct per GPU architecture, plus a tiny one that tests use to reach every
// code path (many tiles, buffer wraps, portions) with few keys.
#pragma once

#include <type_traits>

#include "detail/config.cuh"

namespace ringsweep {

/// Tunables of one architecture. Members (all `static constexpr int`):
///
/// - `THREADS`, `KEYS_PER_THREAD`: onesweep block size and items per thread for 4-byte keys;
///   `EXCHANGE_BYTES` caps the shared-memory exchange buffer, so wider keys or values get fewer
///   items per thread (see `tile_shape`). `PAIRS_KEYS_PER_THREAD` (optional) replaces
///   `KEYS_PER_THREAD` for key-value sorts, whose scatter keeps ranks in registers longer.
/// - `RADIX_BITS`: bits per digit pass.
/// - `N_TABLE`: slots of the circular look-back status buffer; `L`: look-back depth cap;
///   `TAIL_BITS`: the tail iterator retires tiles in groups of `1 << TAIL_BITS`.
///   Deadlock freedom needs `N_TABLE >= L + (1 << TAIL_BITS)`.
/// - `PORTION_TILES`: tiles per onesweep launch (per-tile counts stay below 2^30).
/// - `HIST_THREADS`, `HIST_ITEMS`: block shape of the upfront histogram.
/// - `MIN_ARCH`, `MAX_ARCH` (optional): the `__CUDA_ARCH__` range [MIN_ARCH, MAX_ARCH) the policy's
///   kernels are compiled for; elsewhere their bodies are empty. The public API picks the policy
///   by the PTX version its kernels were built from, so it never launches an empty one.
/// - `RECOMPUTE_DIGITS` (optional, default false): the onesweep ranking recomputes each key's
///   digit where it needs it instead of letting the compiler keep the digits of the whole
///   tile live; a few instructions per key for ITEMS registers. Without it a 384-thread block
///   with 22 keys per thread needs 80 registers (two blocks per SM), with it 56 (three).
/// - `VECTOR_LOAD_ITEM_BYTES` (optional, default 0): onesweep tiles load keys and values of at
///   most this many bytes with 16-byte vector loads, put back into warp-striped order through a
///   512-byte shared stage per warp (`warp_vector_load`): one global load request per 16 / size
///   items instead of one per item, for one shared store and 16 / size shared loads per vector.
///   Ragged segments and arrays not aligned to 16 bytes load striped. 0: every item loads striped.
/// - `MIN_BLOCKS` (optional, default 1): onesweep blocks that must fit on one SM
///   (`__launch_bounds__`): ptxas keeps the kernel within `65536 / (MIN_BLOCKS x THREADS)` registers. Naming it also stops ptxas from
///   trading spills for occupancy on its own (CUDA 13 does so when only THREADS is given).
///
///     ringsweep::detail::radix_sort<ringsweep::policy_sm90>(...);  // see detail/dispatch.cuh
struct policy_sm80 {
  static constexpr int MIN_ARCH = 0;
  static constexpr int MAX_ARCH = 900;
  static constexpr int THREADS = 384;
  static constexpr int KEYS_PER_THREAD = 20;
  static constexpr int PAIRS_KEYS_PER_THREAD = 18;
  static constexpr int EXCHANGE_BYTES = 30720;
  static constexpr int RADIX_BITS = 8;
  static constexpr int N_TABLE = 1024;
  static constexpr int L = 512;
  static constexpr int TAIL_BITS = 8;
  static constexpr int PORTION_TILES = 32768;
  static constexpr int HIST_THREADS = 128;
  static constexpr int HIST_ITEMS = 16;
  static constexpr int MIN_BLOCKS = 2;
  // A striped warp load of 1- or 2-byte items is a request for just 32 or 64 bytes; with 22
  // items per lane vectors take a warp's requests from 22 to 7 (u8) or 8 (u16), the items past
  // the last whole vector still striped. 4- and 8-byte items stay striped until timed.
  static constexpr int VECTOR_LOAD_ITEM_BYTES = 2;
};

/// Hopper and newer (and the default for unknown architectures at or above sm_90).
struct policy_sm90 {
  static constexpr int MIN_ARCH = 900;
  static constexpr int THREADS = 384;
  static constexpr int KEYS_PER_THREAD = 22;
  static constexpr int PAIRS_KEYS_PER_THREAD = 22;
  static constexpr int EXCHANGE_BYTES = 33792;
  static constexpr int RADIX_BITS = 8;
  static constexpr int N_TABLE = 1024;
  static constexpr int L = 512;
  static constexpr int TAIL_BITS = 8;
  static constexpr int PORTION_TILES = 32768;
  static constexpr int HIST_THREADS = 128;
  static constexpr int HIST_ITEMS = 16;
  static constexpr int MIN_BLOCKS = 2;
  // A striped warp load of 1- or 2-byte items is a request for just 32 or 64 bytes; with 22
  // items per lane vectors take a warp's requests from 22 to 7 (u8) or 8 (u16), the items past
  // the last whole vector still striped. 4- and 8-byte items stay striped until timed.
  static constexpr int VECTOR_LOAD_ITEM_BYTES = 2;
};

/// Test policy: 192-key tiles, a 4-slot status buffer and 8-tile portions, so that a few thousand
/// keys wrap the buffer many times and cross portion boundaries.
struct policy_tiny {
  static constexpr int THREADS = 64;
  static constexpr int KEYS_PER_THREAD = 3;
  static constexpr int EXCHANGE_BYTES = 3072;
  static constexpr int RADIX_BITS = 8;
  static constexpr int N_TABLE = 4;
  static constexpr int L = 2;
  static constexpr int TAIL_BITS = 1;
  static constexpr int PORTION_TILES = 8;
  static constexpr int HIST_THREADS = 64;
  static constexpr int HIST_ITEMS = 2;
  static constexpr int MIN_BLOCKS = 1;
};

/// Test policy with a narrow radix (5 bits, fewer digits than threads) and deep look-back.
struct policy_tiny_radix5 {
  static constexpr int THREADS = 64;
  static constexpr int KEYS_PER_THREAD = 2;
  static constexpr int EXCHANGE_BYTES = 2048;
  static constexpr int RADIX_BITS = 5;
  static constexpr int N_TABLE = 8;
  static constexpr int L = 4;
  static constexpr int TAIL_BITS = 2;
  static constexpr int PORTION_TILES = 5;
  static constexpr int HIST_THREADS = 32;
  static constexpr int HIST_ITEMS = 3;
  static constexpr int MIN_BLOCKS = 1;
};

namespace detail {

/// Checks a policy's invariants once, where it is used.
template <class Policy>
struct policy_check {
  static_assert(Policy::THREADS % warp_threads == 0, "THREADS must be a multiple of 32");
  static_assert(Policy::HIST_THREADS % warp_threads == 0, "HIST_THREADS must be a multiple of 32");
  static_assert(Policy::RADIX_BITS >= 1 && Policy::RADIX_BITS <= 12, "RADIX_BITS out of range");
  static_assert(Policy::N_TABLE >= Policy::L + (1 << Policy::TAIL_BITS),
                "N_TABLE >= L + 2^TAIL_BITS is needed for deadlock freedom");
  static_assert(Policy::L >= 1, "look-back depth L must be at least 1");
  static constexpr bool ok = true;
};

/// `Policy::MIN_BLOCKS` where the policy names it, else 1.
template <class Policy, class = void>
struct policy_min_blocks {
  static constexpr int value = 1;
};
template <class Policy>
struct policy_min_blocks<Policy, typename std::enable_if<(Policy::MIN_BLOCKS > 0)>::type> {
  static constexpr int value = Policy::MIN_BLOCKS;
};

/// Whether `Policy`'s kernels are compiled for device code of `__CUDA_ARCH__ == arch` (see
/// `MIN_ARCH`, `MAX_ARCH`); policies that name neither serve every architecture.
template <class Policy, class = void>
struct policy_min_arch {
  static constexpr int value = 0;
};
template <class Policy>
struct policy_min_arch<Policy, typename std::enable_if<(Policy::MIN_ARCH >= 0)>::type> {
  static constexpr int value = Policy::MIN_ARCH;
};
template <class Policy, class = void>
struct policy_max_arch {
  static constexpr int value = 1 << 30;
};
template <class Policy>
struct policy_max_arch<Policy, typename std::enable_if<(Policy::MAX_ARCH > 0)>::type> {
  static constexpr int value = Policy::MAX_ARCH;
};
template <class Policy>
__host__ __device__ constexpr bool policy_serves_arch(int arch) {
  return arch >= policy_min_arch<Policy>::value && arch < policy_max_arch<Policy>::value;
}

/// Whether the code being compiled may hold `Policy`'s kernel bodies: always in host code (and on
/// the SIMT backend), in device code only for the architectures the policy serves. Kernels wrap
/// their bodies in `if constexpr (policy_compiled_here<Policy>())`.
template <class Policy>
__host__ __device__ constexpr bool policy_compiled_here() {
#ifdef __CUDA_ARCH__
  return policy_serves_arch<Policy>(__CUDA_ARCH__);
#else
  return true;
#endif
}

/// `Policy::RECOMPUTE_DIGITS` where the policy names it, else false.
template <class Policy, class = void>
struct policy_recompute_digits : std::false_type {};
template <class Policy>
struct policy_recompute_digits<Policy, typename std::enable_if<Policy::RECOMPUTE_DIGITS>::type> : std::true_type {};

/// `Policy::VECTOR_LOAD_ITEM_BYTES` where the policy names it, else 0.
template <class Policy, class = void>
struct policy_vector_load_item_bytes {
  static constexpr int value = 0;
};
template <class Policy>
struct policy_vector_load_item_bytes<Policy, typename std::enable_if<(Policy::VECTOR_LOAD_ITEM_BYTES >= 0)>::type> {
  static constexpr int value = Policy::VECTOR_LOAD_ITEM_BYTES;
};

/// `Policy::PAIRS_KEYS_PER_THREAD` where the policy names it, else `KEYS_PER_THREAD`.
template <class Policy, class = void>
struct policy_pairs_keys_per_thread {
  static constexpr int value = Policy::KEYS_PER_THREAD;
};
template <class Policy>
struct policy_pairs_keys_per_thread<Policy, typename std::enable_if<(Policy::PAIRS_KEYS_PER_THREAD > 0)>::type> {
  static constexpr int value = Policy::PAIRS_KEYS_PER_THREAD;
};

/// Tile shape of one (policy, key size, value size; 0 for keys only): items per thread shrink so that the
/// shared-memory exchange (one unit = the wider of key and value) fits `EXCHANGE_BYTES`.
template <class Policy, int KeyBytes, int ValueBytes>
struct tile_shape {
  static constexpr int UNIT = max_of(max_of(KeyBytes, ValueBytes), 4);
  static constexpr int ITEMS = max_of(
      1, min_of(ValueBytes > 0 ? policy_pairs_keys_per_thread<Policy>::value : Policy::KEYS_PER_THREAD,
                Policy::EXCHANGE_BYTES / (Policy::THREADS * UNIT)));
  static constexpr int THREADS = Policy::THREADS;
  static constexpr int TILE = THREADS * ITEMS;
  static_assert(static_cast<long long>(Policy::PORTION_TILES) * TILE < (1ll << 30),
                "a portion must hold fewer than 2^30 keys (30-bit look-back counts)");
};

}  // namespace detail
}  // namespace ringsweep
