#!/usr/bin/env python3
"""The benchmark matrices that bench_report.py's one-row-per-case tables leave out, from NVBench CSVs
of one run: stencil_bench by boundary policy and load path (against cudaMemcpy and the naive kernel of
the same boundary), and transpose_bench's narrow and batch shapes (against cudaMemcpy of the same
bytes). Percentages are GPU-time ratios to the cudaMemcpy state of the same case in the same run.

  python3 scripts/axes_report.py OUT_DIR [--svg=FILE]  # reads OUT_DIR/{stencil,transpose}_bench.csv (and
                                                       # torch_transpose.csv), prints markdown; FILE: the
                                                       # transposes' narrow and batch plot
"""
import csv
import os
import sys


def rows_of(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r.get("Skipped") == "No"]


def gpu_time(row):
    return float(row["GPU Time (sec)"])


def pct(copy, t):
    return f"{100.0 * copy / t:.1f}%" if t else "-"


def stencil_matrix(rows):
    copies = {r["Case"]: gpu_time(r) for r in rows if r["Benchmark"] == "cudaMemcpy"}
    lib, naive = {}, {}
    for r in rows:
        if r["Benchmark"] == "smemtile_stencil":
            lib[(r["Case"], r.get("Boundary", ""), r.get("Path", ""))] = gpu_time(r)
        elif r["Benchmark"] == "naive_global":
            naive[(r["Case"], r.get("Boundary", ""))] = gpu_time(r)
    cases = list(dict.fromkeys(c for c, _, _ in lib))
    columns = list(dict.fromkeys((b, p) for _, b, p in lib))
    boundaries = list(dict.fromkeys(b for b, _ in columns))
    head = ["Case"] + [f"{b} {p}" for b, p in columns] + [f"naive {b}" for b in boundaries]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for case in cases:
        copy = copies.get(case)
        cells = [case]
        for b, p in columns:
            t = lib.get((case, b, p))
            cells.append(pct(copy, t) if copy and t else "-")
        for b in boundaries:
            t = naive.get((case, b))
            cells.append(pct(copy, t) if copy and t else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def torch_rows(path):
    """PyTorch's transpose copy as % of its own copy, by (T, Shape), from scripts/torch_transpose.py."""
    if not os.path.exists(path):
        return {}
    with open(path, newline="") as f:
        return {(r["T"], r["Shape"]): float(r["percent_of_its_copy"]) for r in csv.DictReader(f)}


def transpose_narrow(rows, torch=None):
    torch = torch or {}
    copies = {(r["T"], r["Shape"]): gpu_time(r) for r in rows if r["Benchmark"] == "cudaMemcpy_narrow_batch"}
    lib = {(r["T"], r["Shape"]): gpu_time(r) for r in rows if r["Benchmark"] == "smemtile_transpose_narrow_batch"}
    types = list(dict.fromkeys(t for t, _ in lib))
    shapes = list(dict.fromkeys(s for _, s in lib))
    header = [f"{t} / PyTorch" if torch else t for t in types]
    lines = ["| Shape | " + " | ".join(header) + " |", "|" + "---|" * (len(types) + 1)]
    for shape in shapes:
        cells = [shape]
        for t in types:
            copy, time = copies.get((t, shape)), lib.get((t, shape))
            cell = pct(copy, time) if copy and time else "-"
            if torch:
                theirs = torch.get((t, shape))
                cell += f" / {theirs:.1f}%" if theirs is not None else " / -"
            cells.append(cell)
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def transpose_narrow_svg(rows, torch, gpu):
    """The narrow and batch table as a bar plot (bench_report's svg_plot): ours and PyTorch's by case."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_report import svg_plot
    copies = {(r["T"], r["Shape"]): gpu_time(r) for r in rows if r["Benchmark"] == "cudaMemcpy_narrow_batch"}
    lib = {(r["T"], r["Shape"]): gpu_time(r) for r in rows if r["Benchmark"] == "smemtile_transpose_narrow_batch"}
    impls = ["smemtile device_transpose"] + (["PyTorch transpose copy (of its copy)"] if torch else [])
    bars = []
    for (t, shape), time in lib.items():
        copy = copies.get((t, shape))
        group = [(impls[0], copy / time if copy and time else None, "")]
        if torch:
            theirs = torch.get((t, shape))
            group.append((impls[1], theirs / 100.0 if theirs is not None else None, ""))
        bars.append((f"{shape} {t}", group))
    return svg_plot(f"transpose_bench, narrow and batch shapes: {gpu}", "smemtile: % of cudaMemcpy device-to-device; PyTorch: % of its own copy",
                    bars, impls, target=0.9)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--svg=")]
    svg = next((a[len("--svg="):] for a in sys.argv[1:] if a.startswith("--svg=")), None)
    out = args[0] if args else "."
    stencil = rows_of(os.path.join(out, "stencil_bench.csv"))
    transpose = rows_of(os.path.join(out, "transpose_bench.csv"))
    gpu = next((r["Device Name"] for r in stencil + transpose), "?")
    print(f"## Matrices by axis: {gpu}\n")
    if stencil:
        print("### stencil_bench: % of cudaMemcpy by boundary policy and load path (selected: the policy "
              "device_stencil picks; cp.async: forced), and the naive kernel of the same boundary\n")
        print("\n".join(stencil_matrix(stencil)) + "\n")
    if transpose:
        torch = torch_rows(os.path.join(out, "torch_transpose.csv"))
        print("### transpose_bench: narrow sides and batches of small matrices, % of cudaMemcpy of the same bytes"
              + (" (and PyTorch's `y.copy_(x.transpose(-1, -2))`, % of its own copy, same run)" if torch else "")
              + "\n")
        print("\n".join(transpose_narrow(transpose, torch)) + "\n")
        if svg:
            with open(svg, "w") as f:
                f.write(transpose_narrow_svg(transpose, torch, gpu))


if __name__ == "__main__":
    main()
