// host_copy: host copies of a host-resident sort (host_sort_dispatch.cuh) cut among host threads:
// the final gather into the caller's arrays, and a pageable input's chunks into the page-locked
// scratch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

#include "../detail/config.cuh"

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

}  // namespace detail
RINGSWEEP_NAMESPACE_END
