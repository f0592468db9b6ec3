// Includes Catch2's test macros, version 2 (single header, Debian's catch2 2.13) or 3.
#pragma once
#if defined(SMEMTILE_CATCH3)
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/catch_approx.hpp>
using Catch::Approx;  // Catch2 2 declares Approx globally
#else
#include <catch2/catch.hpp>
#endif
