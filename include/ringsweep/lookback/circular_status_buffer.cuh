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
/// A digit's words form a column, `column(d)`: one 64-bit pointer, made once per digit and tile,
/// from which a slot's word is a 32-bit offset (`at`), so that a reader spends no 64-bit
/// arithmetic per word (a writer, once per tile, indexes `words` with one 32-bit index).
///
///     circular_status_buffer<256, 1024> status{d_words};
///     status.publish(g, d, status_word::aggregate, count);
///     const u64* p = status.at(status.column(d), status.slot(g_before));
///     u64 w = status.wait(p, g_before, status_word::aggregate);   // spins until published
template <int RADIX, int STATUS_SLOTS, bool KEEP = false>
struct circular_status_buffer {
  static constexpr std::size_t bytes = std::size_t(STATUS_SLOTS) * RADIX * sizeof(u64);
  static_assert(std::size_t(STATUS_SLOTS) * RADIX < (std::size_t(1) << 32), "a slot's offset is 32-bit");

  u64* words;

  /// Digit `digit`'s word of slot 0; slot s's is `RADIX * s` words further (`at`).
  __device__ __forceinline__ u64* column(int digit) const { return words + u32(digit); }
  __device__ __forceinline__ static u32 slot(u32 tile) { return tile % u32(STATUS_SLOTS); }
  template <class T>
  __device__ __forceinline__ static T* at(T* column, u32 slot) { return column + slot * u32(RADIX); }

  __device__ __forceinline__ void publish(u32 tile, int digit, u32 flag, u32 count) const {
    // One 32-bit index (a 64-bit one costs 3 instructions more); with a power-of-two RADIX the
    // digit fills the offset's low bits, an OR that folds into the slot's mask.
    const u32 offset = slot(tile) * u32(RADIX);
    const u32 index = (RADIX & (RADIX - 1)) == 0 ? offset | u32(digit) : offset + u32(digit);
    store(words + index, status_word::pack(flag, count, tile));
  }

  /// One relaxed read of a status word (possibly stale or unpublished).
  __device__ __forceinline__ static u64 peek(const u64* p) { return load(p); }

  /// Spins until the word at `p`, `tile`'s slot, is `tile`'s with a flag of at least `flag`
  /// (`aggregate`: published; `inclusive`: its inclusive count) and returns it; adds the polls that
  /// found nothing (at most 64, the caller's failed poll first) to `*polls` when given. The
  /// look-back's only wait: its caller polls once itself and calls this when that poll fails.
  __device__ __forceinline__ static u64 wait(const u64* p, u32 tile, u32 flag, u32* polls = nullptr) {
    u32 pause = 0;
    for (;;) {
      backoff(pause);
      const u64 w = load(p);
      if (status_word::tile(w) == tile && status_word::flag(w) >= flag) {
        if (polls != nullptr) *polls += pause;
        return w;
      }
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
