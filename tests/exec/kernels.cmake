# Execution-model and counter test kernels (device build).
