// bank_map: where a tile's elements sit in the 32 shared-memory banks, and what one warp's access
// costs, according to smemtile's bank model (banks.cuh). Host-only, no GPU needed.
//
//   bank_map --elem-bytes B --rows R --cols C --pad P --access row|column [--json] [--svg FILE]
//
// The tile is R x C elements of B bytes, row-major with P unused elements after each row. The
// access is the first warp of a traversal: `row`: lane t reads element (t / C, t % C); `column`:
// lane t reads (t % R, t / R). The text output shows every stored element's bank, marks the
// elements the warp reads (and which of them conflict), lists the conflicting banks with their
// lanes, and ends with the wavefronts, the ideal and the conflicts. --json prints only one object
// with those numbers; --svg also draws the picture (banks coloured, conflicting words outlined).
#include <smemtile/core/conflict_free_tiles.cuh>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using smemtile::WarpAccess;

struct Options {
  int elem_bytes = 4;
  int rows = 32;
  int cols = 32;
  int pad = 0;
  smemtile::Traversal access = smemtile::Traversal::row;
  bool json = false;
  const char* svg_path = nullptr;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "bank_map: %s\nusage: bank_map --elem-bytes 1|2|4|8|16 --rows R --cols C --pad P "
               "--access row|column [--json] [--svg FILE]\n",
               why);
  std::exit(2);
}

int parse_int(const char* text, const char* flag, int min, int max) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < min || value > max) {
    std::fprintf(stderr, "bank_map: %s needs an integer in [%d, %d], got '%s'\n", flag, min, max, text);
    std::exit(2);
  }
  return static_cast<int>(value);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage(("missing value after " + flag).c_str());
      return argv[++i];
    };
    if (flag == "--elem-bytes") {
      o.elem_bytes = parse_int(value(), "--elem-bytes", 1, 16);
      if (!smemtile::detail::valid_width(o.elem_bytes)) usage("--elem-bytes must be 1, 2, 4, 8 or 16");
    } else if (flag == "--rows") {
      o.rows = parse_int(value(), "--rows", 1, 4096);
    } else if (flag == "--cols") {
      o.cols = parse_int(value(), "--cols", 1, 4096);
    } else if (flag == "--pad") {
      o.pad = parse_int(value(), "--pad", 0, 4096);
    } else if (flag == "--access") {
      const std::string a = value();
      if (a == "row") o.access = smemtile::Traversal::row;
      else if (a == "column") o.access = smemtile::Traversal::column;
      else usage("--access must be row or column");
    } else if (flag == "--json") {
      o.json = true;
    } else if (flag == "--svg") {
      o.svg_path = value();
    } else if (flag == "--help" || flag == "-h") {
      usage("help");
    } else {
      usage(("unknown argument " + flag).c_str());
    }
  }
  if (static_cast<long long>(o.rows) * (o.cols + o.pad) * o.elem_bytes > 228LL * 1024)
    usage("the tile is larger than a Hopper SM's shared memory (228 KB)");
  return o;
}

// Per stored element (padding included): which lane reads it (-1: none) and its conflict degree.
struct ElementUse {
  int lane = -1;
  int degree = 0;
};

int bank_of_element(const Options& o, long long element) {
  return static_cast<int>((element * o.elem_bytes / smemtile::bank_width_bytes) % smemtile::bank_count);
}

std::vector<ElementUse> element_uses(const Options& o, const WarpAccess& access) {
  std::vector<ElementUse> uses(static_cast<std::size_t>(o.rows) * (o.cols + o.pad));
  for (int lane = 0; lane < smemtile::warp_lanes; ++lane) {
    if (!access.active(lane)) continue;
    ElementUse& use = uses[access.byte_address[lane] / static_cast<unsigned>(o.elem_bytes)];
    if (use.lane < 0) use.lane = lane;  // the lowest lane names a broadcast element
    use.degree = smemtile::lane_conflict_degree(access, lane);
  }
  return uses;
}

void print_text(const Options& o, const WarpAccess& access, const smemtile::BankCost& cost,
                const std::vector<ElementUse>& uses) {
  const int stride = o.cols + o.pad;
  std::printf("tile %d x %d of %d-byte elements, pad %d (row stride %d elements = %d bytes); access: %s, "
              "first warp; %d lanes per phase\n",
              o.rows, o.cols, o.elem_bytes, o.pad, stride, stride * o.elem_bytes,
              o.access == smemtile::Traversal::row ? "row (lane t -> (t / C, t % C))"
                                                   : "column (lane t -> (t % R, t / R))",
              smemtile::phase_lanes(access));
  std::printf("bank of every stored element; 'p' marks padding, '*' an element the warp reads, "
              "'!' one whose bank conflicts\n");
  for (int r = 0; r < o.rows; ++r) {
    std::printf("row %3d:", r);
    for (int c = 0; c < stride; ++c) {
      const long long element = static_cast<long long>(r) * stride + c;
      const ElementUse& use = uses[static_cast<std::size_t>(element)];
      const char mark = c >= o.cols ? 'p' : use.lane < 0 ? ' ' : use.degree > 1 ? '!' : '*';
      std::printf(" %2d%c", bank_of_element(o, element), mark);
    }
    std::printf("\n");
  }
  // Conflicting banks per phase, with their lanes.
  const int phase = smemtile::phase_lanes(access);
  bool any = false;
  for (int first = 0; first < smemtile::warp_lanes; first += phase) {
    for (int bank = 0; bank < smemtile::bank_count; ++bank) {
      const int words = smemtile::distinct_words_in_bank(access, first, phase, bank);
      if (words < 2) continue;
      any = true;
      std::printf("lanes %d-%d, bank %2d: %d distinct words (%d-way), lanes", first, first + phase - 1, bank, words,
                  words);
      for (int lane = first; lane < first + phase; ++lane) {
        if (!access.active(lane)) continue;
        const unsigned word = access.byte_address[lane] / 4u;
        const int lane_words = access.width_bytes > 4 ? access.width_bytes / 4 : 1;
        bool touches = false;
        for (int w = 0; w < lane_words; ++w) touches = touches || int((word + unsigned(w)) % 32u) == bank;
        if (touches) std::printf(" %d", lane);
      }
      std::printf("\n");
    }
  }
  if (!any) std::printf("no bank conflicts\n");
  std::printf("wavefronts %d, ideal %d, conflicts %d\n", cost.wavefronts, cost.ideal_wavefronts, cost.conflicts);
}

void write_svg(const Options& o, const smemtile::BankCost& cost, const std::vector<ElementUse>& uses) {
  std::FILE* f = std::fopen(o.svg_path, "w");
  if (!f) {
    std::fprintf(stderr, "bank_map: cannot write %s\n", o.svg_path);
    std::exit(1);
  }
  const int stride = o.cols + o.pad;
  const int cell = 26, margin = 40, header = 54, right_margin = 20, title_font_size = 12;
  char title[256], legend[256];
  std::snprintf(title, sizeof title, "%d x %d tile, %d-byte elements, pad %d, %s access of the first warp", o.rows,
                o.cols, o.elem_bytes, o.pad, o.access == smemtile::Traversal::row ? "row" : "column");
  std::snprintf(legend, sizeof legend,
                "wavefronts %d, ideal %d, conflicts %d. Colour: bank; number: bank (top), reading lane (bottom); "
                "red outline: conflicting word; grey: padding",
                cost.wavefronts, cost.ideal_wavefronts, cost.conflicts);
  // The picture is as wide as the grid or its widest text line, whichever is wider. The font is
  // monospace, whose characters advance 0.6 em (DejaVu Sans Mono, Liberation Mono, Courier);
  // 0.62 em leaves room for fonts a little wider.
  auto text_width = [](const char* text, int font_size) {
    return static_cast<int>(std::strlen(text) * static_cast<std::size_t>(font_size) * 62 / 100) + 1;
  };
  int width = margin + stride * cell + right_margin;
  for (const char* line : {title, legend}) {
    const int needed = margin + text_width(line, title_font_size) + right_margin;
    width = needed > width ? needed : width;
  }
  const int height = header + o.rows * cell + 40;
  std::fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  std::fprintf(f,
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"monospace\" font-size=\"9\">\n",
               width, height, width, height);
  std::fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  std::fprintf(f, "<text x=\"%d\" y=\"16\" font-size=\"%d\">%s</text>\n", margin, title_font_size, title);
  std::fprintf(f, "<text x=\"%d\" y=\"32\" font-size=\"%d\">%s</text>\n", margin, title_font_size, legend);
  for (int c = 0; c < stride; ++c)
    std::fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", margin + c * cell + cell / 2,
                 header - 4, c);
  for (int r = 0; r < o.rows; ++r) {
    std::fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>\n", margin - 4,
                 header + r * cell + cell / 2 + 3, r);
    for (int c = 0; c < stride; ++c) {
      const long long element = static_cast<long long>(r) * stride + c;
      const ElementUse& use = uses[static_cast<std::size_t>(element)];
      const int bank = bank_of_element(o, element);
      const int x = margin + c * cell, y = header + r * cell;
      // Hue per bank, so equal colours are equal banks (as in the textbook's figures).
      const bool padding = c >= o.cols;
      std::fprintf(f,
                   "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                   "fill-opacity=\"%s\" stroke=\"#555\" stroke-width=\"0.5\"><title>(%d, %d) bank %d%s</title></rect>\n",
                   x, y, cell, cell,
                   padding ? "#bbbbbb" : ("hsl(" + std::to_string(bank * 360 / 32) + ",70%,60%)").c_str(),
                   use.lane >= 0 ? "1" : "0.35", r, c, bank, padding ? " (padding)" : "");
      std::fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x + cell / 2, y + 10, bank);
      if (use.lane >= 0)
        std::fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">t%d</text>\n",
                     x + cell / 2, y + 21, use.lane);
      if (use.degree > 1)
        std::fprintf(f,
                     "<rect class=\"conflict\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                     "stroke=\"red\" stroke-width=\"2.5\"><title>%d-way conflict</title></rect>\n",
                     x + 1, y + 1, cell - 2, cell - 2, use.degree);
    }
  }
  std::fprintf(f, "</svg>\n");
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const smemtile::RuntimePaddedLayout layout{o.rows, o.cols, o.pad};
  const WarpAccess access = smemtile::traversal_access(layout, o.elem_bytes, o.access);
  const smemtile::BankCost cost = smemtile::bank_cost(access);
  const std::vector<ElementUse> uses = element_uses(o, access);
  if (o.json) {
    std::printf("{\"elem_bytes\": %d, \"rows\": %d, \"cols\": %d, \"pad\": %d, \"access\": \"%s\", "
                "\"wavefronts\": %d, \"ideal_wavefronts\": %d, \"conflicts\": %d}\n",
                o.elem_bytes, o.rows, o.cols, o.pad, o.access == smemtile::Traversal::row ? "row" : "column",
                cost.wavefronts, cost.ideal_wavefronts, cost.conflicts);
  } else {
    print_text(o, access, cost, uses);
  }
  if (o.svg_path) write_svg(o, cost, uses);
  return 0;
}
