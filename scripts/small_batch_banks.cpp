// Run: g++ -std=c++17 -O2 -Iinclude scripts/small_batch_banks.cpp -o /tmp/sbb && /tmp/sbb  (host only, no GPU)
// Bank-model cost of small_batch's shared accesses (host): the flat run stored into the record
// layout (load_records' chunk path: lane l writes the V elements of chunk l, one instruction per
// element e), and the output built by the cursor (lane l reads the V elements of output chunk l).
#include <smemtile/core/banks.cuh>
#include <smemtile/core/record_layout.cuh>
#include <cstdio>
#include <initializer_list>
using namespace smemtile;

struct Cost { double per_request; };

double store_side(int rows, int cols, int E) {
  const int V = 16 / E, P = record_pitch(cols, E);
  long long wave = 0, ideal = 0;
  for (int first = 0; first < 64; ++first)  // warps at chunk offsets 0, 32, ...
    for (int e = 0; e < V; ++e) {
      WarpAccess a{{}, ~0u, E, AccessOp::store};
      for (int l = 0; l < 32; ++l) {
        const int f = ((first * 32 + l) * V + e);
        const int r = f / cols, c = f % cols;
        a.byte_address[l] = static_cast<unsigned>(record_offset(r, c, P, E) * E);
      }
      const BankCost b = bank_cost(a);
      wave += b.wavefronts; ideal += b.ideal_wavefronts;
    }
  return double(wave) / ideal;
}

double load_side(int rows, int cols, int E) {
  const int V = 16 / E, P = record_pitch(cols, E), rc = rows * cols;
  long long wave = 0, ideal = 0;
  for (int first = 0; first < 64; ++first)
    for (int e = 0; e < V; ++e) {
      WarpAccess a{{}, ~0u, E, AccessOp::load};
      for (int l = 0; l < 32; ++l) {
        const int g = (first * 32 + l) * V + e;
        const int m = g / rc, rem = g % rc, j = rem / rows, i = rem % rows;
        a.byte_address[l] = static_cast<unsigned>(record_offset(m * rows + i, j, P, E) * E);
      }
      const BankCost b = bank_cost(a);
      wave += b.wavefronts; ideal += b.ideal_wavefronts;
    }
  return double(wave) / ideal;
}

int main() {
  const int shapes[][2] = {{8, 8}, {16, 16}, {32, 32}, {33, 31}, {64, 64}};
  std::printf("| matrix | E | elements per chunk | store into tile: wavefronts / ideal | read for output: wavefronts / ideal |\n|---|---|---|---|---|\n");
  for (int E : {1, 2, 4, 8})
    for (auto& s : shapes)
      std::printf("| %dx%d | %d | %d | %.2f | %.2f |\n", s[0], s[1], E, 16 / E, store_side(s[0], s[1], E), load_side(s[0], s[1], E));
}
