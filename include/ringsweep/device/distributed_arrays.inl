// The distributed sort's arrays on one rank (included by distributed_sort.inl, after <mpi.h>): the
// caller's keys and values and the second pair in the communicator's cached block, and the two
// steps that move them on the device alone: the stable partition into the second arrays by the
// splitters (step 5) and the final stable sort with its copy back (step 7). docs/design.md,
// section 14.
#pragma once

#include <cstddef>
#include <vector>

#include "../detail/load_store.cuh"
#include "../kernels/boundary_histogram_kernel.cuh"
#include "../kernels/bracket_kernel.cuh"
#include "../kernels/slot_partition_kernel.cuh"
#include "distributed_agreement.inl"
#include "distributed_local.inl"
#include "launch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

/// This rank's `n` items: the caller's arrays (`keys`, and `values` with HAS_VALUES) and the second
/// ones (`keys2`, `values2`), every step queued on `stream`; `Kind` the kind of key (key_kind.cuh).
template <bool HAS_VALUES, class Kind, class Value>
struct rank_arrays {
  using Key = typename Kind::key_type;
  using SortKey = typename Kind::sort_key;
  using bits_type = typename key_traits<SortKey>::bits_type;
  using raw_value = detail::value_raw<Value>;

  Kind kind;
  Key* keys;
  Value* values;
  Key* keys2;
  Value* values2;
  std::size_t n;
  cudaStream_t stream;

  /// The stable sort of what lies in the caller's arrays, in `temp` (`temp_bytes`, the size
  /// local_sort asked for), the result copied back when it ends in the second arrays, and the
  /// stream synchronised. That copy's source stays intact, so a failed copy is made once more (a
  /// transient failure leaves the rank's part sorted; its error is still returned).
  cudaError_t final_sort(void* temp, std::size_t temp_bytes, const sort_options& opts) const {
    double_buffer<Key> fk(keys, keys2);
    double_buffer<Value> fv(values, values2);
    std::size_t bytes = temp_bytes;
    cudaError_t e = local_sort<HAS_VALUES>(kind, temp, bytes, fk, fv, n, opts, stream);
    if (e == cudaSuccess && fk.current() != keys) {
      auto copy_back = [&]() {
        cudaError_t c = cudaMemcpyAsync(keys, fk.current(), n * sizeof(Key), cudaMemcpyDeviceToDevice, stream);
        if (HAS_VALUES) {
          c = first_error(c, cudaMemcpyAsync(values, fv.current(), n * sizeof(Value), cudaMemcpyDeviceToDevice,
                                             stream));
        }
        return first_error(c, cudaStreamSynchronize(stream));
      };
      e = copy_back();
      if (e != cudaSuccess) copy_back();
      return e;
    }
    return first_error(e, cudaStreamSynchronize(stream));
  }

  /// The stable partition of the caller's arrays into the second ones by `count` splitters (`rows`:
  /// rows of probe_max_digits bytes, sorted, distinct; their first `passes` digits are `digits`):
  /// slot_partition_kernel.cuh. Splitter b's slot of equal keys, or its start, holds cut_b. Queued
  /// only: `d_splitters` gets the rows, `d_offsets` the partition's per-block offsets.
  cudaError_t partition(const std::vector<unsigned char>& rows, unsigned count,
                        const detail::key_digits<SortKey>& digits, int passes, unsigned char* d_splitters,
                        unsigned long long* d_offsets) const {
    detail::slot_partition_params<SortKey, raw_value> sp{};
    sp.keys_in = reinterpret_cast<const bits_type*>(keys);
    sp.keys_out = reinterpret_cast<bits_type*>(keys2);
    if (HAS_VALUES) {
      sp.values_in = reinterpret_cast<const raw_value*>(values);
      sp.values_out = reinterpret_cast<raw_value*>(values2);
    }
    sp.n = n;
    sp.blocks = partition_blocks(n, 2 * count + 1);
    sp.span = (n + sp.blocks - 1) / sp.blocks;
    sp.digits = digits;
    sp.splitters = d_splitters;
    sp.count = count;
    sp.depth = passes;
    sp.offsets = d_offsets;
    cudaError_t e = cudaSuccess;
    if (count > 0) {
      e = cudaMemcpyAsync(d_splitters, rows.data(), std::size_t(count) * detail::probe_max_digits,
                          cudaMemcpyHostToDevice, stream);
    }
    const bool block_wide = 2 * count + 1 <= detail::slot_block_max_slots;
    if (e == cudaSuccess) {
      e = block_wide ? detail::launch(detail::slot_count_block_kernel<SortKey, raw_value>, sp.blocks,
                                      detail::slot_block_threads, stream, detail::launch_order::serial, sp)
                     : detail::launch(detail::slot_count_kernel<SortKey, raw_value>, sp.blocks,
                                      detail::slot_partition_threads, stream, detail::launch_order::serial, sp);
    }
    if (e == cudaSuccess) {
      e = detail::launch(detail::slot_scan_kernel, 1, detail::slot_scan_threads, stream, detail::launch_order::serial,
                         d_offsets, std::size_t(2 * count + 1) * sp.blocks);
    }
    if (e == cudaSuccess) {
      e = block_wide ? detail::launch(detail::slot_scatter_block_kernel<SortKey, raw_value>, sp.blocks,
                                      detail::slot_block_threads, stream, detail::launch_order::serial, sp)
                     : detail::launch(detail::slot_scatter_kernel<SortKey, raw_value>, sp.blocks,
                                      detail::slot_partition_threads, stream, detail::launch_order::serial, sp);
    }
    return e;
  }

  /// Puts the `m` chosen slots' keys (and values) in their sorted order in the second arrays: the
  /// moves (16 bytes each) are in `d_moves` already. Queued only.
  cudaError_t order_slots(const unsigned long long* d_moves, std::size_t m) const {
    if (m == 0) return cudaSuccess;
    return detail::launch(detail::slot_order_kernel<bits_type, raw_value>,
                          unsigned((m + detail::bracket_threads - 1) / detail::bracket_threads),
                          detail::bracket_threads, stream, detail::launch_order::serial,
                          reinterpret_cast<const bits_type*>(keys), reinterpret_cast<bits_type*>(keys2),
                          HAS_VALUES ? reinterpret_cast<const raw_value*>(values) : nullptr,
                          reinterpret_cast<raw_value*>(values2), d_moves, m);
  }
};

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
