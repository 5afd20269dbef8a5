/* The one OpenCL platform: rvhal. clGetPlatformIDs is reached through the
 * ICD loader's clIcdGetPlatformIDsKHR (dispatch.c). */
#include <string.h>

#include "icd.h"

#ifndef RVHAL_VERSION_STRING
#define RVHAL_VERSION_STRING "0.0.0"
#endif

struct _cl_platform_id rvcl_platform = {&rvcl_dispatch, RVCL_MAGIC_PLATFORM};

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                                 cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
    return rvcl_fail(NULL, "clGetPlatformIDs", CL_INVALID_VALUE,
                     "num_entries=%u with platforms=%p and num_platforms=%p", num_entries, (void *)platforms,
                     (void *)num_platforms);
  if (platforms) platforms[0] = &rvcl_platform;
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info name, size_t size,
                                                  void *value, size_t *size_ret) {
  if (platform && platform != &rvcl_platform)
    return rvcl_fail(NULL, "clGetPlatformInfo", CL_INVALID_PLATFORM, "%p is not the rvhal platform", (void *)platform);
  switch (name) {
  case CL_PLATFORM_PROFILE: return rvcl_info_str("FULL_PROFILE", size, value, size_ret);
  case CL_PLATFORM_VERSION: return rvcl_info_str("OpenCL 3.0 rvhal " RVHAL_VERSION_STRING, size, value, size_ret);
  case CL_PLATFORM_NAME: return rvcl_info_str("rvhal", size, value, size_ret);
  case CL_PLATFORM_VENDOR: return rvcl_info_str("rvhal", size, value, size_ret);
  case CL_PLATFORM_EXTENSIONS: return rvcl_info_str("cl_khr_icd", size, value, size_ret);
  case CL_PLATFORM_ICD_SUFFIX_KHR: return rvcl_info_str("RVHAL", size, value, size_ret);
  case CL_PLATFORM_HOST_TIMER_RESOLUTION: {
    cl_ulong r = 0; /* no device-and-host timer pairs (clGetDeviceAndHostTimer) */
    return rvcl_info(&r, sizeof r, size, value, size_ret);
  }
  case CL_PLATFORM_NUMERIC_VERSION: {
    cl_version v = CL_MAKE_VERSION(3, 0, 0);
    return rvcl_info(&v, sizeof v, size, value, size_ret);
  }
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
    cl_name_version nv = {CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"};
    return rvcl_info(&nv, sizeof nv, size, value, size_ret);
  }
  }
  return rvcl_fail(NULL, "clGetPlatformInfo", CL_INVALID_VALUE, "param_name 0x%x is not a platform query",
                   (unsigned)name);
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  if (platform != &rvcl_platform)
    return rvcl_fail(NULL, "clUnloadPlatformCompiler", CL_INVALID_PLATFORM, "%p is not the rvhal platform",
                     (void *)platform);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }
