// onesweep_chain: the ticket loop of a onesweep kernel that runs a chain of launches (passes and
// portions) in one: a segmented sort's large segments, every pass in one kernel.
#pragma once

#include "../detail/config.cuh"
#include "../detail/intrinsics.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The loop of a block of a chained onesweep kernel over `Tile` (an onesweep_tile whose source is
/// CHAINED: segment_tiles). The kernel's argument is an array of launches' arguments, as the host
/// would have passed to one launch per pass and portion (`Tile::params_t`, `launches` of them);
/// tickets run on through them as through separate launches, each launch taking `tickets` of its
/// own (its tiles: no block takes a ticket to stop on), from `tile_base` on.
///
/// A block holds one ticket at a time and finds its launch by the ranges in order (tickets only
/// grow, so a block never goes back): a ticket below the launch's real tiles is a tile; the last
/// real tile moves the ticket past the launch's missing ones, and the first ticket of a launch
/// with none (its pass skipped, or no large tile) moves it past all of them. Before its first
/// tile of a launch, a block waits until the launches before it are done (`done`, released after
/// each tile's last store, and by the first ticket of a launch without tiles once it has cleared
/// the next launch's tail words): the launch reads what the one before wrote, and its look-back,
/// ring slots and tail words are those of a launch that starts once the one before has ended
/// (seen failing, a tail wait that never ends, when a launch without tiles did not count). The
/// tickets a block waits on are held by blocks that run (tickets go in order), so no co-residency
/// is assumed, as in the look-back. The kernel reads the keys its launches wrote through L2
/// (onesweep_tile::LOAD).
///
///     onesweep_chain<onesweep_tile<Config, segment_tiles>>(tile).run();
template <class Tile>
class onesweep_chain {
 public:
  using bits_type = typename Tile::bits_type;
  using Hooks = typename Tile::Hooks;
  static constexpr int ITEMS = Tile::ITEMS;

  __device__ __forceinline__ explicit onesweep_chain(Tile& tile) : t_(tile) {}

  /// The block's loop over its tickets.
  __device__ __forceinline__ void run() {
    auto& temp = t_.temp_;
    if (Tile::tid() == 0) {
      temp.chain = 0;
      temp.need = 0;
      temp.ready = 0;
      enter();
      temp.ticket = atomicAdd(t_.p_.ticket, 1u);
    }
    for (;;) {
      // sass: load
      if (Tile::tid() == 0) place();
      __syncthreads();  // place's words, for every thread
      // sass: end
      if (temp.chain >= t_.p_.launches) return;  // the block's ticket is past the chain
      if (temp.valid != 0) {  // a real tile of launch `chain`
        t_.chain_ = temp.chain;  // the tile's launch (onesweep_tile::p)
        bits_type keys[ITEMS];
        const u32 u = t_.load_tile(keys);
        t_.work(u, t_.valid_keys(u), keys);
      }
      // sass: load
      __syncthreads();  // the tile's stores are done, and every thread's reads of place's words
      if (Tile::tid() == 0) {
        if (temp.valid != 0) red_add_release(t_.p_.done, 1u);
        temp.ticket = atomicAdd(t_.p_.ticket, 1u);
      }
      // sass: end
    }
  }

 private:
  /// Thread 0: the arguments of the launch the block has reached.
  __device__ __forceinline__ const typename Tile::params_t& launch() const { return (&t_.p_)[t_.temp_.chain]; }

  /// Thread 0: the launch the block has reached (`temp.chain`) starts: its route (the buffers its
  /// tiles read and write, read here once, not at each tile) and its real tiles.
  __device__ __forceinline__ void enter() const {
    auto& temp = t_.temp_;
    temp.route = *launch().route;
    temp.real = Tile::source_t::template chain_real<Tile::TILE>(launch(), temp.route);
  }

  /// Thread 0, ticket `t` past the launch the block was in: on to the launch it lies in (what
  /// each launch passed counts in `done` comes before it: its real tiles, or its first ticket
  /// where it has none), or past the chain's last.
  __device__ __forceinline__ void advance(u32 t) const {
    auto& temp = t_.temp_;
    do {
      temp.need += max_of(temp.real, 1u);
      ++temp.chain;
      if (temp.chain >= t_.p_.launches) return;
      enter();
    } while (t - launch().tile_base >= launch().tickets);
  }

  /// Thread 0, a ticket taken: finds its launch, and its tile (`temp.valid` its keys, 0 for none).
  /// What happens once per launch (entering it, its first ticket, a wait) is off the instruction
  /// report's full-tile path (`cold`).
  __device__ __forceinline__ void place() const {
    auto& temp = t_.temp_;
    const u32 t = temp.ticket;
    temp.valid = 0;
    const typename Tile::params_t* launch_p = &launch();
    if (t - launch_p->tile_base >= launch_p->tickets) {
      // sass: cold
      advance(t);
      // sass: load
      if (temp.chain >= t_.p_.launches) return;
      launch_p = &launch();
    }
    const auto& p = *launch_p;
    const u32 i = t - p.tile_base;
    const u32 real = temp.real;
    // The last real tile moves the ticket to the next launch's first, past the missing ones (to it,
    // not by their count: tickets past the real ones taken meanwhile are taken again); with no
    // real tile, the launch's first ticket does.
    if (i == (real == 0 ? 0u : real - 1) && i + 1 < p.tickets) atomicMax(t_.p_.ticket, p.tile_base + p.tickets);
    if (i >= real && i != 0) return;  // a ticket taken before the move: no tile
    // The launch starts once the launches before it are done: their stores, and their look-back
    // and tail words, which the launch's first ticket clears for the next launch. A block waits
    // at its first ticket of a launch only (`ready`: the launch it has waited for, plus one).
    if (temp.ready != temp.chain + 1) {
      // sass: cold
      u32 pause = 0;
      while (load_acquire(t_.p_.done) < temp.need) backoff(pause);
      temp.ready = temp.chain + 1;
      // sass: load
    }
    if (i == 0) {
      // sass: cold
      t_.chain_ = temp.chain;  // tail(): this launch's words
      if (temp.chain == 0 && t_.p_.done_next != nullptr) *t_.p_.done_next = 0;  // the next chain's count
      Hooks::first_ticket(t_.tail().words, Tile::tail_t::WORDS);
      t_.tail().clear_next();
      // A launch with no tile counts its first ticket as done once the next launch's words are
      // clear: the next launch's tiles wait for it (they would retire into those words).
      if (real == 0) red_add_release(t_.p_.done, 1u);
      // sass: load
      if (real == 0) return;
    }
    Hooks::pause(t, 0);
    temp.uniform_digit = -1;
    Tile::source_t::template on_ticket<Tile::TILE, false>(temp, p, t);  // its keys in temp.valid
  }

  Tile& t_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
