// host_copy_batch: the copies of one direction of a host sort's op (host_sort_dispatch.cuh), host
// to device or back, collected and issued as one cudaMemcpyBatchAsync call (CUDA 12.8 and later):
// an op of many extents costs one API call each way instead of one per extent and array (a few
// microseconds each: ~2,500 calls in a 2^27-key sort through 1/8 of the data). Before 12.8 it
// issues one cudaMemcpyAsync per copy, as the sort did before.
#pragma once

#include <cstddef>
#include <vector>

#include "../detail/config.cuh"

// 1 where the runtime has cudaMemcpyBatchAsync (CUDA 12.8 and later).
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12080
#define RINGSWEEP_HOST_COPY_BATCH 1
#else
#define RINGSWEEP_HOST_COPY_BATCH 0
#endif

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Copies of one direction between host memory and `device`, in stream order on the stream
/// `issue` takes, among which no order holds (their destinations must not overlap).
///
///     host_copy_batch in(cudaMemcpyHostToDevice, device);
///     in.add(d_keys, h_keys + first, count * sizeof(Key));
///     cudaError_t e = in.issue(stream);  // one call, or none when nothing was added
class host_copy_batch {
 public:
  /// `kind`: cudaMemcpyHostToDevice or cudaMemcpyDeviceToHost; `device`: the device side's.
  __host__ host_copy_batch(cudaMemcpyKind kind, int device) : kind_(kind), device_(device) {}

  /// One more copy of `bytes` from `src` to `dst` (none for 0 bytes).
  __host__ void add(void* dst, const void* src, std::size_t bytes) {
    if (bytes == 0) return;
    dsts_.push_back(dst);
    srcs_.push_back(const_cast<void*>(src));  // only read
    sizes_.push_back(bytes);
  }

  __host__ std::size_t size() const { return sizes_.size(); }

  /// Enqueues every copy on `stream` (not the legacy default stream: the batch call refuses it):
  /// one call, none for an empty batch. A failed call may have written part of any destination.
  __host__ cudaError_t issue(cudaStream_t stream) {
    if (sizes_.empty()) return cudaSuccess;
#if RINGSWEEP_HOST_COPY_BATCH
    // One set of attributes for every copy: sources read in stream order (a copy out reads what
    // the sort wrote before it); the locations only matter to memory without a fixed one (managed,
    // or pageable memory a device reads directly), which the host side may be.
    cudaMemcpyAttributes attrs{};
    attrs.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    cudaMemLocation host{}, device{};
    host.type = cudaMemLocationTypeHost;
    device.type = cudaMemLocationTypeDevice;
    device.id = device_;
    const bool in = kind_ == cudaMemcpyHostToDevice;
    attrs.srcLocHint = in ? host : device;
    attrs.dstLocHint = in ? device : host;
    attrs.flags = cudaMemcpyFlagDefault;
    std::size_t first = 0;
    // Non-const arrays: CUDA 12.8 declares them so, later versions take them const.
#if CUDART_VERSION >= 13000
    return cudaMemcpyBatchAsync(dsts_.data(), srcs_.data(), sizes_.data(), sizes_.size(), &attrs, &first, 1, stream);
#else
    std::size_t failed = 0;  // 12.8 and 12.9: the copy that failed; any fails the whole batch here
    return cudaMemcpyBatchAsync(dsts_.data(), srcs_.data(), sizes_.data(), sizes_.size(), &attrs, &first, 1, &failed,
                                stream);
#endif
#else
    for (std::size_t i = 0; i < sizes_.size(); ++i) {
      if (cudaError_t e = cudaMemcpyAsync(dsts_[i], srcs_[i], sizes_[i], kind_, stream)) return e;
    }
    return cudaSuccess;
#endif
  }

 private:
  cudaMemcpyKind kind_;
  int device_;
  std::vector<void*> dsts_;
  std::vector<void*> srcs_;
  std::vector<std::size_t> sizes_;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
