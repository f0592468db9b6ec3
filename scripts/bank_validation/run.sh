#!/usr/bin/env bash
# Validates smemtile's bank model against the GPU: builds bank_validation.cu, profiles its ~150
# one-warp kernels with Nsight Compute in a single ncu run, and compares model vs measured.
#
# usage (from the repository root, on the GPU machine):
#   scripts/bank_validation/run.sh [MARKDOWN_OUT]        default: docs/bank_validation.md
# Environment: NVCC, NCU (tool paths), CUDA_ARCH (default 90), BANK_VALIDATION_WORK (scratch dir).
# Prints one line per case and "N cases, M match"; exits non-zero on any mismatch.
# ncu needs access to the GPU performance counters (root, or NVreg_RestrictProfilingToAdminUsers=0).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
markdown="${1:-$root/docs/bank_validation.md}"
work="${BANK_VALIDATION_WORK:-$(mktemp -d)}"
mkdir -p "$work" "$(dirname "$markdown")"

find_tool() {  # $1: name; $2: override
  if [[ -n "$2" ]]; then echo "$2"; return; fi
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return; fi
  for dir in /usr/local/cuda/bin /usr/local/cuda/nsight-compute*/ /opt/nvidia/nsight-compute/*/; do
    if [[ -x "$dir/$1" ]]; then echo "$dir/$1"; return; fi
  done
  echo "run.sh: $1 not found (set ${1^^})" >&2
  exit 2
}
nvcc="$(find_tool nvcc "${NVCC:-}")"
ncu="$(find_tool ncu "${NCU:-}")"

start=$SECONDS
echo "== building bank_validation (sm_${CUDA_ARCH:-90})"
"$nvcc" -std=c++17 -O2 -arch="sm_${CUDA_ARCH:-90}" -I"$root/include" -I"$root/examples" -o "$work/bank_validation" "$here/bank_validation.cu"

metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
metrics+=,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum

echo "== profiling ($("$work/bank_validation" --list | wc -l) kernels) with $ncu"
# One ncu run over every case kernel; its CSV goes to stdout, the program's messages to stderr.
"$ncu" --clock-control none --cache-control none --metrics "$metrics" --csv -k regex:bank_case \
  "$work/bank_validation" --model "$work/model.csv" >"$work/ncu.csv" 2>"$work/ncu.log" || {
  echo "run.sh: ncu failed; its log:" >&2
  tail -n 30 "$work/ncu.log" "$work/ncu.csv" >&2
  exit 1
}

echo "== comparing (raw files in $work)"
status=0
python3 "$here/compare.py" --model "$work/model.csv" --ncu "$work/ncu.csv" --markdown "$markdown" || status=$?
echo "markdown table: $markdown; took $((SECONDS - start)) s"
exit $status
