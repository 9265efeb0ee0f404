// pass_route: which buffer each digit pass reads and writes, decided on the device from the
// upfront histogram. A pass in which every key has the same digit would reproduce its input, so it
// is skipped; the executed passes are chained so that the result still ends where the API says.
#pragma once

#include "../detail/config.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The three buffers a sort's routes name: the input (never written), the buffer the result must
/// end in, and the other one (in/out scratch, or the second buffer of a double buffer).
enum pass_buffer : u32 { buffer_in = 0, buffer_final = 1, buffer_other = 2 };

/// Which of the result's buffers the input is: none (in/out forms: the input is read only), the
/// final one or the other one (double-buffer and in-place forms, which alternate two buffers).
enum route_mode : u32 { input_separate = 0, input_is_final = 1, input_is_other = 2 };

/// A route word: the source buffer in bits 0-1, the destination in bits 2-3; destination
/// `buffer_in` (0) means the pass (or the final copy) does nothing.
///
///     const u32 r = routes[1 + pass];
///     if (pass_route::runs(r)) { const auto* src = keys[pass_route::src(r)]; ... }
struct pass_route {
  __host__ __device__ static constexpr u32 make(u32 src, u32 dst) { return src | dst << 2; }
  __host__ __device__ static constexpr u32 src(u32 r) { return r & 3u; }
  __host__ __device__ static constexpr u32 dst(u32 r) { return (r >> 2) & 3u; }
  __host__ __device__ static constexpr bool runs(u32 r) { return dst(r) != buffer_in; }
};

/// Number of route words of a sort with `passes` digit passes: the final copy's, then one per pass.
__host__ __device__ constexpr int route_words(int passes) { return 1 + passes; }

/// Turns per-pass flags into routes, in place (one thread): on entry `routes[1 + p]` is nonzero
/// when pass `p` is uniform (one digit holds every key); on exit every word is a `pass_route`.
///
/// - `input_separate` (in/out): with `m` executed passes, executed pass `j` writes the final buffer
///   when `m - 1 - j` is even and the other one otherwise, so the last lands in the final buffer
///   and no copy is needed; `m == 0` copies the input to the final buffer.
/// - `input_is_final` / `input_is_other`: executed passes alternate between the two buffers from
///   the input's; if the last leaves the result in the other buffer it is copied to the final one.
///   `copy_first` (the segmented sort's large segments): the copy comes before the passes instead,
///   from the input's buffer to the other one, where the parity of the executed passes then ends
///   them in the final buffer; word 0 is that copy. The data moves once either way.
///
///     if (last_block && threadIdx.x == 0) build_pass_routes(routes, passes, input_separate);
__device__ inline void build_pass_routes(u32* routes, int passes, u32 mode, bool copy_first = false) {
  int executed = 0;
  for (int p = 0; p < passes; ++p) executed += routes[1 + p] == 0 ? 1 : 0;
  u32 at = mode == input_separate ? u32(buffer_in) : mode;  // the buffer holding the data so far
  u32 first = pass_route::make(buffer_in, buffer_in);       // the copy before the passes: none
  if (copy_first && mode != input_separate && (at == u32(buffer_final)) != ((executed & 1) == 0)) {
    const u32 start = at == u32(buffer_final) ? u32(buffer_other) : u32(buffer_final);
    first = pass_route::make(at, start);
    at = start;
  }
  int j = 0;
  for (int p = 0; p < passes; ++p) {
    if (routes[1 + p] != 0) {
      routes[1 + p] = pass_route::make(buffer_in, buffer_in);
      continue;
    }
    u32 dst;
    if (mode == input_separate) {
      dst = ((executed - 1 - j) & 1) == 0 ? u32(buffer_final) : u32(buffer_other);
    } else {
      dst = at == u32(buffer_final) ? u32(buffer_other) : u32(buffer_final);
    }
    routes[1 + p] = pass_route::make(at, dst);
    at = dst;
    ++j;
  }
  routes[0] = pass_route::runs(first) ? first
              : at != u32(buffer_final) ? pass_route::make(at, buffer_final)
                                        : pass_route::make(buffer_in, buffer_in);
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
