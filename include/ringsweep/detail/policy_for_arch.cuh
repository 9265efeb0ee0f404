// Which shipped policy serves an architecture: the host picks one by the PTX version of the
// running kernels, and a kernel compiles its body only for its policy's architectures.
#pragma once

#include <type_traits>

#include "config.cuh"
#include "policy_vocabulary.cuh"

RINGSWEEP_NAMESPACE_BEGIN
namespace detail {

/// The policy whose architectures a policy serves: its `arch_base` where it names one (a policy
/// derived from a shipped one for one kernel's shape, such as segment_block_policy), else itself.
template <class Policy, class = void>
struct arch_base_of {
  using type = Policy;
};
template <class Policy>
struct arch_base_of<Policy, std::void_t<typename Policy::arch_base>> {
  using type = typename Policy::arch_base;
};

/// A policy whose onesweep shape is `Policy::segment_block`'s: the configuration of the kernel
/// that sorts a segmented sort's mid-sized segments (one block each), compiled for `Policy`'s
/// architectures.
template <class Policy>
struct segment_block_policy : Policy {
  using arch_base = Policy;
  __host__ __device__ static constexpr onesweep_shape onesweep(sort_types t) { return Policy::segment_block(t); }
};

/// A policy whose onesweep shape is `Policy::segment_compact_block`'s: the kernel that sorts a
/// segmented sort's segments above the tiny ones and up to that smaller tile (one block each).
template <class Policy>
struct segment_compact_policy : Policy {
  using arch_base = Policy;
  __host__ __device__ static constexpr onesweep_shape onesweep(sort_types t) { return Policy::segment_compact_block(t); }
};

/// A policy whose onesweep shape is the block that sorts a segmented sort's small segments (up to
/// one onesweep tile, one block each) and hosts the compact and medium classes' groups
/// (segment_blocks_kernel): `SEGMENT_SMALL_THREADS` threads (fewer where the onesweep tile is
/// smaller, whole warps) and as many keys a thread as hold one onesweep tile of `Policy`.
template <class Policy>
struct segment_small_policy : Policy {
  using arch_base = Policy;
  __host__ __device__ static constexpr onesweep_shape onesweep(sort_types t) {
    const onesweep_shape large = Policy::onesweep(t);
    const int tile = large.threads * large.items;
    const int warps = (tile + warp_threads - 1) / warp_threads;
    const int threads = Policy::SEGMENT_SMALL_THREADS < warps * warp_threads ? Policy::SEGMENT_SMALL_THREADS
                                                                              : warps * warp_threads;
    onesweep_shape s;
    s.threads = threads;
    s.items = (tile + threads - 1) / threads;
    return s;
  }
};

/// Architecture range `[min, max)` of `Policy` in `List`; `found` is false (and the range every
/// architecture) for a policy the list does not name, such as a test or tuning policy.
template <class Policy, class List>
struct arch_range;
template <class Policy>
struct arch_range<Policy, arch_policies<>> {
  static constexpr bool found = false;
  static constexpr int min = 0;
  static constexpr int max = 1 << 30;
};
template <class Policy, class First>
struct arch_range<Policy, arch_policies<First>> {
  static constexpr bool found = std::is_same<Policy, typename First::policy>::value;
  static constexpr int min = found ? First::arch : 0;
  static constexpr int max = 1 << 30;
};
template <class Policy, class First, class Second, class... Rest>
struct arch_range<Policy, arch_policies<First, Second, Rest...>> {
  static_assert(First::arch < Second::arch, "arch_policies must be ordered by architecture");
  using rest = arch_range<Policy, arch_policies<Second, Rest...>>;
  static constexpr bool here = std::is_same<Policy, typename First::policy>::value;
  static constexpr bool found = here || rest::found;
  static constexpr int min = here ? First::arch : rest::min;
  static constexpr int max = here ? Second::arch : rest::max;
};

/// Whether `Policy`'s kernels serve device code of `__CUDA_ARCH__ == arch`: a shipped policy for
/// its own range, any other policy for every architecture.
template <class Policy>
__host__ __device__ constexpr bool policy_serves_arch(int arch) {
  using base = typename arch_base_of<Policy>::type;
  return arch >= arch_range<base, shipped_policies>::min && arch < arch_range<base, shipped_policies>::max;
}

/// Whether the code being compiled may hold `Policy`'s kernel bodies: always in host code (and on
/// the SIMT backend), in device code only for the architectures the policy serves. Kernels wrap
/// their bodies in `if constexpr (policy_compiled_here<Policy>())`.
template <class Policy>
__host__ __device__ constexpr bool policy_compiled_here() {
#ifdef __CUDA_ARCH__
  return policy_serves_arch<Policy>(__CUDA_ARCH__);
#else
  return true;
#endif
}

/// Calls `f(Policy{})` with the policy of `List` that serves `arch` (the last entry whose start is
/// at or below it) and returns what `f` returns.
template <class F, class First>
__host__ auto with_arch_policy(int, F&& f, arch_policies<First>) {
  return f(typename First::policy{});
}
template <class F, class First, class Second, class... Rest>
__host__ auto with_arch_policy(int arch, F&& f, arch_policies<First, Second, Rest...>) {
  if (arch < Second::arch) return f(typename First::policy{});
  return with_arch_policy(arch, static_cast<F&&>(f), arch_policies<Second, Rest...>{});
}

/// The policy of `List` that serves `Arch`, as a type: what with_arch_policy(Arch, ...) picks.
template <int Arch, class List>
struct arch_policy_of;
template <int Arch, class First>
struct arch_policy_of<Arch, arch_policies<First>> {
  using type = typename First::policy;
};
template <int Arch, class First, class Second, class... Rest>
struct arch_policy_of<Arch, arch_policies<First, Second, Rest...>> {
  using type = typename std::conditional<(Arch < Second::arch), typename First::policy,
                                         typename arch_policy_of<Arch, arch_policies<Second, Rest...>>::type>::type;
};

}  // namespace detail
RINGSWEEP_NAMESPACE_END
