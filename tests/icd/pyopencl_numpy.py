"""pyopencl on rvhal: a context on the rvhal platform, a program built
from OpenCL C source, a kernel run on the device's harts, results compared
with NumPy. Run with OCL_ICD_VENDORS pointing at build/opencl/rvhal.icd
(tests/icd/icd.cmake)."""
import sys

import numpy as np
import pyopencl as cl

SRC = """
__kernel void axpb(__global const float *x, __global float *y, const float a, const float b) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + b;
}
__kernel void dot_partial(__global const float *x, __global const float *y, __global float *out,
                          __local float *scratch) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  scratch[lid] = x[get_global_id(0)] * y[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
"""


def main():
    """argv[1]: a device index, or "all" (every device of the platform)."""
    platforms = [p for p in cl.get_platforms() if p.name == "rvhal"]
    if not platforms:
        print("no rvhal platform: is OCL_ICD_VENDORS set?", file=sys.stderr)
        return 1
    devices = platforms[0].get_devices()
    which = sys.argv[1] if len(sys.argv) > 1 else "0"
    chosen = devices if which == "all" else [devices[int(which)]]
    return 1 if sum(run_on(dev) for dev in chosen) else 0


def run_on(dev):
    print(f"device: {dev.name}, {dev.max_compute_units} compute units, {dev.version}")
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    prg = cl.Program(ctx, SRC).build(options="-cl-std=CL1.2")
    failures = 0

    rng = np.random.default_rng(1234)
    n = dev.max_compute_units * 256
    x = rng.standard_normal(n).astype(np.float32)
    mf = cl.mem_flags
    bx = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    by = cl.Buffer(ctx, mf.WRITE_ONLY, x.nbytes)
    evt = prg.axpb(queue, (n,), None, bx, by, np.float32(2.5), np.float32(-1.0))
    y = np.empty_like(x)
    cl.enqueue_copy(queue, y, by)
    expect = np.float32(2.5) * x + np.float32(-1.0)
    if not np.allclose(y, expect, rtol=0, atol=1e-6):
        print(f"axpb: max error {np.max(np.abs(y - expect))}", file=sys.stderr)
        failures += 1
    ns = evt.profile.end - evt.profile.start
    if ns <= 0:
        print(f"axpb: profile start {evt.profile.start} end {evt.profile.end}", file=sys.stderr)
        failures += 1

    local = min(64, dev.max_work_group_size)
    groups = n // local
    partial = cl.Buffer(ctx, mf.WRITE_ONLY, groups * 4)
    prg.dot_partial(queue, (n,), (local,), bx, bx, partial, cl.LocalMemory(local * 4))
    sums = np.empty(groups, dtype=np.float32)
    cl.enqueue_copy(queue, sums, partial)
    expect = (x * x).reshape(groups, local).sum(axis=1)
    if not np.allclose(sums, expect, rtol=1e-5, atol=1e-5):
        print(f"dot_partial: max error {np.max(np.abs(sums - expect))}", file=sys.stderr)
        failures += 1

    print(f"pyopencl on rvhal {dev.name}: axpb over {n} floats ({ns} ns on the device), {groups} group sums; "
          f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
