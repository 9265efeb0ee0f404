// The Catch2 session of the test executables (catch_session.cpp), for test_main.cu's main().
#pragma once

/// Runs the registered test cases with the command line's options; returns the number of failed
/// assertions (capped by Catch2), 0 when all passed.
///
///     return ringsweep_test::run_catch(argc, argv);
namespace ringsweep_test {
int run_catch(int argc, char* argv[]);
}  // namespace ringsweep_test
