// host_copy: host copies of a host-resident sort (host_sort_dispatch.cuh) cut among host threads:
// the final gather into the caller's arrays (gather_runs), and a pageable input's chunks into the
// page-locked scratch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <thread>
#include <vector>

#include "../detail/config.cuh"
#include "host_extents.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Parts to cut a copy of `items` items of `item_bytes` into: `host_threads` when positive, else
/// one per 4 MiB, at most 16 and the hardware threads; divided among `sharers` threads copying at
/// once (a device's each). At least 1, at most `items`.
///
///     std::size_t parts = host_copy_parts(n, sizeof(float), cfg.host_threads, 1);
inline std::size_t host_copy_parts(std::size_t items, std::size_t item_bytes, int host_threads, std::size_t sharers) {
  const std::size_t hardware = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t by_size = std::min<std::size_t>({items * item_bytes / (std::size_t(4) << 20), 16, hardware});
  const std::size_t wanted = (host_threads > 0 ? std::size_t(host_threads) : by_size) / std::max<std::size_t>(1, sharers);
  return std::max<std::size_t>(1, std::min(wanted, items));
}

/// Runs `copy(lo, hi)` over `[0, total)` cut into `parts` equal parts, one host thread each and the
/// calling thread the first; a thread that cannot start leaves its part to the calling thread, so
/// this cannot fail. Returns when every part is done.
///
///     in_host_threads(n, 4, [&](std::size_t lo, std::size_t hi) { std::copy(a + lo, a + hi, b + lo); });
template <class Copy>
void in_host_threads(std::size_t total, std::size_t parts, const Copy& copy) {
  parts = std::max<std::size_t>(1, std::min(parts, total));
  const auto bound = [&](std::size_t t) { return total / parts * t + std::min(t, total % parts); };
  std::vector<std::thread> threads;
  std::size_t started = 1;  // part 0 is the calling thread's
  try {
    for (; started < parts; ++started) threads.emplace_back(copy, bound(started), bound(started + 1));
  } catch (...) {  // no thread: the calling thread copies the rest
  }
  copy(bound(0), bound(1));
  for (std::size_t t = started; t < parts; ++t) copy(bound(t), bound(t + 1));
  for (std::thread& t : threads) t.join();
}

/// The sorted data, from the runs `order` of the scratch (`from_keys`, and `from_values` when
/// `VALUES`) into `keys` (and `values`) in order: the output cut into equal parts, one host thread
/// each (`host_threads`, or one per 4 MiB, at most 16); a thread that cannot start leaves its part
/// to the calling thread, so this cannot fail.
///
///     gather_runs<true>(order, scratch_keys, scratch_values, keys, values, cfg.host_threads);
template <bool VALUES, class Key, class Value>
void gather_runs(const std::vector<host_extents>& order, const Key* from_keys, const Value* from_values, Key* keys,
                 Value* values, int host_threads) {
  struct piece {
    std::size_t from, to, count;  // scratch index, output index, items
  };
  std::vector<piece> pieces;
  std::size_t out = 0;
  for (const host_extents& run : order) {
    for (const host_extent& x : run.list) {
      if (x.count == 0) continue;
      pieces.push_back({x.first, out, x.count});
      out += x.count;
    }
  }
  const auto copy = [&](std::size_t lo, std::size_t hi) {  // output items [lo, hi)
    auto it = std::upper_bound(pieces.begin(), pieces.end(), lo,
                               [](std::size_t v, const piece& p) { return v < p.to; });
    if (it != pieces.begin()) --it;
    for (; it != pieces.end() && it->to < hi; ++it) {
      const std::size_t a = std::max(lo, it->to), z = std::min(hi, it->to + it->count);
      if (a >= z) continue;
      const std::size_t from = it->from + (a - it->to);
      std::memcpy(static_cast<void*>(keys + a), static_cast<const void*>(from_keys + from), (z - a) * sizeof(Key));
      if constexpr (VALUES) {
        std::memcpy(static_cast<void*>(values + a), static_cast<const void*>(from_values + from),
                    (z - a) * sizeof(Value));
      }
    }
  };
  const std::size_t item = sizeof(Key) + (VALUES ? sizeof(Value) : 0);
  in_host_threads(out, host_copy_parts(out, item, host_threads, 1), copy);
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
