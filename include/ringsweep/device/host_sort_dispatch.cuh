// host_sort_dispatch: sorts host arrays larger than the GPU by streaming them through one or more
// GPUs (host_sort.cuh documents the public functions and the bus traffic).
//
// Every unit of work is a *chunk op*: gather a list of host extents into a device slot (H2D),
// sort it there with the double-buffer sort (constant temporary storage: the slot is all data),
// scatter the result back to the same extents of the scratch (D2H). A *partition* op sorts by one
// 8-bit digit of the window (stable) and reads its digit runs from the sort's own histogram (a
// kernel counts them where the sort has none of one 8-bit pass); a *group* op sorts
// by the whole window. The first round partitions the input by its top digit into the scratch;
// buckets larger than a slot are partitioned again on the next digit, round after round (a
// bucket with no digit left holds equal keys: already in order); then consecutive buckets are
// packed into groups of at most a slot (pack_groups: one extent per group and chunk) and sorted.
// An op's copies in are one call, its copies out (and a partition's runs) another
// (host_copy_batch.cuh). The slots (host_slots.cuh) are allocated once per call. Data that fits
// one device is one op of the whole input into the scratch (sort_whole). Either way the caller's
// arrays are written only at the end, by host copies from the scratch: any error before leaves
// them untouched.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "../detail/config.cuh"
#include "../detail/digit_window.cuh"
#include "../detail/sort_window.cuh"
#include "../detail/temp_layout.cuh"
#include "../host_sort_config.cuh"
#include "../kernels/digit_count_kernel.cuh"
#include "../key_traits.cuh"
#include "../sort_options.cuh"
#include "host_copy.cuh"
#include "host_copy_batch.cuh"
#include "host_extents.cuh"
#include "host_slots.cuh"
#include "launch.cuh"
#include "radix_sort.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// One chunk of a host sort's work (see the top of this file).
struct host_chunk_op {
  host_extents extents;
  bool from_input = false;          // reads the caller's arrays (the first round), else the scratch
  int level = -1;                   // the digit (0: the window's top) it partitions by; -1: a group
  std::vector<std::size_t> counts;  // partition ops: keys per digit, counted after the op
};

/// A host-resident sort of the caller's `Key` array (and `Value`s; null_value for keys only) with
/// keys of `Kind` (builtin_keys, decomposed_keys) and the policy `Choice`.
///
///     host_sort<for_device, builtin_keys<float>, null_value> s(builtin_keys<float>{}, h, nullptr, n, opts, cfg);
///     cudaError_t e = s.run();
template <class Choice, class Kind, class Value>
class host_sort {
 public:
  using Key = typename Kind::key_type;
  using sort_key = typename Kind::sort_key;
  using bits_type = typename key_traits<sort_key>::bits_type;
  static constexpr bool HAS_VALUES = !std::is_same<Value, null_value>::value;
  // Partition digits: 8 bits whatever the device sort's radix (an op sorts its window on the
  // device with the policy's own digits; a partition only needs 256 buckets per level).
  static constexpr int DIGIT_BITS = 8;
  static constexpr int BUCKETS = 1 << DIGIT_BITS;
  static constexpr std::size_t ITEM = sizeof(Key) + (HAS_VALUES ? sizeof(Value) : 0);
  // Its chunks' budget assumes the double-buffer sort's constant storage, which a gathered value
  // (any other size: value_gather.cuh) does not have; those go through host_sort_gathered
  // (host_sort_gather.cuh), which runs this sort with positions as values.
  static_assert(!HAS_VALUES || value_moves_whole<Value>::value,
                "ringsweep: host_sort moves values of 1, 2, 4, 8 or 16 bytes (host_sort_pairs_of takes any)");

  __host__ host_sort(const Kind& kind, Key* keys, Value* values, std::size_t n, const sort_options& opts,
                     const host_sort_config& cfg)
      : kind_(kind), keys_(keys), values_(values), n_(n), opts_(opts), cfg_(cfg) {}

  __host__ ~host_sort() {
    pool_.release(-1);  // released by run() already; else its copies into the scratch end first
    if (owned_scratch_ != nullptr) {
      if (scratch_pinned_) {
        cudaFreeHost(owned_scratch_);
      } else {
        std::free(owned_scratch_);
      }
    }
  }
  host_sort(const host_sort&) = delete;
  host_sort& operator=(const host_sort&) = delete;

  /// Sorts; the caller's arrays hold the sorted data on success and are untouched on any error.
  __host__ cudaError_t run() {
    if (cudaError_t e = check()) return e;
    if (n_ <= 1 || window_.passes == 0) return finish_progress();
    if (cudaError_t e = set_up()) return e;
    if (2 * n_ * ITEM + temp_bytes_ + 4 * temp_alignment <= budget_) return sort_whole();
    const cudaError_t e = sort_streamed();
    const cudaError_t freed = pool_.release(caller_device_);  // waits for every stream first
    if (e != cudaSuccess) return e;
    if (freed != cudaSuccess) return freed;
    gather();
    return finish_progress();
  }

 private:
  /// The checks of the arguments: cudaErrorInvalidValue before anything is touched.
  __host__ cudaError_t check() {
    if (n_ == 0) return cudaSuccess;
    if (keys_ == nullptr || (HAS_VALUES && values_ == nullptr)) return cudaErrorInvalidValue;
    if (n_ > (~std::size_t(0) / 4) / ITEM) return cudaErrorInvalidValue;
    if (cfg_.num_devices < 0 || (cfg_.devices == nullptr && cfg_.num_devices > 0)) return cudaErrorInvalidValue;
    // The window and order, checked by the device sort's size query.
    std::size_t bytes = 0;
    bool second = false;
    if (cudaError_t e = device_sort(nullptr, bytes, nullptr, nullptr, n_, opts_, 0, second)) return e;
    temp_bytes_ = bytes;
    if (!sort_window::resolve(opts_, key_traits<sort_key>::bits, DIGIT_BITS, window_)) return cudaErrorInvalidValue;
    return cudaSuccess;
  }

  /// The devices, the budget per device and the chunk capacity of a slot.
  __host__ cudaError_t set_up() {
    int count = 0;
    if (cudaError_t e = cudaGetDeviceCount(&count)) return e;
    if (cudaError_t e = cudaGetDevice(&caller_device_)) return e;
    if (cfg_.devices == nullptr || cfg_.num_devices == 0) {
      devices_.assign(1, caller_device_);
    } else {
      devices_.assign(cfg_.devices, cfg_.devices + cfg_.num_devices);
      for (int d : devices_) {
        if (d < 0 || d >= count) return cudaErrorInvalidDevice;
      }
    }
    budget_ = cfg_.device_bytes;
    if (budget_ == 0) {
      for (int d : devices_) {
        if (cudaError_t e = cudaSetDevice(d)) return e;
        std::size_t free_bytes = 0, total = 0;
        cudaError_t e = cudaMemGetInfo(&free_bytes, &total);
        if (e != cudaSuccess) {
          cudaSetDevice(caller_device_);
          return e;
        }
        const std::size_t b = free_bytes / 10 * 8;
        budget_ = budget_ == 0 ? b : std::min(budget_, b);
      }
      if (cudaError_t e = cudaSetDevice(caller_device_)) return e;
    }
    // host_slots_per_device slots per device (copy in, sort, copy out), each a double buffer and
    // temp; two (one copying while the other sorts) where three would hold fewer than 256 keys.
    capacity_ = host_slot_capacity(budget_, host_slots_per_device, temp_bytes_, ITEM);
    if (capacity_ < 256) {
      slots_ = 2;
      capacity_ = host_slot_capacity(budget_, slots_, temp_bytes_, ITEM);
    }
    if (capacity_ < 256 && 2 * n_ * ITEM + temp_bytes_ + 4 * temp_alignment > budget_) {
      return cfg_.device_bytes != 0 ? cudaErrorInvalidValue : cudaErrorMemoryAllocation;
    }
    return cudaSuccess;
  }

  /// The device sort of a double buffer of `count` keys (a size query when `temp` is null);
  /// `second`: the result is in the second half of the buffers.
  __host__ cudaError_t device_sort(void* temp, std::size_t& bytes, Key* keys2, Value* values2, std::size_t count,
                                   const sort_options& opts, cudaStream_t stream, bool& second) const {
    double_buffer<Key> kb(keys2, keys2 != nullptr ? keys2 + count : nullptr);
    cudaError_t e;
    if constexpr (HAS_VALUES) {
      double_buffer<Value> vb(values2, values2 != nullptr ? values2 + count : nullptr);
      e = radix_sort<Choice>(kind_, buffers<Key, Value>(kb, vb), temp, bytes, count, opts, stream);
    } else {
      (void)values2;
      e = radix_sort<Choice>(kind_, buffers<Key>(kb), temp, bytes, count, opts, stream);
    }
    second = kb.selector != 0;
    return e;
  }

  /// Data that fits one device's budget: one copy in, one sort, one copy out into the scratch, then
  /// host copies into the caller's arrays. A device copy may fail part-way and leave garbage in its
  /// destination, so none goes to the caller's arrays: a failure of either copy out (keys or
  /// values) leaves them untouched, and the host copies that write them cannot fail.
  __host__ cudaError_t sort_whole() {
    cudaError_t e = pool_.allocate({devices_[0]}, 1, n_, temp_bytes_, 0, HAS_VALUES, devices_[0]);
    if (e == cudaSuccess) e = scratch();
    if (e == cudaSuccess) {
      slot& s = pool_.slots(0)[0];
      host_chunk_op op;
      op.extents.append(0, n_);
      op.from_input = true;
      order_.assign(1, op.extents);
      e = enqueue(s, op);
      if (e == cudaSuccess) e = cudaStreamSynchronize(s.stream);
    }
    const cudaError_t freed = pool_.release(caller_device_);
    if (e != cudaSuccess) return e;
    if (freed != cudaSuccess) return freed;
    gather();
    return finish_progress();
  }

  using slot = host_slot<Key, Value>;

  /// The options of an op: one digit (partition) or the whole window (group).
  __host__ sort_options op_options(int level) const {
    if (level < 0) return opts_;
    const digit_window w = window_.pass<DIGIT_BITS>(window_.passes - 1 - level);
    sort_options o = opts_;
    o.begin_bit = w.shift;
    o.end_bit = w.shift + w.width;
    return o;
  }

  /// Enqueues `op` on `s`: gather (H2D), sort, scatter to the scratch (D2H); 2 copy calls.
  __host__ cudaError_t enqueue(slot& s, const host_chunk_op& op) const {
    const std::size_t count = op.extents.size();
    const bool input = op.from_input && !stage_input_;
    if (op.from_input && stage_input_) {
      // A pageable input through the page-locked scratch: this chunk's host copy, into the scratch
      // at its own indices (where nothing else reads or writes in round 0), while the device
      // works on the other slots.
      // Cut among host threads (a device's share of them), as the final gather is.
      for (const host_extent& x : op.extents.list) {
        in_host_threads(x.count, host_copy_parts(x.count, ITEM, cfg_.host_threads, devices_.size()),
                        [&](std::size_t lo, std::size_t hi) {
                          const std::size_t at = x.first + lo;
                          std::memcpy(static_cast<void*>(scratch_keys_ + at), static_cast<const void*>(keys_ + at),
                                      (hi - lo) * sizeof(Key));
                          if constexpr (HAS_VALUES) {
                            std::memcpy(static_cast<void*>(scratch_values_ + at),
                                        static_cast<const void*>(values_ + at), (hi - lo) * sizeof(Value));
                          }
                        });
      }
    }
    // Every extent of both arrays in one batch (host_copy_batch.cuh), and out in one more.
    const Key* key_src = input ? keys_ : scratch_keys_;
    const Value* value_src = input ? values_ : scratch_values_;
    host_copy_batch in(cudaMemcpyHostToDevice, s.device), out(cudaMemcpyDeviceToHost, s.device);
    std::size_t at = 0;
    for (const host_extent& x : op.extents.list) {
      in.add(s.keys + at, key_src + x.first, x.count * sizeof(Key));
      if constexpr (HAS_VALUES) in.add(s.values + at, value_src + x.first, x.count * sizeof(Value));
      at += x.count;
    }
    cudaError_t e = in.issue(s.stream);
    if (e != cudaSuccess) return e;
    std::size_t bytes = s.temp_bytes;
    bool second = false;
    e = device_sort(s.temp, bytes, s.keys, s.values, count, op_options(op.level), s.stream, second);
    if (e != cudaSuccess) return e;
    const std::size_t half = second ? count : 0;
    if (op.level >= 0) {
      // The partition's digit runs, to the slot's page-locked words, read when the op retires: the
      // digit offsets the sort's histogram left in its temp (one 8-bit pass: a policy of 8-bit
      // digits or more, a chunk of more than one tile), else counted by digit_count_kernel (in the
      // sort's temp, free once it is done).
      // A digit narrower than 8 bits (the window's last) has fewer offsets than BUCKETS when the
      // policy's digits are narrower too: the digits past them hold no key.
      pass_offsets at;
      e = one_pass_offsets<Choice, Kind, Value>(count, op_options(op.level), at);
      s.offsets = e == cudaSuccess && at.found ? min_of(at.radix, BUCKETS) : 0;
      if (s.offsets != 0) {
        const char* base = reinterpret_cast<const char*>(align_up(reinterpret_cast<std::uintptr_t>(s.temp)));
        out.add(s.counts, base + at.offset, std::size_t(s.offsets) * sizeof(unsigned long long));
      } else if (e == cudaSuccess) {
        static_assert(BUCKETS <= digit_count_radix, "digit_count_kernel counts 8-bit digits");
        unsigned* const d_counts = static_cast<unsigned*>(s.temp);
        e = cudaMemsetAsync(d_counts, 0, BUCKETS * sizeof(unsigned), s.stream);
        const unsigned grid =
            unsigned(min_of<std::size_t>(ceil_div<std::size_t>(count, 8 * digit_count_threads), 1024));
        if (e == cudaSuccess) {
          e = launch(digit_count_kernel<bits_type, decltype(partition_extractor(op.level))>, max_of(grid, 1u),
                     unsigned(digit_count_threads), s.stream, launch_order::serial,
                     reinterpret_cast<const bits_type*>(s.keys + half), count, partition_extractor(op.level),
                     d_counts);
        }
        out.add(s.counts, d_counts, BUCKETS * sizeof(unsigned));
      }
      if (e != cudaSuccess) return e;
    }
    at = 0;
    for (const host_extent& x : op.extents.list) {
      out.add(scratch_keys_ + x.first, s.keys + half + at, x.count * sizeof(Key));
      if constexpr (HAS_VALUES) out.add(scratch_values_ + x.first, s.values + half + at, x.count * sizeof(Value));
      at += x.count;
    }
    return out.issue(s.stream);
  }

  /// The digit a partition op at `level` splits by.
  __host__ auto partition_extractor(int level) const {
    return window_.extractor<DIGIT_BITS>(kind_.context(), window_.passes - 1 - level);
  }

  /// A partition op's digit runs: from the offsets or counts its slot copied from the device
  /// (enqueue). Offsets ascend; digit d's run ends where d + 1's begins, the last at the chunk's
  /// end; digits past the offsets hold no key.
  __host__ static void take_counts(host_chunk_op& op, const slot& s) {
    op.counts.assign(BUCKETS, 0);
    if (s.offsets != 0) {
      const std::size_t count = op.extents.size();
      for (int d = 0; d < s.offsets; ++d) {
        const std::size_t end = d + 1 < s.offsets ? std::size_t(s.counts[d + 1]) : count;
        op.counts[std::size_t(d)] = end - std::size_t(s.counts[d]);
      }
    } else {
      const unsigned* counted = reinterpret_cast<const unsigned*>(s.counts);
      op.counts.assign(counted, counted + BUCKETS);
    }
  }

  /// Runs `ops` on every device, through the slots of pool_ (slots_ each, taken in turn); the
  /// calling thread drives the first device and reports progress. The first error stops every
  /// device. Waits for the streams of its own ops only: no allocation, no device-wide
  /// synchronisation.
  __host__ cudaError_t run_ops(std::vector<host_chunk_op>& ops) {
    std::atomic<std::size_t> next{0};
    std::atomic<int> failed{int(cudaSuccess)};
    const auto work = [&](std::size_t d, bool caller) {
      cudaError_t e = cudaSetDevice(devices_[d]);
      slot* const slots = pool_.slots(d);
      const unsigned count = unsigned(pool_.slots_per_device());
      const auto retire = [&](slot& s) {
        if (s.op < 0) return;
        if (e == cudaSuccess) e = cudaStreamSynchronize(s.stream);
        if (e == cudaSuccess) {
          host_chunk_op& op = ops[std::size_t(s.op)];
          if (op.level >= 0) take_counts(op, s);
          done_ += op.extents.size();
        }
        s.op = -1;
      };
      for (unsigned j = 0; e == cudaSuccess && failed.load() == int(cudaSuccess); ++j) {
        const std::size_t i = next.fetch_add(1);
        if (i >= ops.size()) break;
        slot& s = slots[j % count];
        retire(s);
        if (e == cudaSuccess) e = enqueue(s, ops[i]);
        s.op = int(i);
        if (caller) report_progress();
      }
      for (unsigned j = 0; j < count; ++j) retire(slots[j]);
      if (e != cudaSuccess) {
        int expected = int(cudaSuccess);
        failed.compare_exchange_strong(expected, int(e));
      }
    };
    std::vector<std::thread> helpers;
    for (std::size_t d = 1; d < devices_.size(); ++d) helpers.emplace_back(work, d, false);
    work(0, true);
    for (std::thread& t : helpers) t.join();
    cudaSetDevice(caller_device_);
    report_progress();
    return cudaError_t(failed.load());
  }

  using bucket = host_bucket;

  __host__ cudaError_t sort_streamed() {
    if (cudaError_t e = scratch()) return e;
    // A pageable input with a page-locked scratch: each round-0 chunk is copied into the scratch
    // on the host just before its transfer (enqueue), so that every transfer is from page-locked
    // memory and overlaps the other slots' work (the driver would stage pageable memory through
    // its own buffers, synchronously, anyway), and the host copies overlap the device's.
    stage_input_ = page_locked(scratch_keys_) && !page_locked(keys_);
    // Every slot of the call, once: nothing is allocated or freed between rounds.
    if (cudaError_t e = pool_.allocate(devices_, slots_, capacity_, temp_bytes_, BUCKETS, HAS_VALUES,
                                       caller_device_)) {
      return e;
    }
    planned_ = 2 * n_;
    // Round 0: the input, partitioned by its top digit into the scratch.
    host_extents all;
    all.append(0, n_);
    std::vector<bucket> buckets{bucket{all, 0}};
    bool from_input = true;
    for (;;) {
      // Partition every bucket larger than a slot that still has a digit to split by.
      std::vector<host_chunk_op> ops;
      std::vector<std::size_t> first_op(buckets.size(), 0), op_count(buckets.size(), 0);
      for (std::size_t b = 0; b < buckets.size(); ++b) {
        const bool split = from_input || (buckets[b].extents.size() > capacity_ && buckets[b].level < window_.passes);
        if (!split) continue;
        first_op[b] = ops.size();
        for (host_extents& piece : buckets[b].extents.split(capacity_)) {
          host_chunk_op op;
          op.extents = std::move(piece);
          op.from_input = from_input;
          op.level = buckets[b].level;
          ops.push_back(std::move(op));
        }
        op_count[b] = ops.size() - first_op[b];
        if (!from_input) planned_ += buckets[b].extents.size();
      }
      if (ops.empty()) break;
      if (cudaError_t e = run_ops(ops)) return e;
      std::vector<bucket> next;
      for (std::size_t b = 0; b < buckets.size(); ++b) {
        if (op_count[b] == 0) {
          next.push_back(std::move(buckets[b]));
          continue;
        }
        // Sub-bucket d: each op's run of digit d, in op order (stable).
        std::vector<bucket> subs(BUCKETS, bucket{host_extents{}, buckets[b].level + 1});
        for (std::size_t o = first_op[b]; o < first_op[b] + op_count[b]; ++o) {
          std::size_t at = 0;
          for (int d = 0; d < BUCKETS; ++d) {
            subs[std::size_t(d)].extents.append(ops[o].extents.slice(at, at + ops[o].counts[std::size_t(d)]));
            at += ops[o].counts[std::size_t(d)];
          }
        }
        for (bucket& s : subs) {
          if (s.extents.size() != 0) next.push_back(std::move(s));
        }
      }
      buckets = std::move(next);
      from_input = false;
    }
    // Groups of consecutive buckets, at most a slot each (pack_groups, host_extents.cuh): one copy in and one
    // out per group and run of contiguous scratch.
    std::vector<host_extents> groups = pack_groups(buckets, capacity_, window_.passes, order_);
    std::vector<host_chunk_op> group_ops(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) group_ops[g].extents = std::move(groups[g]);
    return run_ops(group_ops);
  }

  /// Whether `p` is page-locked host memory (cudaMallocHost, cudaHostAlloc, cudaHostRegister).
  __host__ static bool page_locked(const void* p) {
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
      cudaGetLastError();  // an unknown pointer is pageable memory; the error is not the sort's
      return false;
    }
    return a.type == cudaMemoryTypeHost;
  }

  /// Bytes of the scratch: n keys, then n values from the next multiple of the value's alignment.
  __host__ static std::size_t scratch_value_offset(std::size_t n) {
    constexpr std::size_t align = HAS_VALUES ? alignof(Value) : 1;
    return (n * sizeof(Key) + align - 1) / align * align;
  }

  /// The scratch: the caller's, or page-locked host memory (pageable when that fails).
  __host__ cudaError_t scratch() {
    const std::size_t key_bytes = scratch_value_offset(n_);
    void* base = cfg_.h_scratch;
    if (base == nullptr) {
      const std::size_t bytes = key_bytes + (HAS_VALUES ? n_ * sizeof(Value) : 0);
      if (cudaMallocHost(&base, bytes) == cudaSuccess) {
        scratch_pinned_ = true;
      } else {
        cudaGetLastError();  // not sticky: pageable memory instead
        base = std::malloc(bytes);
        if (base == nullptr) return cudaErrorMemoryAllocation;
      }
      owned_scratch_ = base;
    }
    scratch_keys_ = static_cast<Key*>(base);
    scratch_values_ = HAS_VALUES ? reinterpret_cast<Value*>(static_cast<char*>(base) + key_bytes) : nullptr;
    return cudaSuccess;
  }

  /// The sorted data, from the scratch's runs (order_) into the caller's arrays (gather_runs,
  /// host_copy.cuh): this cannot fail.
  __host__ void gather() {
    gather_runs<HAS_VALUES>(order_, scratch_keys_, scratch_values_, keys_, values_, cfg_.host_threads);
  }

  /// The progress callback, from the calling thread: never decreasing, 1.0 once at the end.
  __host__ void report_progress() {
    if (cfg_.progress == nullptr || planned_ == 0) return;
    const double f = std::min(0.99, double(done_.load()) / double(planned_));
    if (f > reported_) {
      reported_ = f;
      cfg_.progress(f, cfg_.progress_user);
    }
  }
  __host__ cudaError_t finish_progress() {
    if (cfg_.progress != nullptr) cfg_.progress(1.0, cfg_.progress_user);
    return cudaSuccess;
  }

  Kind kind_;
  Key* keys_;
  Value* values_;
  std::size_t n_;
  sort_options opts_;
  host_sort_config cfg_;
  sort_window window_;  // the window in partition digits of DIGIT_BITS (check)
  std::size_t temp_bytes_ = 0;
  std::vector<int> devices_;
  int caller_device_ = 0;
  std::size_t budget_ = 0;
  std::size_t capacity_ = 0;
  Key* scratch_keys_ = nullptr;
  Value* scratch_values_ = nullptr;
  void* owned_scratch_ = nullptr;
  bool scratch_pinned_ = false;
  bool stage_input_ = false;  // round 0 copies the input into the scratch on the host first (sort_streamed)
  int slots_ = host_slots_per_device;  // per device (set_up)
  host_slot_pool<Key, Value> pool_;
  std::vector<host_extents> order_;  // the sorted data's runs of the scratch, in order
  std::atomic<std::size_t> done_{0};
  std::size_t planned_ = 0;
  double reported_ = 0;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
