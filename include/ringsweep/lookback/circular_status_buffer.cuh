// circular_status_buffer: STATUS_SLOTS slots of RADIX status words, reused round-robin by tiles.
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"
#include "status_word.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Status words of global tile `g` live in slot `g % STATUS_SLOTS`, at `words[slot * RADIX + digit]`.
/// The buffer is zeroed once per sort; afterwards a slot is stale, not empty, when it holds an
/// older tile, which readers recognise by the tile index in the word.
///
/// Flag, count and tile index share one 64-bit word, so a reader needs nothing published before
/// it: loads and stores are relaxed (an acquire load costs an L1 invalidation on the GPU, on the
/// look-back's critical path). Reuse of a slot is ordered by the tail iterator instead. With
/// `KEEP` every access carries an evict-last L2 hint (`load_relaxed_keep`, `store_relaxed_keep`),
/// for passes whose keys stream through L2 (the policy's CACHE_HINTS).
///
///     circular_status_buffer<256, 1024> status{d_words};
///     status.publish(g, d, status_word::aggregate, count);
///     u64 w = status.wait(g_before, d);   // spins until tile g_before has published digit d
template <int RADIX, int STATUS_SLOTS, bool KEEP = false>
struct circular_status_buffer {
  static constexpr std::size_t bytes = std::size_t(STATUS_SLOTS) * RADIX * sizeof(u64);

  u64* words;

  __device__ __forceinline__ u64* entry(u32 tile, int digit) const {
    return words + std::size_t(tile % u32(STATUS_SLOTS)) * RADIX + digit;
  }

  __device__ __forceinline__ void publish(u32 tile, int digit, u32 flag, u32 count) const {
    store(entry(tile, digit), status_word::pack(flag, count, tile));
  }

  /// One relaxed read of the word `tile` publishes for `digit` (possibly stale or unpublished).
  __device__ __forceinline__ u64 peek(u32 tile, int digit) const { return load(entry(tile, digit)); }

  /// Whether `w`, read from the slot of `tile`, is `tile`'s published word (either flag).
  __device__ __forceinline__ static bool published(u64 w, u32 tile) {
    return status_word::tile(w) == tile && status_word::flag(w) != status_word::invalid;
  }

  /// Spins until `tile` has published `digit` (either flag) and returns the word; adds the polls
  /// that found nothing (at most 64) to `*polls` when given.
  __device__ __forceinline__ u64 wait(u32 tile, int digit, u32* polls = nullptr) const {
    const u64* p = entry(tile, digit);
    u32 pause = 0;
    for (;;) {
      const u64 w = load(p);
      if (status_word::tile(w) == tile && status_word::flag(w) != status_word::invalid) {
        if (polls != nullptr) *polls += pause;
        return w;
      }
      backoff(pause);
    }
  }

  /// Spins until `tile` has published its inclusive count of `digit` and returns the word; adds
  /// the polls that found nothing (at most 64) to `*polls` when given.
  __device__ __forceinline__ u64 wait_inclusive(u32 tile, int digit, u32* polls = nullptr) const {
    const u64* p = entry(tile, digit);
    u32 pause = 0;
    for (;;) {
      const u64 w = load(p);
      if (status_word::tile(w) == tile && status_word::flag(w) == status_word::inclusive) {
        if (polls != nullptr) *polls += pause;
        return w;
      }
      backoff(pause);
    }
  }

 private:
  /// The relaxed load and store of a status word, with the evict-last hint where `KEEP` asks.
  __device__ __forceinline__ static u64 load(const u64* p) {
    if constexpr (KEEP) {
      return load_relaxed_keep(p);
    } else {
      return load_relaxed(p);
    }
  }
  __device__ __forceinline__ static void store(u64* p, u64 w) {
    if constexpr (KEEP) {
      store_relaxed_keep(p, w);
    } else {
      store_relaxed(p, w);
    }
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
