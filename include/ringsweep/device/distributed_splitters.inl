// The distributed sort's splitter search (included by distributed_sort.inl, after <mpi.h>): the exact
// key at every open rank boundary, this rank's keys below it and equal to it, and the keys equal
// to it on the ranks before. docs/design.md, section 14, step 3.
//
// First by brackets, in two collectives after the sample (which rides on agreement 1): the global
// sample brackets each boundary between two sampled keys; one read of the keys
// (bracket_kernel.cuh) counts the keys of each slot (below, equal to and between the brackets'
// ends and cuts); one MPI_Allreduce sums the counts, which place every boundary in a slot; a
// second read collects on the device only the keys of the slots that hold a boundary (the
// candidates: the host never sees a whole bracket's keys); one MPI_Allgather gives every rank
// every candidate, by rank, and the boundary's key is the right one of its slot's candidates (or
// a mark). For the boundaries whose bracket missed or whose candidates were too many to gather,
// the digit rounds, before that all-gather: per 8-bit digit from the top one read of the keys
// (boundary_histogram_kernel.cuh) and one MPI_Allreduce.
//
// Up to splitter_settings::gather_ranks ranks the all-gather also carries each rank's keys below
// and equal to every boundary's slot (or splitter), and is made even when no boundary needs
// candidates: every rank then knows every rank's keys below and equal to every splitter, so every
// rank computes every rank's run lengths (distributed_sort.inl: no all-to-all of the run lengths, no
// exclusive scan). Beyond that (p^2 words would be gathered) the older way: the all-gather only for
// candidates, an MPI_Exscan of the equal counts when a boundary's key is a heavy mark or came from
// the digit rounds, and the run lengths' MPI_Alltoall in distributed_sort.inl.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstring>
#include <numeric>
#include <vector>

#include "distributed_brackets.inl"
#include "distributed_digit_rounds.inl"
#include "distributed_search_args.inl"
#include "distributed_search_settings.inl"

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

/// The whole search (see the top of this file). `out` sized for the open boundaries.
template <class SortKey>
cudaError_t search_splitters(const search_args<SortKey>& a, cudaError_t err, splitter_result& out) {
  const unsigned open = a.open;
  const std::vector<unsigned long long>& start = *a.start;
  const std::size_t ranks = std::size_t(a.p);
  out.prefixes.assign(std::size_t(open) * row_bytes, 0);
  out.global_less.assign(open, 0);
  out.local_less.assign(open, 0);
  out.local_equal.assign(open, static_cast<unsigned long long>(a.n));
  out.equal_before.assign(open, 0);
  out.gathered = a.gather_all;
  out.all_less.assign(ranks * open, 0);
  out.all_equal.assign(ranks * open, 0);
  std::vector<unsigned> fallback;
  bool need_exscan = false;
  if (open > 0 && a.passes == 0) {  // an empty window: every key equal, the split by rank only
    for (std::size_t r = 0; r < ranks; ++r) {
      for (unsigned b = 0; b < open; ++b) out.all_equal[r * open + b] = (*a.n_of)[r];
    }
    need_exscan = !a.gather_all;
  } else if (open > 0) {
    bracket_plan plan;
    plan_brackets(a.samples, a.sample, *a.n_of, start, open, a.passes, plan);
    const unsigned slots = 2 * plan.count() + 1;
    std::vector<unsigned long long> local, global(slots, 0);
    err = bracket_pass(a, plan, err, local);
    MPI_Allreduce(local.data(), global.data(), int(slots), MPI_UNSIGNED_LONG_LONG, MPI_SUM, a.comm);
    ++last_collectives().splitters;
    std::vector<unsigned long long> gsum(std::size_t(slots) + 1, 0), lsum(std::size_t(slots) + 1, 0);
    for (unsigned s = 0; s < slots; ++s) {
      gsum[s + 1] = gsum[s] + global[s];
      lsum[s + 1] = lsum[s] + local[s];
    }
    // The slot of each boundary's key: equal to a mark (the mark is the key), inside a bracket
    // (its candidates decide), or outside every bracket (the bracket missed: digit rounds).
    bool commit_here = a.gather_all && static_cast<bool>(a.pre_commit);
    std::vector<unsigned> slot_of(open, 0), by_candidates;
    std::vector<unsigned char> kind(open, 0);  // 0 no slot (a failure somewhere), 1 a heavy mark, 2 candidates, 3 digits
    unsigned long long room = 0;  // candidate rows a rank may have to send: the chosen slots' keys
    for (unsigned b = 0; b < open; ++b) {
      const unsigned long long target = start[b + 1];
      const unsigned s = unsigned(std::upper_bound(gsum.begin() + 1, gsum.end(), target) - gsum.begin()) - 1;
      slot_of[b] = s;
      if (s >= slots) {  // the counts do not add up: only after a failure somewhere
        out.inconsistent = true;
      } else if (s % 2 == 1 && plan.inside[s] == 0) {
        kind[b] = 1;
        std::memcpy(&out.prefixes[std::size_t(b) * row_bytes], &plan.marks[std::size_t(s / 2) * row_bytes], row_bytes);
        out.global_less[b] = gsum[s];
        out.local_less[b] = lsum[s];
        out.local_equal[b] = local[s];
        need_exscan = true;
      } else if (plan.inside[s] != 0) {
        if (by_candidates.empty() || slot_of[by_candidates.back()] != s) room += global[s];
        by_candidates.push_back(b);
        kind[b] = 2;
        out.local_less[b] = lsum[s];  // below the slot: the candidates add their own below
        out.local_equal[b] = local[s];  // the slot's keys: every one a candidate
      } else {
        fallback.push_back(b);
        kind[b] = 3;
      }
    }
    // Every rank sends room rows (its chosen candidates first, then padding) and its count: one
    // all-gather of fixed size, as no rank knows another's count. Too many: the digit rounds.
    // Gathering every rank's counts, it also carries two words per boundary.
    const std::size_t depth = std::size_t(a.passes);
    // A header of two words: the rank's count of rows, and (committing here) its status.
    constexpr std::size_t head = 16;
    const std::size_t info = a.gather_all ? 16 * std::size_t(open) : 0;
    std::size_t block = head + info + std::size_t(room) * depth;
    if (!by_candidates.empty() && (double(block) * a.p > double(INT_MAX) || block > (std::size_t(1) << 24))) {
      for (unsigned b : by_candidates) {
        out.local_less[b] = 0;  // the digit rounds count from 0
        kind[b] = 3;
      }
      fallback.insert(fallback.end(), by_candidates.begin(), by_candidates.end());
      std::sort(fallback.begin(), fallback.end());
      by_candidates.clear();
      room = 0;
      block = head + info;
    }
    // Committing here, the chosen slots' positions and moves go to the tables of every rank: they
    // must fit (else the partition and agreement 2 after the all-gather, one round more).
    if (commit_here && 16 * room + 8 * (std::size_t(slots) + 1) > a.scratch) commit_here = false;
    if (!splitter_tuning().commit_at_gather) commit_here = false;
    std::vector<unsigned char> send(block, 0), all;
    std::vector<unsigned long long> positions;  // committing here: each collected key's position
    unsigned long long own_rows = 0;
    auto slot_of_row = [&](const unsigned char* row) {  // for the gathered keys of the chosen slots
      bool equal = false;
      unsigned lo = 0, hi = plan.count();
      while (lo < hi) {
        const unsigned mid = (lo + hi) / 2;
        if (row_compare(row, &plan.marks[std::size_t(mid) * row_bytes], a.passes) > 0) lo = mid + 1; else hi = mid;
      }
      equal = lo < plan.count() && row_compare(row, &plan.marks[std::size_t(lo) * row_bytes], a.passes) == 0;
      return 2 * lo + (equal ? 1u : 0u);
    };
    {
      // The chosen slots' keys, straight from the collect pass into the block this rank sends:
      // about 1/128 of a bracket each, and no per-key work on the host.
      std::vector<unsigned char> chosen(slots, 0);
      unsigned long long expected = 0;
      for (unsigned b : by_candidates) {
        if (chosen[slot_of[b]] == 0) expected += local[slot_of[b]];
        chosen[slot_of[b]] = 1;
      }
      unsigned long long sent = 0;
      if (expected > room) {  // more than the slots hold: only after a failure somewhere
        out.inconsistent = true;
      } else if (!by_candidates.empty()) {
        positions.assign(commit_here ? std::max<unsigned long long>(expected, 1) : 0, 0);
        err = collect_pass(a, plan, chosen, expected, err, send.data() + head + info, sent,
                           commit_here ? positions.data() : nullptr);
        if (sent != expected && err == cudaSuccess) out.inconsistent = true;
        if (sent != expected) sent = 0;
      }
      std::memcpy(send.data(), &sent, 8);
      own_rows = sent;
    }
    // The digit rounds after the collect pass (which reads the marks the rounds' prefixes would
    // overwrite on the device), before the all-gather, which carries their boundaries' counts too.
    err = digit_rounds(a, fallback, err, out);
    if (commit_here) {
      // The partition (and the staged path's copies) before the all-gather, which then carries
      // this rank's status: the commit point. Its splitters: every exact one and the marks around
      // every chosen slot, whose keys then lie together, in input order, at [lsum, lsum + local);
      // the moves put them in their stable sorted order, so that any cut inside is one position.
      pre_commit_plan pc;
      pc.lo.assign(open, 0);
      pc.hi.assign(open, a.n);
      std::vector<const unsigned char*> rows;
      for (unsigned b = 0; b < open; ++b) {
        const unsigned s = slot_of[b];
        if (kind[b] == 1 || kind[b] == 3) rows.push_back(&out.prefixes[std::size_t(b) * row_bytes]);
        if (kind[b] == 2 && s % 2 == 1) rows.push_back(&plan.marks[std::size_t(s / 2) * row_bytes]);
        if (kind[b] == 2 && s % 2 == 0 && s > 0) rows.push_back(&plan.marks[std::size_t(s / 2 - 1) * row_bytes]);
        if (kind[b] == 2 && s % 2 == 0 && s / 2 < plan.count()) rows.push_back(&plan.marks[std::size_t(s / 2) * row_bytes]);
        if (kind[b] == 1 || kind[b] == 2) {
          pc.lo[b] = lsum[s];
          pc.hi[b] = lsum[s] + local[s];
        } else if (kind[b] == 3) {
          pc.lo[b] = out.local_less[b];
          pc.hi[b] = out.local_less[b] + out.local_equal[b];
        }
      }
      const auto row_less = [&](const unsigned char* x, const unsigned char* y) { return row_compare(x, y, a.passes) < 0; };
      std::sort(rows.begin(), rows.end(), row_less);
      rows.erase(std::unique(rows.begin(), rows.end(),
                             [&](const unsigned char* x, const unsigned char* y) { return row_compare(x, y, a.passes) == 0; }),
                 rows.end());
      pc.splitters.assign(rows.size() * row_bytes, 0);
      for (std::size_t i = 0; i < rows.size(); ++i) std::memcpy(&pc.splitters[i * row_bytes], rows[i], row_bytes);
      if (own_rows > 0 && positions.size() >= own_rows) {
        struct own {
          const unsigned char* row;
          unsigned slot;
          unsigned long long position;
        };
        std::vector<own> mine;
        for (unsigned long long i = 0; i < own_rows; ++i) {
          const unsigned char* row = send.data() + head + info + i * depth;
          mine.push_back({row, slot_of_row(row), positions[i]});
        }
        std::sort(mine.begin(), mine.end(), [&](const own& x, const own& y) {
          if (x.slot != y.slot) return x.slot < y.slot;
          const int c = row_compare(x.row, y.row, a.passes);
          return c != 0 ? c < 0 : x.position < y.position;
        });
        unsigned long long next = 0;
        for (std::size_t i = 0; i < mine.size(); ++i) {
          if (i == 0 || mine[i].slot != mine[i - 1].slot) next = lsum[mine[i].slot];
          pc.moves.push_back(mine[i].position);
          pc.moves.push_back(next++);
        }
      }
      if (err == cudaSuccess) err = a.pre_commit(pc);
      const unsigned long long status =
          static_cast<unsigned long long>(unsigned(err)) | (out.inconsistent ? 1ull << 32 : 0ull);
      std::memcpy(send.data() + 8, &status, 8);
    }
    if (!by_candidates.empty() || a.gather_all) {
      if (a.gather_all) {
        std::memcpy(send.data() + head, out.local_less.data(), 8 * std::size_t(open));
        std::memcpy(send.data() + head + 8 * std::size_t(open), out.local_equal.data(), 8 * std::size_t(open));
      }
      all.assign(block * ranks, 0);
      MPI_Allgather(send.data(), int(block), MPI_BYTE, all.data(), int(block), MPI_BYTE, a.comm);
      ++last_collectives().splitters;
      if (a.gather_all) {  // every rank's counts as it sent them; the candidates' boundaries below
        for (std::size_t r = 0; r < ranks; ++r) {
          std::memcpy(&out.all_less[r * open], &all[r * block + head], 8 * std::size_t(open));
          std::memcpy(&out.all_equal[r * open], &all[r * block + head + 8 * std::size_t(open)], 8 * std::size_t(open));
        }
      }
      if (commit_here) {  // every rank's status: the same verdict everywhere
        out.committed = true;
        out.inconsistent = false;
        unsigned worst = 0;
        for (std::size_t r = 0; r < ranks; ++r) {
          unsigned long long status = 0;
          std::memcpy(&status, &all[r * block + 8], 8);
          worst = std::max(worst, unsigned(status & 0xffffffffull));
          if ((status >> 32) != 0) out.inconsistent = true;
        }
        out.agreed = cudaError_t(worst);
      }
      struct candidate {
        const unsigned char* row;
        int rank;
        unsigned slot;
      };
      std::vector<candidate> cands;
      for (int r = 0; r < a.p; ++r) {
        unsigned long long c = 0;
        std::memcpy(&c, &all[std::size_t(r) * block], 8);
        c = std::min(c, room);
        for (unsigned long long i = 0; i < c; ++i) {
          const unsigned char* row = &all[std::size_t(r) * block + head + info + i * depth];
          cands.push_back({row, r, slot_of_row(row)});
        }
      }
      // Grouped by slot (a counting sort), then each boundary's key is the k-th of its slot by
      // (key, rank): a selection, linear in the slot's rows, not a sort of every gathered row.
      std::vector<std::size_t> at(std::size_t(slots) + 1, 0);
      for (const candidate& c : cands) ++at[std::size_t(c.slot) + 1];
      for (unsigned s = 0; s < slots; ++s) at[s + 1] += at[s];
      std::vector<candidate> grouped(cands.size());
      {
        std::vector<std::size_t> put(at.begin(), at.end() - 1);
        for (const candidate& c : cands) grouped[put[c.slot]++] = c;
      }
      const auto before = [&](const candidate& x, const candidate& y) {
        const int c = row_compare(x.row, y.row, a.passes);
        return c != 0 ? c < 0 : x.rank < y.rank;
      };
      std::vector<unsigned long long> less_of(ranks), equal_of(ranks), rows_of(ranks);
      for (unsigned b : by_candidates) {
        const unsigned s = slot_of[b];
        const auto first = grouped.begin() + std::ptrdiff_t(at[s]);
        const auto last = grouped.begin() + std::ptrdiff_t(at[s + 1]);
        const unsigned long long k = start[b + 1] - gsum[s];
        if (std::size_t(last - first) != global[s] || k >= global[s]) {  // only after a failure
          out.inconsistent = true;
          continue;
        }
        std::nth_element(first, first + std::ptrdiff_t(k), last, before);
        const unsigned char* key = first[std::ptrdiff_t(k)].row;
        unsigned long long less = 0;
        std::fill(less_of.begin(), less_of.end(), 0);
        std::fill(equal_of.begin(), equal_of.end(), 0);
        std::fill(rows_of.begin(), rows_of.end(), 0);
        for (auto c = first; c != last; ++c) {
          const int cmp = row_compare(c->row, key, a.passes);
          ++rows_of[std::size_t(c->rank)];
          if (cmp < 0) {
            ++less;
            ++less_of[std::size_t(c->rank)];
          } else if (cmp == 0) {
            ++equal_of[std::size_t(c->rank)];
          }
        }
        unsigned long long equal_before = 0;
        for (int r = 0; r < a.rank; ++r) equal_before += equal_of[std::size_t(r)];
        std::memcpy(&out.prefixes[std::size_t(b) * row_bytes], key, depth);
        out.global_less[b] = gsum[s] + less;
        out.local_less[b] = lsum[s] + less_of[std::size_t(a.rank)];
        out.local_equal[b] = equal_of[std::size_t(a.rank)];
        out.equal_before[b] = equal_before;
        for (std::size_t r = 0; a.gather_all && r < ranks; ++r) {
          // each rank sent the slot's keys below it and its keys in the slot: its candidates
          if (rows_of[r] != out.all_equal[r * open + b]) out.inconsistent = true;
          out.all_less[r * open + b] += less_of[r];
          out.all_equal[r * open + b] = equal_of[r];
        }
      }
    }
  }
  if (!a.gather_all && (need_exscan || !fallback.empty())) {
    std::vector<unsigned long long> before(open, 0);
    MPI_Exscan(out.local_equal.data(), before.data(), int(open), MPI_UNSIGNED_LONG_LONG, MPI_SUM, a.comm);
    ++last_collectives().splitters;
    if (a.rank != 0) out.equal_before = before;
    if (a.rank == 0) out.equal_before.assign(open, 0);
  }
  return err;
}

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
