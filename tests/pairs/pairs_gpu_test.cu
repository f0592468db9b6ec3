// tests/pairs/pairs_gpu_test.cu: every kernel pair of bench/pairs (issue 25), hand-written and with
// smemtile, on pseudo-random inputs (a fresh seed per run, printed on failure) and a few shapes,
// non-square ones included. For each: the outputs are poisoned (SGEMM's C, which it reads, is
// re-uploaded instead), the hand kernel runs, then (outputs poisoned again) the library kernel; both
// outputs must be equal bit for bit, every element, and within the pair's tolerance of the host
// reference (which does the same arithmetic in the same order, so the error is 0 in practice).
// Every CUDA call's status is checked. Without a GPU the program exits 77 (CTest: Skipped).
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "all_pairs.cuh"
#include "gpu_test.cuh"

namespace {

using pairs::Impl;

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
std::string show(const T& v) {
  std::ostringstream s;
  unsigned bits = 0;
  std::memcpy(&bits, &v, sizeof(bits) < sizeof(T) ? sizeof(bits) : sizeof(T));
  s << v << " (0x" << std::hex << bits << ")";
  return s.str();
}

template <class Instance>
std::vector<typename Instance::Output> run_one(Instance& instance, Impl impl) {
  std::vector<typename Instance::Output> out;
  REQUIRE_CUDA(instance.reset());
  REQUIRE_CUDA(cudaDeviceSynchronize());
  REQUIRE_CUDA(instance.run(impl));
  REQUIRE_LAUNCH_OK();
  REQUIRE_CUDA(instance.output(out));
  return out;
}

// Runs hand and lib on one instance and checks every element.
template <class Instance>
void check_pair(Instance& instance, unsigned seed) {
  INFO(Instance::name() << " " << instance.shape() << ", seed " << seed);
  REQUIRE_CUDA(instance.setup());
  const auto hand = run_one(instance, Impl::hand);
  const auto lib = run_one(instance, Impl::lib);
  const auto ref = instance.reference();
  REQUIRE(hand.size() == ref.size());
  REQUIRE(lib.size() == ref.size());

  std::size_t differ = 0, hand_off = 0, lib_off = 0;
  std::size_t first_differ = 0, first_hand_off = 0, first_lib_off = 0;
  const double tolerance = instance.tolerance();
  const auto off = [tolerance](double got, double want) {
    return !(std::fabs(got - want) <= tolerance);  // NaN (a poisoned element or worse) counts as off
  };
  for (std::size_t i = 0; i < ref.size(); ++i) {
    if (!same_bits(hand[i], lib[i]) && differ++ == 0) first_differ = i;
    if (off(static_cast<double>(hand[i]), static_cast<double>(ref[i])) && hand_off++ == 0) first_hand_off = i;
    if (off(static_cast<double>(lib[i]), static_cast<double>(ref[i])) && lib_off++ == 0) first_lib_off = i;
  }
  INFO(differ << " of " << ref.size() << " elements differ between hand and lib; first at " << first_differ
              << ": hand " << show(hand[first_differ]) << ", lib " << show(lib[first_differ]));
  INFO(hand_off << " hand elements off the reference by more than " << tolerance << "; first at " << first_hand_off
                << ": " << show(hand[first_hand_off]) << " vs " << show(ref[first_hand_off]));
  INFO(lib_off << " lib elements off the reference by more than " << tolerance << "; first at " << first_lib_off
               << ": " << show(lib[first_lib_off]) << " vs " << show(ref[first_lib_off]));
  CHECK(differ == 0);
  CHECK(hand_off == 0);
  CHECK(lib_off == 0);
}

}  // namespace

TEST_CASE("pairs: matmul_tiled<16>, hand and lib agree with the reference", "[pairs]") {
  const unsigned seed = smemtile_test::fresh_seed();
  for (const auto& s : {std::vector<int>{16, 16, 16}, {64, 48, 32}, {48, 112, 80}}) {
    pairs::matmul_tiled::Instance<16> instance(s[0], s[1], s[2], seed);
    check_pair(instance, seed);
  }
}

TEST_CASE("pairs: matmul_tiled<32>, hand and lib agree with the reference", "[pairs]") {
  const unsigned seed = smemtile_test::fresh_seed();
  for (const auto& s : {std::vector<int>{32, 32, 32}, {64, 96, 64}, {96, 32, 160}}) {
    pairs::matmul_tiled::Instance<32> instance(s[0], s[1], s[2], seed);
    check_pair(instance, seed);
  }
}

TEST_CASE("pairs: sgemm_regblock (A row-major), hand and lib agree with the reference", "[pairs]") {
  const unsigned seed = smemtile_test::fresh_seed();
  for (const auto& s : {std::vector<int>{128, 128, 8}, {256, 128, 64}, {128, 384, 40}}) {
    pairs::sgemm_regblock::Instance<false> instance(s[0], s[1], s[2], seed);
    check_pair(instance, seed);
  }
}

TEST_CASE("pairs: sgemm_regblock_kmajor (A k-major), hand and lib agree with the reference", "[pairs]") {
  const unsigned seed = smemtile_test::fresh_seed();
  for (const auto& s : {std::vector<int>{128, 128, 8}, {256, 128, 64}, {128, 384, 40}}) {
    pairs::sgemm_regblock::Instance<true> instance(s[0], s[1], s[2], seed);
    check_pair(instance, seed);
  }
}

TEST_CASE("pairs: bitonic_sort, hand and lib agree with the reference", "[pairs]") {
  const unsigned seed = smemtile_test::fresh_seed();
  for (int n : {1024, 3 * 1024, 37 * 1024}) {
    pairs::bitonic_sort::Instance instance(n, seed);
    check_pair(instance, seed);
  }
}

TEST_CASE("pairs: histogram256, hand and lib agree with the reference", "[pairs]") {
  const unsigned seed = smemtile_test::fresh_seed();
  // 4000 bytes: one block, part of its threads; 2^22 + 12: more words than the grid's threads
  for (int n : {4, 4000, 1 << 20, (1 << 22) + 12}) {
    pairs::histogram256::Instance instance(n, seed);
    check_pair(instance, seed);
  }
}

TEST_CASE("pairs: separable_conv_rows, hand and lib agree with the reference", "[pairs]") {
  const unsigned seed = smemtile_test::fresh_seed();
  for (const auto& s : {std::vector<int>{8, 128}, {16, 256}, {40, 384}}) {
    pairs::separable_conv::Instance<false> instance(s[0], s[1], seed);
    check_pair(instance, seed);
  }
}

TEST_CASE("pairs: separable_conv_cols, hand and lib agree with the reference", "[pairs]") {
  const unsigned seed = smemtile_test::fresh_seed();
  for (const auto& s : {std::vector<int>{32, 32}, {64, 96}, {96, 32}}) {
    pairs::separable_conv::Instance<true> instance(s[0], s[1], seed);
    check_pair(instance, seed);
  }
}

TEST_CASE("pairs: block_reduce, hand and lib agree with the reference", "[pairs]") {
  const unsigned seed = smemtile_test::fresh_seed();
  for (int n : {2048, 3 * 2048, 50 * 2048}) {
    pairs::block_reduce::Instance instance(n, seed);
    check_pair(instance, seed);
  }
}

TEST_CASE("pairs: transpose_tiled, hand and lib agree with the reference", "[pairs]") {
  const unsigned seed = smemtile_test::fresh_seed();
  for (const auto& s : {std::vector<int>{32, 32}, {64, 96}, {96, 32}}) {
    pairs::transpose_tiled::Instance instance(s[0], s[1], seed);
    check_pair(instance, seed);
  }
}
