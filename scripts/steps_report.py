#!/usr/bin/env python3
"""Issue 26's table and plot from one run of bench/stencil_steps_bench (its NVBench CSV).

Per case and boundary: the per-step throughput of device_stencil_steps at each step count, as a
multiple of cudaMemcpy's (one read and one write of the array per step, same run), beside the
library's single-step loop, the naive loop and the caller-forced 3D fused policy; the issue's
targets at 64 steps, steps = 1 against the single-step call, and odd shapes against aligned ones.

  python3 scripts/steps_report.py <stencil_steps_bench.csv> --out <report.md> [--svg <plot.svg>]
"""
import argparse
import csv
import sys

TARGETS = {"2D-5pt-F32": 3.0, "2D-9pt-F32": 2.5, "2D-5pt-F64": 2.0, "3D-7pt-F32": 1.5, "3D-7pt-F64": 1.3,
           "3D-27pt-F32": 1.3}
STEPS = [1, 2, 4, 8, 16, 64]


def kind(case):
    return "-".join(case.split("-")[:3])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--out", required=True)
    ap.add_argument("--svg")
    args = ap.parse_args()
    rows = list(csv.DictReader(open(args.csv)))
    bw_key = next(k for k in rows[0] if k.startswith("GlobalMem BW"))
    gpu = rows[0]["Device Name"]
    copy, bw = {}, {}
    for r in rows:
        if r.get("Skipped", "No") != "No" or not r[bw_key]:
            continue
        if r["Benchmark"] == "cudaMemcpy":
            copy[r["Case"]] = float(r[bw_key])
        else:
            key = (r["Benchmark"], r["Case"], r.get("Boundary", ""), int(r.get("Steps") or 0))
            bw[key] = max(bw.get(key, 0), float(r[bw_key]))  # sweeps: the best of the raced policies
    cases = [c for c in dict.fromkeys(r["Case"] for r in rows) if c in copy]
    out = [f"# Time-stepped stencils: device_stencil_steps ({gpu})", "",
           "One run of bench/stencil_steps_bench.cu. Per-step throughput as a multiple of cudaMemcpy device-to-device "
           "of the array (one read and one write per step, same run). `single` is the library's single-step call "
           "looped (8 steps), `naive` a naive global-memory loop (8 steps), `3D fused` the overlapped 3D policy "
           "passed by the caller, `3D sweep` the best of the raced StencilSweepPolicy shapes (64 steps). `steps 1 / "
           "single` compares one call of one step with one single-step call. Target: the issue's, at 64 steps.",
           "", "| case | boundary | " + " | ".join(f"steps {s}" for s in STEPS) +
           " | single | naive | 3D fused | 3D sweep | target | at 64 | steps 1 / single |",
           "|---|---|" + "---:|" * (len(STEPS) + 7)]
    misses, series = [], []
    for case in cases:
        for boundary in ("zero", "clamp"):
            ratio = lambda b, s: bw.get((b, case, boundary, s), 0) / copy[case]
            steps = [ratio("smemtile_steps", s) for s in STEPS]
            single, naive, fused3d = ratio("single_step_loop", 8), ratio("naive_loop", 8), ratio("smemtile_steps_3d_fused", 64)
            sweep3d = ratio("smemtile_steps_3d_sweep", 64)
            single1 = ratio("single_step_loop", 1) or single
            target = TARGETS.get(kind(case), 0)
            ok = steps[-1] >= target
            first = steps[0] / single1 if single1 else 0
            if not ok:
                misses.append(f"{case} {boundary}: {steps[-1]:.2f}x < {target}x")
            if single and abs(first - 1) > 0.02:
                misses.append(f"{case} {boundary}: steps 1 at {first:.3f} of the single-step call")
            series.append((f"{case} {boundary}", steps))
            shown = lambda v: f"{v:.2f}" if v else "n/a"
            out.append(f"| {case} | {boundary} | " + " | ".join(shown(v) for v in steps) +
                       f" | {shown(single)} | {shown(naive)} | {shown(fused3d)} | {shown(sweep3d)} | {target} | {'pass' if ok else 'MISS'} | {first:.3f} |")
    out += [""]
    for case in cases:  # odd shapes within 10% of the aligned ones
        if "^" in case:
            continue
        aligned = next((c for c in cases if kind(c) == kind(case) and "^" in c), None)
        for boundary in ("zero", "clamp"):
            a = bw.get(("smemtile_steps", aligned, boundary, 64), 0) / copy.get(aligned, 1)
            o = bw.get(("smemtile_steps", case, boundary, 64), 0) / copy[case]
            if a and o < 0.9 * a:
                misses.append(f"{case} {boundary}: {o:.2f}x, more than 10% below {aligned}'s {a:.2f}x")
    out.append(f"**{len(misses)} misses.** " + ("; ".join(misses) + "." if misses else ""))
    open(args.out, "w").write("\n".join(out) + "\n")
    if args.svg:
        write_svg(args.svg, series, gpu)
    print("\n".join(out))


def write_svg(path, series, gpu):
    w, h, left, bottom = 760, 420, 60, 40
    top = max(max(s) for _, s in series) * 1.1 or 1
    x = lambda i: left + i * (w - left - 220) / (len(STEPS) - 1)
    y = lambda v: h - bottom - v / top * (h - bottom - 30)
    colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
              "#17becf"]
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="18" font-size="13">device_stencil_steps per step, x cudaMemcpy ({gpu})</text>']
    for i, s in enumerate(STEPS):
        svg.append(f'<text x="{x(i)}" y="{h - 15}" text-anchor="middle">{s}</text>')
    for v in range(0, int(top) + 1):
        svg.append(f'<line x1="{left}" x2="{x(len(STEPS) - 1)}" y1="{y(v)}" y2="{y(v)}" stroke="#ddd"/>'
                   f'<text x="{left - 8}" y="{y(v) + 4}" text-anchor="end">{v}x</text>')
    for k, (name, values) in enumerate(series):
        c = colors[k // 2 % len(colors)]
        dash = ' stroke-dasharray="4 3"' if name.endswith("clamp") else ""
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        svg.append(f'<polyline points="{pts}" fill="none" stroke="{c}" stroke-width="1.5"{dash}/>')
        svg.append(f'<text x="{w - 210}" y="{40 + 13 * k}" fill="{c}">{name}</text>')
    svg.append(f'<text x="{(left + x(len(STEPS) - 1)) / 2}" y="{h - 2}" text-anchor="middle">steps per call</text></svg>')
    open(path, "w").write("\n".join(svg) + "\n")


if __name__ == "__main__":
    sys.exit(main())
