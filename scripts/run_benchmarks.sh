#!/usr/bin/env bash
# Runs every smemtile benchmark program of a build (bench/*.cu -> <build>/bench/<name>) with NVBench,
# then prints and writes the report (scripts/bench_report.py): GB/s per case and its ratio to
# cudaMemcpy measured in the same run, the GPU's name on top.
#
#   bash scripts/run_benchmarks.sh <build-dir> <out-dir>
#
# Writes to <out-dir>: <name>.json / .csv / .md (NVBench), <name>.log (stdout and stderr),
# benchmarks.md (the report's tables) and <name>.svg (ratio to cudaMemcpy per case; transpose.svg for
# transpose_bench, stencil.svg for stencil_bench).
# Environment:
#   SMEMTILE_BENCH_DEVICES   NVBench device ids (default 0: one GPU, whatever the machine has)
#   SMEMTILE_BENCH_ARGS      NVBench measurement options replacing the defaults below (every program)
# Exit status: 0 when every program ran and its output checks passed, else 1 (2: nothing to run).
# The GPU's clocks and persistence mode are left alone (no --lock-gpu-clocks, no --persistence-mode).
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 <build-dir> <out-dir>" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run_benchmarks: no build folder $1" >&2; exit 2; }
out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)

# NVBench's shared library (the executables' RPATH points there too, from the build tree).
nvlib="$root/.nvbench/cuda/bench/cu13/nvbench/lib"
[ -d "$nvlib" ] && export LD_LIBRARY_PATH="$nvlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# Measurement: cold runs only (each after an L2 flush), at least 20 samples, until the GPU time's
# relative noise is under 0.5% or stable (and 0.5 s of GPU time), at most 5 s wall per case.
# Every case moves 256 MiB each way, so one case is ~0.2 ms; ~21 cases take well under 2 minutes.
default_args=(--min-samples 20 --max-noise 0.5 --min-time 0.5 --timeout 5 --no-batch)
# transpose_bench has ~150 states (5 element types x 6 shapes x 6 implementations, some skipped),
# from 2 MiB to 2 GiB moved each: at least 10 samples, until the noise is under 1% and 0.05 s of GPU
# time, at most 1 s wall per state (well under 4 minutes in all).
light_args=(--min-samples 10 --max-noise 1 --min-time 0.05 --timeout 1 --no-batch)
# pairs_bench (30 states, 0.1 to ~30 ms a launch) takes them too: its figures are its own 50
# interleaved launches per pair, NVBench's measurement is secondary.
# stencil_bench has 266 states (19 cases; smemtile x 3 boundaries x 3 paths, naive x 3 boundaries,
# memcpy, smem_halo, hand_2_5d), about 190 run (2.5D is for 3D only, the stream for 2D only; a
# forced path is skipped where it is the selected path already), each moving 1 to 2 GiB (~0.5 ms): the same light options, at most ~1 s
# of measurement per state plus ~0.3 s of setup (allocation, random fill, reference and check):
# about 4 minutes.
if [ -n "${SMEMTILE_BENCH_ARGS:-}" ]; then
  read -r -a user_args <<<"$SMEMTILE_BENCH_ARGS"
fi
args_for() {  # the measurement options of program $1, into measure_args
  if [ -n "${SMEMTILE_BENCH_ARGS:-}" ]; then
    measure_args=("${user_args[@]}")
  elif [ "$1" = transpose_bench ] || [ "$1" = stencil_bench ] || [ "$1" = pairs_bench ] || [ "$1" = stencil_steps_bench ]; then
    measure_args=("${light_args[@]}")
  else
    measure_args=("${default_args[@]}")
  fi
}
devices=${SMEMTILE_BENCH_DEVICES:-0}

names=()
for src in "$root"/bench/*.cu; do
  [ -e "$src" ] && names+=("$(basename "$src" .cu)")
done
if [ ${#names[@]} -eq 0 ]; then
  echo "run_benchmarks: no bench/*.cu" >&2
  exit 2
fi

# Build what is missing or stale (a no-op after a full build). Targets exist only where bench/
# configured: CMake >= 3.30.4, CUDA::nvml and NVBench found (see bench/CMakeLists.txt).
echo "== build (${names[*]})"
if ! cmake --build "$build" --target "${names[@]}" -j "$(nproc)" >"$out/bench_build.log" 2>&1; then
  if grep -qiE "no rule to make target|unknown target" "$out/bench_build.log"; then
    echo "run_benchmarks: $build has no benchmark targets: bench/ was skipped when configuring" >&2
    echo "  (needs CMake >= 3.30.4, CUDA::nvml and NVBench in .nvbench/; see bench/README.md)" >&2
    exit 2
  fi
  tail -n 30 "$out/bench_build.log"
  echo "run_benchmarks: building the benchmarks failed (see $out/bench_build.log)" >&2
  exit 1
fi

status=0
results=()
for name in "${names[@]}"; do
  exe="$build/bench/$name"
  if [ ! -x "$exe" ]; then
    echo "run_benchmarks: $exe missing" >&2
    status=1
    continue
  fi
  rm -f "$out/$name.json" "$out/$name.csv" "$out/$name.md"
  args_for "$name"
  echo "== $name (devices $devices; ${measure_args[*]})"
  start=$(date +%s)
  "$exe" --devices "$devices" "${measure_args[@]}" \
    --json "$out/$name.json" --csv "$out/$name.csv" --md "$out/$name.md" >"$out/$name.log" 2>&1
  rc=$?
  echo "   rc=$rc, $(($(date +%s) - start)) s; log: $out/$name.log"
  grep -E "^$name: (GPU|WRONG)" "$out/$name.log" | head -n 3
  if [ $rc -ne 0 ]; then
    status=1
    tail -n 20 "$out/$name.log"
  fi
  # host_cost_bench is a plain program (host time per call, no NVBench options used): its table is its log.
  [ "$name" = host_cost_bench ] && [ $rc -eq 0 ] && cat "$out/$name.log"
  # pairs_bench (issue 25's kernel pairs) has its own report, from its log: scripts/pairs_report.py.
  # stencil_steps_bench has its own report too (scripts/steps_report.py, below).
  [ "$name" != pairs_bench ] && [ "$name" != stencil_steps_bench ] && [ -s "$out/$name.json" ] && results+=("$out/$name.json")
done

echo
if [ ${#results[@]} -gt 0 ] && ! command -v python3 >/dev/null; then
  echo "run_benchmarks: no python3 for the report; NVBench's own tables are in $out/*.md" >&2
  status=1
elif [ ${#results[@]} -gt 0 ]; then
  python3 "$root/scripts/bench_report.py" --out "$out" "${results[@]}" || status=1
else
  echo "run_benchmarks: no results to report" >&2
  status=1
fi
if [ -s "$out/pairs_bench.log" ] && command -v python3 >/dev/null; then
  # The pairs' table, with the SASS check's columns where CTest pairs:sass_hot_loops wrote them.
  sass_table="$build/tests/pairs/sass/pairs_sass.md"
  sass_args=()
  [ -s "$sass_table" ] && sass_args=(--sass "$sass_table")
  python3 "$root/scripts/pairs_report.py" "$out/pairs_bench.log" "${sass_args[@]}" --out "$out/pairs.md" || status=1
fi
if [ -s "$out/stencil_steps_bench.csv" ] && command -v python3 >/dev/null; then
  # Issue 26's time steps: per-step speed against the copy, by step count.
  python3 "$root/scripts/steps_report.py" "$out/stencil_steps_bench.csv" --out "$out/steps.md" --svg "$out/steps.svg" \
    >/dev/null || status=1
fi
if [ -s "$out/transpose_bench.csv" ] && command -v python3 >/dev/null; then
  # PyTorch's transpose copy on the same shapes, in the same run, where PyTorch is installed (a peer
  # of issue 21's table; absent PyTorch the table has no such column).
  python3 "$root/scripts/torch_transpose.py" >"$out/torch_transpose.csv" 2>"$out/torch_transpose.log" ||
    rm -f "$out/torch_transpose.csv"
fi
if command -v python3 >/dev/null && { [ -s "$out/stencil_bench.csv" ] || [ -s "$out/transpose_bench.csv" ]; }; then
  # The stencils by boundary and path, and the transposes' narrow and batch shapes.
  python3 "$root/scripts/axes_report.py" "$out" >"$out/axes.md" || status=1
fi
exit $status
