#!/usr/bin/env python3
"""librvhal exports exactly its public API: the functions declared in
host/include/rvhal/*.h, the global list of host/librvhal.map, and the
functions the shared library defines for the dynamic linker are one set.

    check_exports.py NM LIBRVHAL.so MAP INCLUDE_DIR
"""
import glob
import re
import subprocess
import sys

nm, lib, map_file, include = sys.argv[1:5]

declared = set()
for path in sorted(glob.glob(include + "/rvhal/*.h")):
    text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
    decl = r"^(?!static)(?!typedef)(?!#)[A-Za-z_][^;{}()]*?\b(\w+)\s*\([^;{}]*\)\s*(?:__attribute__\(\([^;]*\)\)\s*)?;"
    declared |= set(m.group(1) for m in re.finditer(decl, text, flags=re.M))

text = re.sub(r"/\*.*?\*/", "", open(map_file).read(), flags=re.S)
listed = set(re.findall(r"^\s*(\w+);", text.split("local:")[0].split("global:")[1], flags=re.M))

out = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True, text=True, check=True).stdout
exported = set(f[2] for f in (line.split() for line in out.splitlines()) if len(f) == 3 and f[1] in "TtWi")

failed = False
for what, a, b in (("declared in the public headers but not in the map", declared, listed),
                   ("in the map but declared in no public header", listed, declared),
                   ("in the map but not exported by the library", listed, exported),
                   ("exported by the library but not in the map", exported, listed)):
    extra = sorted(a - b)
    if extra:
        failed = True
        print(f"{len(extra)} functions {what}: {', '.join(extra)}")
if failed:
    sys.exit(1)
print(f"librvhal exports its {len(declared)} public functions and nothing else")
