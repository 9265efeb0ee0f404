// ringsweep's distributed sort over MPI: declarations and documentation (CMake target
// ringsweep::mpi). The definitions are in device/distributed.inl. This is the one ringsweep header
// that includes <mpi.h>.
//
// Keys (and values) spread over the ranks of a communicator, n_local of them on each rank, in the
// rank's current device memory. Afterwards the concatenation over the ranks, in rank order, is
// the stable sorted order of all keys (equal keys keep their order: by rank, then by position),
// and every rank holds exactly its n_local keys again (exact balance, whatever the data: one
// dominant key or all keys equal included). Every key type, custom key (decomposer) and option of
// the device sort (sort.cuh: descending, bit windows), values of 1, 2, 4, 8 or 16 bytes.
//
// How (docs/design.md, section 14): each rank sorts its keys stably on its device (so its keys
// bound for each rank form one run); the exact splitter at every rank boundary is found by a
// digit-by-digit refinement, one MPI_Allreduce of the boundaries' digit counts per 8-bit digit,
// and keys equal to a splitter are split by (rank, position) through an MPI_Exscan; one exchange
// of every run (point to point, in messages of at most `chunk_bytes`: directly from and into
// device memory when the MPI is CUDA-aware, otherwise staged through page-locked host buffers);
// then each rank sorts what it received, in source-rank order, with the stable device sort.
// Network traffic: each key and value crosses the network once. Device memory: one more array of
// n_local keys and values, the device sort's constant temporary storage and 2 KiB per rank of
// the communicator for the splitter search; allocated with cudaMallocAsync on `stream` and freed
// before returning. The staged path also takes 2 * n_local * (key + value bytes) of page-locked
// host memory (cudaMallocHost).
//
// Collective and blocking: every rank of `comm` calls it with the same key and value types and the
// same options; it synchronises `stream` (MPI moves data from the host) and returns when this
// rank's data is sorted. It communicates on a duplicate of `comm`, so messages of the caller's on
// `comm` are never matched by it. Not to be called concurrently on one communicator.
//
// Errors, agreed by every rank (every rank returns the same code; none waits on one that returned):
// 1. Before anything is written (agreement 1, one MPI_Allgather: each rank's own argument check
//    and allocations, its options and its n_local): every rank's keys and values are untouched.
//    cudaErrorInvalidValue when any rank's arguments are invalid (a null pointer with n_local > 0,
//    a bad bit window, an n_local whose byte size overflows, e.g. a negative count converted to
//    std::size_t, keys or values misaligned for a custom key) or when the ranks' options (order,
//    bit window, key and value sizes, chunk size) disagree, or when the total count overflows;
//    otherwise the largest error code any rank met (cudaErrorMemoryAllocation for a failed
//    allocation, device or page-locked host).
// 2. From the local sort to the end of the exchange (agreement 2 after the splitter search,
//    agreement 3 after the exchange): a failure the CUDA runtime reports on any rank (a failed copy
//    of the splitter search or of the exchange, the staged path's copies to and from the host, a
//    failed launch) makes every rank return the largest code reported, with its own keys and
//    values back in its arrays, sorted locally (stably, in the sort's order): nothing has left a
//    rank for good, since the exchange never writes the array it sends from. (A rank whose local
//    sort failed before its first launch gets its arrays back untouched; one whose local sort's
//    kernel failed part-way, unspecified, as for the device sorts.) Not untouched: the local sort
//    writes the caller's arrays, as a two-array sort of two passes or more must; keeping them
//    untouched would need a third array (3x the local data; docs/design.md, section 14).
// 3. After agreement 3 (the commit point: every item is on the rank where it belongs), only the
//    final sort and the copy of its result into the caller's arrays remain. A failure there still
//    makes every rank return the same error; the ranks where nothing failed hold their sorted part;
//    a rank whose final sort failed before its first launch holds its part unsorted; a rank whose
//    copy into its arrays or whose final sort's kernel failed holds unspecified data there.
// A null communicator, or MPI not initialised or already finalised, returns cudaErrorInvalidValue
// at once (nothing can be agreed then). MPI errors go to the communicator's error handler (by
// default the job aborts). Every rank runs the same sequence of collectives, whose length depends
// only on agreed values.
#pragma once

#include <mpi.h>
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI: MPIX_Query_cuda_support
#endif
#endif

#include <cstddef>

#include "detail/config.cuh"
#include "sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {

/// How the exchange moves data between devices.
enum class exchange_path {
  automatic,  // direct when the MPI is CUDA-aware (MPIX_Query_cuda_support()), else staged
  direct,     // device buffers handed to MPI (needs a CUDA-aware MPI on a GPU)
  staged,     // through page-locked host buffers, the copies overlapping the messages in flight
};

/// Process-wide settings of the exchange. `chunk_bytes`: the largest message (at most 2^31 - 1,
/// as MPI counts are ints; default 2^30). Initial values come from the environment:
/// RINGSWEEP_MPI_EXCHANGE=direct|staged|automatic, RINGSWEEP_MPI_CHUNK_BYTES=<bytes>.
/// `chunk_bytes` must be the same on every rank (checked: cudaErrorInvalidValue otherwise).
///
///     ringsweep::mpi::exchange_settings s = ringsweep::mpi::get_exchange_settings();
///     s.path = ringsweep::mpi::exchange_path::staged;
///     ringsweep::mpi::set_exchange_settings(s);
struct exchange_settings {
  exchange_path path = exchange_path::automatic;
  std::size_t chunk_bytes = std::size_t(1) << 30;
};
inline exchange_settings get_exchange_settings();
inline void set_exchange_settings(const exchange_settings& s);
/// Whether device buffers may be handed to this MPI (what `automatic` asks): Open MPI's
/// MPIX_Query_cuda_support() on a GPU build; always on the SIMT backend (its device memory is host
/// memory); false where the MPI cannot tell.
inline bool cuda_aware_mpi();

/// Wall-clock seconds (MPI_Wtime) of the last distributed sort of the calling thread, per phase:
/// `splitters` the refinement rounds on the unsorted keys, the exclusive scan and the count
/// exchange (after the checks, the allocations and the first agreement, which only `total`
/// counts), `partition` the stable partition into runs, the staged path's copies to the host and
/// the agreement at the commit point, `exchange` the data's all-to-all, `final_sort` the sort of
/// what arrived (and a copy into the caller's buffers where needed), `total` the whole call.
/// `local_sort` is 0: the first version sorted locally before the exchange (kept so that code
/// written against it compiles).
struct phase_times {
  double local_sort = 0, splitters = 0, exchange = 0, final_sort = 0, total = 0, partition = 0;
};
inline phase_times last_phase_times();

/// Sorts keys spread over the ranks of `comm`, `n_local` of them on each rank in `d_keys` (device
/// memory of the rank's current device), in place: afterwards the concatenation over ranks, in
/// rank order, is the stable sorted order of all keys, and each rank holds `n_local` keys.
/// Collective. Errors: see the top of this header (the same error on every rank; keys and values
/// untouched on an error found before the first write, each rank's own items, sorted locally, on one
/// found before the end of the exchange).
///
///     // on every rank of MPI_COMM_WORLD
///     cudaError_t e = ringsweep::mpi::sort_keys(MPI_COMM_WORLD, d_keys, n_local);
template <class Key>
cudaError_t sort_keys(MPI_Comm comm, Key* d_keys, std::size_t n_local, sort_options opts = {},
                      cudaStream_t stream = 0);

/// Sorts (key, value) pairs spread over the ranks of `comm` by key, stably, in place.
///
///     ringsweep::sort_options desc;
///     desc.order = ringsweep::sort_order::descending;
///     ringsweep::mpi::sort_pairs(MPI_COMM_WORLD, d_keys, d_values, n_local, desc, stream);
template <class Key, class Value>
cudaError_t sort_pairs(MPI_Comm comm, Key* d_keys, Value* d_values, std::size_t n_local, sort_options opts = {},
                       cudaStream_t stream = 0);

/// Sorts custom keys spread over the ranks of `comm` by the fields `decomposer` names (see
/// decomposer.cuh), stably, in place.
///
///     ringsweep::mpi::sort_keys(MPI_COMM_WORLD, d_particles, n_local, by_cell_depth{});
template <class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_keys(MPI_Comm comm, Key* d_keys, std::size_t n_local, Decomposer decomposer,
                      sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts (custom key, value) pairs spread over the ranks of `comm` by the key's fields, stably.
///
///     ringsweep::mpi::sort_pairs(MPI_COMM_WORLD, d_particles, d_ids, n_local, by_cell{});
template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_pairs(MPI_Comm comm, Key* d_keys, Value* d_values, std::size_t n_local, Decomposer decomposer,
                       sort_options opts = {}, cudaStream_t stream = 0);

}  // namespace mpi
RINGSWEEP_NAMESPACE_END

#include "device/distributed.inl"
