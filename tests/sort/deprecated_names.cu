// Compile-fail check (not built by the build; ringsweep_add_compile_fail_test compiles it with the
// host compiler against the SIMT backend): with RINGSWEEP_DEPRECATION_WARNINGS an old name
// (sort_keys_host, renamed host_sort_keys) draws the compiler's deprecation diagnostic, naming the
// new one, made an error here; without it the old names compile silently (host_sort_test).
#include <ringsweep/ringsweep.cuh>

#include <vector>

#pragma GCC diagnostic error "-Wdeprecated-declarations"

int main() {
  std::vector<unsigned> keys(4);
  return ringsweep::sort_keys_host(keys.data(), keys.size()) == cudaSuccess ? 0 : 1;
}
