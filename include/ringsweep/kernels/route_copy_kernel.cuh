// The final copy of a sort whose executed passes (possibly none) leave the result outside the
// buffer the API names; enqueued after every onesweep sort, it exits at once unless its route says
// copy (the host does not know which passes the device skips).
#pragma once

#include <cstdint>

#include "../agent/pass_route.cuh"
#include "../detail/config.cuh"
#include "../detail/count_source.cuh"
#include "../detail/intrinsics.cuh"
#include "../detail/load_store.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Arguments of the final copy: the route word and the sort's buffers (indexed by pass_buffer).
template <class Bits, class ValueRaw>
struct route_copy_params {
  const u32* route;          // the sort's route word 0; null: copy the input (a counted sort's copy path)
  Bits* keys[3];             // input, final, other
  ValueRaw* values[3];       // the same for values (null: keys only)
  std::size_t n;
  count_source count;        // a count on the device (then `n` is its bound), or none
};

constexpr int route_copy_threads = 256;

/// Grid-stride copy of `bytes` bytes in words of `Word` (the rest byte by byte).
template <class Word>
__device__ __forceinline__ void copy_words(const unsigned char* src, unsigned char* dst, std::size_t bytes) {
  const std::size_t words = bytes / sizeof(Word);
  const std::size_t stride = std::size_t(gridDim.x) * route_copy_threads;
  const std::size_t first = std::size_t(blockIdx.x) * route_copy_threads + threadIdx.x;
  const Word* s = reinterpret_cast<const Word*>(src);
  Word* d = reinterpret_cast<Word*>(dst);
  for (std::size_t i = first; i < words; i += stride) store_global(d + i, load_global(s + i));
  for (std::size_t i = words * sizeof(Word) + first; i < bytes; i += stride) store_global(dst + i, load_global(src + i));
}

/// Copies `bytes` bytes in the widest words both addresses are aligned to (up to 16 bytes).
///
///     copy_bytes(reinterpret_cast<const unsigned char*>(src), reinterpret_cast<unsigned char*>(dst), n * 4);
__device__ __forceinline__ void copy_bytes(const unsigned char* src, unsigned char* dst, std::size_t bytes) {
  const auto a = (reinterpret_cast<std::uintptr_t>(src) | reinterpret_cast<std::uintptr_t>(dst)) & 15u;
  if (a == 0) {
    copy_words<uint4>(src, dst, bytes);
  } else if ((a & 7u) == 0) {
    copy_words<unsigned long long>(src, dst, bytes);
  } else if ((a & 3u) == 0) {
    copy_words<unsigned int>(src, dst, bytes);
  } else {
    copy_words<unsigned char>(src, dst, bytes);
  }
}

/// Grid-stride `values[i] = i` for `i < n` (argsort's positions).
template <class ValueRaw>
__device__ __forceinline__ void write_indices(ValueRaw* values, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * route_copy_threads;
  for (std::size_t i = std::size_t(blockIdx.x) * route_copy_threads + threadIdx.x; i < n; i += stride) {
    store_global(values + i, index_value<ValueRaw>(i));
  }
}

/// argsort of a sort with no pass (n = 0 excluded): the positions in order, `values[i] = i`.
template <class ValueRaw>
__global__ void __launch_bounds__(route_copy_threads) index_fill_kernel(ValueRaw* values, std::size_t n) {
  write_indices(values, n);
}

/// Copies keys (and values) from the route's source to the final buffer, or returns at once.
/// `DEPENDENT`: launched as a programmatic dependent of the last onesweep launch; as the sort's
/// last kernel it lets nothing after it start early.
///
/// `INDEX_VALUES` (argsort): values copied from the input are its positions, made here.
template <class Bits, class ValueRaw, bool HAS_VALUES, bool DEPENDENT, bool INDEX_VALUES = false>
__global__ void __launch_bounds__(route_copy_threads) route_copy_kernel(route_copy_params<Bits, ValueRaw> params) {
  if constexpr (DEPENDENT) grid_dependency_wait();
  const u32 r = params.route != nullptr ? *params.route : pass_route::make(buffer_in, buffer_final);
  if (!pass_route::runs(r)) return;
  const u32 src = pass_route::src(r);
  const std::size_t n = std::size_t(params.count.resolve(params.n));
  const auto bytes_of = [](const void* p) { return reinterpret_cast<const unsigned char*>(p); };
  copy_bytes(bytes_of(src == buffer_in ? params.keys[0] : src == buffer_final ? params.keys[1] : params.keys[2]),
             reinterpret_cast<unsigned char*>(params.keys[1]), n * sizeof(Bits));
  if constexpr (INDEX_VALUES) {
    if (src == buffer_in) {
      write_indices(params.values[1], n);
      return;
    }
  }
  if constexpr (HAS_VALUES) {
    copy_bytes(
        bytes_of(src == buffer_in ? params.values[0] : src == buffer_final ? params.values[1] : params.values[2]),
        reinterpret_cast<unsigned char*>(params.values[1]), n * sizeof(ValueRaw));
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
