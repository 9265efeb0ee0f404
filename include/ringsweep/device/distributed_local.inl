// The distributed sort's rank-local helpers (included by distributed_sort.inl, after <mpi.h>): the
// partition's blocks and its table of distinct splitters, and the stable local sort of a double
// buffer (the final step; also the size query of its temporary storage).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "../kernels/boundary_histogram_kernel.cuh"
#include "radix_sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

/// Blocks (one warp each) of the partition of `n` keys into `slots` slots: about 2048 keys each,
/// at most 4096 blocks, and at most 2^21 offsets in all ([slots][blocks], 16 MiB).
inline unsigned partition_blocks(std::size_t n, unsigned slots) {
  const std::size_t cap = std::max<std::size_t>(1, std::min<std::size_t>(4096, (std::size_t(1) << 21) / slots));
  return unsigned(std::min<std::size_t>(std::max<std::size_t>((n + 2047) / 2048, 1), cap));
}

/// The distinct first `depth` digits of the first `open` boundaries' prefixes (rows of
/// probe_max_digits bytes in `prefixes`, nondecreasing as the splitters are): `table` gets one
/// row per distinct prefix, in order, `group_of[b]` the row of boundary b. Returns the rows.
inline unsigned distinct_prefixes(const std::vector<unsigned char>& prefixes, unsigned open, int depth,
                                  std::vector<unsigned>& group_of, std::vector<unsigned char>& table) {
  const std::size_t row = detail::probe_max_digits;
  table.clear();
  unsigned groups = 0;
  for (unsigned b = 0; b < open; ++b) {
    const unsigned char* mine = prefixes.data() + b * row;
    if (b == 0 || std::memcmp(mine, mine - row, std::size_t(depth)) != 0) {
      table.insert(table.end(), mine, mine + row);
      ++groups;
    }
    group_of[b] = groups - 1;
  }
  return groups;
}

/// The stable local sort of a double buffer, for built-in or custom keys (a size query when
/// `d_temp` is null).
template <bool HAS_VALUES, class Kind, class Key, class Value>
cudaError_t local_sort(const Kind& kind, void* d_temp, std::size_t& temp_bytes, double_buffer<Key>& keys,
                       double_buffer<Value>& values, std::size_t n, sort_options opts, cudaStream_t stream) {
  if constexpr (HAS_VALUES) {
    return detail::radix_sort<detail::for_device>(kind, detail::buffers<Key, Value>(keys, values), d_temp, temp_bytes,
                                                  n, opts, stream);
  } else {
    (void)values;
    return detail::radix_sort<detail::for_device>(kind, detail::buffers<Key>(keys), d_temp, temp_bytes, n, opts,
                                                  stream);
  }
}

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
