// Shadow of the CUDA runtime header for the ringsweep SIMT backend: CUDA C++ device code compiled by
// a host C++ compiler runs on the CPU, each thread block's threads as fibers. __CUDACC__ and
// __CUDA_ARCH__ stay undefined (libcu++ rejects a fake __CUDACC__).
#pragma once
// Standard headers the runtime API and launch headers use come first: device.hpp defines
// __noinline__ and friends, which libstdc++ spells in its own attributes.
#include <functional>
#include <memory>
#include <tuple>
#include <vector>

#include "ringsweep_simt/types.hpp"
#include "ringsweep_simt/device.hpp"
#include "ringsweep_simt/dynamic_shared.hpp"
#include "ringsweep_simt/math.hpp"
#include "ringsweep_simt/fast_math.hpp"
#include "ringsweep_simt/device_math.hpp"
#include "ringsweep_simt/conversions.hpp"
#include "ringsweep_simt/missing_intrinsics.hpp"
#include "ringsweep_simt/runtime_api.hpp"
#include "ringsweep_simt/launch.hpp"
#include "ringsweep_simt/launch_kernel.hpp"
#include "ringsweep_simt/chevron.hpp"
