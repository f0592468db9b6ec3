#!/usr/bin/env python3
"""PyTorch's transpose copy on transpose_bench's narrow and batch shapes, as a peer in the same run.

For each shape and element type: `y.copy_(x.transpose(-1, -2))` (PyTorch's own transpose kernel)
and `y.copy_(x)` (its copy of the same bytes), each timed with CUDA events over many launches
after a warm-up; prints CSV rows: Shape,T,transpose_us,copy_us,percent_of_its_copy,GBps.

  python3 scripts/torch_transpose.py > torch_transpose.csv
  python3 scripts/torch_transpose.py 12x4194304 4194304x12 > some.csv   # only these shapes
"""
import sys

try:
    import torch
except ImportError:
    print("torch_transpose.py: PyTorch is not installed", file=sys.stderr)
    sys.exit(2)

SHAPES = ["2x16777216", "3x16777216", "4x16777216", "8x16777216", "16777216x2", "16777216x3", "16777216x4",
          "16777216x8", "1048576x8x8", "1048576x16x16", "65536x32x32", "65536x33x31", "16384x64x64",
          "3x16777213", "16777213x3", "8x16777213", "16777213x8", "8192x8192", "8191x8193", "10000x10000", "1008x65536", "65536x1024",
          "1024x65536", "10x4194304", "4194304x10", "12x4194304", "4194304x12", "16x4194304", "4194304x16", "24x2097152", "2097152x24",
          "32x2097152", "2097152x32", "12x4194301", "4194301x12", "9x4194304", "4194304x9", "21x4194304", "4194304x21",
          "31x2097152", "2097152x31", "9x4194305", "4194305x9", "25x4194305", "4194305x25"]
TYPES = {"U8": torch.uint8, "U16": torch.int16, "F32": torch.float32, "F64": torch.float64, "C128": torch.complex128}
MIN_BYTES = 32 << 20  # the rule: shapes whose array is at least 32 MiB


def timed(fn, repeats):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    start.record()
    for _ in range(repeats):
        fn()
    stop.record()
    torch.cuda.synchronize()
    return start.elapsed_time(stop) * 1000.0 / repeats  # us


def main():
    if not torch.cuda.is_available():
        print("torch_transpose.py: no CUDA device", file=sys.stderr)
        return 2
    print(f"# {torch.cuda.get_device_name(0)}, torch {torch.__version__}", file=sys.stderr)
    print("Shape,T,transpose_us,copy_us,percent_of_its_copy,GBps")
    for shape in sys.argv[1:] or SHAPES:
        dims = [int(d) for d in shape.split("x")]
        for name, dtype in TYPES.items():
            elems = 1
            for d in dims:
                elems *= d
            nbytes = elems * torch.empty((), dtype=dtype).element_size()
            if nbytes < MIN_BYTES and len(dims) == 2 and dims[0] * dims[1] < 8192 * 8192:
                continue
            if nbytes > (2 << 30):
                continue
            x = torch.zeros(dims, dtype=dtype, device="cuda")
            y = torch.empty(dims[:-2] + [dims[-1], dims[-2]], dtype=dtype, device="cuda")
            z = torch.empty_like(x)
            xt = x.transpose(-1, -2)
            repeats = max(5, min(200, int(2e10 // max(nbytes, 1))))
            t_us = timed(lambda: y.copy_(xt), repeats)
            c_us = timed(lambda: z.copy_(x), repeats)
            print(f"{shape},{name},{t_us:.2f},{c_us:.2f},{100.0 * c_us / t_us:.1f},{2 * nbytes / t_us / 1e3:.1f}")
            del x, y, z, xt
            torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
