// Catch2's implementation (Catch::Session, reporters, matchers) and the assertion behind the tests'
// REQUIRE_CUDA / CHECK_CUDA, compiled once by the host compiler and linked into every test
// executable of both variants; test_main.cu holds main() and calls in here. (In test_main.cu itself
// nvcc compiled it again for the GPU variant: 30 s of a core in CI.)
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_session.hpp"

int ringsweep_test::run_catch(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }

void ringsweep_test::assert_cuda_success(int status, const char* status_name, const char* call, const char* file,
                                         int line, bool fatal) {
  INFO(file << ":" << line << ": " << call << " returned " << status << ": " << status_name);
  if (fatal) {
    REQUIRE(status == 0);
  } else {
    CHECK(status == 0);
  }
}
