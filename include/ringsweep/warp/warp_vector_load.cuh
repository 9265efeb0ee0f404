// warp_vector_load: a warp-striped load made of 16-byte vector loads, rearranged through a small
// shared-memory stage so that every lane ends up with the items a plain warp-striped load gives it.
#pragma once

#include "../detail/config.cuh"
#include "../detail/load_store.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Loads `ITEMS` items per lane of a full warp segment with vector loads, in warp-striped order:
/// lane `l` item `k` holds `seg[k * 32 + l]`, exactly as `load_warp_striped`, which the stable
/// match ranking needs (equal digits are ranked by item, then by lane).
///
/// A vector gives a lane `VEC` consecutive items, so the warp loads a chunk of `32 x VEC` items
/// (one vector per lane, 512 contiguous bytes), writes it to its stage, and reads it back
/// striped; `VEC` times fewer load instructions and memory requests than `load_warp_striped` for
/// one shared store and `VEC` shared loads per chunk (1- and 2-byte items gain the most). Items
/// past the last whole chunk (`ITEMS % VEC`) are loaded striped directly. Requirements: the whole
/// segment is valid, `seg` is aligned to 16 bytes, all 32 lanes call it, `sizeof(T)` divides 16.
///
///     using load_t = warp_vector_load<u32, 20>;
///     __shared__ load_t::TempStorage stage[WARPS];   // 512 bytes per warp
///     u32 keys[20];
///     if (valid >= 32 * 20 && load_t::aligned(seg)) load_t::load(stage[warp], seg, lane_id(), keys);
///     else load_warp_striped(seg, lane_id(), valid, keys);
template <class T, int ITEMS>
struct warp_vector_load {
  static_assert(16 % sizeof(T) == 0, "item size must divide 16 bytes");
  /// Items per vector: 16 bytes' worth, fewer when ITEMS is smaller (a power of two).
  static constexpr int VEC = [] {
    int v = int(16 / sizeof(T));
    while (v > 1 && v > ITEMS) v /= 2;
    return v;
  }();
  static constexpr int CHUNKS = ITEMS / VEC;  // staged chunks of 32 x VEC items
  static constexpr int STAGED = CHUNKS * VEC;  // items that travel through the stage
  using word_t = typename vector_word<VEC * int(sizeof(T))>::type;

  /// One warp's stage: one vector per lane.
  struct TempStorage {
    word_t words[warp_threads];
  };

  /// Whether `p` may start a vector-loaded segment (host code may ask too).
  __host__ __device__ __forceinline__ static bool aligned(const T* p) {
    return (reinterpret_cast<unsigned long long>(p) & 15u) == 0;
  }

  /// This lane's items of the warp's segment, warp-striped (`LOAD`: as for `load_global`).
  template <int LOAD = load_cached>
  __device__ __forceinline__ static void load(TempStorage& stage, const T* seg, u32 lane, T (&items)[ITEMS]) {
    if constexpr (VEC == 1) {
      load_warp_striped<LOAD>(seg, lane, ITEMS * warp_threads, items);
    } else {
      // All vector loads first, so that their latencies overlap; then the rearrangement.
      word_t words[CHUNKS];
      const word_t* src = reinterpret_cast<const word_t*>(seg);
RINGSWEEP_UNROLL
      for (int c = 0; c < CHUNKS; ++c) words[c] = load_global<LOAD>(src + c * warp_threads + int(lane));
RINGSWEEP_UNROLL
      for (int k = STAGED; k < ITEMS; ++k) items[k] = load_global<LOAD>(seg + k * warp_threads + int(lane));
      const T* staged = reinterpret_cast<const T*>(stage.words);
RINGSWEEP_UNROLL
      for (int c = 0; c < CHUNKS; ++c) {
        if (c > 0) __syncwarp();  // every lane has read the previous chunk
        stage.words[lane] = words[c];
        __syncwarp();
        // Chunk item c * 32 * VEC + j * 32 + l (lane l's j-th striped item of the chunk) was
        // written by lane (j * 32 + l) / VEC as its element (j * 32 + l) % VEC.
RINGSWEEP_UNROLL
        for (int j = 0; j < VEC; ++j) items[c * VEC + j] = staged[j * warp_threads + int(lane)];
      }
      __syncwarp();  // the stage may be reused as soon as this returns
    }
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
