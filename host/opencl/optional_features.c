/* The optional features rvhal devices report absent (images, samplers,
 * pipes, shared virtual memory, on-device queues): their entry points return
 * the code OpenCL 3.0 gives when no device of the context has the feature. */
#include "icd.h"

#define NO_FEATURE(fn, what)                                                                  \
  rvcl_fail(NULL, fn, CL_INVALID_OPERATION, "rvhal devices have no %s (reported absent in clGetDeviceInfo)", what)

static void *no_object(cl_int *errcode_ret, const char *fn, const char *what) {
  cl_int e = NO_FEATURE(fn, what);
  if (errcode_ret) *errcode_ret = e;
  return NULL;
}

/* ---- images ---- */
CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context c, cl_mem_flags f, const cl_image_format *fmt,
                                              const cl_image_desc *desc, void *host, cl_int *err) {
  (void)c, (void)f, (void)fmt, (void)desc, (void)host;
  return no_object(err, "clCreateImage", "images");
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context c, const cl_mem_properties *props, cl_mem_flags f,
                                                            const cl_image_format *fmt, const cl_image_desc *desc,
                                                            void *host, cl_int *err) {
  (void)c, (void)props, (void)f, (void)fmt, (void)desc, (void)host;
  return no_object(err, "clCreateImageWithProperties", "images");
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context c, cl_mem_flags f, const cl_image_format *fmt, size_t w,
                                                size_t h, size_t pitch, void *host, cl_int *err) {
  (void)c, (void)f, (void)fmt, (void)w, (void)h, (void)pitch, (void)host;
  return no_object(err, "clCreateImage2D", "images");
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context c, cl_mem_flags f, const cl_image_format *fmt, size_t w,
                                                size_t h, size_t d, size_t rp, size_t sp, void *host, cl_int *err) {
  (void)c, (void)f, (void)fmt, (void)w, (void)h, (void)d, (void)rp, (void)sp, (void)host;
  return no_object(err, "clCreateImage3D", "images");
}
CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context c, cl_mem_flags f, cl_mem_object_type t,
                                                           cl_uint n, cl_image_format *fmts, cl_uint *n_ret) {
  (void)f, (void)t, (void)n, (void)fmts;
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT)) return rvcl_fail(NULL, "clGetSupportedImageFormats", CL_INVALID_CONTEXT, "%p", (void *)c);
  if (n_ret) *n_ret = 0;
  return CL_SUCCESS;
}
CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem m, cl_image_info name, size_t size, void *value, size_t *ret) {
  (void)m, (void)name, (void)size, (void)value, (void)ret;
  return rvcl_fail(NULL, "clGetImageInfo", CL_INVALID_MEM_OBJECT, "%p is not an image (rvhal devices have none)", (void *)m);
}
#define NOT_AN_IMAGE(fn) rvcl_fail(NULL, fn, CL_INVALID_MEM_OBJECT, "rvhal devices have no images")
CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem i, cl_bool b, const size_t *o,
                                                   const size_t *r, size_t rp, size_t sp, void *p, cl_uint n,
                                                   const cl_event *l, cl_event *e) {
  (void)q, (void)i, (void)b, (void)o, (void)r, (void)rp, (void)sp, (void)p, (void)n, (void)l, (void)e;
  return NOT_AN_IMAGE("clEnqueueReadImage");
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem i, cl_bool b, const size_t *o,
                                                    const size_t *r, size_t rp, size_t sp, const void *p, cl_uint n,
                                                    const cl_event *l, cl_event *e) {
  (void)q, (void)i, (void)b, (void)o, (void)r, (void)rp, (void)sp, (void)p, (void)n, (void)l, (void)e;
  return NOT_AN_IMAGE("clEnqueueWriteImage");
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem i, const void *c, const size_t *o,
                                                   const size_t *r, cl_uint n, const cl_event *l, cl_event *e) {
  (void)q, (void)i, (void)c, (void)o, (void)r, (void)n, (void)l, (void)e;
  return NOT_AN_IMAGE("clEnqueueFillImage");
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem s, cl_mem d, const size_t *so,
                                                   const size_t *dor, const size_t *r, cl_uint n, const cl_event *l,
                                                   cl_event *e) {
  (void)q, (void)s, (void)d, (void)so, (void)dor, (void)r, (void)n, (void)l, (void)e;
  return NOT_AN_IMAGE("clEnqueueCopyImage");
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem s, cl_mem d, const size_t *so,
                                                           const size_t *r, size_t off, cl_uint n, const cl_event *l,
                                                           cl_event *e) {
  (void)q, (void)s, (void)d, (void)so, (void)r, (void)off, (void)n, (void)l, (void)e;
  return NOT_AN_IMAGE("clEnqueueCopyImageToBuffer");
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem s, cl_mem d, size_t off,
                                                           const size_t *dor, const size_t *r, cl_uint n,
                                                           const cl_event *l, cl_event *e) {
  (void)q, (void)s, (void)d, (void)off, (void)dor, (void)r, (void)n, (void)l, (void)e;
  return NOT_AN_IMAGE("clEnqueueCopyBufferToImage");
}
CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem i, cl_bool b, cl_map_flags f, const size_t *o,
                                                 const size_t *r, size_t *rp, size_t *sp, cl_uint n, const cl_event *l,
                                                 cl_event *e, cl_int *err) {
  (void)q, (void)i, (void)b, (void)f, (void)o, (void)r, (void)rp, (void)sp, (void)n, (void)l, (void)e;
  cl_int x = NOT_AN_IMAGE("clEnqueueMapImage");
  if (err) *err = x;
  return NULL;
}

/* ---- samplers ---- */
CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context c, cl_bool norm, cl_addressing_mode a, cl_filter_mode f,
                                                    cl_int *err) {
  (void)c, (void)norm, (void)a, (void)f;
  return no_object(err, "clCreateSampler", "images or samplers");
}
CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context c, const cl_sampler_properties *p,
                                                                  cl_int *err) {
  (void)c, (void)p;
  return no_object(err, "clCreateSamplerWithProperties", "images or samplers");
}
CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler s) {
  return rvcl_fail(NULL, "clRetainSampler", CL_INVALID_SAMPLER, "%p (rvhal devices have no samplers)", (void *)s);
}
CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler s) {
  return rvcl_fail(NULL, "clReleaseSampler", CL_INVALID_SAMPLER, "%p (rvhal devices have no samplers)", (void *)s);
}
CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info n, size_t size, void *v, size_t *r) {
  (void)n, (void)size, (void)v, (void)r;
  return rvcl_fail(NULL, "clGetSamplerInfo", CL_INVALID_SAMPLER, "%p (rvhal devices have no samplers)", (void *)s);
}

/* ---- pipes ---- */
CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context c, cl_mem_flags f, cl_uint ps, cl_uint mp,
                                             const cl_pipe_properties *p, cl_int *err) {
  (void)c, (void)f, (void)ps, (void)mp, (void)p;
  return no_object(err, "clCreatePipe", "pipes");
}
CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem m, cl_pipe_info n, size_t s, void *v, size_t *r) {
  (void)n, (void)s, (void)v, (void)r;
  return rvcl_fail(NULL, "clGetPipeInfo", CL_INVALID_MEM_OBJECT, "%p is not a pipe (rvhal devices have none)", (void *)m);
}

/* ---- shared virtual memory ---- */
CL_API_ENTRY void *CL_API_CALL clSVMAlloc(cl_context c, cl_svm_mem_flags f, size_t s, cl_uint a) {
  (void)c, (void)f, (void)s, (void)a;
  NO_FEATURE("clSVMAlloc", "shared virtual memory");
  return NULL;
}
CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context c, void *p) { (void)c, (void)p; }
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue q, cl_uint n, void *ptrs[],
                                                 void(CL_CALLBACK *fn)(cl_command_queue, cl_uint, void *[], void *),
                                                 void *u, cl_uint ne, const cl_event *l, cl_event *e) {
  (void)q, (void)n, (void)ptrs, (void)fn, (void)u, (void)ne, (void)l, (void)e;
  return NO_FEATURE("clEnqueueSVMFree", "shared virtual memory");
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue q, cl_bool b, void *d, const void *s, size_t n,
                                                   cl_uint ne, const cl_event *l, cl_event *e) {
  (void)q, (void)b, (void)d, (void)s, (void)n, (void)ne, (void)l, (void)e;
  return NO_FEATURE("clEnqueueSVMMemcpy", "shared virtual memory");
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue q, void *p, const void *pat, size_t ps, size_t s,
                                                    cl_uint ne, const cl_event *l, cl_event *e) {
  (void)q, (void)p, (void)pat, (void)ps, (void)s, (void)ne, (void)l, (void)e;
  return NO_FEATURE("clEnqueueSVMMemFill", "shared virtual memory");
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue q, cl_bool b, cl_map_flags f, void *p, size_t s,
                                                cl_uint ne, const cl_event *l, cl_event *e) {
  (void)q, (void)b, (void)f, (void)p, (void)s, (void)ne, (void)l, (void)e;
  return NO_FEATURE("clEnqueueSVMMap", "shared virtual memory");
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue q, void *p, cl_uint ne, const cl_event *l, cl_event *e) {
  (void)q, (void)p, (void)ne, (void)l, (void)e;
  return NO_FEATURE("clEnqueueSVMUnmap", "shared virtual memory");
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue q, cl_uint n, const void **p, const size_t *s,
                                                       cl_mem_migration_flags f, cl_uint ne, const cl_event *l,
                                                       cl_event *e) {
  (void)q, (void)n, (void)p, (void)s, (void)f, (void)ne, (void)l, (void)e;
  return NO_FEATURE("clEnqueueSVMMigrateMem", "shared virtual memory");
}
CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel k, cl_uint i, const void *v) {
  (void)k, (void)i, (void)v;
  return NO_FEATURE("clSetKernelArgSVMPointer", "shared virtual memory");
}
CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel k, cl_kernel_exec_info n, size_t s, const void *v) {
  (void)k, (void)n, (void)s, (void)v;
  return NO_FEATURE("clSetKernelExecInfo", "shared virtual memory");
}

/* ---- on-device queues ---- */
CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context c, cl_device_id d, cl_command_queue q) {
  (void)c, (void)d, (void)q;
  return NO_FEATURE("clSetDefaultDeviceCommandQueue", "on-device queues");
}
