#!/usr/bin/env bash
# Shared-memory bank conflicts and DRAM throughput of the library's benchmark kernels, measured by
# Nsight Compute on one launch each: smemtile_round_trip (copy_bench, every element type and tile
# height), smemtile::detail::transpose_kernel (transpose_bench, every element size, 8192 x 8192, and
# the bytes, halves and floats kernels of 8191 x 8193) and
# device_stencil's smemtile::detail::stencil_{1,2,3}d_kernel (stencil_bench, one float case per rank:
# 1D 3-point 2^28, 2D 5-point 8192^2, 3D 7-point 512^3).
#
#   bash scripts/bench_bank_conflicts.sh <build-dir> <out.md>
#
# Runs each benchmark program once under ncu with NVBench's --profile (each state run once, no
# timing loops), restricted with -b / -a to the smemtile states, and ncu's --kernel-name filter to
# the library's kernels; each state launches its kernel twice (the output check, then the run), the
# table keeps the first launch of each kernel.
#
# Bank conflicts are counted as Nsight Compute's Source view does, per SASS instruction: the shared
# wavefronts each load and store took beyond the fewest its active lanes' bytes need ("L1
# Wavefronts Shared Excessive", SourceCounters section). The table also shows the SM-wide hardware
# counters (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}): they count as conflicts
# every data-stage wavefront no shared instruction accounts for (their wavefronts minus the
# instructions', exactly), which the shared memory's other users (the L1 cache's fills, TMA and
# cp.async writes into the tiles) cause, not the kernels' access patterns.
#
# Writes a markdown table (kernel, element type, shared wavefronts, ideal, excessive, the hardware
# counters, DRAM % of peak) to out.md and prints it; the last line is "N kernels, M with bank
# conflicts" (excessive wavefronts). Exit status: 0 when every kernel was measured, 1 when
# something failed, 2 when ncu or the programs are missing. ~2 minutes on an H200 (each of the
# three ncu runs is capped at 120 s).
# Environment: NCU (ncu's path). ncu needs the GPU's performance counters (root, or
# NVreg_RestrictProfilingToAdminUsers=0). Clocks are left alone (--clock-control none).
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 <build-dir> <out.md>" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "bench_bank_conflicts: no build folder $1" >&2; echo "0 kernels, 0 with bank conflicts (no build folder)"; exit 2; }
out_md=$2
mkdir -p "$(dirname "$out_md")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

find_ncu() {
  if [ -n "${NCU:-}" ]; then echo "$NCU"; return; fi
  if command -v ncu >/dev/null 2>&1; then command -v ncu; return; fi
  for dir in /usr/local/cuda/bin /usr/local/cuda/nsight-compute*/ /opt/nvidia/nsight-compute/*/; do
    if [ -x "$dir/ncu" ]; then echo "$dir/ncu"; return; fi
  done
}
ncu=$(find_ncu)
if [ -z "$ncu" ]; then
  echo "bench_bank_conflicts: ncu not found (set NCU)" >&2
  echo "0 kernels, 0 with bank conflicts (no ncu)"
  exit 2
fi

nvlib="$root/.nvbench/cuda/bench/cu13/nvbench/lib"
[ -d "$nvlib" ] && export LD_LIBRARY_PATH="$nvlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# Build what is missing (a no-op after run_benchmarks.sh).
cmake --build "$build" --target copy_bench transpose_bench stencil_bench -j "$(nproc)" >"$work/build.log" 2>&1 ||
  { tail -n 5 "$work/build.log"; echo "bench_bank_conflicts: building the benchmarks failed; profiling what exists"; } >&2

metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed

status=0
csvs=()
# profile <label> <kernel regex> <program> <NVBench args...>
profile() {
  local label=$1 regex=$2 exe=$3
  shift 3
  if [ ! -x "$exe" ]; then
    echo "bench_bank_conflicts: $exe missing" >&2
    status=1
    return
  fi
  local start=$SECONDS
  # --profile: every selected state once, no warm-up or timing loops. ncu's own limit keeps the
  # whole script near a minute even if something hangs.
  timeout 120 "$ncu" --clock-control none --section SourceCounters --metrics "$metrics" --kernel-name "regex:$regex" \
    -f -o "$work/$label" "$exe" --devices 0 --profile "$@" >"$work/$label.log" 2>&1
  local rc=$?
  echo "== $label: ncu rc=$rc, $((SECONDS - start)) s"
  if [ $rc -ne 0 ]; then
    status=1
    tail -n 15 "$work/$label.log"
  fi
  grep -E "WRONG OUTPUT" "$work/$label.log"
  if [ -f "$work/$label.ncu-rep" ]; then
    "$ncu" --import "$work/$label.ncu-rep" --csv --page details --print-kernel-base demangled \
      >"$work/$label.csv" 2>"$work/$label.import.log" || { status=1; tail -n 5 "$work/$label.import.log"; }
    # Per SASS instruction: shared wavefronts, ideal and excessive (the Source view's columns).
    "$ncu" --import "$work/$label.ncu-rep" --csv --page source --print-source sass --print-kernel-base demangled \
      >"$work/$label.source.csv" 2>>"$work/$label.import.log" || { status=1; tail -n 5 "$work/$label.import.log"; }
    csvs+=("$work/$label.csv")
  fi
}

# copy_bench: every smemtile_round_trip state (5 element types x Loads 4 and 8, 256 MiB).
profile copy '^smemtile_round_trip$' "$build/bench/copy_bench" -b smemtile_round_trip
# transpose_bench: smemtile_transpose at 8192 x 8192, every element type.
profile transpose '^transpose_kernel$' "$build/bench/transpose_bench" -b smemtile_transpose -a Shape=8192x8192
# ... and at 8191 x 8193 the kernels only odd shapes use (word tiles of bytes, padded tiles of halves
# and floats in sector runs; 8- and 16-byte elements take the kernels above at every shape).
profile transpose_odd '^transpose_kernel$' "$build/bench/transpose_bench" -b smemtile_transpose \
  -a "T=[U8,U16,F32]" -a Shape=8191x8193
# stencil_bench: device_stencil, one float case per rank (each state: its output check, then one run).
profile stencil '^stencil_[123]d_kernel$' "$build/bench/stencil_bench" -b smemtile_stencil \
  -a "Case=[1D-3pt-F32-2^28,2D-5pt-F32-8192^2,3D-7pt-F32-512^3]"

python3 - "$out_md" "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)" "${csvs[@]}" <<'EOF'
import csv, io, re, sys

out_md, gpu, paths = sys.argv[1], sys.argv[2] or "unknown GPU", sys.argv[3:]
COUNTERS = [("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "load"),
            ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "store")]
DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
C_TYPES = {"unsigned char": "U8 (1 B)", "short": "I16 (2 B)", "float": "F32 (4 B)", "double": "F64 (8 B)",
           "Bytes16": "B16 (16 B)"}

def number(text):
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return None

def key(name):
    """A kernel's name without namespaces, casts, spaces or parameters: the details and source
    pages spell the same kernel differently."""
    name = re.sub(r"\b[A-Za-z_]\w*::", "", name)
    name = re.sub(r"\(\w+\)(?=-?\d)", "", name)
    name = re.sub(r"\s+", "", name)
    depth = 0
    for i, c in enumerate(name):  # cut at the parameter list: the first '(' outside <...>
        depth += c == "<"
        depth -= c == ">"
        if c == "(" and depth == 0:
            return name[:i]
    return name

def describe(full):
    """(kernel, element type) from a demangled name such as
    'void <unnamed>::smemtile_round_trip<float, 32>(const T1 *, T1 *, int, int)'."""
    full = re.sub(r"\(anonymous namespace\)::|<unnamed>::|^\s*void\s+", "", full)
    m = re.search(r"(\w+)\s*<(.*)>\s*\(", full)
    if not m:
        return full.split("(")[0].split("::")[-1], "?"
    name, args = m.group(1), re.sub(r"\(anonymous namespace\)::|<unnamed>::|smemtile::detail::|smemtile::", "", m.group(2))
    parts = [p.strip() for p in args.split(",")]
    if name.startswith("stencil_") and len(parts) >= 5:  # <Radius, Shape, T, Boundary, Op>
        shape = parts[1].replace("StencilShape::", "").replace("(StencilShape)0", "star").replace("(StencilShape)1", "box")
        shape = {"0": "star", "1": "box"}.get(shape, shape)
        return name, f"{C_TYPES.get(parts[2], parts[2])}, radius {parts[0]} {shape}, {parts[4]}, {parts[3]}"
    bits = re.search(r"ElementBits<(\d+),\s*(\d+)>\s*$", args.strip())
    if bits:
        tile = re.search(r"(TransposeLayout|PaddedLayout|WordTransposeLayout)<([^>]*)>", args)
        return name, f"{bits.group(1)}-byte elements" + (f", {tile.group(1)}<{tile.group(2)}>" if tile else "")
    if parts and parts[0] in C_TYPES:
        kind = C_TYPES[parts[0]]
        return name, kind + (f", {parts[1]}-row tiles" if len(parts) > 1 else "")
    return name, args

def source_wavefronts(path):
    """{kernel key: (wavefronts, ideal, excessive)} summed over the SASS instructions of the first
    listing of each kernel in an `ncu --page source --csv` export."""
    result = {}
    try:
        rows = list(csv.reader(open(path, errors="replace")))
    except OSError:
        return result
    i = 0
    while i < len(rows):
        if not (rows[i] and rows[i][0] == "Kernel Name" and len(rows[i]) > 1 and i + 1 < len(rows)):
            i += 1
            continue
        name, header = key(rows[i][1]), rows[i + 1]
        i += 2
        col = {h: k for k, h in enumerate(header)}
        sums = [0.0, 0.0, 0.0]
        found = all(h in col for h in ("L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal",
                                       "L1 Wavefronts Shared Excessive"))
        while i < len(rows) and not (rows[i] and rows[i][0] == "Kernel Name"):
            row = rows[i]
            i += 1
            if not found or len(row) < len(header):
                continue
            for k, h in enumerate(("L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal", "L1 Wavefronts Shared Excessive")):
                sums[k] += number(row[col[h]]) or 0.0
        if found and name not in result:
            result[name] = tuple(sums)
    return result

kernels = {}  # (file, full name) -> {metric: value}, first launch (lowest ID) of each kernel
sources = {}  # kernel key -> (wavefronts, ideal, excessive)
for path in paths:
    sources.update(source_wavefronts(path[:-len(".csv")] + ".source.csv"))
    try:
        text = open(path).read()
    except OSError:
        continue
    lines = text.splitlines(True)
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        continue
    first_id = {}
    rows = list(csv.DictReader(io.StringIO("".join(lines[start:]))))
    for row in rows:
        name = row.get("Kernel Name", "?")
        kid = int(number(row.get("ID")) or 0)
        first_id[name] = min(first_id.get(name, kid), kid)
    for row in rows:
        name = row.get("Kernel Name", "?")
        if int(number(row.get("ID")) or 0) != first_id[name]:
            continue
        metric = row.get("Metric Name")
        if metric in dict(COUNTERS) or metric == DRAM:
            kernels.setdefault((path, name), {})[metric] = number(row.get("Metric Value"))

md = [f"# Bank conflicts of the benchmark kernels: {gpu}", "",
      "Nsight Compute, one launch per kernel (NVBench --profile; the smemtile states: copy_bench's round trips, "
      "transpose_bench at 8192x8192 and, for the kernels only odd shapes use, 8191x8193; stencil_bench's device_stencil kernels, one float case per rank). "
      "Bank conflicts as the Source view counts them, summed over the kernel's SASS instructions: shared-memory "
      "wavefronts (loads and stores), the fewest the instructions' active lanes need (ideal), and the excess "
      "(L1 Wavefronts Shared Excessive; SourceCounters section). The SM-wide hardware counters "
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum are shown too: they also count the data-stage "
      "wavefronts that no shared instruction issued (the L1 cache's fills, TMA and cp.async writes sharing the "
      "banks). DRAM: dram__throughput.avg.pct_of_peak_sustained_elapsed.", "",
      "| kernel | type | shared wavefronts | ideal | excessive (bank conflicts) | hardware counter: load / store | DRAM % of peak |",
      "|---|---|---:|---:|---:|---:|---:|"]
with_conflicts = missing = 0
for (path, full), values in kernels.items():
    kernel, kind = describe(full)
    src = sources.get(key(full))
    if src is None:
        missing += 1
        cells = ["n/a", "n/a", "n/a"]
    else:
        cells = [f"{src[0]:,.0f}", f"{src[1]:,.0f}", f"{src[2]:,.0f}"]
        with_conflicts += src[2] > 0
    hw = [values.get(m) for m, _ in COUNTERS]
    cells.append(" / ".join("n/a" if v is None else f"{v:,.0f}" for v in hw))
    dram = values.get(DRAM)
    cells.append("n/a" if dram is None else f"{dram:.1f}")
    md.append(f"| {kernel} | {kind} | " + " | ".join(cells) + " |")
if not kernels:
    md.append("| (no kernel measured) | | | | | | |")
md.append("")
with open(out_md, "w") as f:
    f.write("\n".join(md) + "\n")
print("\n".join(md))
print(f"{len(kernels)} kernels, {with_conflicts} with bank conflicts" +
      (f", {missing} without source counters" if missing else ""))
sys.exit(0 if kernels and not missing else 1)
EOF
py=$?
[ $py -ne 0 ] && status=1
exit $status
