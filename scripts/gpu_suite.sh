#!/usr/bin/env bash
# The whole GPU suite in one command, for a machine with a GPU and the CUDA toolkit but possibly no
# package registry: configures and builds (the `gpu` preset of CMakePresets.json: Release), runs
# every test (the `gpu` test preset; none may be skipped there), the examples, compute-sanitizer on
# the GPU tests, and the bank-model validation against Nsight Compute; prints a short summary table
# last. Logs go to $OUT (or gpu-out/). What to configure lives in the presets; this script keeps
# what CMake cannot do (the sanitizer loop, the tools' runs, the summary).
#
#   bash scripts/gpu_suite.sh            # everything
#   bash scripts/gpu_suite.sh -L stencil # arguments go to ctest: here only the tests labelled stencil
#                                        # (labels: README, "Set up"); the rest of the suite as usual
#   SMEMTILE_SKIP_NCU=1 bash scripts/gpu_suite.sh         # without the Nsight Compute runs
#   SMEMTILE_SKIP_SANITIZERS=1 bash scripts/gpu_suite.sh  # without compute-sanitizer
#   SMEMTILE_SKIP_BENCH=1 bash scripts/gpu_suite.sh       # without the NVBench benchmarks
#   SMEMTILE_ONLY_SANITIZERS=1 SMEMTILE_SKIP_BENCH=1 SMEMTILE_SKIP_NCU=1 bash scripts/gpu_suite.sh
#                                                         # build, then compute-sanitizer only
#   SMEMTILE_ONLY_BENCH=1 bash scripts/gpu_suite.sh       # the `bench` preset: the library's
#                                                         # benchmarks only (no tests, examples or
#                                                         # sanitizers), then NVBench and the
#                                                         # benchmark kernels' ncu
#   SMEMTILE_GPU_BUILD=<dir>  the build folder (default build-gpu/, the preset's)
#   SMEMTILE_BUILD_ONLY=1     configure and build, nothing else (a cold build of everything takes most
#                             of a 600 s call on 16 cores: build in one call, test in the next)
#
# One device call runs at most 600 s: on a cold machine the build, tests and examples take about
# 5 minutes and the benchmarks 4 more, so run them as two calls (SMEMTILE_SKIP_BENCH=1, then
# SMEMTILE_ONLY_BENCH=1 on the same warm machine, whose build folder is kept).
#
# The device tool brings back at most 8 files from $OUT: everything is written to gpu-out/ and
# packed into $OUT/gpu-out.tgz at the end, beside summary.txt and the benchmark report.
#
# compute-sanitizer runs memcheck, racecheck, synccheck and initcheck over every GPU test program;
# each tool's result per program is a line of the summary.
#
# Catch2: Debian's package file carried in .deps/ (apt-get download catch2 there, on a machine with
# the registry), unpacked with dpkg -x; or, with SMEMTILE_CATCH2=system or no file, the system's.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=$root/gpu-out
rm -rf "$out"
mkdir -p "$out"
build=${SMEMTILE_GPU_BUILD:-$root/build-gpu}
jobs=$(nproc)
summary=()
note() { summary+=("$(printf '%-34s %s' "$1" "$2")"); }
# A device call that reaches its time limit (e.g. `timeout 570 bash scripts/gpu_suite.sh`) still
# brings back what gpu-out holds: the long steps run in the background so that TERM is handled
# at once, and the handler packs gpu-out and prints the tail of the step it stopped.
pack() { [ -n "${OUT:-}" ] && tar czf "$OUT/gpu-out.tgz" -C "$root" gpu-out; }
trap 'echo "== stopped by a signal: gpu-out packed as it was"; tail -n 25 "$out"/ctest.log "$out"/build.log 2>/dev/null;
      pack; exit 124' TERM INT
in_background() { "$@" & wait $!; }

echo "== device"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
nvcc --version | tail -1; cmake --version | head -1

# Catch2: Debian's package file carried in .deps/, unpacked with dpkg -x into the build folder (the
# GPU machine has no package registry; not into .deps/, which the next device call's carry replaces:
# the warm build would then reconfigure with another Catch2 and rebuild everything);
# SMEMTILE_CATCH2=system uses whatever Catch2 CMake finds instead.
catch_args=()
preset=gpu
if [ -n "${SMEMTILE_ONLY_BENCH:-}" ]; then  # a second GPU's numbers: no tests to build or run
  preset=bench
  export SMEMTILE_ONLY_SANITIZERS=1 SMEMTILE_SKIP_SANITIZERS=1 SMEMTILE_SKIP_BANK_VALIDATION=1
fi
deb=$(ls "$root"/.deps/catch2_*.deb 2>/dev/null | head -n 1)
if [ "${SMEMTILE_CATCH2:-deb}" = deb ] && [ -n "$deb" ]; then
  mkdir -p "$build/catch2" && dpkg -x "$deb" "$build/catch2"
  catch_args=("-DCatch2_DIR=$build/catch2/usr/lib/cmake/Catch2")
fi

echo "== configure and build ($jobs jobs)"
if cmake --preset "$preset" -B "$build" "${catch_args[@]}" >"$out/configure.log" 2>&1 &&
   in_background cmake --build "$build" -j "$jobs" >"$out/build.log" 2>&1; then
  note "build" "ok"
else
  tail -n 40 "$out/configure.log" "$out/build.log"; note "build" "FAILED (see build.log)"
  printf '%s\n' "${summary[@]}"; exit 1
fi

if [ -n "${SMEMTILE_BUILD_ONLY:-}" ]; then  # a cold build can take a whole device call: test in the next
  echo "== built (SMEMTILE_BUILD_ONLY): run again on the warm machine, whose $build is kept"; exit 0
fi

if [ -z "${SMEMTILE_ONLY_SANITIZERS:-}" ]; then
echo "== ctest"
in_background ctest --preset gpu --test-dir "$build" "$@" >"$out/ctest.log" 2>&1
ctest_rc=$?
grep -E "tests passed|tests failed|Skipped|\*\*\*Failed|Not Run" "$out/ctest.log" | tail -n 30
total=$(grep -cE "^ *[0-9]+/[0-9]+ Test +#" "$out/ctest.log")
passed=$(grep -cE "^ *[0-9]+/[0-9]+ Test +#.* Passed" "$out/ctest.log")
skipped=$(grep -cE "^ *[0-9]+/[0-9]+ Test +#.*Skipped" "$out/ctest.log")
note "ctest ${*:-(all labels)}" "$passed passed / $total, $skipped skipped, rc=$ctest_rc"
note "Catch2" "$(grep -oE 'Catch2 [0-9.]+' "$out/configure.log" | head -n 1)"
# A test name that matches no Catch2 case must fail (else a renamed test would pass unrun): run one
# with the arguments CTest gives the discovered tests (Catch2 2 needs --warn NoTests for it).
extra_args=$(grep -m 1 -oE -- '--warn NoTests' "$build"/tests/core/static_host_tests-*.cmake)
"$build/tests/core/static_host" "no such test case" $extra_args >/dev/null 2>&1
note "unmatched test name fails" "rc=$? (must be non-zero)"
# Which instruction count each zero-overhead test compared (SASS where cuobjdump is found).
: >"$out/zero_overhead.txt"
for test in $(ctest --test-dir "$build" -N -R zero_overhead | grep -oE "Test +#[0-9]+: [^ ]+" | awk '{print $3}'); do
  ctest --test-dir "$build" -R "^$test\$" -V 2>&1 | grep -E "instructions|zero overhead" >>"$out/zero_overhead.txt"
  note "$test" "$(ctest --test-dir "$build" -R "^$test\$" -V 2>&1 | grep -oE 'zero overhead: .*' | tail -n 1)"
done
for label in host gpu static dynamic banks package docs arch copy async transpose stencil pairs; do
  n=$(ctest --test-dir "$build" -N -L "^$label\$" 2>/dev/null | grep -oE "Total Tests: [0-9]+" | grep -oE "[0-9]+")
  [ -n "$n" ] && note "  label $label" "$n tests"
done

echo "== examples"
for exe in "$build"/examples/*/smemtile_*; do
  [ -x "$exe" ] || continue
  name=$(basename "$exe")
  "$exe" >"$out/$name.txt" 2>&1; rc=$?
  tail -n 25 "$out/$name.txt"
  note "example $name" "rc=$rc"
done

echo "== compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on GPU test programs"
fi  # SMEMTILE_ONLY_SANITIZERS

if [ -z "${SMEMTILE_SKIP_SANITIZERS:-}" ] && command -v compute-sanitizer >/dev/null; then
  # memcheck: out-of-bounds and misaligned accesses; racecheck: shared-memory hazards between
  # threads; synccheck: invalid or divergent barriers; initcheck: reads of uninitialized global
  # memory. Cases that trap on purpose (debug bounds checks) are excluded: the [death] tests that
  # run them in child processes, and the hidden [.] child cases (Catch2 2 lets a negated filter
  # select hidden tests, so they are excluded by name too). Runs SMEMTILE_SANITIZER_JOBS (default 6)
  # programs at a time; each result is a line of the summary.
  jobs_file="$out/sanitizer_jobs.txt"
  : >"$jobs_file"
  for exe in $(find "$build/tests" -maxdepth 2 -type f -perm -u+x -name '*_gpu*' | sort); do
    for tool in memcheck racecheck synccheck initcheck; do echo "$tool $exe" >>"$jobs_file"; done
  done
  run_one() {
    tool=$1; exe=$2; name=$(basename "$exe")
    timeout "${SMEMTILE_SANITIZER_TIMEOUT:-420}" compute-sanitizer --tool "$tool" --error-exitcode 3 "$exe" "~[death]~[.]" \
      >"$OUT_DIR/sanitizer_${tool}_$name.txt" 2>&1
    echo "$tool $name $?" >"$OUT_DIR/sanitizer_${tool}_$name.rc"
  }
  export -f run_one
  OUT_DIR="$out" xargs -P "${SMEMTILE_SANITIZER_JOBS:-6}" -L 1 bash -c 'run_one "$0" "$1"' <"$jobs_file"
  for rc_file in "$out"/sanitizer_*.rc; do
    read -r tool name rc <"$rc_file"
    note "sanitizer $tool $name" "rc=$rc"
  done
fi

if [ -z "${SMEMTILE_SKIP_NCU:-}" ] && [ -z "${SMEMTILE_SKIP_BANK_VALIDATION:-}" ] && [ -x scripts/bank_validation/run.sh ]; then
  echo "== bank model vs Nsight Compute"
  bash scripts/bank_validation/run.sh "$out/bank_validation.md" >"$out/bank_validation.log" 2>&1; rc=$?
  tail -n 15 "$out/bank_validation.log"
  note "bank validation" "$(grep -E '[0-9]+ cases, [0-9]+ match' "$out/bank_validation.log" | tail -n 1) rc=$rc"
fi

if [ -z "${SMEMTILE_SKIP_BENCH:-}" ]; then
  echo "== benchmarks (NVBench)"
  bash scripts/run_benchmarks.sh "$build" "$out/bench" >"$out/bench.log" 2>&1; rc=$?
  note "benchmarks" "rc=$rc (report: bench/benchmarks.md)"
fi

if [ -z "${SMEMTILE_SKIP_NCU:-}" ] && [ -x scripts/bench_bank_conflicts.sh ]; then
  echo "== bank conflicts of the benchmark kernels (Nsight Compute)"
  bash scripts/bench_bank_conflicts.sh "$build" "$out/bench_ncu.md" >"$out/bench_ncu.log" 2>&1; rc=$?
  note "ncu bank conflicts (bench kernels)" "$(tail -n 1 "$out/bench_ncu.log") rc=$rc"
fi

{
  echo "== summary ($(cat "$out/device.txt"))"
  printf '%s\n' "${summary[@]}"
} >"$out/summary.txt"
if [ -n "${OUT:-}" ]; then
  tar czf "$OUT/gpu-out.tgz" -C "$root" gpu-out
  cp "$out/summary.txt" "$OUT/"
  [ -f "$out/bench/benchmarks.md" ] && cp "$out/bench/benchmarks.md" "$OUT/"
fi
[ -f "$out/bench/benchmarks.md" ] && cat "$out/bench/benchmarks.md"
echo
cat "$out/summary.txt"
