// Runs Catch2's session over this program's test cases (catch_session.cpp): the test mains call it
// without including Catch2.
#pragma once

int smemtile_run_catch(int argc, char* argv[]);
