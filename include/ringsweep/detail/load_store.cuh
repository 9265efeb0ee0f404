// Every global load and store of keys and values in ringsweep kernels goes through these helpers
// (so that traffic can be counted in one place). Keys travel as their unsigned bits, values as
// `value_words` of their size and alignment. The helpers a onesweep pass uses take `STREAM`
// (default false; loads: `LOAD`, below): true where the pass's data cannot stay in L2 (the
// policy's CACHE_HINTS, decided per sort by the host), which makes the GPU's loads and stores of
// whole key and value words evict-first (intrinsics.cuh); the SIMT backend counts the same
// accesses either way.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "config.cuh"
#include "intrinsics.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

template <class T>
struct is_hintable_word
    : std::integral_constant<bool, std::is_same<T, unsigned char>::value || std::is_same<T, unsigned short>::value ||
                                       std::is_same<T, unsigned int>::value ||
                                       std::is_same<T, unsigned long long>::value || std::is_same<T, uint4>::value> {};

/// A value's bytes as words of its alignment (at most 16 bytes), moved without interpreting them.
template <int Bytes, int Align>
struct value_words {
  static constexpr int WORD = Align >= 16 ? 16 : Align;
  using word_type = typename std::conditional<WORD == 16, uint4, typename uint_of_size<WORD == 16 ? 8 : WORD>::type>::type;
  static constexpr int WORDS = Bytes / WORD;
  static_assert(Bytes % WORD == 0, "value size must be a multiple of its alignment");
  word_type w[WORDS];
};

/// Raw storage of `Value`, for a kernel that moves values but never reads them.
template <class Value>
using value_raw = value_words<int(sizeof(Value)), int(alignof(Value) < sizeof(Value) ? alignof(Value) : sizeof(Value))>;

/// Whether the sorts' tiles move `Value` whole: values of 1, 2, 4, 8 or 16 bytes (the tile shapes
/// and the kernels' instruction budgets are made for those), the keys-only stand-in and argsort's
/// positions. Any other trivially copyable value is sorted as its key's input position and moved
/// once afterwards (device/value_gather.cuh).
template <class Value>
struct value_moves_whole
    : std::integral_constant<bool, sizeof(Value) == 1 || sizeof(Value) == 2 || sizeof(Value) == 4 ||
                                       sizeof(Value) == 8 || sizeof(Value) == 16> {};

/// Stand-in value type of a keys-only sort.
struct null_value {
  unsigned char unused;
};

/// Value type of an argsort: each key's input position as an `Index` (4 or 8 bytes), made by the
/// sort where it would read a value (no index array is read).
template <class Index>
struct index_values {
  Index index;
};

/// Whether a sort's value type is generated input positions (index_values).
template <class Value>
struct is_index_values : std::false_type {};
template <class Index>
struct is_index_values<index_values<Index>> : std::true_type {};

/// The raw value holding input position `i` (its low `sizeof(ValueRaw)` bytes, little-endian).
template <class ValueRaw>
__host__ __device__ __forceinline__ ValueRaw index_value(unsigned long long i) {
  static_assert(sizeof(ValueRaw) == 4 || sizeof(ValueRaw) == 8, "argsort indices are 4 or 8 bytes");
  ValueRaw v;
  if constexpr (sizeof(ValueRaw) == 4) {
    const unsigned int w = static_cast<unsigned int>(i);
    std::memcpy(static_cast<void*>(&v), &w, 4);
  } else {
    std::memcpy(static_cast<void*>(&v), &i, 8);
  }
  return v;
}

/// Reports one global access to the SIMT backend's traffic counters (nothing elsewhere).
__device__ __forceinline__ void trace_global(const void* p, unsigned bytes, bool is_store) {
#if defined(RINGSWEEP_SIMT_BACKEND)
  __simt_trace_global(p, bytes, is_store);
#else
  (void)p;
  (void)bytes;
  (void)is_store;
#endif
}

/// How a kernel loads key and value words (`LOAD`, a template argument; `true` and `false` are
/// `load_stream` and `load_cached`): `load_cached`, words the kernel never writes, by the
/// non-coherent path; `load_stream`, the same not kept in L1 and evict-first in L2; and
/// `load_coherent`, words an earlier part of the same kernel may have written (a chain of
/// onesweep launches in one kernel), through L2 only (`ld.global.cg`: an SM's L1 may still hold
/// what it read of the buffer before).
enum : int { load_cached = 0, load_stream = 1, load_coherent = 2 };

/// Load of one key word from global memory; cache hints on the GPU (read once per pass; with
/// `load_stream` not kept in L1 and evict-first in L2; `load_coherent` from L2).
template <int LOAD = load_cached, class T>
__device__ __forceinline__ T load_global(const T* p) {
#ifdef __CUDA_ARCH__
  if constexpr (is_hintable_word<T>::value) {
    if constexpr (LOAD == load_stream) {
      return load_streaming(p);
    } else if constexpr (LOAD == load_coherent) {
      return __ldcg(p);
    } else {
      return __ldg(p);
    }
  } else {
    return *p;
  }
#else
  trace_global(p, unsigned(sizeof(T)), false);
  return *p;
#endif
}

/// A second read of one key word another access of the same kernel reads anyway (sorted-input
/// detection's tile edges: one key per histogram tile): an L1 or L2 hit on a GPU, so the SIMT
/// backend's traffic count, which stands for the memory system's requests, leaves it out.
template <class T>
__device__ __forceinline__ T peek_global(const T* p) {
  return *p;
}

/// Store of one key word to global memory (with `STREAM` evict-first on the GPU).
template <bool STREAM = false, class T>
__device__ __forceinline__ void store_global(T* p, T v) {
#ifdef __CUDA_ARCH__
  if constexpr (STREAM && is_hintable_word<T>::value) {
    store_streaming(p, v);
    return;
  }
#else
  trace_global(p, unsigned(sizeof(T)), true);
#endif
  *p = v;
}

template <int LOAD = load_cached, int Bytes, int Align>
__device__ __forceinline__ value_words<Bytes, Align> load_global(const value_words<Bytes, Align>* p) {
  value_words<Bytes, Align> v;
RINGSWEEP_UNROLL
  for (int i = 0; i < value_words<Bytes, Align>::WORDS; ++i) v.w[i] = load_global<LOAD>(&p->w[i]);
  return v;
}

template <bool STREAM = false, int Bytes, int Align>
__device__ __forceinline__ void store_global(value_words<Bytes, Align>* p, const value_words<Bytes, Align>& v) {
RINGSWEEP_UNROLL
  for (int i = 0; i < value_words<Bytes, Align>::WORDS; ++i) store_global<STREAM>(&p->w[i], v.w[i]);
}

/// Starts the copy of `count` items of `src` (global) to `dst` (shared, 16-byte aligned) by the
/// block's `THREADS` threads: 16-byte asynchronous copies (async_copy_16) where `src` is 16-byte
/// aligned, the bytes past the last whole 16 (and everything when `src` is not aligned) by plain
/// loads and shared stores, which are visible after the block barrier that follows the batch's
/// wait. The caller commits the batch.
///
///     block_copy_to_shared<384>(stage, tile_keys, valid);
///     async_copy_commit();
template <int THREADS, class T>
__device__ __forceinline__ void block_copy_to_shared(T* dst, const T* src, int count) {
  int synchronous_from = 0;
  if (reinterpret_cast<std::uintptr_t>(src) % 16 == 0 && 16 % sizeof(T) == 0) {
    constexpr int PER = 16 / int(sizeof(T));
    const int chunks = count / PER;
    uint4* d = reinterpret_cast<uint4*>(dst);
    const uint4* s = reinterpret_cast<const uint4*>(src);
    for (int c = int(threadIdx.x); c < chunks; c += THREADS) {
      trace_global(s + c, 16u, false);
      async_copy_16(d + c, s + c);
    }
    synchronous_from = chunks * PER;
  }
  for (int i = synchronous_from + int(threadIdx.x); i < count; i += THREADS) dst[i] = load_global(src + i);
}

/// Starts the copy of `count` items of `src` (global) to `dst` (shared, 16-byte aligned) as one
/// bulk copy by thread 0 completing on the mbarrier `bar` (which must expect one arrival per
/// phase: thread 0 makes it, announcing the bytes), where `src` is 16-byte aligned: the bytes past
/// the last whole 16 (and everything when `src` is not aligned) by plain loads and shared stores of
/// the block's `THREADS` threads, visible after a block barrier. The phase completes without bulk
/// bytes too (an arrival announcing none). Only where has_bulk_copy().
///
///     block_bulk_copy_to_shared<384>(stage, tile_keys, valid, &bar);
///     ...
///     while (!mbarrier_try_wait_parity(&bar, phase & 1)) backoff(pause);
///     __syncthreads();
template <int THREADS, class T>
__device__ __forceinline__ void block_bulk_copy_to_shared(T* dst, const T* src, int count, u64* bar) {
  int plain_from = 0;
  if (reinterpret_cast<std::uintptr_t>(src) % 16 == 0 && 16 % sizeof(T) == 0) {
    constexpr int PER = 16 / int(sizeof(T));
    plain_from = count / PER * PER;
  }
  if (threadIdx.x == 0) {
    const u32 bytes = u32(plain_from) * u32(sizeof(T));
    fence_proxy_async_shared();  // the stage's earlier reads come before the engine's writes
    mbarrier_arrive_expect_tx(bar, bytes);
    if (bytes != 0) {
      trace_global(src, bytes, false);
      bulk_copy_to_shared(dst, src, bytes, bar);
    }
  }
  for (int i = plain_from + int(threadIdx.x); i < count; i += THREADS) dst[i] = load_global(src + i);
}

/// Warp-striped load of `ITEMS` items per lane: lane `l` item `k` reads `seg[k * 32 + l]`, for the
/// first `valid` items of the segment (pass `valid >= 32 * ITEMS` for a full segment); the rest are
/// set to `fill`. `LOAD`: as for `load_global`.
///
///     u32 keys[4];
///     load_warp_striped(tile + warp * 128, lane_id(), 128, keys);
template <int LOAD = load_cached, int ITEMS, class T>
__device__ __forceinline__ void load_warp_striped(const T* seg, u32 lane, int valid, T (&items)[ITEMS],
                                                  const T& fill = T{}) {
  if (valid >= ITEMS * warp_threads) {
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) items[k] = load_global<LOAD>(seg + k * warp_threads + lane);
  } else if constexpr (sizeof(T) >= 4) {
    // sass: cold
    // (A partial segment: off the full-tile path of bench/report/sass_phases.py, to `end` below.)
    // One base and constant offsets, as in the whole-segment loop: an address per item (a signed
    // index widened for each) cost registers, and 384 x 22 keys at 56 registers spilled here.
    const T* const base = seg + lane;
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      const int i = k * warp_threads + int(lane);
      items[k] = i < valid ? load_global<LOAD>(base + k * warp_threads) : fill;
    }
  } else {
    // 1- and 2-byte items: the base form cost u16 keys 1.1 SASS instructions per key (sm_90).
RINGSWEEP_UNROLL
    for (int k = 0; k < ITEMS; ++k) {
      const int i = k * warp_threads + int(lane);
      items[k] = i < valid ? load_global<LOAD>(seg + i) : fill;
    }
    // sass: end
  }
}

/// Warp-striped store, the inverse of `load_warp_striped`.
template <bool STREAM = false, int ITEMS, class T>
__device__ __forceinline__ void store_warp_striped(T* seg, u32 lane, int valid, const T (&items)[ITEMS]) {
RINGSWEEP_UNROLL
  for (int k = 0; k < ITEMS; ++k) {
    const int i = k * warp_threads + int(lane);
    if (i < valid) store_global<STREAM>(seg + i, items[k]);
  }
}

/// The unsigned word (or `uint4`) of `Bytes` bytes, for vector loads.
template <int Bytes>
struct vector_word {
  using type = typename uint_of_size<Bytes>::type;
};
template <>
struct vector_word<16> {
  using type = uint4;
};

/// Keys per vector load of a `T` array: up to 16 bytes, and a power of two that divides `ITEMS`.
template <class T, int ITEMS>
__host__ __device__ constexpr int vector_items() {
  if (16 % int(sizeof(T)) != 0) return 1;  // custom keys of 3, 12 ... bytes
  int v = 16 / int(sizeof(T));
  while (v > 1 && ITEMS % v != 0) v /= 2;
  return v < 1 ? 1 : v;
}

/// Block-striped vector load of a full tile: thread `t` reads vectors `j = 0 .. ITEMS / VEC - 1` at
/// `tile + (j * THREADS + t) * VEC`, into `items[j * VEC .. j * VEC + VEC - 1]` (so a warp reads
/// `32 x VEC x sizeof(T)` contiguous bytes per load). `tile` must be aligned to `VEC * sizeof(T)`;
/// for loads whose order within a thread does not matter (the upfront histogram).
///
///     u32 keys[16];
///     load_block_vectorized<128, vector_items<u32, 16>()>(aligned_tile, keys);
template <int THREADS, int VEC, class T, int ITEMS>
__device__ __forceinline__ void load_block_vectorized(const T* tile, T (&items)[ITEMS]) {
  static_assert(ITEMS % VEC == 0, "ITEMS must be a multiple of the vector length");
  if constexpr (VEC == 1) {  // items of any size (custom keys of 3, 5, 12 ... bytes too), one by one
RINGSWEEP_UNROLL
    for (int j = 0; j < ITEMS; ++j) items[j] = load_global(tile + j * THREADS + int(threadIdx.x));
  } else {
    using word_t = typename vector_word<VEC * int(sizeof(T))>::type;
    const word_t* words = reinterpret_cast<const word_t*>(tile);
RINGSWEEP_UNROLL
    for (int j = 0; j < ITEMS / VEC; ++j) {
      const word_t w = load_global(words + j * THREADS + int(threadIdx.x));
      std::memcpy(&items[j * VEC], &w, sizeof(w));
    }
  }
}

/// Block-striped load: thread `t` item `k` reads `tile[k * THREADS + t]`, for indices below `valid`.
template <int THREADS, int ITEMS, class T>
__device__ __forceinline__ void load_block_striped(const T* tile, int valid, T (&items)[ITEMS]) {
RINGSWEEP_UNROLL
  for (int k = 0; k < ITEMS; ++k) {
    const int i = k * THREADS + int(threadIdx.x);
    if (i < valid) items[k] = load_global(tile + i);
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
