// Shadow of CUDA's <cuda_pipeline.h> for the ringsweep SIMT backend: only its primitives
// (<cuda_pipeline_primitives.h>); the cuda::pipeline class is not provided.
#pragma once

#include "cuda_pipeline_primitives.h"
