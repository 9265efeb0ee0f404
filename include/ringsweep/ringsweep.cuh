// ringsweep: GPU radix sort whose temporary storage does not grow with the input.
// The one header users include: every sort (below), the policies and key traits. The CUB-named
// API (cub.cuh) and the distributed sort over MPI (distributed.cuh) are opt-in headers of their own.
//
//     #include <ringsweep/ringsweep.cuh>
//     ringsweep::sort_keys(d_keys, n);          // in place, stable, ascending
//
// One naming pattern: `[qualifier_]sort_keys` / `[qualifier_]sort_pairs`, the qualifier saying
// which sort (`segmented_sort_keys`, `host_sort_keys`, `top_k_keys`), and for every form a twin in
// ringsweep::tuning with the policy as its first template argument (tuning.cuh).
#pragma once

#include "decomposer.cuh"
#include "host_sort.cuh"
#include "host_sort_config.cuh"
#include "key_traits.cuh"
#include "policy.cuh"
#include "segmented_sort.cuh"
#include "sort.cuh"
#include "sort_options.cuh"
#include "top_k.cuh"
#include "tuning.cuh"
