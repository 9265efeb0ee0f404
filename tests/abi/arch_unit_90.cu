// Built for sm_90 only (see tests/abi/CMakeLists.txt).
#define ABI_UNIT_FUNCTION abi_test::run_unit_sm90
#include "arch_unit_body.cuh"
