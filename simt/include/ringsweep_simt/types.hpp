// ringsweep SIMT backend: CUDA runtime types (errors, vectors, launch config, device properties).
// Part of the shadow of the CUDA runtime headers; never included by the library itself.
#pragma once

#include <cstddef>
#include <cstdint>

#define RINGSWEEP_SIMT_BACKEND 1
/// The PTX version (x 10 is `__CUDA_ARCH__`) that cudaFuncGetAttributes reports for every kernel:
/// the backend runs all code as one architecture, 9.0.
#define RINGSWEEP_SIMT_PTX_VERSION 90
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif

// ---- error codes (values match the CUDA runtime) ---------------------------------------------
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorStreamCaptureInvalidated = 901,
  cudaErrorStreamCaptureImplicit = 906,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

// ---- handles ----------------------------------------------------------------------------------
struct CUstream_st;
struct CUevent_st;
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02

// ---- graphs (stream capture; see runtime_api.hpp) ---------------------------------------------
struct CUgraph_st;
struct CUgraphExec_st;
typedef struct CUgraph_st* cudaGraph_t;
typedef struct CUgraphExec_st* cudaGraphExec_t;
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};

enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};
struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
};
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

// ---- batched copies (cudaMemcpyBatchAsync) ----------------------------------------------------
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeNone = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation {
  cudaMemLocationType type;
  int id;
};
enum cudaMemcpyFlags { cudaMemcpyFlagDefault = 0x0, cudaMemcpyFlagPreferOverlapWithCompute = 0x1 };
enum cudaMemcpySrcAccessOrder {
  cudaMemcpySrcAccessOrderInvalid = 0x0,
  cudaMemcpySrcAccessOrderStream = 0x1,
  cudaMemcpySrcAccessOrderDuringApiCall = 0x2,
  cudaMemcpySrcAccessOrderAny = 0x3,
  cudaMemcpySrcAccessOrderMax = 0x7FFFFFFF
};
struct cudaMemcpyAttributes {
  cudaMemcpySrcAccessOrder srcAccessOrder;
  cudaMemLocation srcLocHint;  // hints: the backend's memory has fixed locations, so it ignores them
  cudaMemLocation dstLocHint;
  unsigned int flags;
};

// ---- vector types -----------------------------------------------------------------------------
#define RINGSWEEP_SIMT_VEC(name, T, align2, align4)                                              \
  struct name##1 { T x; };                                                                       \
  struct alignas(align2) name##2 { T x, y; };                                                    \
  struct name##3 { T x, y, z; };                                                                 \
  struct alignas(align4) name##4 { T x, y, z, w; };                                              \
  inline name##1 make_##name##1(T x) { return name##1{x}; }                                      \
  inline name##2 make_##name##2(T x, T y) { return name##2{x, y}; }                              \
  inline name##3 make_##name##3(T x, T y, T z) { return name##3{x, y, z}; }                      \
  inline name##4 make_##name##4(T x, T y, T z, T w) { return name##4{x, y, z, w}; }
RINGSWEEP_SIMT_VEC(char, signed char, 2, 4)
RINGSWEEP_SIMT_VEC(uchar, unsigned char, 2, 4)
RINGSWEEP_SIMT_VEC(short, short, 4, 8)
RINGSWEEP_SIMT_VEC(ushort, unsigned short, 4, 8)
RINGSWEEP_SIMT_VEC(int, int, 8, 16)
RINGSWEEP_SIMT_VEC(uint, unsigned int, 8, 16)
RINGSWEEP_SIMT_VEC(float, float, 8, 16)
RINGSWEEP_SIMT_VEC(longlong, long long, 16, 16)
RINGSWEEP_SIMT_VEC(ulonglong, unsigned long long, 16, 16)
RINGSWEEP_SIMT_VEC(double, double, 16, 16)
#undef RINGSWEEP_SIMT_VEC

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

// ---- launch configuration ---------------------------------------------------------------------
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6
};
union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;
  int programmaticStreamSerializationAllowed;
};
struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  cudaLaunchAttributeValue val;
};
struct cudaLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute* attrs;
  unsigned int numAttrs;
};

// ---- device and function attributes -----------------------------------------------------------
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106
};

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  int clockRate;
  int memoryClockRate;
  int memoryBusWidth;
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};
