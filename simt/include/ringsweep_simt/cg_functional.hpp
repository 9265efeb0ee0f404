// ringsweep SIMT backend: the operations of <cooperative_groups/reduce.h> and scan.h.
//
//   cg::reduce(tile, v, cg::plus<int>());   // also less (min), greater (max), bit_and/or/xor
#pragma once

namespace cooperative_groups {
template <class T> struct plus { T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(T a, T b) const { return a ^ b; } };
}  // namespace cooperative_groups
