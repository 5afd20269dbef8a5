/* The one function image.cl reaches an image's descriptor and a sampler's
 * bits through: the identity. image.cl declares it once per image type and
 * for sampler_t (OpenCL C casts neither to a pointer); every declaration is
 * ptr(ptr) in the IR, so they all link to this definition, which inlines
 * away. Kept in its own file because one translation unit may not both
 * declare it for image types and define it for pointers. */
global void *__rvhal_opaque_ptr_def(global void *p) __asm__("__rvhal_opaque_ptr");
global void *__rvhal_opaque_ptr_def(global void *p) { return p; }

/* What clang emits for a sampler_t constant of the program (a
 * CLK_NORMALIZED_COORDS_* | CLK_ADDRESS_* | CLK_FILTER_* value): its bits,
 * carried as the sampler itself, as clSetKernelArg carries a cl_sampler's. */
global void *__rvhal_translate_sampler(int bits) __asm__("__translate_sampler_initializer");
global void *__rvhal_translate_sampler(int bits) { return (global void *)(size_t)(uint)bits; }
