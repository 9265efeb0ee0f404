// Host-resident pairs whose values the device sorts do not move whole (value_moves_whole: any size
// but 1, 2, 4, 8 and 16 bytes): the keys are sorted with their input positions as values (a host
// argsort, std::uint32_t positions below 2^32 keys, else std::uint64_t), then the values are
// gathered once on the host, values[i] = old values[order[i]], through a buffer. Over the bus each
// key travels with a 4-byte position instead of its value (fewer bytes for any value above 4
// bytes; a 3-byte value pays one byte more per crossing); the values never leave host memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "../detail/config.cuh"
#include "../host_sort_config.cuh"
#include "host_copy.cuh"
#include "host_sort_dispatch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The host-resident sort of (key, value) pairs with gathered values. The keys' argsort has the
/// caller's scratch when it holds the argsort's (`round_up(n K, alignof(Index)) + n sizeof(Index)`
/// bytes), and the gather's buffer is the scratch's values part (`round_up(n K, alignof(Value))`
/// on) when a scratch is given; the order (`n sizeof(Index)`) and whatever the scratch cannot
/// hold are allocated (std::malloc) before anything is sorted. The caller's keys are written only
/// by the argsort's final copies, and its values only after the argsort succeeded, by host copies
/// that cannot fail: on any error both are untouched.
///
///     e = host_sort_gathered<for_device>(builtin_keys<float>{}, h_keys, h_float3s, n, opts, cfg);
template <class Choice, class Kind, class Value>
__host__ cudaError_t host_sort_gathered(const Kind& kind, typename Kind::key_type* keys, Value* values, std::size_t n,
                                        const sort_options& opts, const host_sort_config& cfg) {
  static_assert(std::is_trivially_copyable<Value>::value, "ringsweep: values must be trivially copyable");
  using Key = typename Kind::key_type;
  if (n != 0 && values == nullptr) return cudaErrorInvalidValue;
  if (n > (~std::size_t(0) / 4) / (sizeof(Key) + sizeof(Value) + 2 * sizeof(std::uint64_t))) {
    return cudaErrorInvalidValue;
  }
  const auto sort = [&](auto index) -> cudaError_t {
    using Index = decltype(index);
    const auto round_up = [](std::size_t x, std::size_t a) { return (x + a - 1) / a * a; };
    const std::size_t given = round_up(n * sizeof(Key), alignof(Value)) + n * sizeof(Value);
    const std::size_t argsort_scratch = round_up(n * sizeof(Key), alignof(Index)) + n * sizeof(Index);
    host_sort_config inner = cfg;
    if (cfg.h_scratch != nullptr && argsort_scratch > given) inner.h_scratch = nullptr;  // it allocates its own
    Index* order = n != 0 ? static_cast<Index*>(std::malloc(n * sizeof(Index))) : nullptr;
    Value* buffer = cfg.h_scratch != nullptr
                        ? reinterpret_cast<Value*>(static_cast<char*>(cfg.h_scratch) +
                                                   round_up(n * sizeof(Key), alignof(Value)))
                        : (n != 0 ? static_cast<Value*>(std::malloc(n * sizeof(Value))) : nullptr);
    const auto done = [&](cudaError_t e) {
      std::free(order);
      if (cfg.h_scratch == nullptr) std::free(buffer);
      return e;
    };
    if (n != 0 && (order == nullptr || buffer == nullptr)) return done(cudaErrorMemoryAllocation);
    const std::size_t parts = host_copy_parts(n, sizeof(Index) + 2 * sizeof(Value), cfg.host_threads, 1);
    in_host_threads(n, parts, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) order[i] = Index(i);
    });
    const cudaError_t e = host_sort<Choice, Kind, Index>(kind, keys, order, n, opts, inner).run();
    if (e != cudaSuccess) return done(e);
    in_host_threads(n, parts, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) {
        std::memcpy(static_cast<void*>(buffer + i), static_cast<const void*>(values + std::size_t(order[i])),
                    sizeof(Value));
      }
    });
    in_host_threads(n, parts, [&](std::size_t lo, std::size_t hi) {
      std::memcpy(static_cast<void*>(values + lo), static_cast<const void*>(buffer + lo), (hi - lo) * sizeof(Value));
    });
    return done(cudaSuccess);
  };
  if constexpr (sizeof(std::size_t) > 4) {
    if (n >= (std::size_t(1) << 32)) return sort(std::uint64_t{});
  }
  return sort(std::uint32_t{});
}

/// The host-resident pairs sort of any value: the tiles' own (host_sort) or the gathered one.
template <class Choice, class Kind, class Value>
__host__ cudaError_t host_sort_pairs_of(const Kind& kind, typename Kind::key_type* keys, Value* values, std::size_t n,
                                        const sort_options& opts, const host_sort_config& cfg) {
  if constexpr (value_moves_whole<Value>::value) {
    return host_sort<Choice, Kind, Value>(kind, keys, values, n, opts, cfg).run();
  } else {
    return host_sort_gathered<Choice>(kind, keys, values, n, opts, cfg);
  }
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
