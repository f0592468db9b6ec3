#!/usr/bin/env bash
# Installs what the tests need and runs them all (README, "Set up"; .ci/run runs exactly this).
# On a fresh Debian machine with the CUDA toolkit:
#   - Debian packages, when missing: cmake, g++, catch2 (the test framework), doxygen (the API
#     reference check), python3-venv (for the next step); apt-get, through sudo only when not root;
#   - cuobjdump and nvdisasm from PyPI (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm; the Debian
#     system Python is externally managed, so into a venv under the build folder), so that the
#     zero-overhead test compares SASS, not PTX;
#   - then the `ci` preset of CMakePresets.json: configure (Catch2, doxygen and cuobjdump required;
#     cuobjdump passed as SMEMTILE_CUOBJDUMP in the environment), build with 2 jobs, and ctest.
# Without a GPU the GPU tests are reported Skipped (and compiled as unoptimized PTX only, below).
# SMEMTILE_BUILD_DIR chooses the build folder (default build/, the preset's).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cuda_env.sh
bash scripts/apt_install.sh cmake g++ make catch2 doxygen python3-venv
build=${SMEMTILE_BUILD_DIR:-build}

# SASS tools: the wheels of the toolkit's major version (13.x for CUDA 13).
venv="$build/sass-tools"
find_tool() { if [ -d "$venv" ]; then find "$venv" -type f -name "$1" -perm -u+x | head -n 1; fi; }
cuobjdump=$(find_tool cuobjdump)
if [ -z "$cuobjdump" ] || [ -z "$(find_tool nvdisasm)" ]; then
  cuda_major=$(nvcc --version | sed -n 's/.*release \([0-9][0-9]*\)\..*/\1/p')
  echo "== installing cuobjdump and nvdisasm ${cuda_major}.x from PyPI into $venv"
  mkdir -p "$build"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check \
    "nvidia-cuda-cuobjdump==${cuda_major}.*" "nvidia-cuda-nvdisasm==${cuda_major}.*"
  cuobjdump=$(find_tool cuobjdump)
fi
if [ -z "$cuobjdump" ]; then
  echo "smemtile: no cuobjdump in $venv after installing nvidia-cuda-cuobjdump" >&2
  exit 1
fi
export SMEMTILE_CUOBJDUMP="$(cd "$(dirname "$cuobjdump")" && pwd)/cuobjdump"

# Without a GPU the GPU tests and examples only need to compile (the tests are reported Skipped):
# they are built as unoptimized PTX and host code unoptimized (SMEMTILE_FRONT_END_ONLY,
# cmake/smemtileFrontEndOnly.cmake), which keeps the build to a fraction of its time; with one
# they are built as usual, and run.
front_end_only=ON
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then front_end_only=OFF; fi
cmake --preset ci -B "$build" -DSMEMTILE_FRONT_END_ONLY=$front_end_only
cmake --build "$build" -j2  # the ci build preset, in $build
ctest --preset ci --test-dir "$build"
