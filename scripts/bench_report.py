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

A program with a smemtile_transpose benchmark (transpose_bench) gets its own section instead: one
row per (element size, shape) with smemtile's GB/s, its % of cudaMemcpy, smemtile / each peer
(cublas_geam, cublas_cgeam, course_transpose, handwritten_transpose), the issue's target and a
pass/miss column, then every implementation's % of cudaMemcpy; its plot is transpose.svg.

A program with a smemtile_stencil benchmark (stencil_bench) gets a stencil section: one row per
case (the Case axis) with smemtile's GB/s, its % of cudaMemcpy, smemtile / each peer (naive_global,
smem_halo, hand_2_5d), the target and pass/miss (issue 22: >= 95% of cudaMemcpy for 1D and 2D cases,
>= 90% for bytes and halves, >= 92% for 3D 7-point, >= 85% for the 27-point box and the radius-4 star;
faster than every peer that ran), then every
implementation's % of cudaMemcpy; its plot is stencil.svg.
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
              "I64": 8, "F64": 8, "C64": 8, "B16": 16, "C128": 16}

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


# ---- transpose_bench: one row per (element size, shape) -------------------------------------------

TRANSPOSE_LIBRARY = "smemtile_transpose"
# (benchmark, column name); smemtile must beat those in TRANSPOSE_MUST_BEAT wherever they ran.
TRANSPOSE_PEERS = [("cublas_geam", "geam"), ("cublas_cgeam", "Cgeam"), ("course_transpose", "course"),
                   ("handwritten_transpose", "hand-written")]
TRANSPOSE_MUST_BEAT = {"cublas_geam", "cublas_cgeam", "course_transpose"}
TRANSPOSE_TARGET_TEXT = ("smemtile >= 98% of cudaMemcpy for 4-byte elements at 8192x8192, >= 95% for 1-, 2-, 8- and "
                         "16-byte elements at 8192x8192, >= 90% at 8191x8193, 10000x10000, 1008x65536, 65536x1024 and 1024x65536; faster than "
                         "cuBLAS geam and the course kernel everywhere")


def transpose_memcpy_target(elem_bytes, shape):
    """The issue's minimum ratio of smemtile to cudaMemcpy for this case, or None (no such target)."""
    if shape == "8192x8192":
        return 0.98 if elem_bytes == 4 else 0.95
    if shape in ("8191x8193", "10000x10000", "1008x65536", "65536x1024", "1024x65536"):
        return 0.90
    return None


def is_transpose(benches):
    return any(name == TRANSPOSE_LIBRARY for name, _, _ in benches)


def times(x):
    return "n/a" if x is None else f"{x:.2f}x"


# ---- shared by the transpose and stencil sections: smemtile against cudaMemcpy, targets, peers -----

def usable_bw(state):
    """The state's GB/s, or None where it is missing, skipped or has no bandwidth."""
    return state.bw if (state and not state.skipped and state.bw) else None


def md_row(cells):
    return "| " + " | ".join(cells) + " |"


def md_rule(n_cols, n_text, last_text=False):
    """Markdown alignment row: n_text left-aligned columns, then right-aligned ones (the last one
    left-aligned too with last_text)."""
    tail = ["---"] if last_text else []
    return "|" + "|".join(["---"] * n_text + ["---:"] * (n_cols - n_text - len(tail)) + tail) + "|"


def target_case(lib_name, lib, base, peers, target, must_beat, skipped_cell):
    """One case of a target section. peers: [(bench, column, state or None)]; smemtile must be faster
    than those in must_beat; skipped_cell: the table cell for a skipped peer.
    Returns (table cells, plot bars, detail cells, ok (True, False or None: not evaluated), why)."""
    base_bw = usable_bw(base)
    lib_bw = usable_bw(lib)
    ratio = lib_bw / base_bw if (lib_bw and base_bw) else None
    misses, unknown = [], []
    if lib_bw is None:
        unknown.append("no smemtile result" if lib is None or not lib.skipped else f"smemtile skipped ({lib.skip_reason})")
    if target is not None:
        if ratio is None:
            unknown.append("no ratio to cudaMemcpy")
        elif ratio < target:
            misses.append(f"{pct(ratio)} < {100 * target:.0f}%")
    row = [gbps(lib_bw), pct(ratio), f">= {100 * target:.0f}%" if target else "-"]
    bars = [(lib_name, ratio, "skipped" if lib and lib.skipped else ("no cudaMemcpy" if lib_bw else "not measured"))]
    det = [gbps(base_bw), pct(ratio)]
    for bench, col, p in peers:
        if p is None or p.skipped or not p.bw:
            cell = "-" if p is None else (skipped_cell if p.skipped else "n/a")
            row.append(cell)
            bars.append((bench, None, "not measured" if p is None else ("skipped" if p.skipped else "no result")))
            det.append(cell)
            continue
        versus = lib_bw / p.bw if lib_bw else None
        cell = times(versus)
        if bench in must_beat and versus is not None and versus <= 1.0:
            misses.append(f"not faster than {col}")
            cell = f"**{cell}**"
        row.append(cell)
        peer_ratio = p.bw / base_bw if base_bw else None
        bars.append((bench, peer_ratio, "no cudaMemcpy" if peer_ratio is None else ""))
        det.append(pct(peer_ratio))
    if misses:
        verdict, ok = "**miss**: " + "; ".join(misses), False
    elif unknown:
        verdict, ok = "n/a: " + "; ".join(unknown), None
    else:
        verdict, ok = "pass", True
    row.append(verdict)
    return row, bars, det, ok, "; ".join(misses or unknown)


def target_section(heading, devices, explanation, target_text, text_head, lib_name, peers, must_beat,
                   skipped_cell, cases):
    """The markdown and plot data of a target section (transpose, stencil).
    text_head: the names of the leading text columns; peers: [(bench, column)] that ran;
    cases: [(label, text cells, smemtile's state, cudaMemcpy's state, [peer state or None], target)].
    Returns (markdown lines, plot rows, plot implementations, per-row targets, results)."""
    gpu = ", ".join(dict.fromkeys(devices.values())) or "unknown GPU"
    lines = [heading, "", f"GPU: **{gpu}**. {explanation}", "", f"Targets (issue): {target_text}.", ""]
    n_text = len(text_head)
    header = text_head + ["smemtile GB/s", "% of cudaMemcpy", "target"] + \
        [f"smemtile / {col}" for _, col in peers] + ["pass/miss"]
    lines.append(md_row(header))
    lines.append(md_rule(len(header), n_text, last_text=True))

    results, plot_rows, row_targets, detail = [], [], [], []
    plot_impls = [lib_name] + [b for b, _ in peers]
    for label, text_cells, lib, base, peer_states, target in cases:
        row, bars, det, ok, why = target_case(
            lib_name, lib, base, [(b, col, p) for (b, col), p in zip(peers, peer_states)], target, must_beat,
            skipped_cell)
        lines.append(md_row(text_cells + row))
        results.append((label, ok, why))
        plot_rows.append((label, bars))
        row_targets.append(target)
        detail.append(text_cells + det)
    lines.append("")
    passed = sum(1 for r in results if r[1] is True)
    missed = [r for r in results if r[1] is False]
    unknown = [r for r in results if r[1] is None]
    lines.append(f"**Targets: {passed} of {len(results)} cases pass, {len(missed)} miss"
                 + (f", {len(unknown)} not evaluated" if unknown else "") + ".**"
                 + (" Misses: " + "; ".join(f"{r[0]} ({r[2]})" for r in missed) + "." if missed else ""))
    lines.append("")
    # Every implementation against cudaMemcpy.
    lines.append("Every implementation, % of cudaMemcpy (same run):")
    lines.append("")
    head2 = text_head + ["cudaMemcpy GB/s", "smemtile"] + [col for _, col in peers]
    lines.append(md_row(head2))
    lines.append(md_rule(len(head2), n_text))
    for det in detail:
        lines.append(md_row(det))
    lines.append("")
    return lines, plot_rows, plot_impls, row_targets, results


def skip_reasons(benches, axis):
    """{(benchmark, skip reason): [the axis's value of each skipped state]}, in first-seen order."""
    reasons = {}
    for name, role, states in benches:
        for s in states:
            if s.skipped:
                reasons.setdefault((name, s.skip_reason), []).append(s.axes.get(axis, "?"))
    return reasons


def transpose_report(program, devices, benches):
    """Returns (markdown lines, plot rows, plot implementations, per-row targets, results)."""
    by_name = {name: states for name, _, states in benches}
    baseline_states = [s for name, role, states in benches if role == "baseline" for s in states]
    lib_states = by_name.get(TRANSPOSE_LIBRARY, [])
    peers = [(b, col) for b, col in TRANSPOSE_PEERS if b in by_name]
    multi_device = len({s.device for _, _, states in benches for s in states}) > 1

    def find(states, device, axes):
        return next((s for s in states if s.device == device and s.agrees(device, axes)
                     and all(s.axes.get(k) == v for k, v in axes.items() if k in s.axes)), None)

    # Cases: (device, T, Shape) of smemtile's states; element sizes ascending, shapes in run order.
    shapes, types, devs = [], [], []
    for s in lib_states:
        for lst, v in ((shapes, s.axes.get("Shape", "?")), (types, s.axes.get("T", "?")), (devs, s.device)):
            if v not in lst:
                lst.append(v)
    order = list(types)
    types = sorted(types, key=lambda t: (TYPE_BYTES.get(t, 99), order.index(t)))
    cases = []
    for device, t, shape in [(d, t, sh) for d in devs for t in types for sh in shapes]:
        axes = {"T": t, "Shape": shape}
        elem = TYPE_BYTES.get(t)
        elem_text = f"{elem} B ({t})" if elem else t
        dev = f" dev {device}" if multi_device else ""
        label = f"{t} ({elem} B) {shape}{dev}" if elem else f"{t} {shape}{dev}"
        cases.append((label, [elem_text, shape + dev], find(lib_states, device, axes),
                      find(baseline_states, device, axes), [find(by_name[b], device, axes) for b, _ in peers],
                      transpose_memcpy_target(elem, shape) if elem else None))

    lines, plot_rows, plot_impls, row_targets, results = target_section(
        f"## {program}: transposes", devices,
        "All numbers from this one run: GB/s = 10^9 bytes read + written per second "
        "(NVBench cold mean); % of cudaMemcpy = smemtile's GB/s / cudaMemcpyAsync device-to-device of the "
        "same bytes; `smemtile / peer` = smemtile's GB/s / the peer's (above 1.00x: smemtile is faster).",
        TRANSPOSE_TARGET_TEXT, ["Element", "Shape"], TRANSPOSE_LIBRARY, peers, TRANSPOSE_MUST_BEAT, "n/a", cases)
    for (name, reason), ts in skip_reasons(benches, "T").items():
        lines.append(f"- {name}: skipped for T = {', '.join(dict.fromkeys(ts))}: {reason}")
    if "cublas_geam" in by_name:
        lines.append("- cublas_geam is cublasSgeam for 4-byte, cublasDgeam for 8-byte and cublasZgeam for 16-byte "
                     "elements; cuBLAS has no batched geam, so a batch is one call per matrix inside the timed region.")
    lines.append("")
    return lines, plot_rows, plot_impls, row_targets, results


# ---- stencil_bench: one row per case ----------------------------------------------------------------

STENCIL_LIBRARY = "smemtile_stencil"
# (benchmark, column name); smemtile must beat every one of them wherever it ran.
STENCIL_PEERS = [("naive_global", "naive"), ("smem_halo", "smem halo"), ("hand_2_5d", "hand 2.5D")]
STENCIL_TARGET_TEXT = (">= 95% of cudaMemcpy for the 1D and 2D cases, >= 90% for bytes and halves, >= 92% for the 3D "
                       "7-point cases, >= 85% for the 27-point box and the radius-4 star; faster than every peer (naive, "
                       "smem halo, hand 2.5D) everywhere")


def stencil_memcpy_target(case):
    """The issue's minimum ratio of smemtile to cudaMemcpy for a Case axis value, or None (issue 22)."""
    c = case.upper()
    if "-U8-" in c or "-F16-" in c:  # bytes and halves
        return 0.90
    if c.startswith("1D-") or c.startswith("2D-"):
        return 0.95
    if c.startswith("3D-7PT"):
        return 0.92
    if c.startswith("3D-27BOX") or c.startswith("3D-R4"):
        return 0.85
    return None


def is_stencil(benches):
    return any(name == STENCIL_LIBRARY for name, _, _ in benches)


def stencil_report(program, devices, benches):
    """Returns (markdown lines, plot rows, plot implementations, per-row targets, results)."""
    by_name = {name: states for name, _, states in benches}
    baseline_states = [s for name, role, states in benches if role == "baseline" for s in states]
    lib_states = by_name.get(STENCIL_LIBRARY, [])
    peers = [(b, col) for b, col in STENCIL_PEERS if b in by_name]
    multi_device = len({s.device for _, _, states in benches for s in states}) > 1

    def find(states, device, case):
        return next((s for s in states if s.device == device and s.axes.get("Case") == case), None)

    keys = []
    for s in lib_states:
        key = (s.device, s.axes.get("Case", "?"))
        if key not in keys:
            keys.append(key)
    cases = []
    for device, case in keys:
        label = case + (f" dev {device}" if multi_device else "")
        cases.append((label, [label], find(lib_states, device, case), find(baseline_states, device, case),
                      [find(by_name[b], device, case) for b, _ in peers], stencil_memcpy_target(case)))

    lines, plot_rows, plot_impls, row_targets, results = target_section(
        f"## {program}: stencils", devices,
        "All numbers from this one run: GB/s = 10^9 bytes per second counting one read and "
        "one write of the array (NVBench cold mean); % of cudaMemcpy = smemtile's GB/s / cudaMemcpyAsync "
        "device-to-device of the same bytes; `smemtile / peer` = smemtile's GB/s / the peer's (above 1.00x: "
        "smemtile is faster). Peers: naive = every neighbour from global memory (L1/L2); smem halo = the "
        "textbook shared-memory halo tile (3D: the xy plane's tile, z neighbours from global memory); "
        "hand 2.5D = hand-written z sweep, xy plane in shared memory, z neighbours in registers (3D only).",
        STENCIL_TARGET_TEXT, ["Case"], STENCIL_LIBRARY, peers, {b for b, _ in STENCIL_PEERS}, "-", cases)
    reasons = skip_reasons(benches, "Case")
    for (name, reason), cs in reasons.items():
        lines.append(f"- {name}: skipped for {', '.join(dict.fromkeys(cs))}: {reason}")
    if reasons:
        lines.append("")
    return lines, plot_rows, plot_impls, row_targets, results


# ---- SVG, written by hand (no matplotlib on the GPU machine) -------------------------------------

PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
CHAR_W = 0.6  # average glyph width of the sans-serif font, in font sizes (generous)


def text_width(text, size):
    return len(text) * size * CHAR_W


def svg_plot(title, subtitle, rows, impls, target=None, row_targets=None):
    """Horizontal grouped bars: one group per case, one bar per implementation, x = ratio.
    row_targets: optional per-row minimum ratios (None: no mark), drawn as short red dashes."""
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
    for g, row_target in enumerate(row_targets or []):
        if row_target is None:
            continue
        xt = x_of(row_target)
        y0 = top + g * group_h
        out.append(f'<line x1="{xt:.1f}" y1="{y0 - 2}" x2="{xt:.1f}" y2="{y0 + group_h - group_gap + 2}" '
                   f'stroke="#d62728" stroke-width="1.5" stroke-dasharray="3,2"/>')
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
        if is_transpose(benches):
            lines, rows, impls, row_targets, _ = transpose_report(program, devices, benches)
            all_lines += lines
            plots.append(("transpose", devices, rows, impls, None, row_targets))
            continue
        if is_stencil(benches):
            lines, rows, impls, row_targets, _ = stencil_report(program, devices, benches)
            all_lines += lines
            plots.append(("stencil", devices, rows, impls, None, row_targets))
            continue
        lines, rows, _ = program_report(program, devices, benches)
        all_lines += lines
        impls = [name for name, role, _ in benches if role != "baseline"]
        target = next((t["min_ratio"] for t in TARGETS if t["program"] == program), None)
        plots.append((program, devices, rows, impls, target, None))

    gpu = ", ".join(gpu_names) if gpu_names else "unknown GPU"
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    head = [f"# smemtile benchmarks: {gpu}", "",
            f"NVBench, cold runs (L2 flushed before each), mean GPU time; GB/s = 10^9 bytes read + written "
            f"per second. Ratios are to cudaMemcpy device-to-device measured in the same run. ({stamp})", ""]
    md = head + all_lines
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        for program, devices, rows, impls, target, row_targets in plots:
            if not rows:
                continue
            names = ", ".join(dict.fromkeys(devices.values())) or "unknown GPU"
            if row_targets is not None:
                subtitle = ("bars: GB/s of each implementation / GB/s of cudaMemcpy, same bytes, same run "
                            "(black line: 100%, red dashes: smemtile's target for that case)")
            else:
                subtitle = ("bars: GB/s of each implementation / GB/s of cudaMemcpy (black line: 100%"
                            + (f", red dashes: target {100 * target:.0f}%)" if target else ")"))
            svg = svg_plot(f"{program}: throughput relative to cudaMemcpy on {names}", subtitle,
                           rows, impls, target, row_targets)
            with open(os.path.join(args.out, f"{program}.svg"), "w") as f:
                f.write(svg)
            md += [f"![{program}: ratio to cudaMemcpy]({program}.svg)", ""]
        with open(os.path.join(args.out, "benchmarks.md"), "w") as f:
            f.write("\n".join(md) + "\n")
    print("\n".join(md))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
