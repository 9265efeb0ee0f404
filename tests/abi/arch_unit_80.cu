// Built from compute_80 PTX only (see tests/abi/CMakeLists.txt).
#define ABI_UNIT_FUNCTION abi_test::run_unit_compute80
#include "arch_unit_body.cuh"
