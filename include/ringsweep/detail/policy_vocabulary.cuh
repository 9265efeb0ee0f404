// The vocabulary of tuning policies (policy.cuh is the public header that gives it): the shapes a
// policy returns, `policy_defaults` that every policy derives from, the architecture lists and
// `shipped_policies`, which names the shipped policies declared here and defined in policy.cuh.
// Here, below the public header, so that the internals that read policies (detail/tile_shape.cuh,
// detail/policy_check.cuh, detail/policy_for_arch.cuh) include no public header.
#pragma once

#include "config.cuh"

RINGSWEEP_NAMESPACE_BEGIN

/// The key and value a sort moves, as a policy's shape table sees them.
///
///     sort_types t{4, 0, true};   // float keys, keys only
struct sort_types {
  int key_bytes;    // bytes of the key's order-preserving image
  int value_bytes;  // 0: keys only
  bool float_key;   // float, double, __half, __nv_bfloat16 (their images cost more instructions)
};

/// Shape of the onesweep kernel for one (key, value) combination: block threads, keys per thread
/// and the code-generation options of that kernel. A policy's `onesweep(sort_types)` returns one.
///
///     // 384 threads, up to 22 keys per thread within a 33,792-byte exchange, two blocks per SM:
///     onesweep_shape::fit(t, 384, 22, 22, 33792).blocks_per_sm(2)
struct onesweep_shape {
  int threads = 384;
  int items = 1;            // keys per thread
  int min_blocks = 1;       // blocks that must fit on one SM (__launch_bounds__)
  bool recompute_digits = false;
  bool exchange_in_ranking = false;  // fused_exchange(): keys go to shared memory inside the ranking
  bool values_before_lookback = false;  // early_values(): pairs load their values before the look-back
  int vector_load_item_bytes = 0;
  int lookback_words = 0;  // look-back window (0: the policy's LOOKBACK_WINDOW)
  int bins_prefetch = -1;  // when the portion's digit offsets are read (-1: the policy's PREFETCH_BINS)
  int pipeline = 0;        // 1 or 2: this kernel's PIPELINE_STAGES (0: the policy's)

  /// `keys_per_thread` (`pairs_keys_per_thread` when the sort has values), fewer where the
  /// shared-memory exchange of one unit per item (the wider of key and value, at least 4 bytes)
  /// would outgrow `exchange_bytes`; at least one.
  __host__ __device__ static constexpr onesweep_shape fit(sort_types t, int threads, int keys_per_thread,
                                                          int pairs_keys_per_thread, int exchange_bytes) {
    const int wide = t.key_bytes > t.value_bytes ? t.key_bytes : t.value_bytes;
    const int unit = wide > 4 ? wide : 4;
    const int want = t.value_bytes > 0 ? pairs_keys_per_thread : keys_per_thread;
    const int room = exchange_bytes / (threads * unit);
    const int items = want < room ? want : room;
    onesweep_shape s;
    s.threads = threads;
    s.items = items > 1 ? items : 1;
    return s;
  }

  /// `__launch_bounds__(threads, b)`: ptxas keeps the kernel within 65536 / (b x threads)
  /// registers. Naming it also stops ptxas from trading spills for occupancy on its own (CUDA 13
  /// does so when only the thread count is given).
  __host__ __device__ constexpr onesweep_shape blocks_per_sm(int b) const {
    onesweep_shape s = *this;
    s.min_blocks = b;
    return s;
  }

  /// The ranking recomputes each key's digit where it needs it instead of letting the compiler
  /// keep the digits of the whole tile live: a few instructions per key for `items` registers.
  /// Without it a 384-thread block with 22 keys per thread needs 80 registers (two blocks per SM),
  /// with it 56 (three).
  __host__ __device__ constexpr onesweep_shape recompute(bool on = true) const {
    onesweep_shape s = *this;
    s.recompute_digits = on;
    return s;
  }

  /// Keys-only sorts: each key goes to its tile position in shared memory as soon as the ranking
  /// gives it one (issue #35 item 4), so no array of ranks stays live into a separate exchange and
  /// one barrier goes. The ranking's counters and the keys then need shared memory side by side
  /// instead of in one union (384 x 22 4-byte keys: 47 KiB). Not for pipelined shapes.
  __host__ __device__ constexpr onesweep_shape fused_exchange(bool on = true) const {
    onesweep_shape s = *this;
    s.exchange_in_ranking = on;
    return s;
  }

  /// Pairs (not pipelined): the keys go to shared memory before the look-back, as in a keys-only
  /// sort, and the tile's values are loaded then, so that their loads are in flight while the
  /// look-back waits (issue #35 item 6); through the look-back the values hold the registers the
  /// keys held. Static cost (sm_90, 2026-11-27): u32/u32 pairs 69.0 SASS instructions per key
  /// against 69.3, u64/u32 78.0 against 76.3, same registers, no spills; its worth is latency,
  /// which only a GPU can time.
  __host__ __device__ constexpr onesweep_shape early_values(bool on = true) const {
    onesweep_shape s = *this;
    s.values_before_lookback = on;
    return s;
  }

  /// Keys and values of at most `bytes` bytes load with 16-byte vector loads, put back into
  /// warp-striped order through a 512-byte shared stage per warp (`warp_vector_load`): one global
  /// load request per 16 / size items instead of one per item. Ragged segments and arrays not
  /// aligned to 16 bytes load striped. 0: every item loads striped.
  __host__ __device__ constexpr onesweep_shape vector_loads(int bytes) const {
    onesweep_shape s = *this;
    s.vector_load_item_bytes = bytes;
    return s;
  }

  /// This kernel's look-back loads the status words of `w` predecessors at once (see the policy's
  /// `LOOKBACK_WINDOW`, which a shape without it uses): fewer dependent round trips per tile for
  /// a few registers, so it is a per-shape choice (a window that spills one kernel may suit
  /// another).
  __host__ __device__ constexpr onesweep_shape lookback_window(int w) const {
    onesweep_shape s = *this;
    s.lookback_words = w;
    return s;
  }

  /// This kernel's pipelining (see the policy's `PIPELINE_STAGES`, which a shape without it uses):
  /// 1, one tile per block; 2, persistent and pipelined. A per-shape choice because the loop's
  /// state costs registers that one key width can spare and another cannot.
  __host__ __device__ constexpr onesweep_shape pipeline_stages(int stages) const {
    onesweep_shape s = *this;
    s.pipeline = stages;
    return s;
  }

  /// When this kernel's tiles read their digits' offsets at the portion's start (see the policy's
  /// `PREFETCH_BINS`, which a shape without it uses): 0 after the look-back, 1 before it, 2 at the
  /// tile's start.
  __host__ __device__ constexpr onesweep_shape prefetch_bins(int when) const {
    onesweep_shape s = *this;
    s.bins_prefetch = when;
    return s;
  }
};

/// Status slots (`STATUS_SLOTS`) of a ring in which `resident_tiles` onesweep tiles in flight
/// never wait for a slot: tile u may write once every tile below u - (STATUS_SLOTS - depth) + 1
/// has retired, and the tail counts whole groups of 2^tail_bits tiles, so the free window
/// STATUS_SLOTS - depth holds the resident tiles rounded up to whole groups, plus one group. Each
/// slot costs RADIX x 8 bytes (2 KiB at 8-bit digits).
///
///     // three blocks per SM on 132 SMs:
///     static constexpr int STATUS_SLOTS = ring_slots(3 * 132, LOOKBACK_DEPTH, TAIL_BITS);
__host__ __device__ constexpr int ring_slots(int resident_tiles, int depth, int tail_bits) {
  return depth + (resident_tiles + (1 << tail_bits) - 1) / (1 << tail_bits) * (1 << tail_bits) + (1 << tail_bits);
}

/// What every policy starts from. A policy derives from it and hides the members it changes:
///
///     struct my_policy : ringsweep::policy_defaults {
///       static constexpr int LOOKBACK_DEPTH = 256;
///       __host__ __device__ static constexpr onesweep_shape onesweep(sort_types t) {
///         return onesweep_shape::fit(t, 256, 16, 16, 16384);
///       }
///     };
///     ringsweep::tuning::sort_keys<my_policy>(d_temp, bytes, in, out, n);   // tuning.cuh
///
/// Members:
/// - `onesweep(sort_types)`: the onesweep kernel's shape per key and value size (as CUB's tuning
///   tables give one per key size). The single-tile sort uses the same shape: its tile is one
///   onesweep tile.
/// - `RADIX_BITS`: bits per digit pass.
/// - `STATUS_SLOTS`: slots of the circular look-back status buffer; `LOOKBACK_DEPTH`: how many
///   predecessors a tile's look-back reads at most; `TAIL_BITS`: the tail iterator retires tiles in groups of `1 << TAIL_BITS`.
///   Deadlock freedom needs `STATUS_SLOTS >= LOOKBACK_DEPTH + (1 << TAIL_BITS)`.
/// - `PORTION_TILES`: tiles per onesweep launch (per-tile counts stay below 2^30).
/// - `HIST_THREADS`, `HIST_ITEMS`: block shape of the upfront histogram.
/// - `LOOKBACK_WINDOW`: predecessor words each digit's look-back loads at once (1: one dependent
///   load per predecessor, the classic walk); a shape's `lookback_window(w)` overrides it for
///   that kernel.
/// - `PREFETCH_BINS`: when a onesweep tile reads its digits' offsets at the portion's start
///   (`bins_in`): 0 after its look-back, 1 before it, 2 at the tile's start; a shape's
///   `prefetch_bins(when)` overrides it for that kernel.
/// - `SEGMENT_TINY_KEYS`: segmented sorts sort a segment of at most this many keys (capped at 512
///   for keys of at most 32 bits, 256 up to 64 bits, 128 for wider custom keys) in registers, by a
///   bitonic network over the fewest lanes of a warp that hold it (16 keys per lane, 8 for 64-bit
///   keys, 4 above), in the launch that classifies the segments; a larger one of at most one onesweep tile in one block, and larger
///   ones by onesweep passes over all their tiles.
/// - `segment_block(sort_types)`: the shape of the group of threads that sorts a segmented sort's
///   segments above the tiny ones and up to its own tile (one group each, several groups side by
///   side in a block of SEGMENT_SMALL_THREADS), where that tile is smaller than the onesweep tile;
///   segments between it and one onesweep tile take the whole block. 256 threads x 16 keys (4,096
///   4-byte keys; 2,048 8-byte ones): two groups a block. It ranks by per-thread counters over
///   4-bit digits (block_thread_rank): on sm_90 a 4,096-key u32 segment takes 5.0
///   warp-instructions per key (7.7 with the onesweep block ranking;
///   bench/results/segment_instructions.md). Its blocks per SM are not used: the block's bounds
///   are the kernel's.
/// - `segment_compact_block(sort_types)`: a smaller group shape for the segments above the tiny
///   ones and up to its own tile, where that tile lies between the tiny limit and
///   `segment_block`'s tile (a medium group would rank mostly padding for them): one group each.
///   64 threads x 16 keys (1,024 4-byte keys; 512 8-byte ones), eight groups a block, ranked by
///   per-thread counters as the medium group: on sm_90 a 1,024-key u32 segment takes 4.7
///   warp-instructions per key (7.6 with the onesweep block ranking; 128 x 8 took 9.1 with it, the
///   medium block 30.7 with it; bench/results/segment_instructions.md).
/// - `SEGMENT_SMALL_THREADS`: the threads of the one block shape that sorts a segmented sort's
///   compact, medium and small segments (segment_blocks_kernel, one block per SM): groups of the
///   compact block's threads sort a compact segment each, groups of the medium block's a medium
///   one, the whole block a small one (up to one onesweep tile: as many keys a thread as hold it,
///   512 x 18 4-byte keys on sm_90), and the block then prepares the large segments' passes. One
///   launch for the three classes, whose thread counts must divide this one. 512 (fewer where the
///   onesweep tile has fewer keys).
/// - `DEPENDENT_LAUNCH`: every kernel of a onesweep sort after the histogram is launched as a
///   programmatic dependent of the one before (sm_90 on, where the kernels were built for it): it
///   is scheduled while its predecessor finishes and waits for it on the device, which hides a
///   launch latency per kernel.
/// - `CACHE_HINTS`: the onesweep passes of a sort whose data cannot stay in L2 run a kernel with
///   cache hints (sm_80 on): keys and values read evict-first and not kept in L1, written
///   streaming, the status ring and the digit offsets evict-last. The host decides per sort,
///   never per key: hints when one pass's input and output, 2 x n x (key + value bytes), exceed
///   `CACHE_HINTS_L2_PERCENT` percent of the device's L2 (`cudaDevAttrL2CacheSize`); smaller
///   sorts run the kernel without hints, whose output may still be in L2 for the next pass.
///   Off in the shipped policies (untimed).
///
/// - `PIPELINE_STAGES`: 1, one onesweep tile per block (a grid of every tile of the portion); 2,
///   a persistent pipelined onesweep kernel: a grid of the blocks that fit on the device at once,
///   each taking tiles by ticket in a loop, with the next tile's ticket taken and its keys on their
///   way into shared memory (asynchronous copies, `cp.async` from sm_80 on) while the current tile
///   ranks, looks back and scatters; its values follow during its own ranking. The tile's keys and
///   values then need shared memory of their own besides the ranking's (dynamic shared memory, up
///   to the device's opt-in limit), and a block holds two tickets: size the ring for twice the
///   resident blocks (`ring_slots`). Segmented sorts keep one tile per block.
/// - `PIPELINE_BULK_COPY`: where the pipelined kernel runs on sm_90 or newer, a tile's keys (and
///   values) come by one bulk copy (`cp.async.bulk`, the copy engine) completing on an mbarrier
///   instead of per-thread `cp.async` copies (below sm_90: `cp.async` always). Off by default: with
///   policy_sm90's 384 x 24 shape for 4-byte keys it spills 8-48 B on sm_90 (384 x 22 or three
///   blocks of 384 x 16 per SM do not).
///
/// A policy is tuning only: it never changes what a sort accepts (every policy sorts any n; a
/// tile's output positions are one 32-bit multiply-add on a per-digit pointer whatever n is, see
/// onesweep_tile's `digit_out`): test and measurement hooks (fault injection, tile timelines) are a
/// separate parameter (`detail::with_hooks`, detail/sort_hooks.cuh).
struct policy_defaults {
  static constexpr int RADIX_BITS = 8;
  static constexpr int LOOKBACK_DEPTH = 512;
  static constexpr int TAIL_BITS = 8;
  // 1024 slots, 2 MiB: sized for 256 tiles in flight (two blocks per SM on 128 SMs).
  static constexpr int STATUS_SLOTS = ring_slots(256, LOOKBACK_DEPTH, TAIL_BITS);
  static constexpr int PORTION_TILES = 32768;
  static constexpr int HIST_THREADS = 128;
  static constexpr int HIST_ITEMS = 16;
  static constexpr int LOOKBACK_WINDOW = 1;
  static constexpr int PREFETCH_BINS = 0;
  static constexpr bool DEPENDENT_LAUNCH = false;
  static constexpr bool CACHE_HINTS = false;
  static constexpr int CACHE_HINTS_L2_PERCENT = 100;
  static constexpr int SEGMENT_TINY_KEYS = 512;
  static constexpr int SEGMENT_SMALL_THREADS = 512;
  __host__ __device__ static constexpr onesweep_shape segment_block(sort_types t) {
    return onesweep_shape::fit(t, 256, 16, 16, 256 * 16 * 4);
  }
  __host__ __device__ static constexpr onesweep_shape segment_compact_block(sort_types t) {
    return onesweep_shape::fit(t, 64, 16, 16, 64 * 16 * 4);
  }
  static constexpr int PIPELINE_STAGES = 1;
  static constexpr bool PIPELINE_BULK_COPY = false;
  // top-k (top_k.cuh): a candidate buffer holds max(n / 64, TOP_K_MIN_CAPACITY) keys, at most n.
  static constexpr int TOP_K_MIN_CAPACITY = 65536;
  // top-k: at most this many ranges (blocks of the select's kernels; a range spans several tiles
  // beyond TOP_K_MAX_RANGES x HIST_THREADS x HIST_ITEMS keys).
  static constexpr int TOP_K_MAX_RANGES = 1024;
  // top-k: the k candidates are sorted in one cooperative launch, a block per sort tile, when
  // they fill more than one tile and at most this many (and every block is resident at once).
  static constexpr int TOP_K_SORT_BLOCKS = 1024;
  // batched top-k: a long row is split among blocks in parts of at least TOP_K_ROW_PART_MIN keys
  // (and k), and of at least n / (TOP_K_ROW_PARTS_PER_SM x SMs).
  static constexpr int TOP_K_ROW_PART_MIN = 8192;
  static constexpr int TOP_K_ROW_PARTS_PER_SM = 4;

  __host__ __device__ static constexpr onesweep_shape onesweep(sort_types t) {
    return onesweep_shape::fit(t, 384, 16, 16, 384 * 16 * 4);
  }
};

/// One entry of an architecture list: `Policy` serves from `ARCH` (`__CUDA_ARCH__`, i.e. compute
/// capability x 100, and PTX version x 10) up to the next entry's `ARCH`.
template <int ARCH, class Policy>
struct arch_policy {
  static constexpr int arch = ARCH;
  using policy = Policy;
};

/// An ordered list of `arch_policy` entries, oldest architecture first; the first entry starts at 0.
template <class... Entries>
struct arch_policies {};

/// The shipped policies, defined in policy.cuh. Declared here for `shipped_policies`, which only
/// names them: the architecture lookups (detail/policy_for_arch.cuh) compare these types, and
/// whatever reads a member of one includes policy.cuh.
struct policy_sm80;
struct policy_sm90;

/// The shipped policies. Each boundary is written here once; a policy's kernels are compiled only
/// for its own architectures (elsewhere their bodies are empty), and the public API picks the
/// policy by the PTX version its kernels were built from, so it never launches an empty one.
using shipped_policies = arch_policies<arch_policy<0, policy_sm80>, arch_policy<900, policy_sm90>>;

RINGSWEEP_NAMESPACE_END
