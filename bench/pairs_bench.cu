// bench/pairs_bench.cu: issue 25's kernel pairs (bench/pairs/*.cuh), each kernel written by hand and
// with smemtile, timed in one run.
//
//   pairs_interleaved  (axis Pair; Runs = 50) the measurement the issue's targets use: the hand and
//                      library kernels launched alternately, Runs times each (the order flipping every
//                      round), L2 flushed (a memset of twice its size) before every launch, each launch
//                      timed alone with CUDA events; prints one line per pair,
//                        pairs_bench: PAIR <pair> shape <shape> hand_us <median> lib_us <median>
//                        ratio <lib/hand> hand_regs <n> lib_regs <n> runs <n> gpu <name>
//                      (scripts/pairs_report.py turns these lines into a markdown table) and adds the
//                      same figures to the state's summaries (pairs/hand_median_us, pairs/lib_median_us,
//                      pairs/lib_over_hand, pairs/hand_regs, pairs/lib_regs). NVBench's own time for
//                      the state is one hand launch plus one lib launch.
//   pairs              (axes Pair, Impl = hand, lib) NVBench's usual cold measurement of one kernel,
//                      for its tables and noise figures (states of one pair are not interleaved).
// Before timing, each state runs both kernels once on the same input and exits with
// "pairs_bench: WRONG OUTPUT" unless their outputs are equal bit for bit (the GPU test,
// tests/pairs, checks them against host references on smaller shapes).
//
// Sizes (each launch takes well over 100 us on an H100): matrix products 4096^3, SGEMMs 4096^3,
// bitonic sort 2^24 floats, histogram 2^26 bytes, convolution passes 8192 x 8192, reduction 2^27
// floats, transpose 8192 x 8192.
#include <nvbench/nvbench.cuh>

#include <smemtile/smemtile.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define SMEMTILE_BENCH_NAME "pairs_bench"
#include "bench_common.cuh"
#include "pairs/all_pairs.cuh"

namespace {

using pairs::Impl;

const std::vector<std::string> pair_names = {
    "matmul_tiled<16>", "matmul_tiled<32>", "sgemm_regblock", "sgemm_regblock_kmajor", "bitonic_sort",
    "histogram256", "separable_conv_rows", "separable_conv_cols", "block_reduce", "transpose_tiled"};

constexpr unsigned bench_seed = 2025;

// Calls f(instance) with the pair's Instance at its benchmark size.
template <class F>
void with_instance(const std::string& pair, F&& f) {
  namespace p = pairs;
  if (pair == "matmul_tiled<16>") {
    p::matmul_tiled::Instance<16> i(4096, 4096, 4096, bench_seed);
    f(i);
  } else if (pair == "matmul_tiled<32>") {
    p::matmul_tiled::Instance<32> i(4096, 4096, 4096, bench_seed);
    f(i);
  } else if (pair == "sgemm_regblock") {
    p::sgemm_regblock::Instance<false> i(4096, 4096, 4096, bench_seed);
    f(i);
  } else if (pair == "sgemm_regblock_kmajor") {
    p::sgemm_regblock::Instance<true> i(4096, 4096, 4096, bench_seed);
    f(i);
  } else if (pair == "bitonic_sort") {
    p::bitonic_sort::Instance i(1 << 24, bench_seed);
    f(i);
  } else if (pair == "histogram256") {
    p::histogram256::Instance i(1 << 26, bench_seed);
    f(i);
  } else if (pair == "separable_conv_rows") {
    p::separable_conv::Instance<false> i(8192, 8192, bench_seed);
    f(i);
  } else if (pair == "separable_conv_cols") {
    p::separable_conv::Instance<true> i(8192, 8192, bench_seed);
    f(i);
  } else if (pair == "block_reduce") {
    p::block_reduce::Instance i(1 << 27, bench_seed);
    f(i);
  } else if (pair == "transpose_tiled") {
    p::transpose_tiled::Instance i(8192, 8192, bench_seed);
    f(i);
  } else {
    std::fprintf(stderr, "pairs_bench: unknown pair %s\n", pair.c_str());
    std::exit(EXIT_FAILURE);
  }
}

int registers(const void* kernel) {
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  return attributes.numRegs;
}

// Both kernels once on the same input; their outputs must be equal bit for bit.
template <class Instance>
void check_equal(Instance& instance) {
  std::vector<typename Instance::Output> hand, lib;
  CUDA_CHECK(instance.reset());
  CUDA_CHECK(instance.run(Impl::hand));
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(instance.output(hand));
  CUDA_CHECK(instance.reset());
  CUDA_CHECK(instance.run(Impl::lib));
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(instance.output(lib));
  if (hand.size() != lib.size() || std::memcmp(hand.data(), lib.data(), hand.size() * sizeof(hand[0])) != 0) {
    std::size_t first = 0;
    while (first < hand.size() && std::memcmp(&hand[first], &lib[first], sizeof(hand[0])) == 0) ++first;
    std::fprintf(stderr, "pairs_bench: WRONG OUTPUT from %s %s: hand and lib differ (first at element %zu)\n",
                 Instance::name().c_str(), instance.shape().c_str(), first);
    std::exit(EXIT_FAILURE);
  }
}

std::string gpu_name() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  return prop.name;
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void add_value(nvbench::state& state, const std::string& tag, const std::string& name, double value) {
  auto& summary = state.add_summary(tag);
  summary.set_string("name", name);
  summary.set_string("hint", "float64");
  summary.set_string("description", name);
  summary.set_float64("value", value);
}

void pairs_interleaved(nvbench::state& state) {
  print_device_once();
  const std::string pair = state.get_string("Pair");
  const int runs = static_cast<int>(state.get_int64("Runs"));
  with_instance(pair, [&](auto& instance) {
    CUDA_CHECK(instance.setup());
    check_equal(instance);
    // L2 flush: a memset of twice its size before every timed launch.
    int device = 0, l2_bytes = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
    const std::size_t flush_bytes = 2 * static_cast<std::size_t>(std::max(l2_bytes, 1 << 20));
    unsigned char* flush = device_alloc<unsigned char>(static_cast<long long>(flush_bytes));
    cudaStream_t stream = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::vector<cudaEvent_t> events(4 * static_cast<std::size_t>(runs));
    for (auto& e : events) CUDA_CHECK(cudaEventCreate(&e));
    for (int warm = 0; warm < 2; ++warm) {
      CUDA_CHECK(instance.run(Impl::hand, stream));
      CUDA_CHECK(instance.run(Impl::lib, stream));
    }
    for (int r = 0; r < runs; ++r) {
      for (int k = 0; k < 2; ++k) {
        const Impl impl = ((r + k) % 2 == 0) ? Impl::hand : Impl::lib;  // hand first in even rounds
        const std::size_t slot = 4 * static_cast<std::size_t>(r) + 2 * (impl == Impl::hand ? 0 : 1);
        CUDA_CHECK(cudaMemsetAsync(flush, r & 0xff, flush_bytes, stream));
        CUDA_CHECK(cudaEventRecord(events[slot], stream));
        CUDA_CHECK(instance.run(impl, stream));
        CUDA_CHECK(cudaEventRecord(events[slot + 1], stream));
      }
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<float> hand_ms(runs), lib_ms(runs);
    for (int r = 0; r < runs; ++r) {
      CUDA_CHECK(cudaEventElapsedTime(&hand_ms[r], events[4 * r], events[4 * r + 1]));
      CUDA_CHECK(cudaEventElapsedTime(&lib_ms[r], events[4 * r + 2], events[4 * r + 3]));
    }
    for (auto& e : events) CUDA_CHECK(cudaEventDestroy(e));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(flush));

    const double hand_us = 1000.0 * median(hand_ms), lib_us = 1000.0 * median(lib_ms);
    const int hand_regs = registers(instance.kernel_address(Impl::hand));
    const int lib_regs = registers(instance.kernel_address(Impl::lib));
    std::printf("pairs_bench: PAIR %s shape %s hand_us %.2f lib_us %.2f ratio %.4f hand_regs %d lib_regs %d runs %d "
                "gpu %s\n",
                pair.c_str(), instance.shape().c_str(), hand_us, lib_us, lib_us / hand_us, hand_regs, lib_regs, runs,
                gpu_name().c_str());
    std::fflush(stdout);
    add_value(state, "pairs/hand_median_us", "hand us (median)", hand_us);
    add_value(state, "pairs/lib_median_us", "lib us (median)", lib_us);
    add_value(state, "pairs/lib_over_hand", "lib / hand", lib_us / hand_us);
    add_value(state, "pairs/hand_regs", "hand regs", hand_regs);
    add_value(state, "pairs/lib_regs", "lib regs", lib_regs);

    state.exec(nvbench::exec_tag::no_batch, [&](nvbench::launch& launch) {
      instance.run(Impl::hand, launch.get_stream());
      instance.run(Impl::lib, launch.get_stream());
    });
  });
}

void pairs_single(nvbench::state& state) {
  print_device_once();
  const std::string pair = state.get_string("Pair");
  const Impl impl = state.get_string("Impl") == "lib" ? Impl::lib : Impl::hand;
  with_instance(pair, [&](auto& instance) {
    CUDA_CHECK(instance.setup());
    check_equal(instance);
    state.add_global_memory_reads<nvbench::uint8_t>(static_cast<std::size_t>(instance.bytes()));
    add_value(state, "pairs/regs", "regs", registers(instance.kernel_address(impl)));
    state.exec(nvbench::exec_tag::no_batch,
               [&](nvbench::launch& launch) { instance.run(impl, launch.get_stream()); });
  });
}

}  // namespace

NVBENCH_BENCH(pairs_interleaved).add_string_axis("Pair", pair_names).add_int64_axis("Runs", {50});
NVBENCH_BENCH(pairs_single).set_name("pairs").add_string_axis("Pair", pair_names).add_string_axis("Impl", {"hand", "lib"});
