#!/usr/bin/env python3
"""Joins the bank model's predictions (bank_validation --model) with Nsight Compute's counters.

usage: compare.py --model model.csv --ncu ncu.csv [--markdown out.md]

ncu.csv is `ncu --csv --metrics ...` output: one row per metric per profiled kernel, columns
"ID","Process ID","Process Name","Host Name","Kernel Name",...,"Metric Name","Metric Unit","Metric Value".
Lines that are not CSV rows (==PROF== messages, program output) are skipped. Kernels are matched
to cases by the case ID in their name: bank_case<17> (demangled) or _Z9bank_caseILi17E... (mangled).

A case matches when, for loads and for stores, the measured instruction count, wavefronts (both
the L1's count and the count attributed to the SASS instructions, which Nsight Compute's Source
view and scripts/bench_bank_conflicts.sh use) and bank-conflict counter all equal the model's
requests, wavefronts and conflicts. Prints one line
per case and `N cases, M match`; exits 1 if any case differs or is missing.
"""
import argparse
import csv
import io
import re
import sys

METRICS = {
    "st_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "ld_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "st_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "ld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "st_requests": "smsp__sass_inst_executed_op_shared_st.sum",
    "ld_requests": "smsp__sass_inst_executed_op_shared_ld.sum",
    "st_sass_wavefronts": "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "ld_sass_wavefronts": "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
}
CASE_ID = re.compile(r"bank_case\s*<\s*(\d+)\s*>|bank_caseILi(\d+)E")


def read_model(path):
    device = "unknown GPU"
    lines = []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("# device:"):
                device = line.split(":", 1)[1].strip()
            elif not line.startswith("#"):
                lines.append(line)
    cases = {}
    for row in csv.DictReader(io.StringIO("".join(lines))):
        cases[int(row["case_id"])] = row
    return device, cases


def number(text):
    # ncu may print thousands separators ("1,024") or decimals ("992.00").
    text = text.strip().replace(",", "")
    if text in ("", "n/a", "N/A"):
        return None
    return int(round(float(text)))


def read_ncu(path):
    with open(path, newline="", errors="replace") as f:
        rows = [line for line in f if line.startswith('"')]
    if not rows:
        sys.exit(f"compare.py: no CSV rows in {path} (did ncu run? see its log)")
    measured = {}  # case id -> {key: value}; kernels launched twice would add up, so refuse them
    launches = {}
    name_of = {v: k for k, v in METRICS.items()}
    for row in csv.DictReader(io.StringIO("".join(rows))):
        match = CASE_ID.search(row.get("Kernel Name", ""))
        if not match or row.get("Metric Name") not in name_of:
            continue
        case_id = int(match.group(1) or match.group(2))
        launches.setdefault(case_id, set()).add(row.get("ID"))
        measured.setdefault(case_id, {})[name_of[row["Metric Name"]]] = number(row["Metric Value"])
    repeated = sorted(c for c, ids in launches.items() if len(ids) > 1)
    if repeated:
        sys.exit(f"compare.py: cases profiled more than once: {repeated}")
    return measured


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--ncu", required=True)
    parser.add_argument("--markdown")
    args = parser.parse_args()

    device, model = read_model(args.model)
    measured = read_ncu(args.ncu)

    header = ("id", "case", "ld model wf/ideal/confl", "ld measured wf/confl/inst",
              "st model wf/ideal/confl", "st measured wf/confl/inst", "match")
    table = []
    matches = 0
    for case_id in sorted(model):
        m = model[case_id]
        got = measured.get(case_id)
        cells = [str(case_id), m["name"]]
        ok = got is not None and all(got.get(k) is not None for k in METRICS)
        differences = []
        for op in ("ld", "st"):
            cells.append(f'{m[op + "_wavefronts"]}/{m[op + "_ideal"]}/{m[op + "_conflicts"]} ({m[op + "_requests"]} inst)')
            if got is None:
                cells.append("not profiled")
                continue
            cells.append(f'{got.get(op + "_wavefronts")}/{got.get(op + "_conflicts")}/{got.get(op + "_requests")}')
            for key in ("wavefronts", "conflicts", "requests"):
                if got.get(f"{op}_{key}") != int(m[f"{op}_{key}"]):
                    differences.append(f"{op} {key}")
            if got.get(f"{op}_sass_wavefronts") != int(m[f"{op}_wavefronts"]):
                differences.append(f"{op} SASS-attributed wavefronts")
        ok = ok and not differences
        matches += ok
        cells.append("yes" if ok else "NO: " + ", ".join(differences) if got is not None else "NO: missing")
        table.append(cells)

    widths = [max(len(header[i]), *(len(r[i]) for r in table)) for i in range(len(header))]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for r in table:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    summary = f"{len(model)} cases, {matches} match"
    print(summary)

    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("# Bank model vs hardware\n\n")
            f.write(f"GPU: **{device}**. Generated by `scripts/bank_validation/run.sh` "
                    "(Nsight Compute counters, one warp per kernel, every access one instruction).\n\n")
            f.write("Model (`include/smemtile/core/conflict_free_tiles.cuh`): 32 banks of 4 bytes; phases of 32 lanes for 1/2/4-byte, "
                    "16 for 8-byte, 8 for 16-byte accesses; a phase costs the largest number of distinct 32-bit "
                    "words in one bank; 8/16-byte loads whose lanes share addresses in pairs (lane ^ 1 or lane ^ 2) use phases twice as large; "
                    "ideal = phases with an active lane; conflicts = wavefronts - ideal. "
                    "Measured: `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum` (wf), "
                    "`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum` (confl), "
                    "`smsp__sass_inst_executed_op_shared_{ld,st}.sum` (inst); the wavefronts attributed to the SASS "
                    "instructions, `smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum` (what Nsight "
                    "Compute's Source view, and so scripts/bench_bank_conflicts.sh, counts), must equal wf too. "
                    "Case names: `RxC_eBYTES_LAYOUT_PATTERN`; `seed` stores rows and reads the seeds' transposed "
                    "mapping (setRowReadCol); `probe_*` are hand-made warps testing the 8/16-byte rules.\n\n")
            f.write("| " + " | ".join(header) + " |\n")
            f.write("|" + "---|" * len(header) + "\n")
            for r in table:
                f.write("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |\n")
            f.write(f"\n**{summary}**\n")
    return 0 if matches == len(model) else 1


if __name__ == "__main__":
    sys.exit(main())
