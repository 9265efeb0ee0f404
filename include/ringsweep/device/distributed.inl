// Definitions of the distributed sort (declared and documented in distributed.cuh, which includes
// <mpi.h> before this file; nothing here includes it): each public form a one-line forward to
// detail_mpi::distributed_sort (distributed_sort.inl), whose steps and their files are listed
// there. The protocol and why no rank can wait forever: docs/design.md, section 14.
#pragma once

#include <cstddef>

#include "distributed_settings.inl"
#include "distributed_sort.inl"
#include "key_kind.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {

inline exchange_settings get_exchange_settings() { return detail_mpi::settings(); }
inline void set_exchange_settings(const exchange_settings& s) { detail_mpi::settings() = s; }
inline phase_times last_phase_times() { return detail_mpi::last_times(); }
inline bool cuda_aware_mpi() { return detail_mpi::cuda_aware(); }

template <class Key>
cudaError_t sort_keys(MPI_Comm comm, Key* d_keys, std::size_t n_local, sort_options opts, cudaStream_t stream) {
  return detail_mpi::distributed_sort<false>(comm, detail::builtin_keys<Key>{}, d_keys,
                                             static_cast<unsigned char*>(nullptr), n_local, opts, stream);
}

template <class Key, class Value>
cudaError_t sort_pairs(MPI_Comm comm, Key* d_keys, Value* d_values, std::size_t n_local, sort_options opts,
                       cudaStream_t stream) {
  return detail_mpi::distributed_sort<true>(comm, detail::builtin_keys<Key>{}, d_keys, d_values, n_local, opts,
                                            stream);
}

template <class Key, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_keys(MPI_Comm comm, Key* d_keys, std::size_t n_local, Decomposer decomposer, sort_options opts,
                      cudaStream_t stream) {
  return detail_mpi::distributed_sort<false>(comm, detail::decomposed_keys<Key, Decomposer>{decomposer}, d_keys,
                                             static_cast<unsigned char*>(nullptr), n_local, opts, stream);
}

template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer>>
cudaError_t sort_pairs(MPI_Comm comm, Key* d_keys, Value* d_values, std::size_t n_local, Decomposer decomposer,
                       sort_options opts, cudaStream_t stream) {
  return detail_mpi::distributed_sort<true>(comm, detail::decomposed_keys<Key, Decomposer>{decomposer}, d_keys,
                                            d_values, n_local, opts, stream);
}

}  // namespace mpi
RINGSWEEP_NAMESPACE_END
