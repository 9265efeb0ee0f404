// ringsweep's distributed sort over MPI: declarations and documentation (CMake target
// ringsweep::mpi). The definitions are in device/distributed.inl. This is the one ringsweep header
// that includes <mpi.h>.
//
// Keys (and values) spread over the ranks of a communicator, n_local of them on each rank, in the
// rank's current device memory. Afterwards the concatenation over the ranks, in rank order, is
// the stable sorted order of all keys (equal keys keep their order: by rank, then by position),
// and every rank holds exactly its n_local keys again (exact balance, whatever the data: one
// dominant key or all keys equal included). Every key type, custom key (decomposer) and option of
// the device sort (sort.cuh: descending, bit windows), values of any trivially copyable type (a
// float3, a 24-byte struct): every value crosses the network once as its bytes, and those of
// other sizes than 1, 2, 4, 8 or 16 bytes are gathered by the final local sort (sort.cuh).
//
// How (docs/design.md, section 14): the exact splitter at every rank boundary is found on the keys
// as they are. A sample (the digits of a few thousand evenly spaced keys per rank) rides on the
// first agreement's MPI_Allgather and brackets every boundary; one read of the keys counts the keys
// below, equal to and between the brackets' marks and collects the keys inside the brackets (the
// candidates); one MPI_Allreduce sums the counts, which place every boundary in one slot; one
// MPI_Allgather of the candidates of those slots (by rank) fixes the exact key and how keys equal
// to it split by (rank, position). A boundary on a heavily sampled key takes the key itself and an
// MPI_Exscan of the equal counts; a bracket that missed (or candidates too many to gather) falls
// back to digit rounds from the top: per 8-bit digit one read of the keys (one per 16 distinct
// prefixes) counts, for each such boundary, the next digit of the keys that match its splitter's
// digits so far, and one MPI_Allreduce sums the counts. Up to 256 ranks the last all-gather also
// carries each rank's keys below and equal to every boundary, so every rank computes every rank's
// run lengths (no all-to-all of them). Each rank partitions its keys stably into a second array
// before that all-gather, by the splitters known then and the marks around the slots that hold
// a boundary, whose keys a small kernel then puts in their stable sorted order, so that every cut
// is a position whatever the exact splitter (and the staged path copies its runs to the host);
// the all-gather carries every rank's status, so every rank agrees there that all went well (the
// commit point). Random keys: three collectives before the data moves (the first agreement and
// the search's two), and on the first sort on a communicator its MPI_Comm_dup. Only then does it
// exchange the runs into the caller's arrays (point to
// point, in messages of at most `chunk_bytes`: directly from and into device memory when the MPI
// is CUDA-aware, otherwise staged through page-locked host buffers), and sorts what it received,
// in source-rank order, with the stable device sort. Network traffic: each key and value crosses
// the network once; besides, the sample and the candidates (a few thousand keys per rank at a
// few ranks; docs/design.md, section 14, for how they grow with the ranks).
// Device memory: one more array of n_local keys and values, 16 bytes per 64 keys (the moves
// above), and the device sort's constant
// temporary storage (values of other sizes: the gathered double-buffer sort's, which grows with
// n_local, docs/temp_storage.md) (the splitter search's and the partition's tables, O(p) words, share it),
// plus about 2.3 KiB per rank of the communicator (the brackets' marks): one cudaMalloc block
// (memory an IPC-capable transport can map, unlike a stream-ordered pool's), kept per
// communicator (see release_buffers).
// The staged path also takes 2 * n_local * (key + value bytes) of page-locked host memory
// (cudaMallocHost), kept likewise. A later call on the same communicator allocates and pins
// nothing unless it needs more than the buffers it finds (then it frees them and allocates anew:
// cudaFree and cudaMalloc synchronise the device). At most 2^15 ranks.
//
// Collective and blocking: every rank of `comm` calls it with the same key and value types and the
// same options; it synchronises `stream` (MPI moves data from the host) and returns when this
// rank's data is sorted. It communicates on a duplicate of `comm`, so messages of the caller's on
// `comm` are never matched by it: made (MPI_Comm_dup) by the first sort on `comm` and kept with
// `comm`'s buffers, freed when `comm` is (MPI_Comm_free, inside that collective call) or left to
// MPI_Finalize; release_buffers does not free it. So a program holds one more communicator for
// each communicator it sorts on, for that communicator's lifetime. Not to be called concurrently
// on one communicator.
//
// Errors, agreed by every rank (every rank returns the same code; none waits on one that returned).
// The caller's keys and values are either untouched (byte for byte what the caller gave) or fully
// sorted (this rank's part of the global stable order), on every rank, in every case below but
// the last (after the commit point: the final sort failing, or a copy failing twice). With one
// rank there is nothing to agree on or to move: the commit point is right after agreement 1.
// 1. An invalid argument or disagreeing options anywhere: cudaErrorInvalidValue on every rank, every
//    array untouched (agreement 1, one MPI_Allgather before anything else: each rank's own argument
//    check and allocations, its options and its n_local). Invalid: a null pointer with n_local > 0,
//    a bad bit window, an n_local whose byte size overflows (e.g. a negative count converted to
//    std::size_t), keys or values misaligned for a custom key, more than 2^15 ranks, ranks whose
//    options (order, bit window, key and value sizes, chunk size) differ, a total count whose bytes
//    overflow.
// 2. A failed allocation (device or page-locked host) anywhere: cudaErrorMemoryAllocation (the
//    largest code any rank met) on every rank, every array untouched (agreement 1).
// 3. A failure the CUDA runtime reports on any rank before the commit point (agreement 1, then the
//    search's all-gather, or agreement 2 where the all-gather cannot commit: past 256 ranks, or
//    where the moves do not fit): a failed copy or launch of the sample (agreement 1), of the
//    splitter search (the marks or prefixes up, the counts, candidates and positions down), of the
//    partition (the splitters and moves up, its kernels), or a failed copy of the staged path's
//    runs to the host: every rank
//    returns the largest code reported, every array untouched. Until the commit point the caller's
//    arrays are only read: the partition writes the second array, the staged path its host stage.
// 4. After the commit point (every rank has partitioned and staged its runs; the exchange writes
//    the caller's arrays): a failed copy into the caller's arrays (the rank's own run, the staged
//    path's copies from the host stage, the final sort's result copied back) has an intact source,
//    so the failing rank makes it once more: every rank returns the error (agreement 3), every
//    rank's arrays fully sorted. Only a failure that persists (the copy failing again: the
//    context is lost, as after a kernel fault) or a failed launch or kernel of the final sort
//    leaves that rank's arrays unspecified, as for the device sorts (a final sort that failed
//    before its first launch leaves the rank's part there, unsorted); every rank returns the error
//    and the other ranks hold their sorted parts.
// A null communicator, or MPI not initialised or already finalised, returns cudaErrorInvalidValue
// at once (nothing can be agreed then), arrays untouched. MPI errors go to the communicator's error
// handler (by default the job aborts). Every rank runs the same sequence of collectives, whose
// length depends only on agreed values.
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
/// `splitters` the search on the unsorted keys (the bracket pass and its collectives, any digit
/// rounds and exclusive scan) and the count exchange (after the checks, the allocations, the
/// sample and the first agreement, which only `total` counts; where the search's all-gather is the
/// commit point, also the partition and the staged path's copies, which come before it),
/// `partition` otherwise the stable partition into runs, the staged path's copies to the host and
/// agreement 2, `exchange` the data's all-to-all, `final_sort` the sort of
/// what arrived (and a copy into the caller's buffers where needed), `total` the whole call.
/// `local_sort` is 0: the first version sorted locally before the exchange (kept so that code
/// written against it compiles).
struct phase_times {
  double local_sort = 0, splitters = 0, exchange = 0, final_sort = 0, total = 0, partition = 0;
};
inline phase_times last_phase_times();

/// Frees the buffers the distributed sort keeps for `comm` (its device block, the staged path's
/// page-locked host stages), which it otherwise keeps until `comm` is freed (MPI_Comm_free) or MPI_Finalize: an MPI
/// attribute of `comm` whose delete callback frees them; a duplicate of `comm` starts with none.
/// Call it before MPI_Finalize when the CUDA context may be gone by then (cudaDeviceReset), or to
/// give the memory back between sorts. Local, not collective; not while a sort runs on `comm`.
/// Memory only: the sort's own duplicate of `comm` (a communicator, no memory of the sort's) stays
/// until `comm` is freed, as freeing a communicator is collective and this call is not; the next
/// sort on `comm` allocates again but makes no MPI_Comm_dup.
/// Returns cudaSuccess (also when nothing is kept), the free's error, or cudaErrorInvalidValue for
/// a null communicator or MPI not running.
///
///     ringsweep::mpi::release_buffers(MPI_COMM_WORLD);
///     MPI_Finalize();
inline cudaError_t release_buffers(MPI_Comm comm);

/// Sorts keys spread over the ranks of `comm`, `n_local` of them on each rank in `d_keys` (device
/// memory of the rank's current device), in place: afterwards the concatenation over ranks, in
/// rank order, is the stable sorted order of all keys, and each rank holds `n_local` keys.
/// Collective. Errors: see the top of this header (the same error on every rank; on an error every
/// rank's keys are untouched when it is agreed before the commit point, i.e. bad arguments, a failed
/// allocation, a failed copy or launch of the splitter search, the partition or the staged path's
/// copies to the host; fully sorted when a copy after it fails once; unspecified only on the rank
/// whose final sort failed or whose copy failed twice).
///
///     // on every rank of MPI_COMM_WORLD
///     cudaError_t e = ringsweep::mpi::sort_keys(MPI_COMM_WORLD, d_keys, n_local);
template <class Key>
cudaError_t sort_keys(MPI_Comm comm, Key* d_keys, std::size_t n_local, sort_options opts = {},
                      cudaStream_t stream = 0);

/// Sorts (key, value) pairs spread over the ranks of `comm` by key, stably, in place. Errors: as
/// sort_keys, for keys and values together (both untouched, or both fully sorted).
///
///     ringsweep::sort_options desc;
///     desc.order = ringsweep::sort_order::descending;
///     ringsweep::mpi::sort_pairs(MPI_COMM_WORLD, d_keys, d_values, n_local, desc, stream);
template <class Key, class Value>
cudaError_t sort_pairs(MPI_Comm comm, Key* d_keys, Value* d_values, std::size_t n_local, sort_options opts = {},
                       cudaStream_t stream = 0);

/// Sorts custom keys spread over the ranks of `comm` by the fields `decomposer` names (see
/// decomposer.cuh), stably, in place. Errors: as sort_keys (untouched before the commit point, fully
/// sorted after it, unspecified only on a rank whose final sort failed or whose copy failed twice).
///
///     ringsweep::mpi::sort_keys(MPI_COMM_WORLD, d_particles, n_local, by_cell_depth{});
template <class Key, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_keys(MPI_Comm comm, Key* d_keys, std::size_t n_local, Decomposer decomposer,
                      sort_options opts = {}, cudaStream_t stream = 0);

/// Sorts (custom key, value) pairs spread over the ranks of `comm` by the key's fields, stably.
/// Errors: as sort_pairs.
///
///     ringsweep::mpi::sort_pairs(MPI_COMM_WORLD, d_particles, d_ids, n_local, by_cell{});
template <class Key, class Value, class Decomposer, detail::if_decomposer<Decomposer> = 0>
cudaError_t sort_pairs(MPI_Comm comm, Key* d_keys, Value* d_values, std::size_t n_local, Decomposer decomposer,
                       sort_options opts = {}, cudaStream_t stream = 0);

}  // namespace mpi
RINGSWEEP_NAMESPACE_END

#include "device/distributed.inl"
