// Hardware validation of smemtile's bank model (include/smemtile/core/banks.cuh).
//
// Builds a matrix of cases (element size x layout x access pattern x tile shape, plus probes of
// the 8/16-byte rules), computes the model's prediction for each on the host, and launches one
// kernel per case, bank_case<ID>, that performs exactly the case's shared-memory stores and loads.
// Run under Nsight Compute (scripts/bank_validation/run.sh does), the kernels' counters are then
// joined with the predictions by ID (compare.py).
//
// Each kernel is ONE warp. It replays every warp of the case's pattern in turn (the same lanes
// and addresses that warp would use), so each pattern warp becomes exactly one STS / LDS
// instruction with no other warp competing: instruction, wavefront and conflict counts are exact.
// Accesses are inline PTX (st/ld.shared.{u8,u16,u32,v2.u32,v4.u32}, volatile), so the compiler can
// neither drop, merge nor widen them. Addresses come from the library's layouts through the
// model's own pattern generators, so the hardware sees exactly what the model was asked about.
//
//   bank_validation --model model.csv      writes the predictions, runs every case once
//   bank_validation --model-only model.csv writes the predictions only (no GPU needed)
//   bank_validation --list                 prints the cases
#include <smemtile/core/conflict_free_tiles.cuh>
#include <smemtile/core/record_layout.cuh>  // record_chunk_slot

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"  // CUDA_CHECK (examples/common)

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

using namespace smemtile;


// ---- the device side ----------------------------------------------------------------------------

__device__ __forceinline__ void store_shared(int width, unsigned address, unsigned v) {
  switch (width) {
    case 1: asm volatile("st.shared.u8 [%0], %1;" ::"r"(address), "r"(v) : "memory"); break;
    case 2: asm volatile("st.shared.u16 [%0], %1;" ::"r"(address), "h"(static_cast<unsigned short>(v)) : "memory"); break;
    case 4: asm volatile("st.shared.u32 [%0], %1;" ::"r"(address), "r"(v) : "memory"); break;
    case 8: asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(address), "r"(v), "r"(v + 1) : "memory"); break;
    default:
      asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(address), "r"(v), "r"(v + 1), "r"(v + 2),
                   "r"(v + 3)
                   : "memory");
  }
}

__device__ __forceinline__ unsigned load_shared(int width, unsigned address) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  unsigned short h = 0;
  switch (width) {
    case 1: asm volatile("ld.shared.u8 %0, [%1];" : "=r"(a) : "r"(address) : "memory"); break;
    case 2: asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h) : "r"(address) : "memory"); a = h; break;
    case 4: asm volatile("ld.shared.u32 %0, [%1];" : "=r"(a) : "r"(address) : "memory"); break;
    case 8: asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "r"(address) : "memory"); break;
    default:
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                   : "r"(address)
                   : "memory");
  }
  return a ^ b ^ c ^ d;
}

// One kernel per case ID so that Nsight Compute names each case. Warps [0, store_warps) of
// `addresses`/`masks` are stores, the next load_warps are loads. out[32] gets the shared base.
template <int Id>
__global__ void bank_case(const unsigned* addresses, const unsigned* masks, int store_warps, int load_warps, int width,
                          unsigned* out) {
  extern __shared__ __align__(128) unsigned char smem[];
  const unsigned lane = threadIdx.x;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  unsigned acc = lane * 2654435761u;
  for (int w = 0; w < store_warps; ++w)
    if ((masks[w] >> lane) & 1u) store_shared(width, base + addresses[w * 32 + lane], acc + unsigned(w));
  __syncwarp();
  for (int w = store_warps; w < store_warps + load_warps; ++w)
    if ((masks[w] >> lane) & 1u) acc += load_shared(width, base + addresses[w * 32 + lane]);
  out[lane] = acc;
  if (lane == 0) out[32] = base;
}

// ---- the cases ----------------------------------------------------------------------------------

// A layout chosen at run time: padded (RuntimePaddedLayout) or one of the SwizzledLayout types.
struct CaseLayout {
  int rows_;
  int cols_;
  int pad_;                       // padded layouts
  int (*swizzled_offset)(int, int);  // swizzled layouts (nullptr: padded)
  int swizzled_storage;

  // __host__ __device__ only to match the generators' qualifiers; used on the host.
  __host__ __device__ int rows() const { return rows_; }
  __host__ __device__ int cols() const { return cols_; }
  __host__ __device__ int storage_size() const {
    return swizzled_offset ? swizzled_storage : RuntimePaddedLayout{rows_, cols_, pad_}.storage_size();
  }
  __host__ __device__ int offset(int r, int c) const {
    return swizzled_offset ? swizzled_offset(r, c) : RuntimePaddedLayout{rows_, cols_, pad_}.offset(r, c);
  }
};

template <int R, int C, int E>
CaseLayout swizzled() {
  return CaseLayout{R, C, 0, &SwizzledLayout<R, C, E>::offset, SwizzledLayout<R, C, E>::storage_size()};
}

// The swizzled layouts the matrix uses (shape x element size).
CaseLayout swizzled_layout(int rows, int cols, int elem) {
  if (rows == 32 && cols == 32) return elem == 4 ? swizzled<32, 32, 4>() : elem == 8 ? swizzled<32, 32, 8>() : swizzled<32, 32, 16>();
  if (rows == 16 && cols == 32) return elem == 4 ? swizzled<16, 32, 4>() : elem == 8 ? swizzled<16, 32, 8>() : swizzled<16, 32, 16>();
  std::fprintf(stderr, "no swizzled layout instantiated for %dx%d\n", rows, cols);
  std::exit(1);
}

struct Case {
  std::string name;
  int elem;
  int rows, cols;
  std::string layout;   // pad0, pad1, pad2, auto(pN), swizzle, or a probe's description
  std::string pattern;  // row, column, strided2, seed, or a probe
  unsigned shared_bytes;
  std::vector<WarpAccess> stores, loads;  // one entry per instruction (warps with an active lane)
};

void keep_active(std::vector<WarpAccess>& into, const WarpAccess& a) {
  if (a.active_mask != 0) into.push_back(a);
}

// All warps of `pattern` over `layout`, as stores and as loads.
void add_pattern(Case& c, const CaseLayout& layout) {
  const int warps_of_tile = (layout.rows() * layout.cols() + 31) / 32;
  for (int w = 0; w < warps_of_tile; ++w) {
    if (c.pattern == "row" || c.pattern == "column") {
      const Traversal t = c.pattern == "row" ? Traversal::row : Traversal::column;
      keep_active(c.stores, traversal_access(layout, c.elem, t, w, AccessOp::store));
      keep_active(c.loads, traversal_access(layout, c.elem, t, w, AccessOp::load));
    } else if (c.pattern == "strided2") {
      keep_active(c.stores, strided_access(layout, c.elem, 2, w, AccessOp::store));
      keep_active(c.loads, strided_access(layout, c.elem, 2, w, AccessOp::load));
    } else {  // seed: setRowReadCol, block (cols, rows): write tile[ty][tx], read tile[icol][irow]
      const BlockShape block{layout.cols(), layout.rows()};
      keep_active(c.stores, block_access(layout, c.elem, block, BlockMapping::thread_coord, w, AccessOp::store));
      keep_active(c.loads, block_access(layout, c.elem, block, BlockMapping::transposed_rank, w, AccessOp::load));
    }
  }
}

// Probes of the 8- and 16-byte rules: one store and one load of a hand-made warp access.
Case probe(const std::string& name, int elem, const std::string& what, unsigned mask, unsigned (*address)(int lane)) {
  Case c{name, elem, 0, 0, what, "probe", 4096, {}, {}};
  WarpAccess a{{}, mask, elem, AccessOp::store};
  for (int lane = 0; lane < 32; ++lane) a.byte_address[lane] = address(lane);
  c.stores.push_back(a);
  a.op = AccessOp::load;
  c.loads.push_back(a);
  return c;
}

std::vector<Case> build_cases() {
  std::vector<Case> cases;
  const int elems[] = {1, 2, 4, 8, 16};
  const int shapes[][2] = {{32, 32}, {16, 32}};
  for (const auto& shape : shapes) {
    const int rows = shape[0], cols = shape[1];
    // The square tile gets every pattern; the seeds' rectangle its row and column traversals.
    const std::vector<std::string> patterns =
        rows == cols ? std::vector<std::string>{"row", "column", "strided2", "seed"} : std::vector<std::string>{"row", "column"};
    for (int elem : elems) {
      std::vector<std::pair<std::string, CaseLayout>> layouts;
      for (int pad = 0; pad <= 2; ++pad) layouts.push_back({"pad" + std::to_string(pad), CaseLayout{rows, cols, pad, nullptr, 0}});
      const int auto_pad = smallest_conflict_free_pad(elem, rows, cols);
      if (auto_pad >= 0)
        layouts.push_back({"auto(pad" + std::to_string(auto_pad) + ")", CaseLayout{rows, cols, auto_pad, nullptr, 0}});
      if (elem >= 4) layouts.push_back({"swizzle", swizzled_layout(rows, cols, elem)});
      for (const auto& named : layouts)
        for (const auto& pattern : patterns) {
          Case c{"", elem, rows, cols, named.first, pattern, 0, {}, {}};
          c.name = std::to_string(rows) + "x" + std::to_string(cols) + "_e" + std::to_string(elem) + "_" + named.first + "_" + pattern;
          c.shared_bytes = unsigned(named.second.storage_size() * elem);
          add_pattern(c, named.second);
          cases.push_back(c);
        }
    }
  }
  // Where the simple rule could differ from the hardware.
  cases.push_back(probe("probe_e8_broadcast", 8, "all lanes one address", 0xffffffffu, [](int) { return 0u; }));
  cases.push_back(probe("probe_e16_broadcast", 16, "all lanes one address", 0xffffffffu, [](int) { return 0u; }));
  cases.push_back(probe("probe_e8_pairs", 8, "lane pairs share an address", 0xffffffffu, [](int l) { return unsigned(l / 2) * 8u; }));
  cases.push_back(probe("probe_e16_pairs", 16, "lane pairs share an address", 0xffffffffu, [](int l) { return unsigned(l / 2) * 16u; }));
  cases.push_back(probe("probe_e16_quads", 16, "lane quads share an address", 0xffffffffu, [](int l) { return unsigned(l / 4) * 16u; }));
  cases.push_back(probe("probe_e8_two_quarters", 8, "lanes 0-7 and 16-23 contiguous", 0x00ff00ffu,
                        [](int l) { return unsigned(l) * 8u; }));
  cases.push_back(probe("probe_e16_one_quarter_2way", 16, "lanes 8-15 2-way", 0x0000ff00u,
                        [](int l) { return unsigned(l % 2) * 128u + unsigned(l / 2) * 16u; }));
  cases.push_back(probe("probe_e4_two_words_each_16", 4, "16 lanes on each of words 0 and 32", 0xffffffffu,
                        [](int l) { return unsigned(l % 2) * 128u; }));
  cases.push_back(probe("probe_e1_same_word_bytes", 1, "4 lanes per word in 8 words of bank 0", 0xffffffffu,
                        [](int l) { return unsigned(l / 4) * 128u + unsigned(l % 4); }));
  // The narrow register kernels' stage (record_chunk_slot's XOR by segment, issue 21's channel groups
  // and words): lanes on chunk 5 of consecutive segments, and lanes on consecutive chunks. Nsight
  // Compute reported 7-15% extra wavefronts on kernels built on these (benchmark-limits.md).
  const auto staged = [](const char* name, const char* what, unsigned (*address)(int)) {
    Case c = probe(name, 16, what, 0xffffffffu, address);
    c.shared_bytes = 16384;
    return c;
  };
  cases.push_back(staged("probe_e16_segment_xor_k16_lanes", "lane l: chunk 5 of segment l, k = 16",
                         [](int l) { return unsigned(record_chunk_slot(l * 16 + 5, 16)) * 16u; }));
  cases.push_back(staged("probe_e16_segment_xor_k12_lanes", "lane l: chunk 5 of segment l, k = 12",
                         [](int l) { return unsigned(record_chunk_slot(l * 12 + 5, 12)) * 16u; }));
  cases.push_back(staged("probe_e16_segment_xor_k8_lanes", "lane l: chunk 5 of segment l, k = 8",
                         [](int l) { return unsigned(record_chunk_slot(l * 8 + 5, 8)) * 16u; }));
  cases.push_back(staged("probe_e16_segment_xor_k16_flat", "lane l: chunk 64 + l, k = 16",
                         [](int l) { return unsigned(record_chunk_slot(64 + l, 16)) * 16u; }));
  cases.push_back(staged("probe_e16_segment_xor_k12_flat", "lane l: chunk 64 + l, k = 12",
                         [](int l) { return unsigned(record_chunk_slot(64 + l, 12)) * 16u; }));
  return cases;
}

BankCost sum(const std::vector<WarpAccess>& accesses) {
  BankCost total{0, 0, 0, 0};
  for (const auto& a : accesses) total = total + bank_cost(a);
  return total;
}

// ---- launching ----------------------------------------------------------------------------------

constexpr int max_cases = 160;
using Kernel = void (*)(const unsigned*, const unsigned*, int, int, int, unsigned*);

template <int... Ids>
constexpr auto kernel_table(std::integer_sequence<int, Ids...>) {
  struct Table {
    Kernel k[sizeof...(Ids)];
  };
  return Table{{&bank_case<Ids>...}};
}

int main(int argc, char** argv) {
  const char* model_path = nullptr;
  bool list = false, run = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--model") && i + 1 < argc) model_path = argv[++i];
    else if (!std::strcmp(argv[i], "--model-only") && i + 1 < argc) model_path = argv[++i], run = false;
    else if (!std::strcmp(argv[i], "--list")) list = true;
    else {
      std::fprintf(stderr, "usage: bank_validation --model model.csv | --model-only model.csv | --list\n");
      return 2;
    }
  }
  const std::vector<Case> cases = build_cases();
  if (int(cases.size()) > max_cases) {
    std::fprintf(stderr, "%zu cases but only %d kernels instantiated: raise max_cases\n", cases.size(), max_cases);
    return 1;
  }
  if (list) {
    for (std::size_t i = 0; i < cases.size(); ++i) std::printf("%3zu %s\n", i, cases[i].name.c_str());
    return 0;
  }
  if (!model_path) {
    std::fprintf(stderr, "usage: bank_validation --model model.csv | --model-only model.csv | --list\n");
    return 2;
  }

  cudaDeviceProp prop{};
  if (run) CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  else std::strcpy(prop.name, "none (model only)");
  std::FILE* model = std::fopen(model_path, "w");
  if (!model) {
    std::fprintf(stderr, "cannot write %s\n", model_path);
    return 1;
  }
  std::fprintf(model, "# device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  std::fprintf(model,
               "case_id,name,elem_bytes,rows,cols,layout,pattern,st_requests,st_wavefronts,st_ideal,st_conflicts,"
               "ld_requests,ld_wavefronts,ld_ideal,ld_conflicts\n");

  static constexpr auto kernels = kernel_table(std::make_integer_sequence<int, max_cases>{});
  unsigned* out = nullptr;
  if (run) CUDA_CHECK(cudaMalloc(&out, 33 * sizeof(unsigned)));
  int misaligned = 0;
  for (std::size_t id = 0; id < cases.size(); ++id) {
    const Case& c = cases[id];
    const BankCost st = sum(c.stores), ld = sum(c.loads);
    std::string layout = c.layout;  // a CSV field: no commas
    for (char& ch : layout) ch = ch == ',' ? ';' : ch;
    std::fprintf(model, "%zu,%s,%d,%d,%d,%s,%s,%d,%d,%d,%d,%d,%d,%d,%d\n", id, c.name.c_str(), c.elem, c.rows, c.cols,
                 layout.c_str(), c.pattern.c_str(), st.requests, st.wavefronts, st.ideal_wavefronts, st.conflicts,
                 ld.requests, ld.wavefronts, ld.ideal_wavefronts, ld.conflicts);
    if (!run) continue;

    std::vector<unsigned> addresses, masks;
    for (const auto* group : {&c.stores, &c.loads})
      for (const WarpAccess& a : *group) {
        masks.push_back(a.active_mask);
        addresses.insert(addresses.end(), a.byte_address, a.byte_address + 32);
      }
    unsigned *d_addresses = nullptr, *d_masks = nullptr;
    CUDA_CHECK(cudaMalloc(&d_addresses, addresses.size() * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_masks, masks.size() * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_addresses, addresses.data(), addresses.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_masks, masks.data(), masks.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    kernels.k[id]<<<1, 32, c.shared_bytes>>>(d_addresses, d_masks, int(c.stores.size()), int(c.loads.size()), c.elem, out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    unsigned base = 0;
    CUDA_CHECK(cudaMemcpy(&base, out + 32, sizeof(unsigned), cudaMemcpyDeviceToHost));
    if (base % 128 != 0) {
      std::fprintf(stderr, "case %zu: shared base %u is not 128-byte aligned; the model assumes it is\n", id, base);
      misaligned = 1;
    }
    CUDA_CHECK(cudaFree(d_addresses));
    CUDA_CHECK(cudaFree(d_masks));
  }
  std::fclose(model);
  if (!run) return 0;
  CUDA_CHECK(cudaFree(out));
  std::fprintf(stderr, "bank_validation: %zu cases run on %s\n", cases.size(), prop.name);
  return misaligned;
}
