// key_traits<Key>: how ringsweep turns a key into unsigned bits whose unsigned order is the key's
// order. Defined, with the images it builds, in detail/key_images.cuh (below the public headers,
// so that the internals read it without including this one); this header gives it together with
// the digit extraction.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "detail/config.cuh"
#include "detail/key_images.cuh"

// How the sort reads digits out of these images (internal; here so that one include gives a key
// type's traits and its digit extraction alike).
#include "detail/key_context.cuh"
