#!/usr/bin/env python3
"""Markdown tables and SVG plots from NVBench JSON results (python3 standard library only).

    python3 scripts/bench_report.py OUT_DIR/copy_bench.json [...] [--out OUT_DIR]

For each file (one benchmark program) the benchmarks are sorted into roles by name:
  baseline  cudaMemcpy*      the ceiling every case is divided by (same run, same device)
  library   smemtile*        smemtile's kernels
  peer      anything else    hand-written or vendor kernels the library is compared with
Rows are the cases (the states' axis values: T, Loads, MiB, ...); a state of another benchmark
belongs to a row when the axes both have agree (so one cudaMemcpy state, with axis MiB only, serves
every T). Columns: GB/s (10^9 bytes read + written per second, NVBench's mean over cold runs) and
the ratio to cudaMemcpy per implementation, then library / peer ratios.

Prints the markdown (GPU name on top), and with --out writes benchmarks.md and <program>.svg there
(a bar chart of each case's ratio to cudaMemcpy, the GPU's name in the title).
"""
import argparse
import datetime
import json
import os
import sys
from xml.sax.saxutils import escape

# Targets from the issues: (program, role, axis, values) -> minimum ratio to the baseline.
TARGETS = [
    {"program": "copy_bench", "axis": "T", "values": {"F32", "B16"}, "min_ratio": 0.97,
     "text": ">= 97% of cudaMemcpy for 4- and 16-byte elements"},
]
# NVBench's names of the element types used, with their sizes (for the case labels).
TYPE_BYTES = {"U8": 1, "I8": 1, "U16": 2, "I16": 2, "F16": 2, "U32": 4, "I32": 4, "F32": 4, "U64": 8,
              "I64": 8, "F64": 8, "B16": 16}

BW_TAG = "nv/cold/bw/global/bytes_per_second"
TIME_TAG = "nv/cold/time/gpu/mean"
NOISE_TAG = "nv/cold/time/gpu/stdev/relative"
SAMPLES_TAG = "nv/cold/sample_size"
UTIL_TAG = "nv/cold/bw/global/utilization"


def summary_value(state, tag):
    for summary in state.get("summaries") or []:
        if summary.get("tag") == tag:
            for datum in summary.get("data") or []:
                if datum.get("name") == "value":
                    try:
                        return float(datum["value"])
                    except (TypeError, ValueError):
                        return None
    return None


def role_of(name):
    if name.lower().startswith("cudamemcpy"):
        return "baseline"
    if name.lower().startswith("smemtile"):
        return "library"
    return "peer"


class State:
    def __init__(self, bench, state):
        self.bench = bench
        self.name = state.get("name", "")
        self.device = state.get("device", 0)
        self.axes = {a["name"]: str(a["value"]) for a in (state.get("axis_values") or [])}
        self.skipped = bool(state.get("is_skipped"))
        self.skip_reason = state.get("skip_reason", "")
        self.bw = summary_value(state, BW_TAG)
        self.time = summary_value(state, TIME_TAG)
        self.noise = summary_value(state, NOISE_TAG)
        self.samples = summary_value(state, SAMPLES_TAG)
        self.util = summary_value(state, UTIL_TAG)

    def agrees(self, device, axes):
        """Same device, and equal values on every axis both have."""
        return self.device == device and all(axes[k] == v for k, v in self.axes.items() if k in axes)


def load(path):
    with open(path) as f:
        data = json.load(f)
    devices = {d.get("id", i): d.get("name", "?") for i, d in enumerate(data.get("devices") or [])}
    benches = []  # (name, role, [State])
    for bench in data.get("benchmarks") or []:
        name = bench.get("name", "?")
        benches.append((name, role_of(name), [State(name, s) for s in bench.get("states") or []]))
    program = os.path.splitext(os.path.basename(path))[0]
    return program, devices, benches, data.get("meta", {})


def case_label(axes):
    parts = []
    for k, v in axes.items():
        if k == "T" and v in TYPE_BYTES:
            parts.append(f"T={v} ({TYPE_BYTES[v]} B)")
        else:
            parts.append(f"{k}={v}")
    return " ".join(parts) if parts else "(no axes)"


def gbps(x):
    return "n/a" if x is None else f"{x / 1e9:,.1f}"


def pct(x):
    return "n/a" if x is None else f"{100 * x:.1f}%"


def program_report(program, devices, benches):
    """Returns (markdown lines, plot rows, target results) for one program's results."""
    lines = []
    baselines = [s for _, role, states in benches if role == "baseline" for s in states]
    impls = [(name, role, states) for name, role, states in benches if role != "baseline"]
    libs = [i for i in impls if i[1] == "library"]
    peers = [i for i in impls if i[1] == "peer"]
    multi_device = len({s.device for _, _, states in benches for s in states}) > 1

    def baseline_for(device, axes):
        for s in baselines:
            if not s.skipped and s.bw and s.agrees(device, axes):
                return s
        return None

    lines.append(f"## {program}")
    lines.append("")
    for s in baselines:
        dev = f" on device {s.device}" if multi_device else ""
        if s.skipped:
            lines.append(f"- baseline {s.bench} {case_label(s.axes)}{dev}: skipped ({s.skip_reason})")
        else:
            util = f", {pct(s.util)} of the peak NVBench computes for this device" if s.util is not None else ""
            noise = f", noise {pct(s.noise)}" if s.noise is not None else ""
            lines.append(f"- baseline **{s.bench}** {case_label(s.axes)}{dev}: **{gbps(s.bw)} GB/s**{noise}{util}")
    if not baselines:
        lines.append("- no cudaMemcpy baseline in this run: ratios to it are n/a")
    lines.append("")

    # Rows: every case (device, axes) of a non-baseline benchmark, in first-seen order.
    cases = []
    for _, _, states in impls:
        for s in states:
            key = (s.device, tuple(s.axes.items()))
            if key not in cases:
                cases.append(key)

    header = ["Case"]
    for name, _, _ in impls:
        header += [f"{name} GB/s", f"{name} / cudaMemcpy"]
    for lib, _, _ in libs:
        for peer, _, _ in peers:
            header.append(f"{lib} / {peer}")
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")

    plot_rows = []  # (label, [(impl, ratio or None)])
    target_results = []
    # Axes with one value in every case are said once, not in every label.
    constant = {}
    for k, v in (cases[0][1] if cases else ()):
        if all(dict(c[1]).get(k) == v for c in cases) and len(cases) > 1:
            constant[k] = v
    if constant:
        lines.insert(len(lines) - 2, f"All cases: {case_label(constant)}.")
        lines.insert(len(lines) - 2, "")
    for device, axes_items in cases:
        axes = dict(axes_items)
        label = case_label({k: v for k, v in axes.items() if k not in constant}) + (f" dev {device}" if multi_device else "")
        base = baseline_for(device, axes)
        row = [label]
        found = {}
        bars = []
        for name, role, states in impls:
            match = next((s for s in states if s.device == device and s.axes == axes), None)
            found[name] = match
            if match is None:
                row += ["-", "-"]
                bars.append((name, None, "not measured"))
            elif match.skipped:
                row += ["skipped", "-"]
                bars.append((name, None, "skipped"))
            else:
                ratio = match.bw / base.bw if (base and match.bw) else None
                cell = pct(ratio)
                if role == "library" and ratio is not None:
                    for t in TARGETS:
                        if t["program"] == program and axes.get(t["axis"]) in t["values"]:
                            ok = ratio >= t["min_ratio"]
                            cell += " ok" if ok else " **below target**"
                            target_results.append((label, name, ratio, t, ok))
                row += [gbps(match.bw), cell]
                bars.append((name, ratio, "no cudaMemcpy" if ratio is None else ""))
        for lib, _, _ in libs:
            for peer, _, _ in peers:
                a, b = found.get(lib), found.get(peer)
                if a and b and not a.skipped and not b.skipped and a.bw and b.bw:
                    row.append(pct(a.bw / b.bw))
                else:
                    row.append("-")
        lines.append("| " + " | ".join(row) + " |")
        plot_rows.append((label, bars))
    lines.append("")
    skipped = [(name, s) for name, _, states in impls for s in states if s.skipped]
    for name, s in skipped:
        lines.append(f"- {name} {case_label(s.axes)}: skipped: {s.skip_reason}")
    if skipped:
        lines.append("")
    for t in TARGETS:
        if t["program"] != program:
            continue
        results = [r for r in target_results if r[3] is t]
        if results:
            met = sum(1 for r in results if r[4])
            worst = min(results, key=lambda r: r[2])
            lines.append(f"Target {t['text']}: {met} of {len(results)} library cases meet it "
                         f"(lowest: {worst[0]}, {pct(worst[2])}).")
            lines.append("")
    return lines, plot_rows, target_results


# ---- SVG, written by hand (no matplotlib on the GPU machine) -------------------------------------

PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
CHAR_W = 0.6  # average glyph width of the sans-serif font, in font sizes (generous)


def text_width(text, size):
    return len(text) * size * CHAR_W


def svg_plot(title, subtitle, rows, impls, target=None):
    """Horizontal grouped bars: one group per case, one bar per implementation, x = ratio."""
    font = 12
    bar_h, bar_gap, group_gap = 14, 2, 12
    label_w = max([text_width(label, font) for label, _ in rows] + [60]) + 16
    plot_w = 520
    value_w = 60  # room for the value printed after a bar
    width = int(label_w + plot_w + value_w + 20)
    title_size = 16
    while title_size > 9 and text_width(title, title_size) > width - 20:
        title_size -= 1
    sub_size = 12
    while sub_size > 8 and text_width(subtitle, sub_size) > width - 20:
        sub_size -= 1
    top = 20 + title_size + 8 + sub_size + 14 + 18 * ((len(impls) + 2) // 3)
    group_h = len(impls) * (bar_h + bar_gap) + group_gap
    plot_h = len(rows) * group_h
    height = int(top + plot_h + 40)
    ratios = [r for _, bars in rows for _, r, _ in bars if r is not None]
    x_max = max([1.1] + [r * 1.05 for r in ratios])
    x_max = (int(x_max * 10) + 1) / 10.0  # to the next 10%

    def x_of(ratio):
        return label_w + plot_w * min(ratio, x_max) / x_max

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2:.0f}" y="{20 + title_size}" font-size="{title_size}" text-anchor="middle" '
           f'font-weight="bold">{escape(title)}</text>',
           f'<text x="{width / 2:.0f}" y="{20 + title_size + 8 + sub_size}" font-size="{sub_size}" '
           f'text-anchor="middle" fill="#444">{escape(subtitle)}</text>']
    # Legend, three entries a line.
    legend_y = 20 + title_size + 8 + sub_size + 14
    for i, name in enumerate(impls):
        lx = 10 + (i % 3) * (width - 20) / 3
        ly = legend_y + 18 * (i // 3)
        out.append(f'<rect x="{lx:.0f}" y="{ly:.0f}" width="12" height="12" fill="{PALETTE[i % len(PALETTE)]}"/>')
        out.append(f'<text x="{lx + 16:.0f}" y="{ly + 10:.0f}" font-size="{font}">{escape(name)}</text>')
    # Grid every 10%, labels every 20%.
    step = 0.1
    k = 0
    while k * step <= x_max + 1e-9:
        x = x_of(k * step)
        out.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{top + plot_h}" stroke="#ddd"/>')
        if k % 2 == 0:
            out.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" font-size="11" text-anchor="middle">'
                       f'{k * 10}%</text>')
        k += 1
    out.append(f'<text x="{label_w + plot_w / 2:.0f}" y="{top + plot_h + 32}" font-size="12" text-anchor="middle">'
               f'throughput / cudaMemcpy device-to-device (same run)</text>')
    # Bars.
    for g, (label, bars) in enumerate(rows):
        y0 = top + g * group_h
        mid = y0 + len(impls) * (bar_h + bar_gap) / 2
        out.append(f'<text x="{label_w - 8:.0f}" y="{mid + 4:.0f}" font-size="{font}" text-anchor="end">'
                   f'{escape(label)}</text>')
        for i, (name, ratio, note) in enumerate(bars):
            y = y0 + i * (bar_h + bar_gap)
            color = PALETTE[impls.index(name) % len(PALETTE)]
            if ratio is None:
                out.append(f'<text x="{label_w + 4:.0f}" y="{y + bar_h - 3:.0f}" font-size="10" fill="#888">'
                           f'{escape(name)}: {escape(note)}</text>')
                continue
            x1 = x_of(ratio)
            out.append(f'<rect x="{label_w:.0f}" y="{y:.0f}" width="{x1 - label_w:.1f}" height="{bar_h}" '
                       f'fill="{color}"><title>{escape(name)} {escape(label)}: {100 * ratio:.1f}%</title></rect>')
            out.append(f'<text x="{x1 + 4:.1f}" y="{y + bar_h - 3:.0f}" font-size="10">{100 * ratio:.1f}%</text>')
    # Reference lines: cudaMemcpy (100%) and the target.
    x100 = x_of(1.0)
    out.append(f'<line x1="{x100:.1f}" y1="{top - 4}" x2="{x100:.1f}" y2="{top + plot_h}" stroke="black" '
               f'stroke-width="1.5"/>')
    if target is not None:
        xt = x_of(target)
        out.append(f'<line x1="{xt:.1f}" y1="{top - 4}" x2="{xt:.1f}" y2="{top + plot_h}" stroke="#d62728" '
                   f'stroke-dasharray="4,3"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+", help="NVBench --json files")
    parser.add_argument("--out", help="folder for benchmarks.md and the SVG plots")
    args = parser.parse_args()

    all_lines = []
    gpu_names = []
    plots = []
    failures = 0
    for path in args.results:
        try:
            program, devices, benches, meta = load(path)
        except (OSError, ValueError) as e:
            print(f"bench_report: cannot read {path}: {e}", file=sys.stderr)
            failures += 1
            continue
        for name in devices.values():
            if name not in gpu_names:
                gpu_names.append(name)
        lines, rows, _ = program_report(program, devices, benches)
        all_lines += lines
        impls = [name for name, role, _ in benches if role != "baseline"]
        target = next((t["min_ratio"] for t in TARGETS if t["program"] == program), None)
        plots.append((program, devices, rows, impls, target))

    gpu = ", ".join(gpu_names) if gpu_names else "unknown GPU"
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    head = [f"# smemtile benchmarks: {gpu}", "",
            f"NVBench, cold runs (L2 flushed before each), mean GPU time; GB/s = 10^9 bytes read + written "
            f"per second. Ratios are to cudaMemcpy device-to-device measured in the same run. ({stamp})", ""]
    md = head + all_lines
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        for program, devices, rows, impls, target in plots:
            if not rows:
                continue
            names = ", ".join(dict.fromkeys(devices.values())) or "unknown GPU"
            svg = svg_plot(f"{program}: throughput relative to cudaMemcpy on {names}",
                           "bars: GB/s of each implementation / GB/s of cudaMemcpy (black line: 100%"
                           + (f", red dashes: target {100 * target:.0f}%)" if target else ")"),
                           rows, impls, target)
            with open(os.path.join(args.out, f"{program}.svg"), "w") as f:
                f.write(svg)
            md += [f"![{program}: ratio to cudaMemcpy]({program}.svg)", ""]
        with open(os.path.join(args.out, "benchmarks.md"), "w") as f:
            f.write("\n".join(md) + "\n")
    print("\n".join(md))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
