// The distributed sort's buffers kept between calls, per communicator (included by
// distributed.inl, after <mpi.h>). Pinning host memory costs about as much as copying it, and a
// cudaMalloc synchronises the device: a sort called again and again on one communicator (a time
// step loop) pays for neither after its first call, only when a call needs more than the last.
//
// The cache hangs on the caller's communicator as an MPI attribute whose delete callback frees it:
// MPI_Comm_free(comm), or MPI_Finalize (which deletes the attributes of the predefined
// communicators). release_buffers(comm) (distributed.cuh) frees its memory only. Its copy callback
// is MPI_COMM_NULL_COPY_FN: a duplicate of the communicator starts with no buffers.
//
// It also keeps the sort's own duplicate of the communicator (its messages never meet the
// caller's), made by the first sort on it: a later sort makes no MPI_Comm_dup, a collective round
// of its own. The duplicate lives as long as the communicator: the delete callback frees it
// inside the caller's MPI_Comm_free (collective already, so the nested free is called by every
// rank too), and leaves it to MPI_Finalize, which frees every communicator, when the deletion is
// part of the finalisation (MPI_Finalize deletes MPI_COMM_SELF's attributes first, while MPI works
// fully: a callback there marks the finalisation). release_buffers stays local: it never frees it.
#pragma once

#include <cstddef>

RINGSWEEP_NAMESPACE_BEGIN
namespace mpi {
namespace detail_mpi {

/// What one communicator keeps: page-locked host memory (the staged path's stages) and a device
/// block (the second array, the tables, the final sort's temporary storage), each at least as
/// large as the largest call since it was last (re)allocated needed.
struct buffer_cache {
  unsigned char* host = nullptr;
  std::size_t host_bytes = 0;
  unsigned char* device_block = nullptr;
  std::size_t device_bytes = 0;
  int device = -1;  // the device of `device_block`
  MPI_Comm dup = MPI_COMM_NULL;  // the sort's duplicate of the communicator
};

/// Whether MPI_Finalize has begun deleting attributes (MPI_COMM_SELF's first, so before any other
/// communicator's): then a cached duplicate is left to MPI, which frees every communicator.
inline bool& finalizing() {
  static bool f = false;
  return f;
}

inline int mark_finalizing(MPI_Comm, int, void*, void*) {
  finalizing() = true;
  return MPI_SUCCESS;
}

/// Hangs, once per process, an attribute on MPI_COMM_SELF whose delete callback marks the
/// finalisation.
inline void watch_finalize() {
  static const bool watched = [] {
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, mark_finalizing, &k, nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, k, nullptr);
    return true;
  }();
  (void)watched;
}

inline cudaError_t free_host(buffer_cache& c) {
  const cudaError_t e = c.host != nullptr ? cudaFreeHost(c.host) : cudaSuccess;
  c.host = nullptr;
  c.host_bytes = 0;
  return e;
}

/// Frees the device block on its own device, the caller's current device restored.
inline cudaError_t free_device(buffer_cache& c) {
  cudaError_t e = cudaSuccess;
  if (c.device_block != nullptr) {
    int current = 0;
    e = cudaGetDevice(&current);
    const bool other = e == cudaSuccess && current != c.device;
    if (other) e = cudaSetDevice(c.device);
    if (e == cudaSuccess) e = cudaFree(c.device_block);
    if (other) cudaSetDevice(current);
  }
  c.device_block = nullptr;
  c.device_bytes = 0;
  c.device = -1;
  return e;
}

inline cudaError_t free_all(buffer_cache& c) {
  const cudaError_t h = free_host(c);
  const cudaError_t d = free_device(c);
  return h != cudaSuccess ? h : d;
}

/// The duplicates the sort holds in this process (for tests: one per communicator sorted on, none
/// once they are freed).
inline int& live_duplicates() {
  static int d = 0;
  return d;
}

inline int delete_buffer_cache(MPI_Comm, int, void* attribute, void*) {
  buffer_cache* c = static_cast<buffer_cache*>(attribute);
  free_all(*c);
  if (c->dup != MPI_COMM_NULL && !finalizing()) {
    MPI_Comm_free(&c->dup);
    --live_duplicates();
  }
  delete c;
  return MPI_SUCCESS;
}

/// The attribute key, made on first use (MPI is running then: the sort checks first).
inline int cache_keyval() {
  static const int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_buffer_cache, &k, nullptr);
    return k;
  }();
  return keyval;
}

/// The cache of `comm`, made (empty) if it has none and `make`; null otherwise.
inline buffer_cache* cache_of(MPI_Comm comm, bool make) {
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, cache_keyval(), &value, &found);
  if (found != 0) return static_cast<buffer_cache*>(value);
  if (!make) return nullptr;
  watch_finalize();
  buffer_cache* c = new buffer_cache;
  MPI_Comm_set_attr(comm, cache_keyval(), c);
  return c;
}

/// The sort's duplicate of the communicator of `c`: the cached one, or one made now (MPI_Comm_dup,
/// collective: every rank makes it at the same call, as every rank's cache was made at the same
/// call and only MPI_Comm_free deletes it). `made` tells whether it was made now.
inline MPI_Comm cached_dup(buffer_cache& c, MPI_Comm comm, bool& made) {
  made = c.dup == MPI_COMM_NULL;
  if (made) {
    MPI_Comm_dup(comm, &c.dup);
    ++live_duplicates();
  }
  return c.dup;
}

/// Page-locked host memory of at least `bytes` in `out`: the cached one, or a new one (the old
/// freed first) when it is smaller. On a failure the cache holds none.
inline cudaError_t cached_host(buffer_cache& c, std::size_t bytes, unsigned char*& out) {
  if (c.host_bytes < bytes) {
    free_host(c);
    const cudaError_t e = cudaMallocHost(reinterpret_cast<void**>(&c.host), bytes);
    if (e != cudaSuccess) {
      c.host = nullptr;
      return e;
    }
    c.host_bytes = bytes;
  }
  out = c.host;
  return cudaSuccess;
}

/// Device memory of the current device of at least `bytes` in `out` (cudaMalloc: memory an
/// IPC-capable transport can map, unlike a stream-ordered pool's): the cached block, or a new one
/// when it is smaller or on another device. On a failure the cache holds none.
inline cudaError_t cached_device(buffer_cache& c, std::size_t bytes, unsigned char*& out) {
  int current = 0;
  cudaError_t e = cudaGetDevice(&current);
  if (e != cudaSuccess) return e;
  if (c.device_bytes < bytes || c.device != current) {
    free_device(c);
    e = cudaMalloc(reinterpret_cast<void**>(&c.device_block), bytes);
    if (e != cudaSuccess) {
      c.device_block = nullptr;
      return e;
    }
    c.device_bytes = bytes;
    c.device = current;
  }
  out = c.device_block;
  return cudaSuccess;
}

}  // namespace detail_mpi

inline cudaError_t release_buffers(MPI_Comm comm) {
  int up = 0;
  int down = 0;
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  if (comm == MPI_COMM_NULL || up == 0 || down != 0) return cudaErrorInvalidValue;
  detail_mpi::buffer_cache* c = detail_mpi::cache_of(comm, false);
  if (c == nullptr) return cudaSuccess;
  return detail_mpi::free_all(*c);  // the memory only: the duplicate lives as long as `comm`
}

}  // namespace mpi
RINGSWEEP_NAMESPACE_END
