// ringsweep: GPU radix sort whose temporary storage does not grow with the input.
// The one header users include.
//
//     #include <ringsweep/ringsweep.cuh>
//     ringsweep::sort_keys(d_keys, n);          // in place, stable, ascending
#pragma once

#include "key_traits.cuh"
#include "policy.cuh"
#include "sort.cuh"
#include "sort_options.cuh"
#include "top_k.cuh"
#include "tuning.cuh"
