#!/usr/bin/env python3
"""Markdown table of issue 25's kernel pairs from pairs_bench's output (python3 standard library only).

    python3 scripts/pairs_report.py OUT_DIR/pairs_bench.log [--sass BUILD/tests/pairs/sass/pairs_sass.md]
                                    [--out docs/pairs-h100.md]

Reads the lines `pairs_bench: PAIR <pair> shape <s> hand_us <t> lib_us <t> ratio <r> hand_regs <n>
lib_regs <n> runs <n> gpu <name>` (bench/pairs_bench.cu's pairs_interleaved: medians of interleaved
launches, L2 flushed before each) and prints, per GPU, one row per pair: hand and library time, their
ratio, the issue's target (library / hand <= 1.02) met or missed, registers, and, given the SASS
check's table (--sass, written by CTest pairs:sass_hot_loops), the hot loop's instructions and memory
instructions of both kernels; then the geometric mean of the ratios (target <= 1.00).
"""
import argparse
import math
import re
import sys

LINE = re.compile(r"pairs_bench: PAIR (\S+) shape (\S+) hand_us ([\d.]+) lib_us ([\d.]+) ratio ([\d.]+) "
                  r"hand_regs (\d+) lib_regs (\d+) runs (\d+) gpu (.+)$")
TARGET, GEOMEAN_TARGET = 1.02, 1.00


def read_sass(path):
    """pair -> dict of the SASS check's columns (its markdown table)."""
    rows = {}
    with open(path) as f:
        lines = [l.strip() for l in f if l.strip().startswith("|")]
    if len(lines) < 2:
        return rows
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = dict(zip(header, cells))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+")
    parser.add_argument("--sass", help="the SASS check's markdown table (pairs_sass.md)")
    parser.add_argument("--out", help="write the markdown here too")
    args = parser.parse_args()

    by_gpu = {}
    for path in args.logs:
        with open(path, errors="replace") as f:
            for line in f:
                m = LINE.search(line.rstrip("\n"))
                if m:
                    pair, shape, hand, lib, ratio, hregs, lregs, runs, gpu = m.groups()
                    by_gpu.setdefault(gpu, []).append(
                        (pair, shape, float(hand), float(lib), float(ratio), int(hregs), int(lregs), int(runs)))
    if not by_gpu:
        sys.stderr.write("pairs_report: no 'pairs_bench: PAIR' lines in %s\n" % ", ".join(args.logs))
        return 1
    sass = read_sass(args.sass) if args.sass else {}

    out = ["# Kernel pairs: hand-written and with smemtile (issue 25)", ""]
    for gpu, rows in by_gpu.items():
        out += ["## %s" % gpu, "",
                "Medians of %d interleaved launches each (L2 flushed before every launch), one run of "
                "bench/pairs_bench.cu. Target: lib / hand <= %.2f per pair, geometric mean <= %.2f." %
                (rows[0][7], TARGET, GEOMEAN_TARGET), ""]
        header = ["pair", "shape", "hand us", "lib us", "lib / hand", "target", "hand regs", "lib regs"]
        if sass:
            header += ["hand loop instrs", "lib loop instrs", "hand loop mem", "lib loop mem", "SASS check"]
        out += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for pair, shape, hand, lib, ratio, hregs, lregs, _ in rows:
            cells = [pair, shape, "%.1f" % hand, "%.1f" % lib, "%.3f" % ratio,
                     "pass" if ratio <= TARGET else "**miss**", str(hregs), str(lregs)]
            if sass:
                s = sass.get(pair, {})
                cells += [s.get("hand loop instrs", "-"), s.get("lib loop instrs", "-"), s.get("hand loop mem", "-"),
                          s.get("lib loop mem", "-"), s.get("verdict", "-")]
            out.append("| " + " | ".join(cells).replace("<", "&lt;").replace(">", "&gt;") + " |")
        geomean = math.exp(sum(math.log(r[4]) for r in rows) / len(rows))
        out += ["", "Geometric mean of lib / hand: **%.3f** (%s); %d of %d pairs within %.2f." %
                (geomean, "pass" if geomean <= GEOMEAN_TARGET else "miss",
                 sum(r[4] <= TARGET for r in rows), len(rows), TARGET), ""]
    text = "\n".join(out)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
