// Shadow of the CUDA driver API header for the ringsweep SIMT backend: the version macro and the
// basic driver types, for code that includes <cuda.h> for them. No driver API functions.
//
//   #include <cuda.h>
//   #if CUDA_VERSION >= 12000 ... #endif
#pragma once

#include "cuda_runtime.h"

#ifndef CUDA_VERSION
#define CUDA_VERSION CUDART_VERSION
#endif

typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2 } CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUstream_st* CUstream;
typedef struct CUevent_st* CUevent;
