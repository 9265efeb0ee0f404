// tile_shape: a policy's onesweep shape for one (key, value) combination, as compile-time
// constants. Read through sort_config, the one place a sort's shape is derived.
#pragma once

#include "config.cuh"
#include "policy_vocabulary.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The onesweep (and single-tile) shape of one (policy, key size, value size; 0 for keys only,
/// float key or not), as compile-time constants.
template <class Policy, int KeyBytes, int ValueBytes, bool FloatKey = false>
struct tile_shape {
  static constexpr onesweep_shape shape = Policy::onesweep(sort_types{KeyBytes, ValueBytes, FloatKey});
  static constexpr int THREADS = shape.threads;
  static constexpr int ITEMS = shape.items;
  static constexpr int TILE = THREADS * ITEMS;
  static constexpr int MIN_BLOCKS = shape.min_blocks;
  static constexpr bool RECOMPUTE_DIGITS = shape.recompute_digits;
  static constexpr bool FUSED_EXCHANGE = shape.exchange_in_ranking;
  static constexpr bool EARLY_VALUES = shape.values_before_lookback;
  static constexpr int VECTOR_LOAD_ITEM_BYTES = shape.vector_load_item_bytes;
  static constexpr int LOOKBACK_WINDOW = shape.lookback_words > 0 ? shape.lookback_words : Policy::LOOKBACK_WINDOW;
  static_assert(LOOKBACK_WINDOW >= 1 && LOOKBACK_WINDOW <= 32, "look-back window: 1 to 32 words");
  static constexpr int PREFETCH_BINS = shape.bins_prefetch >= 0 ? shape.bins_prefetch : Policy::PREFETCH_BINS;
  static_assert(PREFETCH_BINS >= 0 && PREFETCH_BINS <= 2, "prefetch_bins: 0, 1 or 2");
  static constexpr int PIPELINE_STAGES = shape.pipeline > 0 ? shape.pipeline : Policy::PIPELINE_STAGES;
  static_assert(PIPELINE_STAGES == 1 || PIPELINE_STAGES == 2, "pipeline_stages: 1 or 2");
  static_assert(THREADS % warp_threads == 0 && THREADS <= 1024, "onesweep threads: whole warps, at most 1024");
  static_assert(ITEMS >= 1, "at least one key per thread");
  static_assert(MIN_BLOCKS >= 1, "blocks per SM: at least one");
  static_assert(static_cast<long long>(Policy::PORTION_TILES) * TILE < (1ll << 30),
                "a portion must hold fewer than 2^30 keys (30-bit look-back counts)");
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
