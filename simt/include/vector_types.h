// Shadow header of the ringsweep SIMT backend.
#pragma once
#include "cuda_runtime.h"
