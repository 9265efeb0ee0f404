// The distributed sort's settings and constants (included by distributed_sort.inl, after <mpi.h>):
// the exchange settings (from the environment at first use), the last call's phase times, whether
// MPI takes device pointers, the message tags, the rank limit and the block layout's alignment.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

inline exchange_settings settings_from_environment() {
  exchange_settings s;
  if (const char* path = std::getenv("RINGSWEEP_MPI_EXCHANGE")) {
    if (std::strcmp(path, "direct") == 0) s.path = exchange_path::direct;
    if (std::strcmp(path, "staged") == 0) s.path = exchange_path::staged;
  }
  if (const char* chunk = std::getenv("RINGSWEEP_MPI_CHUNK_BYTES")) {
    const unsigned long long c = std::strtoull(chunk, nullptr, 10);
    if (c > 0) s.chunk_bytes = std::size_t(c);
  }
  return s;
}

inline exchange_settings& settings() {
  static exchange_settings s = settings_from_environment();
  return s;
}

inline phase_times& last_times() {
  static thread_local phase_times t;
  return t;
}

/// Whether device pointers may be handed to MPI: always on the SIMT backend (its device memory is
/// host memory), where Open MPI says so on a GPU, never otherwise.
inline bool cuda_aware() {
#if defined(RINGSWEEP_SIMT_BACKEND)
  return true;
#elif defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

constexpr int radix_bits = 8;
constexpr int tag_keys = 3701;
constexpr int tag_values = 3702;

/// Ranks at most: the partition's 2p - 1 slots (and one for a warp's idle lanes) fit the 16 bits
/// its warp matches on.
constexpr int max_ranks = 1 << 15;

inline std::size_t align_up(std::size_t x) { return (x + 255) & ~std::size_t(255); }

}  // namespace detail_mpi
}  // namespace mpi
RINGSWEEP_NAMESPACE_END
