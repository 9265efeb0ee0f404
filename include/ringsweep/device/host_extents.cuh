// host_extents: a run of keys scattered over the host arrays of a host-resident sort, as an
// ordered list of index ranges; the buckets of its partition and their packing into groups.
#pragma once

#include <algorithm>
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

/// A bucket of a host sort's partition: its keys' extents in the scratch, in their stable order
/// (which is the order of their addresses: see pack_groups), and the digits split so far.
struct host_bucket {
  host_extents extents;
  int level;
};

/// The extents of `e` in the order of their addresses, contiguous ones merged.
///
///     by_address({{{40, 5}, {0, 10}, {10, 3}}})   // {0, 13}, {40, 5}
inline host_extents by_address(host_extents e) {
  std::sort(e.list.begin(), e.list.end(), [](const host_extent& a, const host_extent& b) { return a.first < b.first; });
  host_extents out;
  for (const host_extent& x : e.list) out.append(x.first, x.count);
  return out;
}

/// Packs the partition's `buckets` (in key order) into groups of at most `capacity` keys, each a
/// list of extents to sort by the whole window, and appends the sorted data's runs of the scratch,
/// in order, to `order`. A group's extents are its buckets' in the order of their addresses,
/// contiguous ones merged: a group of consecutive buckets finds them next to each other in every
/// chunk that was partitioned, so it is one extent (a copy each way) per chunk, not per bucket
/// and chunk. That is stable: equal keys share a bucket, whose extents ascend in address (round 0's
/// chunks ascend, and a partition writes each digit's run inside its own extents, in their order),
/// so they keep their order in the slot; and the group's sorted keys go back to the same extents
/// in the same order, which `order` then lists. A bucket that needs no sort (no digit left, or at
/// most one key) joins an open group where it fits; otherwise it closes the group and stays
/// where it is.
///
///     std::vector<host_extents> order;
///     auto groups = pack_groups(buckets, capacity, window.passes, order);
inline std::vector<host_extents> pack_groups(const std::vector<host_bucket>& buckets, std::size_t capacity,
                                             int passes, std::vector<host_extents>& order) {
  std::vector<host_extents> groups;
  host_extents group;
  std::size_t size = 0;
  const auto close = [&] {
    if (size == 0) return;
    group = by_address(std::move(group));
    order.push_back(group);
    groups.push_back(std::move(group));
    group = host_extents{};
    size = 0;
  };
  for (const host_bucket& b : buckets) {
    const std::size_t count = b.extents.size();
    if (count == 0) continue;
    const bool sorted = b.level >= passes || count <= 1;
    if (size + count > capacity || (sorted && size == 0)) close();
    if (sorted && size == 0) {
      order.push_back(b.extents);
      continue;
    }
    group.list.insert(group.list.end(), b.extents.list.begin(), b.extents.list.end());
    size += count;
  }
  close();
  return groups;
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
