// The host baselines of ringsweep_host_sort_bench (issue #26): std::sort on one core, the same on
// every core (sorted runs, then merges split by merge path) and std::sort(std::execution::par)
// where the toolchain has a parallel backend. Compiled by the host compiler alone
// (host_sort_cpu.cpp), so <execution> never meets nvcc.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bench_cpu {

/// A (u32 key, u32 value) pair as the host baselines sort it: one array of structs, by key.
struct kv32 {
  std::uint32_t key, value;
};

/// std::sort of the whole array on the calling thread (pairs: by key only, not stable).
void std_sort(std::uint32_t* a, std::size_t n);
void std_sort(std::uint64_t* a, std::size_t n);
void std_sort(kv32* a, std::size_t n);

/// std::sort on `threads` threads: `threads` runs sorted at once, then rounds of pairwise std::merge
/// (stable), each merge cut into pieces by merge path so that every thread merges; `buffer` holds
/// n elements (the ping-pong half). The result is in `a`.
void threads_sort(std::uint32_t* a, std::size_t n, void* buffer, int threads);
void threads_sort(std::uint64_t* a, std::size_t n, void* buffer, int threads);
void threads_sort(kv32* a, std::size_t n, void* buffer, int threads);

/// The parallel backend of std::execution::par in this build ("TBB"), or nullptr: none (libstdc++
/// without TBB runs par algorithms serially, so the rows are not registered).
const char* par_backend();
/// std::sort(std::execution::par, ...); only where par_backend() is not null.
void par_sort(std::uint32_t* a, std::size_t n);
void par_sort(std::uint64_t* a, std::size_t n);
void par_sort(kv32* a, std::size_t n);

}  // namespace bench_cpu
