// Vocabulary of the sort API: order, bit window, the two-buffer handle and the device count. The
// order and the bit window (`sort_order`, `sort_options`) are defined in detail/sort_order.cuh,
// which the internals include; the two-buffer handle and the device count here.
#pragma once

#include <cstddef>

#include "detail/config.cuh"
#include "detail/sort_order.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// Two device buffers of equal size, one of which holds the data (`selector` says which). A sort
/// through a double_buffer uses the other as scratch and sets `selector` to the one holding the
/// sorted result.
///
///     ringsweep::double_buffer<unsigned> keys(d_keys, d_scratch);
///     ringsweep::sort_keys(d_temp, temp_bytes, keys, n);
///     unsigned* sorted = keys.current();
template <class T>
struct double_buffer {
  T* d_buffers[2];
  int selector;

  __host__ __device__ double_buffer(T* current, T* alternate) : d_buffers{current, alternate}, selector(0) {}
  __host__ __device__ T* current() const { return d_buffers[selector]; }
  __host__ __device__ T* alternate() const { return d_buffers[selector ^ 1]; }
};

/// A key count that lives in device memory: `*d_n` is read on the device when the sort runs (each
/// replay of a captured graph sees its own), `max_n` bounds it and sizes everything the host
/// decides (temporary storage, grids, buffer checks). `Count`: std::int32_t, std::uint32_t,
/// std::int64_t or std::uint64_t (any 4- or 8-byte integer type). A `*d_n` above `max_n` sorts the first `max_n` keys; a negative
/// one sorts nothing.
///
///     ringsweep::sort_keys(d_temp, bytes, d_in, d_out, ringsweep::device_count<int>{d_num, capacity});
template <class Count>
struct device_count {
  const Count* d_n;
  std::size_t max_n;
};

RINGSWEEP_NAMESPACE_END
