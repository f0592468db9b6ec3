#!/usr/bin/env bash
# What limits the benchmark cases that miss their targets: Nsight Compute's throughputs (DRAM, L2,
# L1, SM, as % of their peaks), DRAM bytes against the bytes the case must move, L1 sectors per
# global request, instructions and achieved occupancy, for the library's kernel and the peer that
# beats it, one launch each (NVBench --profile).
#
#   bash scripts/bench_limits.sh <build-dir> <out.md>
#
# The cases are the transposes and stencils that missed in docs/benchmarks.md (edit CASES below as
# they change). Clocks are left alone (--clock-control none). ~2 minutes on an H200.
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 <build-dir> <out.md>" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd) || exit 2
out_md=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
nvlib="$root/.nvbench/cuda/bench/cu13/nvbench/lib"
[ -d "$nvlib" ] && export LD_LIBRARY_PATH="$nvlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
# L2's parts: the fabric between its two halves (traffic an SM sends to, or reads from, the half
# that does not own the address) and its tag lookups (one per request); "L2 %" is the busiest part.
metrics+=,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed
metrics+=,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed

status=0
# profile <label> <kernel regex> <program> <NVBench args...>: one ncu run, its details as CSV.
profile() {
  local label=$1 regex=$2 exe=$3
  shift 3
  timeout 200 "$ncu" --clock-control none --metrics "$metrics" --kernel-name "regex:$regex" -f -o "$work/$label" \
    "$exe" --devices 0 --profile "$@" >"$work/$label.log" 2>&1 || { status=1; tail -n 5 "$work/$label.log"; }
  [ -f "$work/$label.ncu-rep" ] &&
    "$ncu" --import "$work/$label.ncu-rep" --csv --page details --print-kernel-base function >"$work/$label.csv"
}

# NVBench applies each -a to the -b before it. Transposes: the library's kernel on the missed large
# shapes; at 1024 x 1024, the library's, the course's and cuBLAS geam's kernels.
small=(-a "T=[F32,F64,C128]" -a "Shape=1024x1024")
profile t_big 'transpose_kernel' "$build/bench/transpose_bench" -b smemtile_transpose -a "T=[U8,U16,F32,C128]" \
  -a "Shape=[8192x8192,8191x8193]"
profile t_small 'transpose' "$build/bench/transpose_bench" -b smemtile_transpose "${small[@]}" \
  -b course_transpose "${small[@]}" -b cublas_geam "${small[@]}"
# The reference: the hand-written copy kernel (a round trip through shared memory, 16-byte vectors)
# that runs at about cudaMemcpy's speed, for what the units look like at the copy ceiling.
profile copy_ref 'raw_round_trip' "$build/bench/copy_bench" -b raw_round_trip -a "T=F32" -a "Loads=4"
# Stencils: the library's kernels on the missed cases, and the hand-written 2.5D sweep for radius 4.
profile s_miss 'stencil_|hand_2_5d' "$build/bench/stencil_bench" -b smemtile_stencil \
  -a "Case=[2D-5pt-F32-8192^2,2D-5pt-F64-8192^2,3D-r4-F32-512^3,3D-r4-F32-376^3]" \
  -b hand_2_5d -a "Case=[3D-r4-F32-512^3,3D-r4-F32-376^3]"

python3 - "$out_md" "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)" "$work"/*.csv <<'EOF'
import csv, io, sys
out_md, gpu, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
def num(x):
    try: return float(str(x).replace(",", ""))
    except ValueError: return None
rows = []
for path in paths:
    text = open(path).read()
    start = text.find('"ID"')
    if start < 0: continue
    kernels = {}
    for r in csv.DictReader(io.StringIO(text[start:])):
        k = kernels.setdefault(r["ID"], {"name": r["Kernel Name"], "grid": r.get("Grid Size", ""), "block": r.get("Block Size", "")})
        value = num(r["Metric Value"])
        unit = r.get("Metric Unit", "")
        if value is not None and unit in ("Kbyte", "Mbyte", "Gbyte", "byte"):
            value *= {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}[unit]
        if value is not None and unit in ("usecond", "msecond", "nsecond"):
            value *= {"nsecond": 1e-3, "usecond": 1, "msecond": 1e3}[unit]
        k[r["Metric Name"]] = value
    for kid, k in kernels.items():
        rows.append((path.split("/")[-1][:-4], kid, k))
md = [f"# What limits the missed cases: {gpu}", "",
      "Nsight Compute, one launch each (NVBench --profile, `bash scripts/bench_limits.sh`), in launch order "
      "(each state launches its kernel for the output check, then once more). Throughputs in % of peak "
      "(elapsed), L2's fabric between its halves and its tag lookups apart; DRAM read / write in MB; sectors per request: L1 sectors per global load / store request "
      "(4 = a warp's 128 aligned bytes); instructions executed (warp level, millions); occupancy: warps "
      "active in % of the SM's maximum.", "",
      "| run | kernel | grid x block | time us | DRAM % | L2 % | L2 fabric % | L2 tags % | L1 % | SM % | DRAM read MB | "
      "DRAM write MB | ld sectors/req | st sectors/req | instr M | occupancy % |",
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
def f(x, d=1):
    return "-" if x is None else f"{x:,.{d}f}"
for run, kid, k in rows:
    g = lambda m: k.get(m)
    ratio = lambda a, b: (g(a) / g(b)) if g(a) is not None and g(b) else None
    md.append(f"| {run} | {k['name'][:60]} | {k['grid']} x {k['block']} | {f(g('gpu__time_duration.sum'))} | "
              f"{f(g('dram__throughput.avg.pct_of_peak_sustained_elapsed'))} | "
              f"{f(g('lts__throughput.avg.pct_of_peak_sustained_elapsed'))} | "
              f"{f(g('lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed'))} | "
              f"{f(g('lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed'))} | "
              f"{f(g('l1tex__throughput.avg.pct_of_peak_sustained_elapsed'))} | "
              f"{f(g('sm__throughput.avg.pct_of_peak_sustained_elapsed'))} | "
              f"{f((g('dram__bytes_read.sum') or 0) / 1e6)} | {f((g('dram__bytes_write.sum') or 0) / 1e6)} | "
              f"{f(ratio('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum'), 2)} | "
              f"{f(ratio('l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum'), 2)} | "
              f"{f((g('smsp__inst_executed.sum') or 0) / 1e6, 2)} | "
              f"{f(g('sm__warps_active.avg.pct_of_peak_sustained_active'))} |")
open(out_md, "w").write("\n".join(md) + "\n")
print("\n".join(md))
EOF
exit $status
