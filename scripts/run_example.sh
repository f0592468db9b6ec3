#!/usr/bin/env bash
# Builds and runs the main example, smemtile_seeds (README, "Set up"). On a fresh Debian machine
# with the CUDA toolkit: installs CMake and g++ when missing, then
#   cmake -S . -B build && cmake --build build -j2 --target smemtile_seeds && ./build/examples/seeds/smemtile_seeds
# Without a GPU the example prints the tiles and the bank model's predictions and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cuda_env.sh
bash scripts/apt_install.sh cmake g++ make
build=${SMEMTILE_BUILD_DIR:-build}
cmake -S . -B "$build"
cmake --build "$build" -j2 --target smemtile_seeds
"$build/examples/seeds/smemtile_seeds"
