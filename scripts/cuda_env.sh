# Sourced by run_example.sh and run_tests.sh: puts nvcc on the PATH (/usr/local/cuda/bin when it is
# not there already) and stops with a message when there is no CUDA toolkit.
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="$PATH:/usr/local/cuda/bin"
fi
if ! command -v nvcc >/dev/null 2>&1; then
  echo "smemtile: nvcc not found on the PATH nor in /usr/local/cuda/bin: install the CUDA toolkit" >&2
  exit 1
fi
