/* The optional features rvhal devices report absent (pipes, shared
 * virtual memory, on-device queues): their entry points return
 * the code OpenCL 3.0 gives when no device of the context has the feature. */
#include "icd.h"

#define NO_FEATURE(fn, what)                                                                  \
  rvcl_fail(NULL, fn, CL_INVALID_OPERATION, "rvhal devices have no %s (reported absent in clGetDeviceInfo)", what)

static void *no_object(cl_int *errcode_ret, const char *fn, const char *what) {
  cl_int e = NO_FEATURE(fn, what);
  if (errcode_ret) *errcode_ret = e;
  return NULL;
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
