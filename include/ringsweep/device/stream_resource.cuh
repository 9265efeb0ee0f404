// Stream-ordered memory for the in-place (allocating) sorts: which arguments are memory resources,
// the default one (cudaMallocAsync), and a resource's calls as cudaError_t.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../detail/config.cuh"
#include "../detail/temp_layout.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Whether `R` is a stream-ordered memory resource: `allocate_async(bytes, alignment, stream)` and
/// `deallocate_async(p, bytes, alignment, stream)`, the shape of cuda::mr's and RMM's resources.
template <class R, class = void>
struct is_stream_resource : std::false_type {};
template <class R>
struct is_stream_resource<
    R, std::void_t<decltype(static_cast<void*>(
                       std::declval<R&>().allocate_async(std::size_t(0), std::size_t(0), cudaStream_t(0)))),
                   decltype(std::declval<R&>().deallocate_async(static_cast<void*>(nullptr), std::size_t(0),
                                                                std::size_t(0), cudaStream_t(0)))>> : std::true_type {};

/// Enables the overloads that take a memory resource.
template <class R>
using if_resource =
    typename std::enable_if<is_stream_resource<typename std::remove_reference<R>::type>::value, int>::type;

/// The default memory resource of the in-place forms: stream-ordered cudaMallocAsync, whose
/// allocations are 256-byte aligned.
struct stream_allocator {
  __host__ void* allocate_async(std::size_t bytes, std::size_t, cudaStream_t stream) {
    void* p = nullptr;
    error = cudaMallocAsync(&p, bytes, stream);
    return error == cudaSuccess ? p : nullptr;
  }
  __host__ void deallocate_async(void* p, std::size_t, std::size_t, cudaStream_t stream) {
    error = cudaFreeAsync(p, stream);
  }
  cudaError_t error = cudaSuccess;  // of the last call
};

/// A stream-ordered resource's allocation as a cudaError_t: its own error for stream_allocator,
/// cudaErrorMemoryAllocation for a null result or a thrown exception (resources such as RMM's and
/// cuda::mr's throw).
template <class Resource>
__host__ cudaError_t allocate_from(Resource& resource, void*& p, std::size_t bytes, cudaStream_t stream) {
  p = nullptr;
#if defined(__cpp_exceptions)
  try {
    p = resource.allocate_async(bytes, temp_alignment, stream);
  } catch (...) {
    return cudaErrorMemoryAllocation;
  }
#else
  p = resource.allocate_async(bytes, temp_alignment, stream);
#endif
  if constexpr (std::is_same<Resource, stream_allocator>::value) {
    if (resource.error != cudaSuccess) return resource.error;
  }
  return p != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}

/// Returns `p` to the resource it came from; an error only from stream_allocator, or
/// cudaErrorUnknown for an exception (the sort is enqueued by then: its data ends sorted).
template <class Resource>
__host__ cudaError_t deallocate_to(Resource& resource, void* p, std::size_t bytes, cudaStream_t stream) {
#if defined(__cpp_exceptions)
  try {
    resource.deallocate_async(p, bytes, temp_alignment, stream);
  } catch (...) {
    return cudaErrorUnknown;
  }
#else
  resource.deallocate_async(p, bytes, temp_alignment, stream);
#endif
  if constexpr (std::is_same<Resource, stream_allocator>::value) return resource.error;
  return cudaSuccess;
}

}  // namespace detail
RINGSWEEP_NAMESPACE_END
