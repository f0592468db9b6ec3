// Catch2's main for host tests.
#include "catch_session.hpp"

int main(int argc, char* argv[]) { return smemtile_run_catch(argc, argv); }
