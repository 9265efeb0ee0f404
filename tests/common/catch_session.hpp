// The Catch2 session of the test executables (catch_session.cpp), for test_main.cu's main().
#pragma once

/// Runs the registered test cases with the command line's options; returns the number of failed
/// assertions (capped by Catch2), 0 when all passed.
///
///     return ringsweep_test::run_catch(argc, argv);
namespace ringsweep_test {
int run_catch(int argc, char* argv[]);

/// The assertion of REQUIRE_CUDA (`fatal`) and CHECK_CUDA (test_util.cuh): `status` 0 passes;
/// anything else fails the test case (or records a failure and goes on) with the call's text,
/// the status and its name, and where the call is.
void assert_cuda_success(int status, const char* status_name, const char* call, const char* file, int line,
                         bool fatal);
}  // namespace ringsweep_test
