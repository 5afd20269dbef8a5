#!/usr/bin/env python3
"""Sum a tb_profile plugin dump (qemu/plugins/tb_profile.c) by symbol.

usage: tb_profile.py DUMP ELF [ELF...] [--per BLOCK_HEX:TIMES]

ELFs are the kernel ELF and the firmware ELF of the device the dump came
from (their symbols; addresses are guest virtual). --per divides every
count by (executions of the block at BLOCK_HEX) / TIMES: e.g. the kernel's
entry block, run once per work-item, with TIMES = the launch's work-items,
gives instructions per work-item even when the dump missed the end of a
launch."""
import bisect
import collections
import subprocess
import sys


def symbols(elf):
    out = subprocess.run(['riscv64-unknown-elf-nm', '-n', elf], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TtWw':
            yield int(parts[0], 16), elf.rsplit('/', 1)[-1] + ':' + parts[2]


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
    addrs = [a for a, _ in syms]
    insns, blocks = collections.Counter(), collections.Counter()
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
        insns[name] += n * execs
        blocks[name] += execs
    total = sum(insns.values())
    print('%14.1f instructions%s, %.1f blocks run' % (total * scale, ' per unit' if per else '',
                                                       sum(blocks.values()) * scale))
    for name, v in insns.most_common(20):
        print('%14.1f %5.1f%%  blocks %12.1f  %s' % (v * scale, 100.0 * v / total, blocks[name] * scale, name))


if __name__ == '__main__':
    main(sys.argv)
