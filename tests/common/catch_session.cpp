// Catch2's implementation (Catch::Session, reporters, matchers), compiled once by the host compiler and
// linked into every test executable of both variants; test_main.cu holds main() and calls in here.
// (In test_main.cu itself nvcc compiled it again for the GPU variant: 30 s of a core in CI.)
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_session.hpp"

int ringsweep_test::run_catch(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
