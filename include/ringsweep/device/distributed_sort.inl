// The distributed sort's one entry, detail_mpi::distributed_sort (included by distributed.inl,
// after <mpi.h>): the protocol step by step, from the checks and allocations to the final sort.
// Its pieces: distributed_settings.inl, distributed_local.inl, distributed_agreement.inl,
// distributed_exchange.inl, distributed_cache.inl and the splitter search (distributed_splitters.inl).
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
#include "distributed_cache.inl"
#include "distributed_exchange.inl"
#include "distributed_local.inl"
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

  // The final step: the stable sort of what lies in the caller's arrays, the result copied back
  // when it ends in the second array. That copy's source stays intact, so a failed copy is made
  // once more (a transient failure leaves the rank's part sorted; its error is still returned).
  auto final_sort = [&]() {
    double_buffer<Key> fk(d_keys, keys2);
    double_buffer<Value> fv(d_values, values2);
    cudaError_t e = local_sort<HAS_VALUES>(kind, d_temp, temp_bytes, fk, fv, n, opts, stream);
    if (e == cudaSuccess && fk.current() != d_keys) {
      auto copy_back = [&]() {
        cudaError_t c = cudaMemcpyAsync(d_keys, fk.current(), n * sizeof(Key), cudaMemcpyDeviceToDevice, stream);
        if (HAS_VALUES) {
          c = first_error(c, cudaMemcpyAsync(d_values, fv.current(), n * value_bytes, cudaMemcpyDeviceToDevice,
                                             stream));
        }
        return first_error(c, cudaStreamSynchronize(stream));
      };
      e = copy_back();
      if (e != cudaSuccess) copy_back();
      return e;
    }
    return first_error(e, cudaStreamSynchronize(stream));
  };

  if (p == 1) {  // one rank: nothing to agree on or to move; the sort is the result
    last_collectives().before_exchange = dup_rounds + 1;
    err = final_sort();
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
  // The stable partition of the caller's arrays into the second ones by `count` splitters (rows
  // of probe_max_digits bytes, sorted, distinct): slot_partition_kernel.cuh. Splitter b's slot of
  // equal keys, or its start, holds cut_b.
  using raw_value = detail::value_raw<Value>;
  auto partition_by = [&](const std::vector<unsigned char>& rows, unsigned count) {
    detail::slot_partition_params<SortKey, raw_value> sp{};
    sp.keys_in = reinterpret_cast<const bits_type*>(d_keys);
    sp.keys_out = reinterpret_cast<bits_type*>(keys2);
    if (HAS_VALUES) {
      sp.values_in = reinterpret_cast<const raw_value*>(d_values);
      sp.values_out = reinterpret_cast<raw_value*>(values2);
    }
    sp.n = n;
    sp.blocks = partition_blocks(n, 2 * count + 1);
    sp.span = (n + sp.blocks - 1) / sp.blocks;
    sp.digits = digits;
    sp.splitters = d_prefixes;
    sp.count = count;
    sp.depth = passes;
    sp.offsets = d_table;
    cudaError_t e = cudaSuccess;
    if (count > 0) e = cudaMemcpyAsync(d_prefixes, rows.data(), std::size_t(count) * detail::probe_max_digits,
                                       cudaMemcpyHostToDevice, stream);
    const bool block_wide = 2 * count + 1 <= detail::slot_block_max_slots;
    if (e == cudaSuccess) {
      e = block_wide ? detail::launch(detail::slot_count_block_kernel<SortKey, raw_value>, sp.blocks,
                                      detail::slot_block_threads, stream, detail::launch_order::serial, sp)
                     : detail::launch(detail::slot_count_kernel<SortKey, raw_value>, sp.blocks,
                                      detail::slot_partition_threads, stream, detail::launch_order::serial, sp);
    }
    if (e == cudaSuccess) {
      e = detail::launch(detail::slot_scan_kernel, 1, detail::slot_scan_threads, stream, detail::launch_order::serial,
                         d_table, std::size_t(2 * count + 1) * sp.blocks);
    }
    if (e == cudaSuccess) {
      e = block_wide ? detail::launch(detail::slot_scatter_block_kernel<SortKey, raw_value>, sp.blocks,
                                      detail::slot_block_threads, stream, detail::launch_order::serial, sp)
                     : detail::launch(detail::slot_scatter_kernel<SortKey, raw_value>, sp.blocks,
                                      detail::slot_partition_threads, stream, detail::launch_order::serial, sp);
    }
    return e;
  };
  const int arrays = HAS_VALUES ? 2 : 1;
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
  // The staged path's copies of the partitioned array to the host stage, all but [keep_begin,
  // keep_end) (the rank's own run, or what surely is): at most two copies per array.
  auto stage = [&](std::size_t keep_begin, std::size_t keep_end) {
    cudaError_t e = cudaSuccess;
    for (int a = 0; a < arrays && host != nullptr && e == cudaSuccess; ++a) {
      const std::size_t w = ex[a].elem;
      if (keep_begin > 0) {
        e = first_error(e, cudaMemcpyAsync(ex[a].host_src, ex[a].src, keep_begin * w, cudaMemcpyDeviceToHost, stream));
      }
      if (keep_end < n) {
        e = first_error(e, cudaMemcpyAsync(ex[a].host_src + keep_end * w, ex[a].src + keep_end * w,
                                           (n - keep_end) * w, cudaMemcpyDeviceToHost, stream));
      }
    }
    return e;
  };
  // Where the all-gather is the commit point (up to gather_ranks ranks, distributed_splitters.inl):
  // the partition by the plan's splitters, the chosen slots' keys put in their sorted order, and
  // the staged path's copies, all before it. The own run's ends lie in the ranges of boundaries
  // rank - 1 and rank; what lies between them surely stays.
  search.scratch = std::size_t(scratch);
  search.pre_commit = [&](const pre_commit_plan& plan) {
    cudaError_t e = cudaSuccess;
    if (n > 0) e = partition_by(plan.splitters, unsigned(plan.splitters.size() / detail::probe_max_digits));
    const std::size_t m = plan.moves.size() / 2;
    const unsigned long long none[2] = {0, 0};  // the copy is made for no moves too: the same calls
    if (e == cudaSuccess && n > 0) {
      e = cudaMemcpyAsync(d_table, m > 0 ? plan.moves.data() : none, m * 16, cudaMemcpyHostToDevice, stream);
    }
    if (e == cudaSuccess && m > 0) {
      e = detail::launch(detail::slot_order_kernel<bits_type, raw_value>,
                         unsigned((m + detail::bracket_threads - 1) / detail::bracket_threads), detail::bracket_threads,
                         stream, detail::launch_order::serial, reinterpret_cast<const bits_type*>(d_keys),
                         reinterpret_cast<bits_type*>(keys2),
                         HAS_VALUES ? reinterpret_cast<const raw_value*>(d_values) : nullptr,
                         reinterpret_cast<raw_value*>(values2), d_table, m);
    }
    std::size_t keep_begin = rank == 0 ? 0 : std::size_t(unsigned(rank - 1) < open ? plan.hi[std::size_t(rank - 1)] : n);
    std::size_t keep_end = rank == p - 1 ? n : std::size_t(unsigned(rank) < open ? plan.lo[std::size_t(rank)] : n);
    if (keep_end < keep_begin) keep_begin = keep_end = 0;  // nothing surely stays: all of it
    if (e == cudaSuccess && n > 0) e = stage(keep_begin, keep_end);
    return first_error(e, cudaStreamSynchronize(stream));
  };
  splitter_result found;
  err = search_splitters(search, err, found);
  bool inconsistent = found.inconsistent;
  std::vector<unsigned char>& prefixes = found.prefixes;
  std::vector<unsigned> group_of(boundaries, 0);
  std::vector<unsigned char> table;  // the distinct splitters, in order
  // Keys equal to the splitter: the ranks before this one hold `equal_before` of them, and the
  // first `global position - global_less` of all of them (by rank, then position) go before.
  // This rank's cut_b (its keys before boundary b) from its keys below and equal to the splitter
  // and those equal to it on the ranks before; with every rank's counts gathered, every rank's.
  auto cuts_of = [&](std::size_t count, const unsigned long long* less, const unsigned long long* equal,
                     const unsigned long long* equal_before, std::vector<unsigned long long>& cut) {
    cut.assign(std::size_t(p) + 1, 0);
    cut[std::size_t(p)] = count;
    for (unsigned b = 0; b < boundaries; ++b) {
      unsigned long long c = count;
      if (b < open) {
        const unsigned long long target = start[b + 1];
        const unsigned long long need = target - std::min(target, found.global_less[b]);
        const unsigned long long eb = equal_before[b];
        const unsigned long long take = need <= eb ? 0ull : std::min(need - eb, equal[b]);
        c = std::min<unsigned long long>(less[b] + take, count);
      }
      cut[b + 1] = std::max(c, cut[b]);
    }
  };
  std::vector<unsigned long long> cut;
  std::vector<unsigned long long> send_counts(static_cast<std::size_t>(p)), recv_counts(static_cast<std::size_t>(p)),
      send_displs(static_cast<std::size_t>(p)), recv_displs(static_cast<std::size_t>(p));
  unsigned run_length_rounds = 0;
  if (found.gathered) {
    // Every rank's cuts, the same on every rank: what this rank sends and receives, and whether
    // every rank receives exactly its n_r (an agreed check: every rank computes all of them).
    std::vector<unsigned long long> equal_before(open, 0), received_by(std::size_t(p), 0);
    for (int r = 0; r < p; ++r) {
      const std::size_t at = std::size_t(r) * open;
      cuts_of(std::size_t(n_of[std::size_t(r)]), found.all_less.data() + at, found.all_equal.data() + at,
              equal_before.data(), cut);
      for (unsigned b = 0; b < open; ++b) equal_before[b] += found.all_equal[at + b];
      for (int q = 0; q < p; ++q) {
        received_by[std::size_t(q)] += cut[std::size_t(q) + 1] - cut[std::size_t(q)];
        if (r == rank) send_counts[std::size_t(q)] = cut[std::size_t(q) + 1] - cut[std::size_t(q)];
        if (q == rank) recv_counts[std::size_t(r)] = cut[std::size_t(q) + 1] - cut[std::size_t(q)];
      }
    }
    for (int q = 0; q < p; ++q) {
      if (received_by[std::size_t(q)] != n_of[std::size_t(q)]) inconsistent = true;
    }
  } else {
    cuts_of(n, found.local_less.data(), found.local_equal.data(), found.equal_before.data(), cut);
    for (int q = 0; q < p; ++q) send_counts[q] = cut[q + 1] - cut[q];
    MPI_Alltoall(send_counts.data(), 1, MPI_UNSIGNED_LONG_LONG, recv_counts.data(), 1, MPI_UNSIGNED_LONG_LONG, comm);
    run_length_rounds = 1;
  }
  unsigned long long sent = 0, received = 0;
  for (int q = 0; q < p; ++q) {
    send_displs[q] = sent;
    recv_displs[q] = received;
    sent += send_counts[q];
    received += recv_counts[q];
  }
  if (received != n || sent != n) inconsistent = true;  // exact balance, or a failure somewhere
  const double t_split = MPI_Wtime();
  times.splitters = t_split - t_agreed;

  // ---- 5. the stable partition into the second array: the run for rank q is [cut_q, cut_q+1) ----
  // Made before the all-gather where that is the commit point (found.committed: pre_commit above),
  // else here, by the exact splitters, and agreement 2 after it.
  if (!found.committed) {
    if (err == cudaSuccess && !inconsistent && n > 0) {
      const unsigned count = open > 0 ? distinct_prefixes(prefixes, open, passes, group_of, table) : 0;
      err = partition_by(table, count);
    }
    // The peers' runs lie before and after this rank's own: at most two copies per array.
    const std::size_t own_begin = std::size_t(send_displs[rank]);
    if (err == cudaSuccess && !inconsistent) err = stage(own_begin, own_begin + std::size_t(send_counts[rank]));
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
      dup_rounds + 1 + last_collectives().splitters + run_length_rounds + (found.committed ? 0 : 1);
  const double t_partitioned = MPI_Wtime();
  times.partition = t_partitioned - t_split;
  if (err != cudaSuccess) {
    release();
    return err;
  }

  // ---- 6. the exchange, from the second array (or its host stage) into the caller's arrays -----
  // Receives first, for every peer; then, peer by peer from rank + 1 on (so that no rank is
  // everyone's first peer), the sends; the rank's own run moves on the device. On the staged path
  // each message's copy to the device is queued as soon as it has arrived, overlapping the
  // messages still in flight.
  std::vector<MPI_Request> recv_requests, send_requests;
  std::vector<stage_copy> stage_copies;
  for (int a = 0; a < arrays; ++a) {
    post_receives(comm, rank, p, ex[a], recv_counts, recv_displs, cfg.chunk_bytes, recv_requests, stage_copies);
  }
  for (int k = 1; k < p; ++k) {
    const int q = (rank + k) % p;
    for (int a = 0; a < arrays; ++a) {
      post_sends(comm, q, ex[a], send_counts, send_displs, cfg.chunk_bytes, send_requests);
    }
  }
  auto own_run = [&]() {
    cudaError_t e = cudaSuccess;
    for (int a = 0; a < arrays && send_counts[rank] > 0; ++a) {
      e = first_error(e, cudaMemcpyAsync(ex[a].dst + std::size_t(recv_displs[rank]) * ex[a].elem,
                                         ex[a].src + std::size_t(send_displs[rank]) * ex[a].elem,
                                         std::size_t(send_counts[rank]) * ex[a].elem, cudaMemcpyDeviceToDevice,
                                         stream));
    }
    return e;
  };
  err = own_run();
  if (host != nullptr) {
    for (std::size_t done = 0; done < recv_requests.size(); ++done) {
      int index = MPI_UNDEFINED;
      MPI_Waitany(int(recv_requests.size()), recv_requests.data(), &index, MPI_STATUS_IGNORE);
      if (index == MPI_UNDEFINED) break;
      const stage_copy& c = stage_copies[std::size_t(index)];
      err = first_error(err, cudaMemcpyAsync(c.device, c.host, c.bytes, cudaMemcpyHostToDevice, stream));
    }
  } else {
    MPI_Waitall(int(recv_requests.size()), recv_requests.data(), MPI_STATUSES_IGNORE);
  }
  MPI_Waitall(int(send_requests.size()), send_requests.data(), MPI_STATUSES_IGNORE);
  err = first_error(err, cudaStreamSynchronize(stream));
  bool delivered = err == cudaSuccess;
  if (!delivered) {
    // A failed copy into the caller's arrays: every source is intact (the second array, the host
    // stages), so the copies are made once more; the error is still returned (agreement 3).
    cudaError_t again = own_run();
    for (std::size_t i = 0; host != nullptr && i < stage_copies.size(); ++i) {
      const stage_copy& c = stage_copies[i];
      again = first_error(again, cudaMemcpyAsync(c.device, c.host, c.bytes, cudaMemcpyHostToDevice, stream));
    }
    delivered = first_error(again, cudaStreamSynchronize(stream)) == cudaSuccess;
  }
  const double t_exchanged = MPI_Wtime();
  times.exchange = t_exchanged - t_partitioned;

  // ---- 7. the stable sort of what arrived: source-rank order, each run in its stable order -----
  if (delivered) err = first_error(err, final_sort());
  err = agree(comm, err);  // agreement 3: the same verdict on every rank
  times.final_sort = MPI_Wtime() - t_exchanged;
  release();
  return err;
}

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
