"""The Chrome trace of an OpenCL program (RVHAL_PROFILE=trace=F) as
docs/opencl.md describes it: every command of an OpenCL queue on the track
of its rvhal queue, named "queue N" with the N its own name says ("kernel
vector_add_entry (command 1 of queue 1)"), those tracks sorted below the
harts' (no sort index: after the harts' tids), the commands of the kinds
the doc lists, and kernels among them.

usage: trace_check.py PROGRAM ARGS...   (runs it with RVHAL_PROFILE=trace=<temp file>)"""
import json
import os
import re
import subprocess
import sys
import tempfile

KINDS = {"kernel", "write", "read", "copy", "fill", "marker", "free", "callback"}


def main():
    failures = 0

    def check(ok, what):
        nonlocal failures
        if not ok:
            failures += 1
            print("FAIL:", what)

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.json")
        r = subprocess.run(sys.argv[1:], env=dict(os.environ, RVHAL_PROFILE="trace=" + path))
        check(r.returncode == 0, f"{sys.argv[1]} exit status {r.returncode}")
        events = json.load(open(path))["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    sorted_tids = {e["tid"] for e in events if e.get("name") == "thread_sort_index"}
    harts = [t for t, n in names.items() if re.fullmatch(r"hart \d+", n)]
    queues = {t: n for t, n in names.items() if re.fullmatch(r"queue \d+", n)}
    check(harts and queues, f"tracks of harts and of queues: {sorted(names.values())}")
    for t in queues:
        check(t not in sorted_tids and t > max(harts), f"track {names[t]} (tid {t}) sorts below the harts'")
    kinds, runs = set(), 0
    for e in events:
        if e.get("ph") != "X" or e.get("tid") not in queues:
            continue
        m = re.fullmatch(r"(\w+)( \S+)? \(command \d+ of (queue \d+)\)", e["name"])
        check(m is not None, f"command {e['name']!r} on {queues[e['tid']]}: not '<kind> (command K of queue N)'")
        if m:
            runs += 1
            kinds.add(m.group(1))
            check(m.group(3) == queues[e["tid"]], f"command {e['name']!r} is on the track {queues[e['tid']]}")
    check(kinds <= KINDS, f"command kinds {sorted(kinds - KINDS)} are not the doc's {sorted(KINDS)}")
    check("kernel" in kinds, f"no kernel among the queues' commands ({sorted(kinds)})")
    print(f"trace_check: {runs} commands on {len(queues)} queue tracks, kinds {sorted(kinds)}, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
