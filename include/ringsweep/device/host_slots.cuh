// host_slots: the device working set of a host-resident sort (host_sort_dispatch.cuh) on each of
// its GPUs, allocated once per call: slots, each a double buffer of keys (and values), the sort's
// constant temporary storage and a stream of its own, carved from one device allocation per GPU;
// and one page-locked block for every slot's partition digit runs.
#pragma once

#include <cstddef>
#include <vector>

#include "../detail/config.cuh"
#include "../detail/temp_layout.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// Slots per GPU: one copying in, one sorting, one copying out, each on its own stream.
constexpr int host_slots_per_device = 3;

/// Keys (and values) a slot holds when `slots` slots share `budget` bytes and each also holds
/// `temp_bytes` of the sort's temporary storage: `item` bytes per key, twice (a double buffer).
///
///     std::size_t cap = host_slot_capacity(64 << 20, 3, temp, sizeof(std::uint32_t));
constexpr std::size_t host_slot_capacity(std::size_t budget, int slots, std::size_t temp_bytes, std::size_t item) {
  const std::size_t share = budget / std::size_t(slots), overhead = temp_bytes + 8 * temp_alignment;
  return share > overhead ? (share - overhead) / (2 * item) : 0;
}

/// One slot: a double buffer of `capacity` keys (and values), temp and a stream.
template <class Key, class Value>
struct host_slot {
  Key* keys = nullptr;
  Value* values = nullptr;  // null without values
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  std::size_t capacity = 0;
  cudaStream_t stream = nullptr;
  int device = 0;  // the stream's and the buffers' device
  // Page-locked: a partition op's digit runs, copied from the device: `offsets` 8-byte words of
  // the sort's own digit offsets (digits from `offsets` on hold no key), or (`offsets` 0)
  // digit_count_kernel's counts, 4-byte words.
  unsigned long long* counts = nullptr;
  int offsets = 0;
  int op = -1;  // the op in flight, or -1
};

/// Every slot of one call, on every GPU: `allocate` once, `release` once (it waits for the
/// streams first, so no copy into the host scratch is in flight when it returns).
///
///     host_slot_pool<std::uint32_t, null_value> pool;
///     cudaError_t e = pool.allocate(devices, 3, capacity, temp_bytes, 256, false, caller_device);
///     host_slot<std::uint32_t, null_value>& s = pool.slots(0)[1];
///     e = pool.release(caller_device);
template <class Key, class Value>
class host_slot_pool {
 public:
  host_slot_pool() = default;
  host_slot_pool(const host_slot_pool&) = delete;
  host_slot_pool& operator=(const host_slot_pool&) = delete;
  ~host_slot_pool() { release(-1); }

  /// `slots` slots on each of `devices`; `counts_words` page-locked 8-byte words per slot (0: none).
  /// Leaves `caller_device` current (when >= 0).
  __host__ cudaError_t allocate(const std::vector<int>& devices, int slots, std::size_t capacity,
                                std::size_t temp_bytes, std::size_t counts_words, bool values, int caller_device) {
    slots_ = slots;
    devices_ = devices;
    blocks_.assign(devices.size(), nullptr);
    slot_.assign(devices.size() * std::size_t(slots), host_slot<Key, Value>{});
    const std::size_t key_bytes = round_up(2 * capacity * sizeof(Key));
    const std::size_t value_bytes = values ? round_up(2 * capacity * sizeof(Value)) : 0;
    const std::size_t slot_bytes = key_bytes + value_bytes + round_up(temp_bytes);
    cudaError_t e = cudaSuccess;
    if (counts_words != 0) {
      e = cudaMallocHost(reinterpret_cast<void**>(&counts_), slot_.size() * counts_words * sizeof(unsigned long long));
    }
    for (std::size_t d = 0; e == cudaSuccess && d < devices.size(); ++d) {
      e = cudaSetDevice(devices[d]);
      if (e == cudaSuccess) e = cudaMalloc(&blocks_[d], slot_bytes * std::size_t(slots));
      for (int j = 0; e == cudaSuccess && j < slots; ++j) {
        host_slot<Key, Value>& s = slot_[d * std::size_t(slots) + std::size_t(j)];
        char* base = static_cast<char*>(blocks_[d]) + slot_bytes * std::size_t(j);
        s.keys = reinterpret_cast<Key*>(base);
        s.values = values ? reinterpret_cast<Value*>(base + key_bytes) : nullptr;
        s.temp = base + key_bytes + value_bytes;
        s.temp_bytes = temp_bytes;
        s.capacity = capacity;
        s.device = devices[d];
        if (counts_words != 0) s.counts = counts_ + (d * std::size_t(slots) + std::size_t(j)) * counts_words;
        e = cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking);
      }
    }
    if (caller_device >= 0) {
      const cudaError_t f = cudaSetDevice(caller_device);
      if (e == cudaSuccess) e = f;
    }
    return e;
  }

  /// The slots of device `d` (an index into the allocate's `devices`).
  __host__ host_slot<Key, Value>* slots(std::size_t d) { return slot_.data() + d * std::size_t(slots_); }
  __host__ int slots_per_device() const { return slots_; }

  /// Waits for every stream, then frees everything; the first error. Leaves `caller_device`
  /// current (when >= 0).
  __host__ cudaError_t release(int caller_device) {
    cudaError_t e = cudaSuccess;
    const auto keep = [&](cudaError_t f) {
      if (e == cudaSuccess) e = f;
    };
    for (std::size_t d = 0; d < blocks_.size(); ++d) {
      keep(cudaSetDevice(devices_[d]));
      for (int j = 0; j < slots_; ++j) {
        host_slot<Key, Value>& s = slot_[d * std::size_t(slots_) + std::size_t(j)];
        if (s.stream == nullptr) continue;
        keep(cudaStreamSynchronize(s.stream));
        keep(cudaStreamDestroy(s.stream));
        s.stream = nullptr;
      }
      if (blocks_[d] != nullptr) keep(cudaFree(blocks_[d]));
      blocks_[d] = nullptr;
    }
    if (counts_ != nullptr) keep(cudaFreeHost(counts_));
    counts_ = nullptr;
    blocks_.clear();
    slot_.clear();
    if (caller_device >= 0) keep(cudaSetDevice(caller_device));
    return e;
  }

 private:
  __host__ static std::size_t round_up(std::size_t bytes) {
    return (bytes + temp_alignment - 1) / temp_alignment * temp_alignment;
  }

  int slots_ = 0;
  std::vector<int> devices_;
  std::vector<void*> blocks_;
  std::vector<host_slot<Key, Value>> slot_;
  unsigned long long* counts_ = nullptr;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
