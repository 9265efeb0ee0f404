// cub_options: CUB's (begin_bit, end_bit) arguments and order as sort_options, for the CUB names'
// definitions (cub.inl, cub_segmented.inl).
#pragma once

#include <type_traits>

#include "../detail/config.cuh"
#include "../sort_options.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// CUB's bit window and order as sort_options: a negative `end_bit` stays invalid (sort_options
/// reads -1 as "the key's width", so it becomes -2, which the plan rejects).
__host__ inline sort_options cub_options(int begin_bit, int end_bit, bool descending) {
  sort_options opts;
  opts.order = descending ? sort_order::descending : sort_order::ascending;
  opts.begin_bit = begin_bit;
  opts.end_bit = end_bit < 0 ? -2 : end_bit;
  return opts;
}

/// The whole key in `descending` or ascending order: the window of the CUB forms without one (a
/// custom key's: all of its fields' bits).
__host__ inline sort_options cub_options(bool descending) {
  sort_options opts;
  opts.order = descending ? sort_order::descending : sort_order::ascending;
  return opts;
}

/// Enables CUB's decomposer overloads (a custom key's decomposer after the count) for anything
/// that is not convertible to `int`, as CUB's do: a `begin_bit` there selects the plain forms.
template <class Decomposer>
using if_cub_decomposer = typename std::enable_if<!std::is_convertible<Decomposer, int>::value, int>::type;

}  // namespace detail
RINGSWEEP_NAMESPACE_END
