// onesweep_passes: the pass and portion launch loop of the plain and counted onesweep sorts: one
// launch per (pass, portion), tickets and tail words continued across them (a segmented sort's
// large segments chain the same launches in one kernel: segmented_dispatch's run_large).
#pragma once

#include <cstddef>

#include "../detail/config.cuh"
#include "../kernels/onesweep_kernel.cuh"
#include "launch.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The shape of a sort's onesweep launches: `passes` passes of `tiles` tiles each, cut into
/// portions of the policy's PORTION_TILES; `resident`
/// persistent blocks per launch (0: one block per tile) with `shared_bytes` of dynamic shared
/// memory each. Pass p's first portion reads its digit offsets at `first_bins + p x
/// first_bins_stride`; portions hand theirs on through `pingpong` (2 x RADIX words per pass).
/// `hints`: the kernel is the one with cache hints (told to the hooks' `onesweep_launched`).
struct onesweep_passes {
  int passes = 0;
  std::size_t tiles = 0;
  std::size_t portion_tiles = 1;
  unsigned resident = 0;
  std::size_t shared_bytes = 0;
  launch_order order = launch_order::serial;
  const u64* first_bins = nullptr;
  std::size_t first_bins_stride = 0;
  u64* pingpong = nullptr;
  bool hints = false;

  __host__ std::size_t portions() const { return ceil_div<std::size_t>(tiles, portion_tiles); }
  /// Tiles of portion `portion`.
  __host__ u32 portion_size(std::size_t portion) const {
    return u32(min_of<std::size_t>(portion_tiles, tiles - portion * portion_tiles));
  }
  /// Blocks of a launch over `launch_tiles` tiles, and the tickets it takes: its tiles and,
  /// persistent, one more per block (each block's last ticket finds no tile and ends its loop).
  __host__ unsigned blocks(u32 launch_tiles) const {
    return resident != 0 ? min_of(resident, launch_tiles) : launch_tiles;
  }
  __host__ u32 tickets(u32 launch_tiles) const { return launch_tiles + (resident != 0 ? blocks(launch_tiles) : 0u); }
  /// Tickets of the whole sort: how far into the status ring it reaches.
  __host__ std::size_t sort_tickets() const {
    std::size_t t = 0;
    for (std::size_t portion = 0; portion < portions(); ++portion) t += tickets(portion_size(portion));
    return t * std::size_t(passes);
  }

  /// Launches `kernel` (a onesweep kernel of `Config` over `Source`'s tiles, or its twin with
  /// cache hints, which takes the same parameters) for every pass and
  /// portion: `pass_params(pass)` gives the fields every portion of the pass shares (pass_params
  /// in sort_dispatch.cuh), `portion_params(op, first_tile)` adds what the source needs of the
  /// portion; the tiles, tickets, launch index and digit offsets in and out are set here.
  template <class Config, class Source, class Kernel, class PassParams, class PortionParams>
  __host__ cudaError_t launch(Kernel* kernel, PassParams&& pass_params, PortionParams&& portion_params,
                              cudaStream_t stream) const {
    constexpr int RADIX = Config::RADIX;
    const std::size_t count = portions();
    u32 tile_base = 0;
    u32 launch_index = 0;
    for (int pass = 0; pass < passes; ++pass) {
      onesweep_params_of<Config, Source> op = pass_params(pass);
      u64* const pass_pingpong = pingpong + std::size_t(pass) * 2 * RADIX;
      for (std::size_t portion = 0; portion < count; ++portion) {
        op.tiles = portion_size(portion);
        op.bins_in = portion == 0 ? first_bins + std::size_t(pass) * first_bins_stride
                                  : pass_pingpong + ((portion - 1) & 1) * RADIX;
        op.bins_out = portion + 1 < count ? pass_pingpong + (portion & 1) * RADIX : nullptr;
        op.tickets = tickets(op.tiles);
        op.tile_base = tile_base;
        op.launch = launch_index;
        portion_params(op, portion * portion_tiles);
        const cudaError_t e = launch_with_shared(kernel, blocks(op.tiles), unsigned(Config::THREADS), shared_bytes,
                                                 stream, order, op);
        if (e != cudaSuccess) return e;
        Config::hooks::onesweep_launched(hints);
        tile_base += op.tickets;
        ++launch_index;
      }
    }
    return cudaSuccess;
  }
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
