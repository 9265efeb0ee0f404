// The temporary storage of a sort: its pieces' offsets and the size a query reports.
#pragma once

#include <cstddef>
#include <cstdint>

#include "config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

constexpr std::size_t temp_alignment = 256;

__host__ inline std::size_t align_up(std::size_t x) {
  return (x + temp_alignment - 1) / temp_alignment * temp_alignment;
}

/// Byte offsets of the pieces of the temporary storage (each 256-byte aligned, from an aligned
/// base), and the size a query reports (including up to 255 bytes to align a caller's pointer).
/// One layout for the plain and the segmented sorts: the zeroed pieces first (digit counts, next
/// portion's bins, counters, status ring), then the segmented sort's lists, then scratch.
struct temp_layout {
  std::size_t status = 0;    // circular look-back status buffer
  std::size_t counts = 0;    // passes x RADIX digit counts (segmented: per large segment), scanned into bins
  std::size_t pingpong = 0;  // passes x 2 x RADIX bins of the next portion
  std::size_t counters = 0;  // ticket, bins-scan count, tail iterator's words (from word 32), routes
  std::size_t cleared = 0;   // bytes from the base zeroed before the passes (at most; see status_used; a
                             // segmented sort's memset takes only its counters, its histogram the rest)
  std::size_t items = 0;     // segmented: segment_lists::items (0 bytes: none)
  std::size_t large = 0;     // segmented: segment_lists::large
  std::size_t keys_alt = 0;  // in/out forms: scratch keys (0: none)
  std::size_t values_alt = 0;
  std::size_t bytes = temp_alignment;

  /// The layout of a onesweep sort of `passes` passes: digit counts and next-portion bins of
  /// `radix` 8-byte words per pass, `counter_words` 32-bit counters, a status ring of
  /// `status_bytes` (last of the zeroed pieces, so that a sort using only the ring's first slots
  /// zeroes only those: `cleared_for`), then scratch arrays of `scratch_keys` and
  /// `scratch_values` bytes (0: none).
  ///
  ///     temp_layout l = temp_layout::onesweep(ring_bytes, 4, 256, 80, n * 4, 0);
  __host__ static temp_layout onesweep(std::size_t status_bytes, int passes, int radix, int counter_words,
                                       std::size_t scratch_keys, std::size_t scratch_values) {
    return build(status_bytes, std::size_t(passes) * std::size_t(radix) * 8, true, passes, radix, counter_words, 0,
                 0, scratch_keys, scratch_values);
  }

  /// The layout of a segmented sort: as a onesweep sort's, with the digit counts of `large_max`
  /// large segments after the zeroed pieces (the classification zeroes those of the segments that
  /// exist: a call whose segments are all small clears nothing proportional to them), the ring
  /// and bins only when it may have a large one (`large_max > 0`; zeroed by the large segments'
  /// histogram when one exists, the host zeroing only the counters), then the segment lists
  /// (`items_bytes`, `large_bytes`), which the classification fills.
  ///
  ///     temp_layout l = temp_layout::segmented(ring_bytes, 4, 256, 80, 3, segments * 8, 3 * 24, 0, 0);
  __host__ static temp_layout segmented(std::size_t status_bytes, int passes, int radix, int counter_words,
                                        std::size_t large_max, std::size_t items_bytes, std::size_t large_bytes,
                                        std::size_t scratch_keys, std::size_t scratch_values) {
    const bool large = large_max != 0;
    return build(large ? status_bytes : 0, large_max * std::size_t(passes) * std::size_t(radix) * 8, false,
                 large ? passes : 0, radix, counter_words, items_bytes, large_bytes, scratch_keys, scratch_values);
  }

 private:
  __host__ static temp_layout build(std::size_t status_bytes, std::size_t counts_bytes, bool counts_zeroed,
                                    int pingpong_passes, int radix, int counter_words, std::size_t items_bytes,
                                    std::size_t large_bytes, std::size_t scratch_keys, std::size_t scratch_values) {
    temp_layout l;
    std::size_t at = 0;
    const auto take = [&at](std::size_t& piece, std::size_t piece_bytes) {
      piece = at;
      at += align_up(piece_bytes);
    };
    if (counts_zeroed) take(l.counts, counts_bytes);
    take(l.pingpong, std::size_t(pingpong_passes) * 2 * std::size_t(radix) * 8);
    take(l.counters, std::size_t(counter_words) * 4);
    take(l.status, status_bytes);
    l.cleared = at;
    if (!counts_zeroed) take(l.counts, counts_bytes);
    if (items_bytes != 0) take(l.items, items_bytes);
    if (large_bytes != 0) take(l.large, large_bytes);
    if (scratch_keys != 0) take(l.keys_alt, scratch_keys);
    if (scratch_values != 0) take(l.values_alt, scratch_values);
    l.bytes = at + temp_alignment;  // room to align the caller's pointer
    return l;
  }
};

/// Bytes from the base a onesweep sort zeroes when it uses only the first `status_used` bytes of
/// the status ring (the pieces before the ring, then that much of it).
__host__ inline std::size_t cleared_for(const temp_layout& l, std::size_t status_used) {
  return l.status + status_used < l.cleared ? l.status + status_used : l.cleared;
}

/// Piece `offset` of the caller's temporary storage `temp` (aligned first, as the layout assumes).
///
///     u64* status = temp_piece<u64>(d_temp, layout.status);
template <class T>
__host__ inline T* temp_piece(void* temp, std::size_t offset) {
  return reinterpret_cast<T*>(align_up(reinterpret_cast<std::uintptr_t>(temp)) + offset);
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
