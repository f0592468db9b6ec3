// Catch2's session, compiled once for both test mains (host_test_main.cpp, gpu_test_main.cpp):
// Catch2 2 declares Catch::Session only beside its implementation, which belongs in one file.
#if defined(SMEMTILE_CATCH3)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include "catch_session.hpp"

int smemtile_run_catch(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
