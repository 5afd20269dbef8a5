#!/usr/bin/env python3
"""Sum a tb_profile plugin dump (qemu/plugins/tb_profile.c) by symbol.

usage: tb_profile.py DUMP ELF [ELF...] [--per BLOCK_HEX:TIMES]

ELFs are the kernel ELF and the firmware ELF of the device the dump came
from (their symbols; addresses are guest virtual). --per divides every
count by (executions of the block at BLOCK_HEX) / TIMES: e.g. the kernel's
entry block, run once per work-item, with TIMES = the launch's work-items,
gives instructions per work-item even when the dump missed the end of a
launch.

It also counts the block exits QEMU resolves through a lookup of the next
block (helper_lookup_tb_ptr) instead of a chained jump: every indirect jump
(jalr, jr, ret), and a jump or fall-through to another 4 KiB page than the
block's first instruction (QEMU 7.2 chains only within that page). A block
ending in a conditional branch with either way off the page counts once
(an upper bound); traps and ecalls are not counted."""
import bisect
import collections
import re
import subprocess
import sys

PAGE = 4096


def symbols(elf):
    out = subprocess.run(['riscv64-unknown-elf-nm', '-n', elf], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TtWw':
            yield int(parts[0], 16), elf.rsplit('/', 1)[-1] + ':' + parts[2]


INSN = re.compile(r'^\s*([0-9a-f]+):\s+([0-9a-f]+)\s+(\S+)\s*(.*)$')


def instructions(elf):
    """addr -> (size, mnemonic, operands) from objdump's disassembly."""
    out = subprocess.run(['riscv64-unknown-elf-objdump', '-d', elf], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        m = INSN.match(line)
        if m:
            yield int(m.group(1), 16), (len(m.group(2)) // 2, m.group(3), m.group(4))


def lookup_exit(pc, n, insns):
    """Whether the block at pc of n instructions leaves through a lookup."""
    a = pc
    for _ in range(n - 1):
        if a not in insns:
            return False
        a += insns[a][0]
    if a not in insns:
        return False
    size, op, args = insns[a]
    if op in ('jalr', 'jr', 'ret', 'c.jr', 'c.jalr'):
        return True
    off_page = lambda t: (t // PAGE) != (pc // PAGE)
    target = re.match(r'.*?\b([0-9a-f]+)\s*(<.*>)?$', args)
    if op in ('jal', 'j', 'c.j', 'c.jal') and target:
        return off_page(int(target.group(1), 16))
    if op.startswith('b') and target:
        return off_page(int(target.group(1), 16)) or off_page(a + size)
    if op in ('ecall', 'ebreak', 'mret', 'sret', 'wfi'):
        return False
    return off_page(a + size)


def main(argv):
    per = None
    if '--per' in argv:
        i = argv.index('--per')
        block, times = argv[i + 1].split(':')
        per = (int(block, 16), float(times))
        del argv[i:i + 2]
    if len(argv) < 3:
        sys.exit(__doc__)
    syms = sorted(s for elf in argv[2:] for s in symbols(elf))
    insns = dict(i for elf in argv[2:] for i in instructions(elf))
    addrs = [a for a, _ in syms]
    counts, blocks, lookups = collections.Counter(), collections.Counter(), collections.Counter()
    scale = 1.0
    with open(argv[1]) as f:
        rows = [tuple(int(x, 16) if i == 0 else int(x) for i, x in enumerate(line.split())) for line in f]
    if per:
        runs = sum(e for pc, _, e in rows if pc == per[0])
        if not runs:
            sys.exit('tb_profile.py: block %x never ran' % per[0])
        scale = per[1] / runs
    for pc, n, execs in rows:
        i = bisect.bisect_right(addrs, pc) - 1
        name = syms[i][1] if i >= 0 else '?%x' % pc
        counts[name] += n * execs
        blocks[name] += execs
        if lookup_exit(pc, n, insns):
            lookups[name] += execs
    total = sum(counts.values())
    print('%14.1f instructions%s, %.1f blocks run, %.1f lookups' % (
        total * scale, ' per unit' if per else '', sum(blocks.values()) * scale, sum(lookups.values()) * scale))
    for name, v in counts.most_common(20):
        print('%14.1f %5.1f%%  blocks %12.1f  lookups %12.1f  %s' % (
            v * scale, 100.0 * v / total, blocks[name] * scale, lookups[name] * scale, name))


if __name__ == '__main__':
    main(sys.argv)
