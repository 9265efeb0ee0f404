// Build-time check: instantiates every kernel the public API can launch for the common key and
// value types, so that ptxas (run with -warn-spills -warn-lmem-usage -Werror by
// tests/spill/CMakeLists.txt) fails the build if any of them spills registers or uses local memory.
#include <ringsweep/kernels/boundary_histogram_kernel.cuh>  // the distributed sort's (distributed.cuh needs MPI)
#include <ringsweep/kernels/slot_partition_kernel.cuh>
#include <ringsweep/kernels/bracket_kernel.cuh>
#include <ringsweep/ringsweep.cuh>

#include <cuda/std/tuple>

#include <cstdint>
#include <type_traits>

namespace {

struct alignas(16) v16 {
  std::uint32_t w[4];
};
struct v12 {  // a float3: sorted as positions, moved by the gather
  float x, y, z;
};
struct v24 {  // a {position, index} struct
  double x, y;
  std::uint64_t index;
};

template <class Key>
cudaError_t keys_only() {
  std::size_t bytes = 0;
  ringsweep::double_buffer<Key> kb(nullptr, nullptr);
  return ringsweep::sort_keys(nullptr, bytes, kb, 1);
}

template <class Key, class Value>
cudaError_t pairs() {
  std::size_t bytes = 0;
  ringsweep::double_buffer<Key> kb(nullptr, nullptr);
  ringsweep::double_buffer<Value> vb(nullptr, nullptr);
  return ringsweep::sort_pairs(nullptr, bytes, kb, vb, 1);
}

// Custom keys through a decomposer: a {u32, u32} key (moved as a u64) and a {float, int64} key
// (16 bytes, a 96-bit image).
struct uu_key {
  std::uint32_t hi, lo;
};
struct uu_decomposer {
  __host__ __device__ cuda::std::tuple<std::uint32_t&, std::uint32_t&> operator()(uu_key& k) const {
    return {k.hi, k.lo};
  }
};
struct fi_key {
  float f;
  std::int64_t i;
};
struct fi_decomposer {
  __host__ __device__ cuda::std::tuple<float&, std::int64_t&> operator()(fi_key& k) const { return {k.f, k.i}; }
};

template <class Key, class Decomposer>
cudaError_t decomposed_keys() {
  std::size_t bytes = 0;
  ringsweep::double_buffer<Key> kb(nullptr, nullptr);
  return ringsweep::sort_keys(nullptr, bytes, kb, 1, Decomposer{});
}

template <class Key, class Decomposer, class Value>
cudaError_t decomposed_pairs() {
  std::size_t bytes = 0;
  ringsweep::double_buffer<Key> kb(nullptr, nullptr);
  ringsweep::double_buffer<Value> vb(nullptr, nullptr);
  return ringsweep::sort_pairs(nullptr, bytes, kb, vb, 1, Decomposer{});
}

/// argsort: pairs whose values the kernels make (the key's input position).
template <class Key, class Index>
cudaError_t argsort() {
  std::size_t bytes = 0;
  return ringsweep::argsort(nullptr, bytes, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr),
                            static_cast<Index*>(nullptr), 1);
}

/// Segmented sorts: the classification with the tiny segments' network, the compact, medium and
/// small (block) segment kernels, and the large segments' histogram, scan, onesweep and copy.
template <class Key, class Value>
cudaError_t segmented() {
  std::size_t bytes = 0;
  const int* offsets = nullptr;
  if constexpr (std::is_void<Value>::value) {
    return ringsweep::segmented_sort_keys(nullptr, bytes, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr),
                                          1, 1, offsets, offsets);
  } else {
    return ringsweep::segmented_sort_pairs(nullptr, bytes, static_cast<const Key*>(nullptr),
                                           static_cast<Key*>(nullptr), static_cast<const Value*>(nullptr),
                                           static_cast<Value*>(nullptr), 1, 1, offsets, offsets);
  }
}

template <class Key, class Decomposer>
cudaError_t segmented_decomposed() {
  std::size_t bytes = 0;
  const long long* offsets = nullptr;
  return ringsweep::segmented_sort_keys(nullptr, bytes, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr), 1,
                                        1, offsets, offsets, Decomposer{});
}

/// Sorts whose count is on the device: their own onesweep kernel (tile source counted_tiles), the
/// counted single-tile sort, histogram and copies. The 4-byte widths are the tight ones (their
/// plain twins use 80 of 80 registers on sm_90; a counted pairs kernel spilled 4 bytes once).
template <class Key, class Value>
cudaError_t counted() {
  std::size_t bytes = 0;
  const ringsweep::device_count<int> n{nullptr, 1};
  if constexpr (std::is_void<Value>::value) {
    return ringsweep::sort_keys(nullptr, bytes, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr), n);
  } else {
    return ringsweep::sort_pairs(nullptr, bytes, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr),
                                 static_cast<const Value*>(nullptr), static_cast<Value*>(nullptr), n);
  }
}

/// The distributed sort's kernels (the splitter search's sample, bracket pass and histogram, the
/// partition's count, scan and scatter, both flavours), instantiated directly (distributed.cuh includes <mpi.h>, which this target does not
/// have); values as the sort moves them (u8 for keys only).
template <class SortKey, class Value>
cudaError_t distributed_kernels() {
  using raw = ringsweep::detail::value_raw<Value>;
  cudaFuncGetAttributes(nullptr, ringsweep::detail::boundary_histogram_kernel<SortKey>);
  cudaFuncGetAttributes(nullptr, ringsweep::detail::slot_count_kernel<SortKey, raw>);
  cudaFuncGetAttributes(nullptr, ringsweep::detail::slot_scatter_kernel<SortKey, raw>);
  cudaFuncGetAttributes(nullptr, ringsweep::detail::slot_scan_kernel);
  cudaFuncGetAttributes(nullptr, ringsweep::detail::slot_count_block_kernel<SortKey, raw>);
  cudaFuncGetAttributes(nullptr, ringsweep::detail::slot_scatter_block_kernel<SortKey, raw>);
  cudaFuncGetAttributes(nullptr, ringsweep::detail::key_sample_kernel<SortKey>);
  cudaFuncGetAttributes(nullptr, ringsweep::detail::bracket_kernel<SortKey>);
  return cudaSuccess;
}

/// Top-k only, keys only: the select's first read (top_k_count_kernel, at most 64 registers, its
/// vector loads 16 bytes of 1- and 2-byte keys), and levels for the key widths top_k() below
/// leaves out.
template <class Key>
cudaError_t top_k_keys_only() {
  std::size_t bytes = 0;
  return ringsweep::top_k_keys(nullptr, bytes, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr), 1, 1);
}

/// Top-k: the select's first read (top_k_count_kernel) and levels kernel, the sorts of the
/// candidates (keys only, and with 8-byte positions), the gathers; segmented top-k's row list,
/// per-row select (keys, indices, pairs), sorts and copy.
template <class Key, class Index>
cudaError_t top_k() {
  std::size_t bytes = 0;
  const Key* in = nullptr;
  Key* out = nullptr;
  cudaError_t e = ringsweep::top_k_keys(nullptr, bytes, in, out, 1, 1);
  e = e != cudaSuccess ? e : ringsweep::top_k_indices(nullptr, bytes, in, out, static_cast<Index*>(nullptr), 1, 1);
  const int* offsets = nullptr;
  e = e != cudaSuccess ? e : ringsweep::segmented_top_k_keys(nullptr, bytes, in, out, 1, 1, offsets, offsets, 1);
  e = e != cudaSuccess ? e
                       : ringsweep::segmented_top_k_indices(nullptr, bytes, in, out, static_cast<Index*>(nullptr), 1, 1,
                                                            offsets, offsets, 1);
  // The caller's values in the warp and block classes' first-k writes (indices make theirs).
  e = e != cudaSuccess ? e
                       : ringsweep::segmented_top_k_pairs(nullptr, bytes, in, out, static_cast<const Index*>(nullptr),
                                                          static_cast<Index*>(nullptr), 1, 1, offsets, offsets, 1);
  return e;
}

}  // namespace

cudaError_t ringsweep_spill_check() {
  cudaError_t e = cudaSuccess;
  // sm_75 compiles policy_sm80's kernels again, differing from sm_80 only where detail/intrinsics.cuh
  // takes its pre-sm_80 branch (plain or `.cs` loads and stores instead of L2 cache hints): it checks
  // each kernel family once, with every load width (keys of 1, 2, 4 and 8 bytes, values of 1, 4 and
  // 16, custom keys of 8 and 16 bytes), not every type (sm_80 builds the same shapes for all of
  // them). The whole list took 64 s of one core on sm_75, this part a third of that.
  e = e != cudaSuccess ? e : keys_only<std::uint8_t>();
  e = e != cudaSuccess ? e : keys_only<std::uint16_t>();
  e = e != cudaSuccess ? e : keys_only<std::uint32_t>();
  e = e != cudaSuccess ? e : keys_only<std::uint64_t>();
  e = e != cudaSuccess ? e : pairs<std::uint32_t, std::uint32_t>();
  e = e != cudaSuccess ? e : pairs<std::uint64_t, v16>();
  e = e != cudaSuccess ? e : pairs<std::uint8_t, std::uint8_t>();
  e = e != cudaSuccess ? e : pairs<std::uint32_t, v12>();  // the argsort's kernels and the gather
  e = e != cudaSuccess ? e : decomposed_keys<uu_key, uu_decomposer>();
  e = e != cudaSuccess ? e : decomposed_keys<fi_key, fi_decomposer>();
  e = e != cudaSuccess ? e : argsort<std::uint32_t, std::uint32_t>();
  e = e != cudaSuccess ? e : segmented<std::uint32_t, void>();
  e = e != cudaSuccess ? e : segmented<std::uint64_t, v16>();
  e = e != cudaSuccess ? e : counted<std::uint32_t, std::uint32_t>();
  e = e != cudaSuccess ? e : distributed_kernels<std::uint32_t, std::uint32_t>();
  e = e != cudaSuccess ? e : top_k<std::uint32_t, std::int32_t>();
#if RINGSWEEP_SPILL_ARCH != 75
  e = e != cudaSuccess ? e : keys_only<std::int8_t>();
  e = e != cudaSuccess ? e : keys_only<std::int16_t>();
  e = e != cudaSuccess ? e : keys_only<std::int32_t>();
  e = e != cudaSuccess ? e : keys_only<std::int64_t>();
  e = e != cudaSuccess ? e : keys_only<float>();
  e = e != cudaSuccess ? e : keys_only<double>();
  e = e != cudaSuccess ? e : keys_only<__half>();
  e = e != cudaSuccess ? e : keys_only<__nv_bfloat16>();
  e = e != cudaSuccess ? e : pairs<std::uint32_t, std::uint64_t>();
  e = e != cudaSuccess ? e : pairs<std::uint32_t, v16>();
  e = e != cudaSuccess ? e : pairs<std::uint64_t, std::uint32_t>();
  e = e != cudaSuccess ? e : pairs<std::uint64_t, std::uint64_t>();
  e = e != cudaSuccess ? e : pairs<float, std::uint32_t>();
  e = e != cudaSuccess ? e : pairs<double, std::uint64_t>();
  e = e != cudaSuccess ? e : pairs<std::uint16_t, std::uint16_t>();
  e = e != cudaSuccess ? e : pairs<__half, std::uint32_t>();
  e = e != cudaSuccess ? e : decomposed_pairs<uu_key, uu_decomposer, std::uint32_t>();
  e = e != cudaSuccess ? e : decomposed_pairs<fi_key, fi_decomposer, std::uint32_t>();
  e = e != cudaSuccess ? e : argsort<std::uint32_t, std::uint64_t>();
  e = e != cudaSuccess ? e : argsort<float, std::int32_t>();
  e = e != cudaSuccess ? e : argsort<std::uint64_t, std::int64_t>();
  e = e != cudaSuccess ? e : argsort<std::uint8_t, std::uint32_t>();
  e = e != cudaSuccess ? e : pairs<std::uint64_t, v24>();
  e = e != cudaSuccess ? e : segmented<std::uint32_t, v12>();  // the segmented pairs sort of positions
  // Segmented: one key of each width (the sm_80 keys-only shapes of 1, 2 and 4 bytes are the tight
  // ones: their plain twins use 80 of 85 registers), the widest pairs and a 16-byte custom key.
  e = e != cudaSuccess ? e : segmented<std::uint8_t, void>();
  e = e != cudaSuccess ? e : segmented<std::uint16_t, void>();
  e = e != cudaSuccess ? e : segmented<std::uint64_t, void>();
  e = e != cudaSuccess ? e : segmented<std::uint32_t, std::uint32_t>();
  // 4-byte keys with 16-byte values: the classification's two-warp block (four warps' buffers
  // passed the 48 KiB of static shared memory: it did not compile before 2026-11-29).
  e = e != cudaSuccess ? e : segmented<std::uint32_t, v16>();
  // 4-byte keys with 2-byte values: the large segments' passes take the keys to shared memory
  // before the look-back (a rank spilled 4 bytes on sm_90 while they stayed in registers).
  e = e != cudaSuccess ? e : segmented<std::uint32_t, std::uint16_t>();
  e = e != cudaSuccess ? e : segmented_decomposed<fi_key, fi_decomposer>();
  // 128-bit integers: custom keys of two 64-bit fields to the kernels, a full 128-bit image.
  e = e != cudaSuccess ? e : keys_only<__int128>();
  e = e != cudaSuccess ? e : pairs<unsigned __int128, std::uint32_t>();
  e = e != cudaSuccess ? e : segmented<__int128, void>();
  e = e != cudaSuccess ? e : segmented<unsigned __int128, std::uint32_t>();  // the wide network's late values
  e = e != cudaSuccess ? e : counted<std::uint32_t, void>();
  e = e != cudaSuccess ? e : counted<std::uint64_t, void>();
  e = e != cudaSuccess ? e : counted<std::uint64_t, std::uint32_t>();
  {
    std::size_t bytes = 0;
    e = e != cudaSuccess ? e
                         : ringsweep::argsort(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                              static_cast<std::uint32_t*>(nullptr),
                                              static_cast<std::uint32_t*>(nullptr),
                                              ringsweep::device_count<int>{nullptr, 1});
  }
  e = e != cudaSuccess ? e : distributed_kernels<std::uint8_t, std::uint8_t>();
  e = e != cudaSuccess ? e : distributed_kernels<std::uint64_t, std::uint64_t>();
  e = e != cudaSuccess ? e : distributed_kernels<float, v16>();
  e = e != cudaSuccess ? e
                       : distributed_kernels<ringsweep::detail::decomposed_key<fi_key, fi_decomposer>, std::uint16_t>();
  e = e != cudaSuccess ? e : top_k<float, std::int64_t>();
  e = e != cudaSuccess ? e : top_k<std::uint64_t, std::uint32_t>();
  e = e != cudaSuccess ? e : top_k<__half, std::uint32_t>();
  e = e != cudaSuccess ? e : top_k_keys_only<std::uint8_t>();
  e = e != cudaSuccess ? e : top_k_keys_only<std::int16_t>();
  e = e != cudaSuccess ? e : top_k_keys_only<double>();
  {
    std::size_t bytes = 0;
    e = e != cudaSuccess ? e
                         : ringsweep::top_k_pairs(nullptr, bytes, static_cast<const fi_key*>(nullptr),
                                                  static_cast<fi_key*>(nullptr), static_cast<const v16*>(nullptr),
                                                  static_cast<v16*>(nullptr), 1, 1, fi_decomposer{});
  }
#endif
  return e;
}
