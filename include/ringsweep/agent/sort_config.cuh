// sort_config: everything a sort of one (policy, key, value) derives from its policy, computed once
// and read by the host dispatch and the kernels alike: the tile shape, the status ring, look-back
// and tail iterator, the word types, the temporary-storage layout and the pass plan.
#pragma once

#include <cstddef>
#include <type_traits>

#include "../detail/config.cuh"
#include "../detail/digit_window.cuh"
#include "../detail/sort_window.cuh"
#include "../detail/load_store.cuh"
#include "../detail/policy_check.cuh"
#include "../detail/sort_hooks.cuh"
#include "../detail/temp_layout.cuh"
#include "../detail/tile_shape.cuh"
#include "../key_traits.cuh"
#include "../lookback/circular_status_buffer.cuh"
#include "../lookback/decoupled_lookback.cuh"
#include "../lookback/tail_iterator.cuh"
#include "../sort_options.cuh"
#include "pass_route.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Which algorithm a sort runs.
enum class sort_path { nothing, copy, single_tile, onesweep };

/// Resolved and checked arguments of one call (sort_config::make_plan).
template <class Key>
struct sort_plan {
  std::size_t n = 0;
  sort_window window;  // bits, direction and passes, resolved once (sort_window::resolve)
  sort_path path = sort_path::nothing;
  temp_layout layout;
  key_context<Key> context;  // what the digit extractors need besides the window (custom keys)
};

/// The tail iterator of a sort run with `Hooks`: the library's, or `Hooks::tail<S, L, TAIL_BITS>`
/// where the hooks name one (the tuning program's retire before/after measurement).
template <class Hooks, int S, int L, int TAIL_BITS, class = void>
struct hooks_tail {
  using type = tail_iterator<S, L, TAIL_BITS>;
};
template <class Hooks, int S, int L, int TAIL_BITS>
struct hooks_tail<Hooks, S, L, TAIL_BITS, std::void_t<typename Hooks::template tail<S, L, TAIL_BITS>>> {
  using type = typename Hooks::template tail<S, L, TAIL_BITS>;
};

/// The configuration of a sort of `Key` (and `Value`; `null_value` for keys only) with `Policy`
/// and the test or measurement hooks `Hooks` (no_hooks in every shipped sort). Made once, where
/// the policy is chosen (radix_sort), it is the only template argument of the dispatch and of
/// every kernel and agent below it that depends on the policy (kernels that move data only take
/// their word types).
///
///     using config = sort_config<policy_sm90, float, null_value>;
///     static_assert(config::TILE == 384 * 24, "");
///     sort_plan<float> p;
///     cudaError_t e = config::make_plan(n, opts, /*in_out=*/true, p);
template <class Policy, class Key, class Value, class Hooks = no_hooks>
struct sort_config {
  static_assert(policy_check<Policy>::ok, "");
  using policy = Policy;
  using key_type = Key;
  using value_type = Value;  // null_value: keys only
  using hooks = Hooks;
  /// The same sort without hooks: kernels that have no hook (the small sorts) take it, so a
  /// sort with hooks shares them with the plain one.
  using unhooked = sort_config<Policy, Key, Value, no_hooks>;
  /// The keys-only sort of the same keys: kernels that read keys only (the histograms) take it,
  /// so keys and pairs sorts share them.
  using keys_only = sort_config<Policy, Key, null_value, no_hooks>;
  using traits = key_traits<Key>;
  using bits_type = typename traits::bits_type;
  static constexpr bool HAS_VALUES = !std::is_same<Value, null_value>::value;
  /// The values are the keys' input positions, made where they would be read (argsort).
  static constexpr bool INDEX_VALUES = is_index_values<Value>::value;
  static_assert(!HAS_VALUES || std::is_trivially_copyable<Value>::value,
                "ringsweep: values must be trivially copyable");
  // Values of other sizes never reach a sort_config: the plain and segmented sorts move them by a
  // gather after sorting their positions (device/value_gather.cuh); the sorts that do not (top-k,
  // host-resident, distributed) stop here.
  static_assert(!HAS_VALUES || value_moves_whole<Value>::value,
                "ringsweep: this sort moves values of 1, 2, 4, 8 or 16 bytes (sort_pairs and the segmented sorts "
                "take values of any size)");
  /// How values move (words of their alignment); a one-byte stand-in for keys only.
  using value_raw_t = value_raw<Value>;
  static_assert(!HAS_VALUES || sizeof(value_raw_t) == sizeof(Value), "value size is not a multiple of its alignment");

  // The onesweep and single-tile shape.
  using shape = tile_shape<Policy, int(sizeof(bits_type)), HAS_VALUES ? int(sizeof(value_raw_t)) : 0,
                           !traits::image_is_xor>;
  static constexpr int THREADS = shape::THREADS;
  static constexpr int ITEMS = shape::ITEMS;
  static constexpr int TILE = shape::TILE;
  static constexpr int RADIX_BITS = Policy::RADIX_BITS;
  static constexpr int RADIX = 1 << RADIX_BITS;
  /// Digit passes of a sort of the whole key.
  static constexpr int MAX_PASSES = (int(traits::bits) + RADIX_BITS - 1) / RADIX_BITS;
  static constexpr int PORTION_TILES = Policy::PORTION_TILES;
  static constexpr int PORTION_KEYS = PORTION_TILES * TILE;
  /// The onesweep kernel is persistent and pipelined (the shape's, else the policy's PIPELINE_STAGES).
  static constexpr bool PIPELINED = shape::PIPELINE_STAGES > 1;

  // The status ring, the look-back over it and the tail iterator that frees its slots.
  using status_ring = circular_status_buffer<RADIX, Policy::STATUS_SLOTS>;
  /// The look-back of a pass run with cache hints (`HINTS`: evict-last status words) or without.
  template <bool HINTS>
  using lookback_hinted_t =
      decoupled_lookback<RADIX, Policy::STATUS_SLOTS, Policy::LOOKBACK_DEPTH, shape::LOOKBACK_WINDOW, HINTS>;
  using lookback_t = lookback_hinted_t<false>;
  using tail_t = typename hooks_tail<Hooks, Policy::STATUS_SLOTS, Policy::LOOKBACK_DEPTH, Policy::TAIL_BITS>::type;

  // The counters piece of the temporary storage, in 32-bit words: the tile ticket, the bins
  // scan's count of finished blocks, the histogram's sorted-input flag (nonzero: a key is out of
  // order), the tail iterator's words, then the pass routes.
  static constexpr int COUNTER_TICKET = 0;
  static constexpr int COUNTER_SCAN_DONE = 1;
  static constexpr int COUNTER_UNSORTED = 2;
  static constexpr int COUNTER_TAILS = 32;
  static constexpr int COUNTER_ROUTES = COUNTER_TAILS + tail_t::WORDS_PER_SORT;

  /// Whether a sort of `n` keys runs its onesweep passes with cache hints on a device with
  /// `l2_bytes` of L2 (the policy's CACHE_HINTS): one pass's input and output,
  /// 2 x n x (key + value bytes), exceed CACHE_HINTS_L2_PERCENT percent of it.
  __host__ static constexpr bool cache_hints(std::size_t n, long long l2_bytes) {
    constexpr std::size_t item_bytes = sizeof(bits_type) + (HAS_VALUES ? sizeof(value_raw_t) : 0);
    // n x item_bytes x 200 > l2_bytes x percent, without overflow (n is an integer).
    return Policy::CACHE_HINTS && l2_bytes > 0 &&
           n > (unsigned long long)(l2_bytes) * unsigned(Policy::CACHE_HINTS_L2_PERCENT) / (200u * item_bytes);
  }

  /// Checks `n` and the options and fills the plan: path, passes and the temporary storage
  /// (`in_out` adds scratch arrays for the keys and values when two or more passes run).
  /// cudaErrorInvalidValue for a bad window or order, or an `n` whose bytes overflow std::size_t.
  __host__ static cudaError_t make_plan(std::size_t n, const sort_options& opts, bool in_out, sort_plan<Key>& p) {
    if (!sort_window::resolve(opts, traits::bits, RADIX_BITS, p.window)) return cudaErrorInvalidValue;
    // A count whose bytes (keys, values and the fixed pieces of any layout) overflow std::size_t.
    constexpr std::size_t item_bytes = sizeof(bits_type) + (HAS_VALUES ? sizeof(value_raw_t) : 0);
    if (n > (~std::size_t(0) - (std::size_t(1) << 26)) / item_bytes) return cudaErrorInvalidValue;
    p.n = n;
    if (n == 0) {
      p.path = sort_path::nothing;
    } else if (p.window.passes == 0) {
      p.path = in_out ? sort_path::copy : sort_path::nothing;
    } else if (n <= std::size_t(TILE)) {
      p.path = sort_path::single_tile;
    } else {
      p.path = sort_path::onesweep;
    }
    if (p.path == sort_path::onesweep) {
      const int passes = p.window.passes;
      const bool scratch = in_out && passes >= 2;
      p.layout = temp_layout::onesweep(status_ring::bytes, passes, RADIX, COUNTER_ROUTES + route_words(passes),
                                       scratch ? n * sizeof(bits_type) : 0,
                                       scratch && HAS_VALUES ? n * sizeof(value_raw_t) : 0);
    } else {
      p.layout = temp_layout{};
    }
    return cudaSuccess;
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
