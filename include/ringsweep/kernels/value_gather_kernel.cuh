// The gather that moves values of any size once, after their keys were sorted with the keys'
// input positions as values (device/value_gather.cuh): values_out[i] = values_in[order[i]].
#pragma once

#include <cstddef>

#include "../detail/config.cuh"
#include "../detail/count_source.cuh"
#include "../detail/load_store.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Arguments of the gather: `ValueRaw` is the value's bytes as words of its alignment (value_raw:
/// 1-, 2-, 4-, 8- or 16-byte words), `Index` the type of the sorted positions.
template <class ValueRaw, class Index>
struct value_gather_params {
  const ValueRaw* values_in;
  ValueRaw* values_out;
  const Index* order;    // order[i]: the input position of the i-th sorted key
  std::size_t n;         // positions to gather (a counted sort's bound)
  count_source count;    // a count on the device (then `n` is its bound), or none
};

constexpr int value_gather_threads = 256;

/// Grid-stride `values_out[i] = values_in[order[i]]` for `i` below the count, each value moved
/// once as its words. `SKIP_UNSET`: positions whose order is all ones (a segmented sort's gaps,
/// which no segment wrote) are left as they are.
template <class ValueRaw, class Index, bool SKIP_UNSET>
__global__ void __launch_bounds__(value_gather_threads) value_gather_kernel(value_gather_params<ValueRaw, Index> p) {
  const std::size_t n = std::size_t(p.count.resolve(p.n));
  const std::size_t stride = std::size_t(gridDim.x) * value_gather_threads;
  for (std::size_t i = std::size_t(blockIdx.x) * value_gather_threads + threadIdx.x; i < n; i += stride) {
    const Index from = load_global(p.order + i);
    if constexpr (SKIP_UNSET) {
      if (from == Index(~Index(0))) continue;
    }
    store_global(p.values_out + i, load_global(p.values_in + std::size_t(from)));
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
