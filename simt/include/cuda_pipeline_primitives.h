// Shadow of CUDA's <cuda_pipeline_primitives.h> for the ringsweep SIMT backend:
// __pipeline_memcpy_async, __pipeline_commit and __pipeline_wait_prior (ringsweep_simt/device.hpp).
#pragma once

#include "cuda_runtime.h"
