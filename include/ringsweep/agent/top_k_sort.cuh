// top_k_sort: the stable LSD radix sort of top-k's k candidates in one cooperative launch
// (top_k_sort_kernel), for more candidates than one block's tile and at most a tile per block of
// a grid that is resident at once (docs/design.md section 15). Per digit pass each block ranks its
// tile of the current array (block_radix_rank), publishes the tile's digit counts, waits at a grid
// barrier, finds its digits' offsets from every block's counts and scatters its keys stably to the
// other array, then waits again. A pass whose digit is the same for every key (every block sees
// it in the counts) moves nothing; the last pass writes the caller's outputs, the values or
// indices taken by each key's input position on the way.
#pragma once

#include "../block/block_radix_rank.cuh"
#include "../block/block_scan.cuh"
#include "../block/block_scatter.cuh"
#include "../detail/config.cuh"
#include "../detail/grid_barrier.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"
#include "../detail/sort_window.cuh"
#include "../key_traits.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// What the candidates' sort writes besides the keys, from each key's input position: nothing.
struct top_k_no_values {
  static constexpr bool POSITIONS = false;
  __device__ __forceinline__ void write(u64, u64) const {}
};
/// The caller's value at each key's position (pairs; `Raw`: value_raw of the value type).
template <class Raw>
struct top_k_value_gather {
  static constexpr bool POSITIONS = true;
  const Raw* in;
  Raw* out;
  __device__ __forceinline__ void write(u64 i, u64 pos) const { store_global(out + i, load_global(in + pos)); }
};
/// Each key's position as the caller's index type (indices).
template <class Index>
struct top_k_index_out {
  static constexpr bool POSITIONS = true;
  Index* out;
  __device__ __forceinline__ void write(u64 i, u64 pos) const { store_global(out + i, Index(pos)); }
};

/// Arguments of the candidates' sort. Block b sorts keys [b x TILE, (b + 1) x TILE) of each pass's
/// array; gridDim.x = ceil(k / TILE).
template <class Key, class Output>
struct top_k_sort_params : key_context<Key> {
  using bits_type = typename key_traits<Key>::bits_type;
  bits_type* keys[2];   // [0] the k candidates, [1] room for k more: the passes' arrays alternate
  u64* pos[2];          // their input positions (Output::POSITIONS only)
  bits_type* keys_out;  // the sorted keys
  Output out;           // and what goes with them
  u32* counts;          // 2 x gridDim.x x RADIX: every block's digit counts, by pass parity
  u32* arrived;         // the grid barrier's arrivals (zeroed before the launch)
  u32 k;
  sort_window window;
};

/// The sort of `Config`'s shape (THREADS x ITEMS keys a block, RADIX_BITS-bit digits).
///
///     __shared__ typename top_k_sort<Config, Output>::TempStorage temp;
///     top_k_sort<Config, Output>(temp, params).process();
template <class Config, class Output>
class top_k_sort {
 public:
  using Key = typename Config::key_type;
  using bits_type = typename key_traits<Key>::bits_type;
  static constexpr bool POSITIONS = Output::POSITIONS;
  static constexpr int THREADS = Config::THREADS;
  static constexpr int ITEMS = Config::ITEMS;
  static constexpr int TILE = Config::TILE;
  static constexpr int RADIX_BITS = Config::RADIX_BITS;
  static constexpr int RADIX = 1 << RADIX_BITS;
  using rank_t = block_radix_rank<THREADS, ITEMS, RADIX_BITS>;
  using scatter_t = block_scatter<THREADS, ITEMS>;
  using scan_t = block_scan<u32, THREADS>;
  static constexpr int DPT = rank_t::DIGITS_PER_THREAD;
  using params_t = top_k_sort_params<Key, Output>;

  struct TempStorage {
    union {
      typename rank_t::TempStorage rank;
      alignas(16) bits_type keys[TILE];
      alignas(16) u32 index[TILE];
    } u;
    u32 base[RADIX];  // per digit: its first output position less the block's tile start of it
    typename scan_t::TempStorage scan;
  };

  __device__ __forceinline__ top_k_sort(TempStorage& temp, const params_t& p) : temp_(temp), p_(p) {}

  __device__ __forceinline__ void process() {
    const u32 first = blockIdx.x * u32(TILE);
    const int valid = int(min_of<u32>(u32(TILE), p_.k - first));
    const int seg_first = int(threadIdx.x) / warp_threads * scatter_t::SEGMENT;
    const int lane = int(lane_id());
    // The pass's array and the other one, swapped after each pass that moves the keys (registers:
    // indexing the parameters' arrays by a variable would copy them to local memory).
    bits_type* from_keys = p_.keys[0];
    bits_type* to_keys = p_.keys[1];
    u64* from_pos = p_.pos[0];
    u64* to_pos = p_.pos[1];
    u32 barriers = 0;
    for (int pass = 0; pass < p_.window.passes; ++pass) {
      const bool last = pass + 1 == p_.window.passes;
      const digit_extractor<Key> digit_of = p_.window.template extractor<RADIX_BITS>(p_, pass);
      // Plain loads: the arrays after the first pass are written by this launch.
      const bits_type* const src = from_keys + first;
      bits_type keys[ITEMS];
      u32 digits[ITEMS], ranks[ITEMS], counts[DPT], starts[DPT];
      // sass: sort_load
RINGSWEEP_UNROLL
      for (int k = 0; k < ITEMS; ++k) {
        const int i = seg_first + k * warp_threads + lane;
        keys[k] = i < valid ? src[i] : digit_of.pad;
        digits[k] = digit_of(keys[k]);
      }
      u32* const published = p_.counts + (u64(pass & 1) * gridDim.x + blockIdx.x) * RADIX;
      // sass: sort_rank
      rank_t(temp_.u.rank).rank(digits, valid, ranks, counts, starts, [&](const u32 (&c)[DPT]) {
RINGSWEEP_UNROLL
        for (int j = 0; j < DPT; ++j) {
          const int d = rank_t::first_digit() + j;
          if (d < RADIX) published[d] = c[j];
        }
      });
      // sass: end
      grid_barrier(p_.arrived, ++barriers);
      if (!offsets(pass, starts)) continue;  // one digit: every key stays where it is

      // sass: sort_scatter
      scatter_t::to_shared(temp_.u.keys, keys, ranks, valid);
      __syncthreads();
      bits_type* const dst = last ? p_.keys_out : to_keys;
      u32 at[ITEMS];
RINGSWEEP_UNROLL
      for (int k = 0; k < ITEMS; ++k) {
        const int i = k * THREADS + int(threadIdx.x);
        at[k] = 0;
        if (i < valid) {
          const bits_type key = temp_.u.keys[i];
          at[k] = temp_.base[digit_of(key)] + u32(i);
          dst[at[k]] = key;
        }
      }
      // sass: sort_values
      if constexpr (POSITIONS) {
        u32 index[ITEMS];
RINGSWEEP_UNROLL
        for (int k = 0; k < ITEMS; ++k) index[k] = u32(scatter_t::position(k));
        __syncthreads();
        scatter_t::to_shared(temp_.u.index, index, ranks, valid);
        __syncthreads();
        const u64* const pos = from_pos + first;
RINGSWEEP_UNROLL
        for (int k = 0; k < ITEMS; ++k) {
          const int i = k * THREADS + int(threadIdx.x);
          if (i < valid) {
            const u64 where = pos[temp_.u.index[i]];
            if (last) {
              p_.out.write(at[k], where);
            } else {
              to_pos[at[k]] = where;
            }
          }
        }
      }
      // sass: end
      if (last) return;
      swap_of(from_keys, to_keys);
      swap_of(from_pos, to_pos);
      grid_barrier(p_.arrived, ++barriers);
    }
    // The last pass moved nothing: the keys are in order in from_keys; each block copies its tile.
    for (int i = int(threadIdx.x); i < valid; i += THREADS) {
      p_.keys_out[first + u32(i)] = from_keys[first + u32(i)];
      if constexpr (POSITIONS) p_.out.write(first + u32(i), from_pos[first + u32(i)]);
    }
  }

 private:
  /// After the pass's counts are in: temp_.base of every digit (all blocks' keys of smaller
  /// digits and earlier blocks' keys of the digit, less the digit's start in this block's ranked
  /// tile, `starts`); false, with nothing written, when one digit holds every key.
  __device__ __forceinline__ bool offsets(int pass, const u32 (&starts)[DPT]) {
    const u32* const all = p_.counts + u64(pass & 1) * gridDim.x * RADIX;
    u32 total[DPT], before[DPT];
    u32 sum = 0;
    bool one = false;
RINGSWEEP_UNROLL
    for (int j = 0; j < DPT; ++j) {
      const int d = rank_t::first_digit() + j;
      total[j] = 0;
      before[j] = 0;
      if (d < RADIX) {
        for (u32 b = 0; b < gridDim.x; ++b) {
          const u32 c = all[u64(b) * RADIX + u32(d)];
          total[j] += c;
          if (b < blockIdx.x) before[j] += c;
        }
      }
      one = one || total[j] == p_.k;
      sum += total[j];
    }
    if (__syncthreads_or(one)) return false;
    u32 grand = 0;
    u32 start = scan_t::exclusive_sum(temp_.scan, sum, grand);
RINGSWEEP_UNROLL
    for (int j = 0; j < DPT; ++j) {
      const int d = rank_t::first_digit() + j;
      if (d < RADIX) temp_.base[d] = start + before[j] - starts[j];
      start += total[j];
    }
    __syncthreads();
    return true;
  }

  template <class T>
  __device__ __forceinline__ static void swap_of(T*& a, T*& b) {
    T* const t = a;
    a = b;
    b = t;
  }

  TempStorage& temp_;
  const params_t& p_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
