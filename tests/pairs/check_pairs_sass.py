#!/usr/bin/env python3
"""SASS check of issue 25's kernel pairs (bench/pairs/*.cuh), run by CTest without a GPU.

Compiles SOURCE (a .cu that instantiates every pair's hand_<name> and lib_<name> kernels) to a cubin
with nvcc (-std=c++17 -O3 -DNDEBUG -arch=sm_<ARCH>), reads it back with cuobjdump (-res-usage and
-sass) and, for every pair, checks that the library kernel
  1. uses no more registers than the hand-written one,
  2. has no more memory instructions in its hot loop (LDG, STG, LDS, STS, LDGSTS, LDSM, STSM, LD, ST,
     LDL, STL, ATOM, ATOMG, ATOMS, RED, REDG, REDAS, and the TMA / bulk copies UBLKCP, UTMALDG,
     UTMASTG, UTMAPF; constant-bank loads LDC/ULDC are not counted),
  3. has at most TOLERANCE (1.05) times the hand kernel's instructions in its hot loop (NOPs, the
     scheduler's padding, are never counted).

The hot loop. In SASS a loop is a backward branch (BRA whose target address is at or before the
branch itself, the branch not to itself: `EXIT` is followed by a `BRA` to itself, which is no loop);
its body is every instruction from the target to the branch, inclusive. The hot loop of a kernel is
its OUTERMOST loop: the one whose body spans the most addresses (a k-loop, a grid-stride loop, a
sort's stage loop), inner loops and the copies' per-unit loops inside it included. Where either
kernel of a pair has no backward branch (its loops all unrolled away), both are counted whole. Where a
pair needs another choice, --loop PAIR=MODE overrides it: `outer` (the default), `whole` (every
instruction of the kernel), `inner` (the loop with the smallest span: the innermost one, when the
outer loop only repeats a stage). If the compiler duplicates a loop (unswitching), only the largest
copy counts: the check compares what one trip of the executed loop can cost, not code size.

Unrolling. The compiler may unroll one kernel's loop and not the other's (the hand matrix product's
k-loop comes out unrolled 4 times, the library's not), so the counts are taken per trip of the less
unrolled loop: m being how many times a marker opcode occurs in each loop, where one loop's m is a
whole multiple (2 or more) of the other's, its counts are divided by that factor. The marker is BAR
(__syncthreads: the same number per source trip in both kernels) unless --unit PAIR=OPCODE names
another (ATOMS for a loop of shared atomics, say) or `none`. Nothing is scaled where either loop
lacks the marker, where the counts are not whole multiples, or when whole kernels are compared (the
table says `-` or `not scaled`). A library kernel that adds barriers in whole multiples to its loop
would be scaled down too: the table shows the marker counts, and a reviewer sees them.

Pairs are found by name: a kernel whose mangled name has the identifier hand_<x> is paired with the one
whose name is the same with lib_<x> (same namespace, template arguments and parameter list). The
label printed is <x> with its integer / bool template arguments, e.g. matmul_tiled<16>.

Expected failures: --expected-fail "a;b" (or "a,b") (CMake list SMEMTILE_PAIRS_EXPECTED_FAIL) names pairs whose
library kernel is known to miss today; their misses are reported (XFAIL) but do not fail the test.
An expected failure that passes (XPASS) fails the test, so that the list is kept exact: remove the
pair from the list. Exit status: 0 when every pair passes or fails as expected, 1 otherwise, 2 when
compilation or disassembly fails or no pair is found.

Usage:
  check_pairs_sass.py --nvcc NVCC --cuobjdump CUOBJDUMP --source F.cu --work-dir DIR [--arch 90]
                      [-I DIR]... [-D DEF]... [--expected-fail "a;b"] [--loop "pair=mode;..."]
                      [--unit "pair=OPCODE;..."] [--tolerance 1.05] [--markdown OUT.md]
"""
import argparse
import os
import re
import subprocess
import sys

MEMORY_OPCODES = {
    "LDG", "STG", "LDS", "STS", "LDGSTS", "LDSM", "STSM", "LD", "ST", "LDL", "STL",
    "ATOM", "ATOMG", "ATOMS", "RED", "REDG", "REDAS", "UBLKCP", "UTMALDG", "UTMASTG", "UTMAPF",
}

# /*0a50*/   @!P0 BRA 0x1f90 ;
INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]+)\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);")
FUNCTION = re.compile(r"Function\s*:\s*([A-Za-z0-9_$]+)")
RESOURCE = re.compile(r"Function\s+([A-Za-z0-9_$]+):\s*\n\s*REG:(\d+)")


class Kernel:
    def __init__(self, name):
        self.name = name
        self.instructions = []  # (address, opcode, operands)
        self.registers = None

    def loops(self):
        """(first address, branch address) of every backward branch that is not a self-loop."""
        found = []
        for address, opcode, operands in self.instructions:
            if opcode.split(".")[0] not in ("BRA", "JMP"):
                continue
            targets = re.findall(r"0x([0-9a-f]+)", operands)
            if not targets:
                continue
            target = int(targets[-1], 16)
            if target < address:
                found.append((target, address))
        return found

    def hot_loop(self, mode):
        loops = self.loops()
        if mode == "whole" or not loops:
            return None, self.instructions
        if mode == "inner":
            first, last = min(loops, key=lambda span: (span[1] - span[0], span[0]))
        else:
            first, last = max(loops, key=lambda span: (span[1] - span[0], -span[0]))
        return (first, last), [i for i in self.instructions if first <= i[0] <= last]


def count_memory(instructions):
    return sum(1 for _, opcode, _ in instructions if opcode.split(".")[0] in MEMORY_OPCODES)


def count_opcode(instructions, opcode):
    return sum(1 for _, op, _ in instructions if op.split(".")[0] == opcode)


def fmt(value):
    return ("%.1f" % value).rstrip("0").rstrip(".")


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if result.returncode != 0:
        sys.stderr.write(" ".join(command) + "\n" + result.stdout)
        sys.exit(2)
    return result.stdout


def parse(sass, resources):
    kernels = {}
    current = None
    for line in sass.splitlines():
        match = FUNCTION.search(line)
        if match:
            current = kernels.setdefault(match.group(1), Kernel(match.group(1)))
            continue
        match = INSTRUCTION.match(line)
        if current is not None and match:
            opcode = match.group(3)
            if opcode.split(".")[0] == "NOP":
                continue
            current.instructions.append((int(match.group(1), 16), opcode, match.group(4)))
    for match in RESOURCE.finditer(resources):
        if match.group(1) in kernels:
            kernels[match.group(1)].registers = int(match.group(2))
    return kernels


def name_tokens(mangled):
    """The <length><identifier> tokens of a mangled nested name _ZN...E: [(start, end, identifier)]."""
    tokens = []
    if not mangled.startswith("_ZN"):
        return tokens
    i = 3
    while i < len(mangled) and mangled[i].isdigit():
        j = i
        while mangled[j].isdigit():
            j += 1
        length = int(mangled[i:j])
        tokens.append((i, j + length, mangled[j:j + length]))
        i = j + length
    return tokens


def hand_token(mangled):
    """The token hand_<x> of a mangled name (the kernel's own name), or None."""
    tokens = name_tokens(mangled)
    if tokens and tokens[-1][2].startswith("hand_"):
        return tokens[-1]
    return None


def pair_label(mangled):
    """<x> of hand_<x> and its integer / bool template arguments: 'x<16>' or 'x'."""
    _, end, identifier = hand_token(mangled)
    label = identifier[len("hand_"):]
    rest = mangled[end:]
    if rest.startswith("I"):
        args = re.match(r"I((?:L[a-z]+\d+E)+)E", rest)
        if args:
            values = re.findall(r"L([a-z]+)(\d+)E", args.group(1))
            label += "<" + ",".join(("true" if v == "1" else "false") if t == "b" else v for t, v in values) + ">"
    return label


def lib_twin(mangled):
    start, end, identifier = hand_token(mangled)
    lib = "lib_" + identifier[len("hand_"):]
    return mangled[:start] + str(len(lib)) + lib + mangled[end:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nvcc", required=True)
    parser.add_argument("--cuobjdump", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--arch", default="90")
    parser.add_argument("-I", dest="includes", action="append", default=[])
    parser.add_argument("-D", dest="defines", action="append", default=[])
    parser.add_argument("--expected-fail", default="")
    parser.add_argument("--loop", default="")
    parser.add_argument("--unit", default="")
    parser.add_argument("--tolerance", type=float, default=1.05)
    parser.add_argument("--markdown", default="")
    args = parser.parse_args()

    expected = {p for p in re.split(r"[;,]", args.expected_fail) if p}
    loop_modes = {}
    for item in (i for i in re.split(r"[;,]", args.loop) if i):
        pair, _, mode = item.partition("=")
        if mode not in ("outer", "whole", "inner"):
            sys.exit("check_pairs_sass.py: --loop %s: mode must be outer, whole or inner" % item)
        loop_modes[pair] = mode
    units = {}
    for item in (i for i in re.split(r"[;,]", args.unit) if i):
        pair, _, opcode = item.partition("=")
        units[pair] = opcode

    os.makedirs(args.work_dir, exist_ok=True)
    cubin = os.path.join(args.work_dir, "pairs.cubin")
    command = [args.nvcc, "-std=c++17", "-O3", "-DNDEBUG", "-arch=sm_%s" % args.arch, "-cubin"]
    command += ["-I" + d for d in args.includes] + ["-D" + d for d in args.defines]
    run(command + [args.source, "-o", cubin])
    sass = run([args.cuobjdump, "-sass", cubin])
    resources = run([args.cuobjdump, "-res-usage", cubin])
    with open(os.path.join(args.work_dir, "pairs.sass"), "w") as f:
        f.write(sass)
    kernels = parse(sass, resources)

    rows, failures, problems = [], [], []
    for name in sorted(kernels):
        if hand_token(name) is None:
            continue
        label = pair_label(name)
        twin = lib_twin(name)
        if twin not in kernels:
            problems.append("%s: no library twin %s" % (label, twin))
            continue
        hand, lib = kernels[name], kernels[twin]
        mode = loop_modes.get(label, "outer")
        if not hand.loops() or not lib.loops():
            mode = "whole"  # one of them has no loop left: compare the whole kernels
        hand_span, hand_loop = hand.hot_loop(mode)
        lib_span, lib_loop = lib.hot_loop(mode)
        misses = []
        if hand.registers is None or lib.registers is None:
            problems.append("%s: no register count from cuobjdump -res-usage" % label)
            continue
        if lib.registers > hand.registers:
            misses.append("registers %d > %d" % (lib.registers, hand.registers))
        unit = units.get(label, "BAR")
        hand_marks = count_opcode(hand_loop, unit) if unit != "none" else 0
        lib_marks = count_opcode(lib_loop, unit) if unit != "none" else 0
        hand_scale = lib_scale = 1.0
        most, fewest = max(hand_marks, lib_marks), min(hand_marks, lib_marks)
        if mode != "whole" and fewest and most % fewest == 0 and most > fewest:
            hand_scale, lib_scale = fewest / hand_marks, fewest / lib_marks
            markers = "%s %d/%d" % (unit, hand_marks, lib_marks)
        else:
            markers = ("-" if mode == "whole" or not fewest else "%s %d/%d%s" % (
                unit, hand_marks, lib_marks, "" if most == fewest else " (not scaled)"))
        hand_mem, lib_mem = count_memory(hand_loop) * hand_scale, count_memory(lib_loop) * lib_scale
        hand_count, lib_count = len(hand_loop) * hand_scale, len(lib_loop) * lib_scale
        if lib_mem > hand_mem + 1e-9:
            misses.append("loop memory instructions %g > %g" % (lib_mem, hand_mem))
        if lib_count > args.tolerance * hand_count + 1e-9:
            misses.append("loop instructions %g > %.2f x %g (%.2fx)" %
                          (lib_count, args.tolerance, hand_count, lib_count / max(1.0, hand_count)))
        if misses and label in expected:
            verdict = "XFAIL"
        elif misses:
            verdict = "FAIL"
            failures.append("%s: %s" % (label, "; ".join(misses)))
        elif label in expected:
            verdict = "XPASS"
            failures.append("%s: passes but is in the expected-failure list (remove it from SMEMTILE_PAIRS_EXPECTED_FAIL)"
                            % label)
        else:
            verdict = "ok"
        where = mode
        rows.append((label, where, markers, hand.registers, lib.registers, fmt(hand_count), fmt(lib_count),
                     fmt(hand_mem), fmt(lib_mem), len(hand.instructions), len(lib.instructions), verdict,
                     "; ".join(misses)))
    twins = {lib_twin(h) for h in kernels if hand_token(h) is not None}
    for name in kernels:
        tokens = name_tokens(name)
        if tokens and tokens[-1][2].startswith("lib_") and name not in twins:
            problems.append("%s: library kernel without a hand twin" % name)

    header = ("pair", "loop", "unroll marker", "hand regs", "lib regs", "hand loop instrs", "lib loop instrs", "hand loop mem",
              "lib loop mem", "hand total", "lib total", "verdict", "misses")
    table = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        table.append("| " + " | ".join(str(c) for c in row) + " |")
    print("\n".join(table))
    print("(loop: outer = the outermost loop, whole = the whole kernel (chosen, or a kernel without loops); unroll marker: its count in the hand / lib loop, the loop counts being per trip of the less "
          "unrolled loop; memory = LDG/STG/LDS/STS/atomics/...; allowed: lib regs <= hand, lib loop memory <= "
          "hand, lib loop instructions <= %.2f x hand)" % args.tolerance)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(table) + "\n")
    for problem in problems:
        print("ERROR: " + problem)
    for failure in failures:
        print("FAIL: " + failure)
    xfail = [r[0] for r in rows if r[11] == "XFAIL"]
    if xfail:
        print("expected failures (SMEMTILE_PAIRS_EXPECTED_FAIL): " + ", ".join(xfail))
    if not rows:
        print("ERROR: no hand_/lib_ kernel pairs in " + args.source)
        return 2
    if problems:
        return 2
    print("%d pairs: %d ok, %d expected failures, %d failures" %
          (len(rows), sum(r[11] == "ok" for r in rows), len(xfail), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
