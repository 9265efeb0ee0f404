// The distributed sort's one entry, detail_mpi::distributed_sort (included by distributed.inl,
// after <mpi.h>): the protocol step by step, from the checks and allocations to the final sort.
// Its pieces: distributed_settings.inl, distributed_local.inl, distributed_agreement.inl,
// distributed_cache.inl, the splitter search (distributed_splitters.inl), the run lengths
// (distributed_run_lengths.inl), the rank's partition and final sort (distributed_arrays.inl) and
// the exchange (distributed_exchange.inl).
// Why no rank can wait forever: docs/design.md, section 14.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "../detail/digit_window.cuh"
#include "../detail/sort_window.cuh"
#include "../kernels/boundary_histogram_kernel.cuh"
#include "../kernels/bracket_kernel.cuh"
#include "../kernels/slot_partition_kernel.cuh"
#include "distributed_agreement.inl"
#include "distributed_arrays.inl"
#include "distributed_cache.inl"
#include "distributed_exchange.inl"
#include "distributed_local.inl"
#include "distributed_run_lengths.inl"
#include "distributed_search_args.inl"
#include "distributed_search_settings.inl"
#include "distributed_settings.inl"
#include "distributed_splitters.inl"
#include "key_kind.cuh"
#include "launch.cuh"
#include "radix_sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

/// The distributed sort of `n` keys (and values, with HAS_VALUES) on this rank; see
/// distributed.cuh for the contract and docs/design.md section 14 for the protocol.
template <bool HAS_VALUES, class Kind, class Value>
cudaError_t distributed_sort(MPI_Comm user_comm, const Kind& kind, typename Kind::key_type* d_keys, Value* d_values,
                             std::size_t n, sort_options opts, cudaStream_t stream) {
  using Key = typename Kind::key_type;
  using SortKey = typename Kind::sort_key;
  using traits = key_traits<SortKey>;
  using bits_type = typename traits::bits_type;
  static_assert(sizeof(bits_type) == sizeof(Key), "ringsweep: a key moves as its bits");
  // Values of any size: the partition moves them in words of their alignment, the exchange as
  // bytes, and the local sort (radix_sort) gathers those that are not 1, 2, 4, 8 or 16 bytes.
  static_assert(!HAS_VALUES || std::is_trivially_copyable<Value>::value,
                "ringsweep: values must be trivially copyable");

  phase_times& times = last_times();
  times = phase_times{};
  last_collectives() = collective_counts{};
  int mpi_up = 0;
  int mpi_down = 0;
  MPI_Initialized(&mpi_up);
  MPI_Finalized(&mpi_down);
  if (user_comm == MPI_COMM_NULL || mpi_up == 0 || mpi_down != 0) return cudaErrorInvalidValue;
  const double t_start = MPI_Wtime();
  buffer_cache* cache = cache_of(user_comm, true);
  bool made = false;  // whether this call made the communicator's duplicate (a collective)
  const MPI_Comm comm = cached_dup(*cache, user_comm, made);
  const unsigned dup_rounds = made ? 1u : 0u;
  int rank = 0;
  int p = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  const exchange_settings cfg = settings();
  const std::size_t value_bytes = HAS_VALUES ? sizeof(Value) : 0;
  const std::size_t item_bytes = sizeof(Key) + value_bytes;

  // ---- 1. this rank's own checks -------------------------------------------------------------
  cudaError_t err = cudaSuccess;
  const int key_bits = traits::bits;
  detail::sort_window window;  // bits, order and splitter rounds (8-bit digits), resolved once
  const bool bad_window = !detail::sort_window::resolve(opts, key_bits, radix_bits, window);
  const int end_bit = bad_window ? opts.end_bit : window.end_bit;
  const bool bad_count = n > std::size_t(PTRDIFF_MAX) / item_bytes;
  const bool bad_chunk = cfg.chunk_bytes == 0 || cfg.chunk_bytes > std::size_t(INT_MAX);
  if (bad_window || bad_count || bad_chunk) err = cudaErrorInvalidValue;
  if (n > 0 && (d_keys == nullptr || (HAS_VALUES && d_values == nullptr))) err = cudaErrorInvalidValue;
  if (!kind.aligned(d_keys)) err = cudaErrorInvalidValue;
  const unsigned boundaries = unsigned(p - 1);
  const int passes = bad_window ? 0 : window.passes;

  // ---- 2. allocations: the second buffer, the sort's temporary storage, the search's tables ----
  // The tables (the histograms of the splitter search, the partition's per-block offsets) are
  // used up before the final sort, so they share its temporary storage. The block and the staged
  // path's host stages come from the communicator's cache (distributed_cache.inl): every call
  // returns with its stream synchronised, so the next one, on any stream, may reuse them.
  std::size_t temp_bytes = 0;
  if (err == cudaSuccess) {
    double_buffer<Key> qk(d_keys, d_keys);
    double_buffer<Value> qv(d_values, d_values);
    err = local_sort<HAS_VALUES>(kind, nullptr, temp_bytes, qk, qv, n, opts, stream);
  }
  if (p > max_ranks) err = cudaErrorInvalidValue;  // the partition's slots must fit its warp match
  const unsigned slots = 2 * boundaries + 1;
  const unsigned part_blocks = partition_blocks(n, slots);
  // The bracket pass marks at most bracket_cuts + 1 keys per boundary: its slot counts and marks.
  const std::size_t marks = std::size_t(boundaries) * (bracket_cuts + 1);
  // The count pass's slot counts, and room after them for the chosen slots' positions and moves
  // (16 bytes a key, n / 64 + 64 keys: the commit at the all-gather, distributed_splitters.inl).
  // The partition's counters: up to 2 splitters per boundary where the all-gather commits (the
  // marks around a chosen slot), so up to 4 (p - 1) + 1 slots, at most 2^21 counters.
  const std::size_t commit_counters = std::min<std::size_t>(
      std::size_t(4 * boundaries + 1) * std::max<std::size_t>((n + 2047) / 2048, 1), std::size_t(1) << 21);
  const std::size_t table_bytes = std::max({std::size_t(boundaries) * 256 * 8, std::size_t(slots) * part_blocks * 8,
                                            commit_counters * 8,
                                            (2 * marks + 2) * 8 + (p > 1 ? 16 * (n / 64 + 64) : 0)});
  const std::size_t off_values = align_up(n * sizeof(Key));
  const std::size_t off_temp = off_values + align_up(n * value_bytes);
  const std::size_t off_prefixes = off_temp + align_up(std::max(temp_bytes, table_bytes));
  const std::size_t total_bytes = off_prefixes + align_up(marks * (detail::probe_max_digits + 2) + 1);
  unsigned char* block = nullptr;  // the communicator's cached device block (cudaMalloc)
  if (err == cudaSuccess) err = cached_device(*cache, total_bytes, block);
  const bool staged = cfg.path == exchange_path::staged || (cfg.path == exchange_path::automatic && !cuda_aware());
  unsigned char* host = nullptr;  // the communicator's cached page-locked stages
  if (err == cudaSuccess && staged && p > 1 && n > 0) err = cached_host(*cache, 2 * n * item_bytes, host);
  auto release = [&]() { times.total = MPI_Wtime() - t_start; };

  // ---- 3. the sample, and the agreement before the first write: every rank's status, options, ----
  // count and sample (the digits of evenly spaced keys; distributed_splitters.inl).
  const auto context = kind.context();
  detail::key_digits<SortKey> digits{};
  for (int t = 0; t < passes; ++t) {
    digits.digit[t] = window.extractor<radix_bits>(context, passes - 1 - t);
  }
  const unsigned sample = p > 1 ? sample_keys(p) : 0;
  const std::size_t sample_bytes = std::size_t(sample) * row_bytes;
  std::vector<unsigned char> gather_in(sizeof(rank_status) + sample_bytes, 0);
  if (err == cudaSuccess && p > 1 && n > 0 && passes > 0) {
    const unsigned taken = unsigned(std::min<std::size_t>(n, sample));
    std::vector<unsigned char> rows(std::size_t(taken) * std::size_t(passes));
    const unsigned sample_blocks = (taken + detail::bracket_threads - 1) / detail::bracket_threads;
    err = detail::launch(detail::key_sample_kernel<SortKey>, sample_blocks, detail::bracket_threads, stream,
                         detail::launch_order::serial,
                         reinterpret_cast<const bits_type*>(d_keys), n, taken, digits, passes, block);
    if (err == cudaSuccess) err = cudaMemcpyAsync(rows.data(), block, rows.size(), cudaMemcpyDeviceToHost, stream);
    err = first_error(err, cudaStreamSynchronize(stream));
    for (unsigned j = 0; err == cudaSuccess && j < taken; ++j) {
      std::memcpy(&gather_in[sizeof(rank_status) + j * row_bytes], &rows[std::size_t(j) * std::size_t(passes)],
                  std::size_t(passes));
    }
  }
  const rank_status mine{static_cast<long long>(err),
                         static_cast<long long>(opts.order),
                         static_cast<long long>(opts.begin_bit),
                         static_cast<long long>(end_bit),
                         static_cast<long long>((std::size_t(key_bits) * 64 + sizeof(Key)) * 64 + value_bytes),
                         static_cast<long long>(cfg.chunk_bytes),
                         bad_count ? -1ll : static_cast<long long>(n),
                         static_cast<long long>(align_up(std::max(temp_bytes, table_bytes)))};
  std::memcpy(gather_in.data(), &mine, sizeof(rank_status));
  std::vector<unsigned char> gathered(gather_in.size() * std::size_t(p));
  MPI_Allgather(gather_in.data(), int(gather_in.size()), MPI_BYTE, gathered.data(), int(gather_in.size()), MPI_BYTE,
                comm);
  std::vector<rank_status> all(static_cast<std::size_t>(p));
  std::vector<unsigned char> samples(sample_bytes * std::size_t(p));
  std::vector<unsigned long long> n_of(static_cast<std::size_t>(p), 0);
  for (int r = 0; r < p; ++r) {
    const unsigned char* from = &gathered[std::size_t(r) * gather_in.size()];
    std::memcpy(&all[std::size_t(r)], from, sizeof(rank_status));
    if (sample_bytes > 0) std::memcpy(&samples[std::size_t(r) * sample_bytes], from + sizeof(rank_status), sample_bytes);
  }
  bool invalid = false;
  long long worst = 0;
  unsigned long long total_n = 0;
  long long scratch = LLONG_MAX;  // the fewest bytes of tables any rank has
  std::vector<unsigned long long> start(std::size_t(p) + 1, 0);  // global position of each rank's first key
  for (int r = 0; r < p; ++r) {
    const rank_status& s = all[std::size_t(r)];
    invalid = invalid || s.error == cudaErrorInvalidValue || s.n < 0 || s.order != mine.order ||
              s.begin_bit != mine.begin_bit || s.end_bit != mine.end_bit || s.item_sizes != mine.item_sizes ||
              s.chunk_bytes != mine.chunk_bytes;
    worst = std::max(worst, s.error);
    scratch = std::min(scratch, s.scratch);
    if (s.n >= 0) {
      total_n += static_cast<unsigned long long>(s.n);
      n_of[std::size_t(r)] = static_cast<unsigned long long>(s.n);
      invalid = invalid || total_n > static_cast<unsigned long long>(PTRDIFF_MAX) / item_bytes;
    }
    start[std::size_t(r) + 1] = total_n;
  }
  if (invalid || worst != 0) {
    release();
    return invalid ? cudaErrorInvalidValue : cudaError_t(worst);
  }

  const double t_agreed = MPI_Wtime();
  Key* keys2 = reinterpret_cast<Key*>(block);
  Value* values2 = HAS_VALUES ? reinterpret_cast<Value*>(block + off_values) : nullptr;
  void* d_temp = block + off_temp;
  unsigned long long* d_table = reinterpret_cast<unsigned long long*>(block + off_temp);
  unsigned char* d_prefixes = block + off_prefixes;

  // The final sort (here, or step 7) and the partition (step 5) of this rank's arrays.
  const rank_arrays<HAS_VALUES, Kind, Value> arrays{kind, d_keys, d_values, keys2, values2, n, stream};

  if (p == 1) {  // one rank: nothing to agree on or to move; the sort is the result
    last_collectives().before_exchange = dup_rounds + 1;
    err = arrays.final_sort(d_temp, temp_bytes, opts);
    times.final_sort = MPI_Wtime() - t_agreed;
    release();
    return err;
  }

  // ---- 4. splitters, on the keys as they are: the exact key and count of equal keys at every ----
  // rank boundary (distributed_splitters.inl). Boundary b (1 <= b < p) is the global position
  // start[b]; the open ones have start[b] < total_n (the others, only empty ranks after them, take
  // every key), a prefix of the boundaries. The first `open` rows of `prefixes` are the splitters.
  unsigned open = 0;
  while (open < boundaries && start[open + 1] < total_n) ++open;
  search_args<SortKey> search{};
  search.comm = comm;
  search.rank = rank;
  search.p = p;
  search.stream = stream;
  search.keys = reinterpret_cast<const bits_type*>(d_keys);
  search.n = n;
  search.digits = digits;
  search.passes = passes;
  for (int t = 0; t < passes; ++t) search.buckets.push_back(1u << window.pass<radix_bits>(passes - 1 - t).width);
  search.start = &start;
  search.n_of = &n_of;
  search.open = open;
  search.samples = samples.data();
  search.sample = sample;
  search.d_rows = block;
  search.d_table = d_table;
  search.d_marks = d_prefixes;
  search.gather_all = p <= splitter_tuning().gather_ranks;
  const int exchanged = HAS_VALUES ? 2 : 1;  // arrays: keys, and values
  exchange_array ex[2] = {
      {sizeof(Key), reinterpret_cast<const unsigned char*>(keys2), reinterpret_cast<unsigned char*>(d_keys), nullptr,
       nullptr, tag_keys},
      {value_bytes, reinterpret_cast<const unsigned char*>(values2), reinterpret_cast<unsigned char*>(d_values),
       nullptr, nullptr, tag_values}};
  if (host != nullptr) {
    ex[0].host_src = host;
    ex[1].host_src = host + n * sizeof(Key);
    ex[0].host_dst = host + n * item_bytes;
    ex[1].host_dst = ex[0].host_dst + n * sizeof(Key);
  }
  // Where the all-gather is the commit point (up to gather_ranks ranks, distributed_splitters.inl):
  // the partition by the plan's splitters, the chosen slots' keys put in their sorted order, and
  // the staged path's copies, all before it. The own run's ends lie in the ranges of boundaries
  // rank - 1 and rank; what lies between them surely stays.
  search.scratch = std::size_t(scratch);
  search.pre_commit = [&](const pre_commit_plan& plan) {
    cudaError_t e = cudaSuccess;
    if (n > 0) {
      e = arrays.partition(plan.splitters, unsigned(plan.splitters.size() / detail::probe_max_digits), digits, passes,
                           d_prefixes, d_table);
    }
    const std::size_t m = plan.moves.size() / 2;
    const unsigned long long none[2] = {0, 0};  // the copy is made for no moves too: the same calls
    if (e == cudaSuccess && n > 0) {
      e = cudaMemcpyAsync(d_table, m > 0 ? plan.moves.data() : none, m * 16, cudaMemcpyHostToDevice, stream);
    }
    if (e == cudaSuccess) e = arrays.order_slots(d_table, m);
    std::size_t keep_begin = rank == 0 ? 0 : std::size_t(unsigned(rank - 1) < open ? plan.hi[std::size_t(rank - 1)] : n);
    std::size_t keep_end = rank == p - 1 ? n : std::size_t(unsigned(rank) < open ? plan.lo[std::size_t(rank)] : n);
    if (keep_end < keep_begin) keep_begin = keep_end = 0;  // nothing surely stays: all of it
    if (e == cudaSuccess && n > 0) e = stage_runs(ex, exchanged, n, keep_begin, keep_end, stream);
    return first_error(e, cudaStreamSynchronize(stream));
  };
  splitter_result found;
  err = search_splitters(search, err, found);
  // What this rank sends and receives (distributed_run_lengths.inl): every rank's cuts where the
  // counts were gathered (the same on every rank, an agreed check), else its own and an all-to-all.
  const run_lengths runs = runs_of(comm, rank, p, n, open, start, n_of, found);
  const bool inconsistent = found.inconsistent || runs.inconsistent;
  const double t_split = MPI_Wtime();
  times.splitters = t_split - t_agreed;

  // ---- 5. the stable partition into the second array: the run for rank q is [cut_q, cut_q+1) ----
  // Made before the all-gather where that is the commit point (found.committed: pre_commit above),
  // else here, by the exact splitters, and agreement 2 after it.
  if (!found.committed) {
    if (err == cudaSuccess && !inconsistent && n > 0) {
      std::vector<unsigned> group_of(boundaries, 0);
      std::vector<unsigned char> table;  // the distinct splitters, in order
      const unsigned count = open > 0 ? distinct_prefixes(found.prefixes, open, passes, group_of, table) : 0;
      err = arrays.partition(table, count, digits, passes, d_prefixes, d_table);
    }
    // The peers' runs lie before and after this rank's own: at most two copies per array.
    const std::size_t own_begin = std::size_t(runs.send_displs[std::size_t(rank)]);
    const std::size_t own_end = own_begin + std::size_t(runs.send_counts[std::size_t(rank)]);
    if (err == cudaSuccess && !inconsistent) err = stage_runs(ex, exchanged, n, own_begin, own_end, stream);
    err = first_error(err, cudaStreamSynchronize(stream));
    // Agreement 2, the commit point: every copy that can fail before data moves has been made, and
    // the caller's arrays have only been read. An error anywhere: every rank returns it, untouched.
    err = agree(comm, err, inconsistent);
  } else {
    // The all-gather was the commit point: its verdict, and the run lengths' check every rank made
    // alike on the gathered counts.
    err = found.agreed != cudaSuccess ? found.agreed : (inconsistent ? cudaErrorUnknown : cudaSuccess);
  }
  // The collectives so far: the duplicate (when made now), agreement 1, the search's, the run
  // lengths' all-to-all (beyond gather_ranks ranks), agreement 2 (unless the all-gather committed).
  last_collectives().before_exchange =
      dup_rounds + 1 + last_collectives().splitters + runs.rounds + (found.committed ? 0 : 1);
  const double t_partitioned = MPI_Wtime();
  times.partition = t_partitioned - t_split;
  if (err != cudaSuccess) {
    release();
    return err;
  }

  // ---- 6. the exchange, from the second array (or its host stage) into the caller's arrays -----
  // (distributed_exchange.inl). A failed copy into the caller's arrays is made once more from its
  // intact source; the error is still returned (agreement 3).
  bool delivered = false;
  err = exchange_runs(comm, rank, p, ex, exchanged, runs, cfg.chunk_bytes, stream, delivered);
  const double t_exchanged = MPI_Wtime();
  times.exchange = t_exchanged - t_partitioned;

  // ---- 7. the stable sort of what arrived: source-rank order, each run in its stable order -----
  if (delivered) err = first_error(err, arrays.final_sort(d_temp, temp_bytes, opts));
  err = agree(comm, err);  // agreement 3: the same verdict on every rank
  times.final_sort = MPI_Wtime() - t_exchanged;
  release();
  return err;
}

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
