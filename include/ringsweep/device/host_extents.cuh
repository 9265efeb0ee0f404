// host_extents: a run of keys scattered over the host arrays of a host-resident sort, as an
// ordered list of index ranges.
#pragma once

#include <cstddef>
#include <vector>

#include "../detail/config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Elements `[first, first + count)` of a host array.
struct host_extent {
  std::size_t first;
  std::size_t count;
};

/// An ordered list of extents: the keys of a bucket (or a chunk) in their stable order.
///
///     host_extents b{{{0, 10}, {50, 5}}};
///     host_extents head = b.slice(0, 12);   // {0, 10}, {50, 2}
struct host_extents {
  std::vector<host_extent> list;

  /// Elements in all the extents.
  std::size_t size() const {
    std::size_t n = 0;
    for (const host_extent& e : list) n += e.count;
    return n;
  }
  /// Appends `count` elements from `first`, merged with the last extent when they continue it.
  void append(std::size_t first, std::size_t count) {
    if (count == 0) return;
    if (!list.empty() && list.back().first + list.back().count == first) {
      list.back().count += count;
    } else {
      list.push_back({first, count});
    }
  }
  void append(const host_extents& other) {
    for (const host_extent& e : other.list) append(e.first, e.count);
  }
  /// The elements at positions `[from, to)` of this list's order.
  host_extents slice(std::size_t from, std::size_t to) const {
    host_extents out;
    std::size_t at = 0;
    for (const host_extent& e : list) {
      if (to <= at) break;
      const std::size_t lo = from > at ? from - at : 0;
      const std::size_t hi = to - at < e.count ? to - at : e.count;
      if (lo < hi) out.append(e.first + lo, hi - lo);
      at += e.count;
    }
    return out;
  }
  /// Consecutive pieces of at most `chunk` elements, in order.
  std::vector<host_extents> split(std::size_t chunk) const {
    std::vector<host_extents> out;
    const std::size_t n = size();
    for (std::size_t from = 0; from < n; from += chunk) out.push_back(slice(from, from + chunk < n ? from + chunk : n));
    return out;
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
