# Device tests: real kernels on real QEMU harts.
