"""clinfo (Debian's) lists the rvhal platform and every rvhal device with
the device's own facts: this test reads `rvhal info` (the catalogue) and
`clinfo --raw` through the ICD loader and checks each device's name,
compute units (harts), address bits, memory sizes, work-group limit,
ISA in CL_DEVICE_VERSION, timer resolution (the timebase) and the
extensions the ISA implies; that RVHAL_HARTS changes the compute units;
that the platform's devices get more RAM than the catalogue's default (1 GiB,
for 128 MiB buffers), and with RVHAL_RAM_MIB the catalogue's sizes; and that
clinfo's human-readable listing shows no query error.

usage: clinfo_check.py RVHAL_CLI   (OCL_ICD_VENDORS set to rvhal.icd)"""
import os
import re
import subprocess
import sys

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAILED:", what, file=sys.stderr)


def run(cmd, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if r.returncode != 0:
        print(r.stdout, r.stderr, file=sys.stderr)
    check(r.returncode == 0, f"{' '.join(cmd)} exit status {r.returncode}")
    return r.stdout


def catalogue(cli):
    devices, cur = [], None
    for line in run([cli, "info"]).splitlines():
        m = re.match(r"device (\d+): (\S+)", line)
        if m:
            cur = {"name": m.group(2)}
            devices.append(cur)
            continue
        m = re.match(r"\s+(\S.*?)\s{2,}(.*)", line)
        if cur is not None and m:
            cur[m.group(1)] = m.group(2)
    return devices


def raw_clinfo(env=None):
    """{device index: {CL_NAME: value}} of the rvhal platform."""
    out, devs, ndev = run(["clinfo", "--raw"], env), {}, None
    for line in out.splitlines():
        m = re.match(r"\[RVHAL/(\*|\d+)\]\s+(#DEVICES|CL_\w+)\s+(.*)", line)
        if not m:
            continue
        if m.group(1) == "*":
            if m.group(2) == "#DEVICES":
                ndev = int(m.group(3))
            continue
        devs.setdefault(int(m.group(1)), {})[m.group(2)] = m.group(3).strip()
    return ndev, devs


def first_int(text):
    return int(re.match(r"\d+", text).group(0))


def main():
    cli = sys.argv[1]
    cat = catalogue(cli)
    check(len(cat) > 0, "rvhal info lists devices")
    # `rvhal info` shows default options: the catalogue's RAM (RVHAL_RAM_MIB
    # gives the platform's devices the same); by default they get more
    ram_mib = int(re.search(r"\((\d+) bytes\)", cat[0]["RAM"]).group(1)) >> 20
    _, devs_default = raw_clinfo()
    g0 = int(devs_default.get(0, {}).get("CL_DEVICE_GLOBAL_MEM_SIZE", "0"))
    c0 = int(re.search(r"\((\d+) bytes\)", cat[0]["global memory"]).group(1))
    check(g0 > c0 and int(devs_default[0].get("CL_DEVICE_MAX_MEM_ALLOC_SIZE", "0")) >= 128 << 20,
          f"device 0 by default: global memory {g0} > the catalogue's {c0}, max alloc >= 128 MiB")
    # ... which `rvhal info` shows too, for every device: the same figure
    for i, c in enumerate(cat):
        shown = re.search(r"\((\d+) bytes\)", c.get("global memory, OpenCL", ""))
        got = devs_default.get(i, {}).get("CL_DEVICE_GLOBAL_MEM_SIZE")
        check(shown is not None and got == shown.group(1),
              f"device {i}: clinfo's global memory {got}, rvhal info's for OpenCL {shown.group(1) if shown else None}")
    ndev, devs = raw_clinfo(dict(os.environ, RVHAL_RAM_MIB=str(ram_mib)))
    check(ndev == len(cat), f"clinfo lists {ndev} rvhal devices, rvhal info {len(cat)}")
    for i, c in enumerate(cat):
        d = devs.get(i, {})
        name = d.get("CL_DEVICE_NAME", "")
        check(c["name"] in name, f"device {i}: name {name!r} names {c['name']}")
        harts = first_int(c["harts"])
        check(d.get("CL_DEVICE_MAX_COMPUTE_UNITS") == str(harts), f"device {i}: compute units {d.get('CL_DEVICE_MAX_COMPUTE_UNITS')} = harts {harts}")
        word = first_int(c["word size"])
        check(d.get("CL_DEVICE_ADDRESS_BITS") == str(word * 8), f"device {i}: address bits {d.get('CL_DEVICE_ADDRESS_BITS')}")
        gmem = int(re.search(r"\((\d+) bytes\)", c["global memory"]).group(1))
        if int(re.search(r"\((\d+) bytes\)", c["RAM"]).group(1)) >> 20 == ram_mib:
            check(d.get("CL_DEVICE_GLOBAL_MEM_SIZE") == str(gmem), f"device {i}: global memory {d.get('CL_DEVICE_GLOBAL_MEM_SIZE')} = {gmem}")
        lmem = int(re.search(r"\((\d+) bytes\)", c["local memory"]).group(1))
        check(d.get("CL_DEVICE_LOCAL_MEM_SIZE") == str(lmem), f"device {i}: local memory {d.get('CL_DEVICE_LOCAL_MEM_SIZE')} = {lmem}")
        wg = first_int(c["max work-group size"])
        check(d.get("CL_DEVICE_MAX_WORK_GROUP_SIZE") == str(wg), f"device {i}: max work-group size")
        isa = c["ISA"]
        version = d.get("CL_DEVICE_VERSION", "")
        check(version.startswith("OpenCL 3.0 ") and isa in version, f"device {i}: version {version!r} names {isa}")
        hz = int(re.search(r"\((\d+) Hz\)", c["timebase"]).group(1))
        res = -(-1000000000 // hz)
        check(d.get("CL_DEVICE_PROFILING_TIMER_RESOLUTION") == str(res), f"device {i}: timer resolution {d.get('CL_DEVICE_PROFILING_TIMER_RESOLUTION')} ns for {hz} Hz")
        ext = d.get("CL_DEVICE_EXTENSIONS", "").split()
        letters = isa[4:].split("_")[0]
        check(("cl_khr_fp64" in ext) == ("d" in letters or "g" in letters), f"device {i}: cl_khr_fp64 vs {isa}")
        check(("cl_khr_int64_base_atomics" in ext) == (word == 8 and ("a" in letters or "g" in letters)), f"device {i}: int64 atomics vs {isa}")
        check(d.get("CL_DEVICE_IMAGE_SUPPORT") == "CL_TRUE", f"device {i}: images reported present")
        check(int(d.get("CL_DEVICE_IMAGE2D_MAX_WIDTH", "0")) >= 8192, f"device {i}: 2D images of 8192 pixels or more ({d.get('CL_DEVICE_IMAGE2D_MAX_WIDTH')})")
        check(d.get("CL_DEVICE_SVM_CAPABILITIES", "") in ("0", "None", ""), f"device {i}: no SVM ({d.get('CL_DEVICE_SVM_CAPABILITIES')})")
    # RVHAL_HARTS sets the harts a context's device gets
    env = dict(os.environ, RVHAL_HARTS="2")
    _, devs2 = raw_clinfo(env)
    check(devs2.get(0, {}).get("CL_DEVICE_MAX_COMPUTE_UNITS") == "2", "RVHAL_HARTS=2: 2 compute units on device 0")
    # the human-readable listing: no failed query on the rvhal platform
    human = run(["clinfo"])
    check(re.search(r"Platform Name\s+rvhal", human) is not None, "clinfo names the rvhal platform")
    errors = [l for l in human.splitlines() if re.search(r"<\w+:\d+: .*error", l)]
    check(not errors, f"clinfo query errors: {errors[:3]}")
    print(f"clinfo_check: {len(cat)} devices, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
