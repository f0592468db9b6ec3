// GPU tests of debug bounds checks: with SMEMTILE_BOUNDS_CHECKS on, an out-of-range tile access
// prints "out of bounds" with the offending index and traps. A trap ruins the CUDA context, so the
// offending kernel runs in a child process: this program re-executes itself (/proc/self/exe) with
// the name of a hidden test case, and the parent checks the child's output and exit status.
#define SMEMTILE_BOUNDS_CHECKS 1  // on whatever the build type (release builds turn them off)
#include <smemtile/smemtile.cuh>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "gpu_test.cuh"

namespace {

using namespace smemtile_test;

// A 4 x 8 tile with one element of padding per row (36 ints of storage). Column 8 of row 1 is
// offset 17 and row 4 column 0 is offset 36: both are inside the block's shared memory, so without
// the check nothing would fault. Only the bounds check can catch them.
constexpr int tile_rows = 4, tile_cols = 8;

__global__ void write_and_read_tile(int row, int col, int value, int* out) {
  __shared__ smemtile::StaticTile<int, tile_rows, tile_cols, 1> tile;
  tile(row, col) = value;
  out[0] = tile(row, col);
}

// Runs the hidden test case `name` of this program in a child process; returns its exit status
// (-1 if it did not exit normally) and fills `output` with its stdout and stderr.
int run_child(const std::string& name, std::string& output) {
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  REQUIRE(length > 0);
  self[length] = '\0';
  const std::string command = std::string("'") + self + "' '" + name + "' 2>&1";
  FILE* child = popen(command.c_str(), "r");
  REQUIRE(child != nullptr);
  char buffer[512];
  while (std::fgets(buffer, sizeof(buffer), child) != nullptr) output += buffer;
  const int status = pclose(child);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void launch_and_sync(int row, int col) {
  DeviceBuffer<int> out(1);
  out.poison();
  write_and_read_tile<<<1, 1>>>(row, col, 7, out.get());
  REQUIRE_LAUNCH_OK();  // fails in the child when the check traps
}

}  // namespace

// Hidden ("[.]"): run only by name, in the child process the tests below start.
TEST_CASE("bounds child column past the end", "[.]") { launch_and_sync(1, tile_cols); }
TEST_CASE("bounds child row past the end", "[.]") { launch_and_sync(tile_rows, 0); }
TEST_CASE("bounds child negative column", "[.]") { launch_and_sync(2, -1); }

TEST_CASE("with bounds checks on, in-range accesses run normally") {
  for (int row = 0; row < tile_rows; ++row)
    for (int col = 0; col < tile_cols; col += tile_cols - 1) {  // first and last column
      INFO("tile(" << row << ", " << col << ")");
      DeviceBuffer<int> out(1);
      out.poison();
      write_and_read_tile<<<1, 1>>>(row, col, 100 * row + col, out.get());
      REQUIRE_LAUNCH_OK();
      REQUIRE(out.download()[0] == 100 * row + col);
    }
}

TEST_CASE("with bounds checks on, an out-of-range access traps and says out of bounds", "[death]") {
  struct Offence {
    const char* child;
    const char* values;  // (row, col, rows, cols) as the message prints them
  };
  const Offence offences[] = {
      {"bounds child column past the end", "(values: 1, 8, 4, 8)"},
      {"bounds child row past the end", "(values: 4, 0, 4, 8)"},
      {"bounds child negative column", "(values: 2, -1, 4, 8)"},
  };
  for (const Offence& offence : offences) {
    std::string output;
    const int status = run_child(offence.child, output);
    INFO(offence.child << ": exit status " << status << ", output:\n" << output);
    CHECK(status != 0);
    CHECK(output.find("out of bounds") != std::string::npos);
    CHECK(output.find(offence.values) != std::string::npos);
  }
}
