#!/usr/bin/python3
"""Which of clang's OpenCL C built-ins (opencl-c.h, OpenCL C 1.2 with
cl_khr_fp64) a set of compiled built-in objects defines.

  opencl_builtin_coverage.py [--xlen 32|64] [--cl3] [--list-missing] OBJ...

--cl3: the overloads declared for OpenCL C 3.0 with the generic address
space and the named-address-space built-ins (how sdk/opencl/CMakeLists.txt
builds the library for kernels), instead of OpenCL C 1.2.

Lists the pure families (math, common, geometric, integer, relational,
conversions, vector loads/stores, shuffles): declared overloads, defined,
missing. The execution-model built-ins (work-items, barriers, atomics,
printf, async copies) and the unsupported ones (images, pipes, ...) are
counted apart. Needs python3-clang-16 (libclang) and llvm-nm-16."""
import argparse, collections, re, subprocess, sys
import clang.cindex as ci

ci.Config.set_library_file('/usr/lib/llvm-16/lib/libclang.so.1')

# First match wins; the name is the built-in's OpenCL name.
FAMILIES = [
    ('execution', r'^(get_\w+|barrier|work_group_barrier|\w*mem_fence|atomic_\w+|atom_\w+|printf|async_work_group\w*|wait_group_events|prefetch)$'),
    ('unsupported', r'(image|sampler|pipe|enqueue|ndrange|sub_group|work_group_(?!barrier)|to_global|to_local|to_private|get_fence|\w*_event|capture_event|intel_|cl_khr)'),
    ('convert', r'^convert_'),
    ('vload', r'^v(load|store)'),
    ('shuffle', r'^shuffle2?$'),
    ('relational', r'^(isequal|isnotequal|isgreater|isgreaterequal|isless|islessequal|islessgreater|isfinite|isinf|isnan|isnormal|isordered|isunordered|signbit|any|all|bitselect|select)$'),
    ('geometric', r'^(cross|dot|distance|length|normalize|fast_distance|fast_length|fast_normalize)$'),
    ('common', r'^(degrees|mix|radians|step|smoothstep|sign)$'),
    ('integer', r'^(abs|abs_diff|add_sat|hadd|rhadd|clz|ctz|mad_hi|mad_sat|mul_hi|rotate|sub_sat|upsample|popcount|mad24|mul24)$'),
    ('common/integer', r'^(clamp|max|min)$'),
    ('math', r'.'),
]


CL3_EXT = ('-cl-ext=-all,+cl_khr_fp64,+__opencl_c_fp64,+cl_khr_byte_addressable_store,'
           '+__opencl_c_program_scope_global_variables,+__opencl_c_named_address_space_builtins,'
           '+__opencl_c_generic_address_space,+__opencl_c_int64')


def declared(xlen, cl3):
    std = ['-cl-std=CL3.0', '-Xclang', CL3_EXT] if cl3 else ['-cl-std=CL1.2', '-Xclang', '-cl-ext=+cl_khr_fp64']
    tu = ci.Index.create().parse(
        'empty.cl', unsaved_files=[('empty.cl', '')],
        args=['-resource-dir', '/usr/lib/llvm-16/lib/clang/16', '-x', 'cl', '-include', 'opencl-c.h'] + std +
             [f'--target=riscv{xlen}-unknown-elf'])
    out = {}
    for c in tu.cursor.get_children():
        if c.kind == ci.CursorKind.FUNCTION_DECL and c.mangled_name.startswith('_Z'):
            out[c.mangled_name] = c.spelling
    return out


def family(name):
    for fam, rx in FAMILIES:
        if re.search(rx, name):
            return fam
    return 'math'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--xlen', type=int, default=64)
    ap.add_argument('--list-missing', action='store_true')
    ap.add_argument('--cl3', action='store_true')
    ap.add_argument('objs', nargs='+')
    a = ap.parse_args()
    decl = declared(a.xlen, a.cl3)
    nm = subprocess.run(['/usr/lib/llvm-16/bin/llvm-nm', '--defined-only', '-j'] + a.objs,
                        check=True, capture_output=True, text=True).stdout.split()
    defined = set(nm)
    tot = collections.Counter(); got = collections.Counter(); missing = collections.defaultdict(list)
    for m, n in decl.items():
        f = family(n)
        tot[f] += 1
        if m in defined:
            got[f] += 1
        else:
            missing[f].append(m)
    bad = 0
    for f in sorted(tot):
        print(f'{f:16s} declared {tot[f]:6d} defined {got[f]:6d} missing {tot[f] - got[f]:6d}')
        if f not in ('execution', 'unsupported'):
            bad += tot[f] - got[f]
    if a.list_missing:
        for f in sorted(missing):
            if f in ('execution', 'unsupported'):
                continue
            for m in sorted(missing[f]):
                print(f'missing {f} {m}')
    return 1 if bad else 0


sys.exit(main())
