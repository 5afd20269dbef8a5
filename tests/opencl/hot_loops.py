#!/usr/bin/env python3
"""What rvhal's OpenCL C compiler leaves in a kernel's loops, read from the
kernel ELF's disassembly (test opencl.hot_loops):

  hot_loops.py RVHAL OBJDUMP KERNELS.cl [--xlen 64|32]

compiles KERNELS.cl (tests/opencl/kernels/hot_loops.cl) with `RVHAL cc`
(-cl-std=CL3.0) and
checks, in every function of the ELF:

  - no OpenCL C built-in is left out of line: no symbol of the built-in
    library (Itanium-mangled, _Z...) nor of the work-item functions
    (__rvhal_cl_...) is in the ELF, so none is called;
  - the innermost loop around each atomic (an AMO) holds no call (but of
    the SDK's per-group runtime, rvhal_*) and one
    load, the byte the kernel counts: the work-item queries of the loop's
    start, bound and stride (get_global_size(0), get_enqueued_local_size(0),
    get_work_dim(), ...) are read before the loop, not at every step;
  - the innermost loop around each float load holds no call (blur's clamp,
    min, max and mad inline).

A loop is a backward branch within a function: from its target to it.
Exits 1 listing what it found otherwise."""
import os
import re
import subprocess
import sys
import tempfile

LOADS = {"lb", "lbu", "lh", "lhu", "lw", "lwu", "ld", "flw", "fld"}
CALLS = {"jal", "jalr", "call", "tail"}  # a `j` is jal zero: not a call
FUNC = re.compile(r"^([0-9a-f]+) <(.+)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\t(\S+)\t?(.*)$")
TARGET = re.compile(r"\b([0-9a-f]+) <([^>+]+)")


def disassemble(objdump, elf):
    """{function: [(address, mnemonic, operands)]} of the ELF's code."""
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", elf], check=True, capture_output=True,
                         text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = FUNC.match(line)
        if m:
            cur = funcs.setdefault(m.group(2), [])
            continue
        m = INSN.match(line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(2), m.group(3)))
    return funcs


def is_call(mnemonic, operands):
    """A call, other than of the SDK's runtime (rvhal_*: a group's start, its
    __local memory, a barrier's slow path), which runs per group."""
    if mnemonic == "jal" and operands.startswith("zero,"):
        return False
    if mnemonic not in CALLS:  # jalr ra / jalr OFF(ra) is a call; `jr` is printed as jr
        return False
    m = TARGET.search(operands)
    return not (m and m.group(2).startswith("rvhal_"))


def loops(insns):
    """(start, end) address ranges of the function's backward branches."""
    lo, hi = insns[0][0], insns[-1][0]
    found = []
    for addr, mnem, ops in insns:
        if not (mnem.startswith("b") or mnem == "j"):
            continue
        m = TARGET.search(ops)
        if not m:
            continue
        target = int(m.group(1), 16)
        if lo <= target <= addr <= hi:
            found.append((target, addr))
    return found


def innermost(ranges, addr):
    around = [r for r in ranges if r[0] <= addr <= r[1]]
    return min(around, key=lambda r: r[1] - r[0]) if around else None


def check(funcs, problems):
    amo_loops = fp_loops = 0
    for name, insns in funcs.items():
        if not insns:
            continue
        ranges = loops(insns)
        for addr, mnem, ops in insns:
            amo = mnem.startswith("amo")
            fp = mnem == "flw"
            if not (amo or fp):
                continue
            loop = innermost(ranges, addr)
            if not loop:
                continue
            body = [i for i in insns if loop[0] <= i[0] <= loop[1]]
            calls = [f"{m} {o}" for _, m, o in body if is_call(m, o)]
            if calls:
                problems.append(f"{name}: the loop {loop[0]:#x}-{loop[1]:#x} around {mnem} at {addr:#x} calls: "
                                f"{'; '.join(calls)}")
            if amo:
                amo_loops += 1
                loads = [f"{m} {o}" for _, m, o in body if m in LOADS]
                if len(loads) != 1:
                    problems.append(f"{name}: the loop {loop[0]:#x}-{loop[1]:#x} around {mnem} at {addr:#x} loads "
                                    f"{len(loads)} times, not once (the counted byte): {'; '.join(loads)}")
            else:
                fp_loops += 1
    return amo_loops, fp_loops


def main():
    args = sys.argv[1:]
    xlen = "64"
    if "--xlen" in args:
        i = args.index("--xlen")
        xlen = args[i + 1]
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    rvhal, objdump, source = args
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        elf = os.path.join(tmp, "hot_loops.elf")
        # OpenCL C 3.0: get_enqueued_local_size and the linear ids are 2.0's
        subprocess.run([rvhal, "cc", "--xlen", xlen, "-cl-std=CL3.0", source, "-o", elf], check=True)
        symbols = subprocess.run([objdump, "-t", elf], check=True, capture_output=True, text=True).stdout
        for line in symbols.splitlines():
            name = line.split()[-1] if line.split() else ""
            if name.startswith("_Z") or name.startswith("__rvhal_cl_"):
                problems.append(f"a built-in is out of line: symbol {name}")
        funcs = disassemble(objdump, elf)
    for kernel in ("histogram", "strides", "blur"):
        if kernel not in funcs:
            problems.append(f"no function {kernel} (the kernel's entry) in the ELF")
    amo_loops, fp_loops = check(funcs, problems)
    # The kernels' atomics are in loops (the histogram's two, strides' five,
    # each in several copies: the group's first item, the row loop, the
    # contexts), and blur's loads in the SDK's loops over the items.
    if amo_loops < 7 or fp_loops < 9:
        problems.append(f"only {amo_loops} atomics and {fp_loops} float loads found in loops: the disassembly "
                        "was not read as this test expects")
    for p in problems:
        print(f"hot_loops (RV{xlen}): {p}")
    print(f"hot_loops (RV{xlen}): {amo_loops} atomics and {fp_loops} float loads in loops checked, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
