/* The ICD loader's entry: clIcdGetPlatformIDsKHR and
 * clGetExtensionFunctionAddress are the only symbols this library exports
 * (opencl.map); every other call arrives through the dispatch table each
 * object starts with. Entries left NULL are sharing extensions (OpenGL,
 * Direct3D, EGL, DX9 media) and device fission, which rvhal does not
 * report. */
#include <string.h>

#include "icd.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                                              cl_uint *num_platforms);
EXPORT CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name);

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *name);

const struct _cl_icd_dispatch rvcl_dispatch = {
    .clGetPlatformIDs = clGetPlatformIDs,
    .clGetPlatformInfo = clGetPlatformInfo,
    .clGetDeviceIDs = clGetDeviceIDs,
    .clGetDeviceInfo = clGetDeviceInfo,
    .clCreateContext = clCreateContext,
    .clCreateContextFromType = clCreateContextFromType,
    .clRetainContext = clRetainContext,
    .clReleaseContext = clReleaseContext,
    .clGetContextInfo = clGetContextInfo,
    .clCreateCommandQueue = clCreateCommandQueue,
    .clRetainCommandQueue = clRetainCommandQueue,
    .clReleaseCommandQueue = clReleaseCommandQueue,
    .clGetCommandQueueInfo = clGetCommandQueueInfo,
    .clSetCommandQueueProperty = clSetCommandQueueProperty,
    .clCreateBuffer = clCreateBuffer,
    .clCreateImage2D = clCreateImage2D,
    .clCreateImage3D = clCreateImage3D,
    .clRetainMemObject = clRetainMemObject,
    .clReleaseMemObject = clReleaseMemObject,
    .clGetSupportedImageFormats = clGetSupportedImageFormats,
    .clGetMemObjectInfo = clGetMemObjectInfo,
    .clGetImageInfo = clGetImageInfo,
    .clCreateSampler = clCreateSampler,
    .clRetainSampler = clRetainSampler,
    .clReleaseSampler = clReleaseSampler,
    .clGetSamplerInfo = clGetSamplerInfo,
    .clCreateProgramWithSource = clCreateProgramWithSource,
    .clCreateProgramWithBinary = clCreateProgramWithBinary,
    .clRetainProgram = clRetainProgram,
    .clReleaseProgram = clReleaseProgram,
    .clBuildProgram = clBuildProgram,
    .clUnloadCompiler = clUnloadCompiler,
    .clGetProgramInfo = clGetProgramInfo,
    .clGetProgramBuildInfo = clGetProgramBuildInfo,
    .clCreateKernel = clCreateKernel,
    .clCreateKernelsInProgram = clCreateKernelsInProgram,
    .clRetainKernel = clRetainKernel,
    .clReleaseKernel = clReleaseKernel,
    .clSetKernelArg = clSetKernelArg,
    .clGetKernelInfo = clGetKernelInfo,
    .clGetKernelWorkGroupInfo = clGetKernelWorkGroupInfo,
    .clWaitForEvents = clWaitForEvents,
    .clGetEventInfo = clGetEventInfo,
    .clRetainEvent = clRetainEvent,
    .clReleaseEvent = clReleaseEvent,
    .clGetEventProfilingInfo = clGetEventProfilingInfo,
    .clFlush = clFlush,
    .clFinish = clFinish,
    .clEnqueueReadBuffer = clEnqueueReadBuffer,
    .clEnqueueWriteBuffer = clEnqueueWriteBuffer,
    .clEnqueueCopyBuffer = clEnqueueCopyBuffer,
    .clEnqueueReadImage = clEnqueueReadImage,
    .clEnqueueWriteImage = clEnqueueWriteImage,
    .clEnqueueCopyImage = clEnqueueCopyImage,
    .clEnqueueCopyImageToBuffer = clEnqueueCopyImageToBuffer,
    .clEnqueueCopyBufferToImage = clEnqueueCopyBufferToImage,
    .clEnqueueMapBuffer = clEnqueueMapBuffer,
    .clEnqueueMapImage = clEnqueueMapImage,
    .clEnqueueUnmapMemObject = clEnqueueUnmapMemObject,
    .clEnqueueNDRangeKernel = clEnqueueNDRangeKernel,
    .clEnqueueTask = clEnqueueTask,
    .clEnqueueNativeKernel = clEnqueueNativeKernel,
    .clEnqueueMarker = clEnqueueMarker,
    .clEnqueueWaitForEvents = clEnqueueWaitForEvents,
    .clEnqueueBarrier = clEnqueueBarrier,
    .clGetExtensionFunctionAddress = clGetExtensionFunctionAddress,
    .clSetEventCallback = clSetEventCallback,
    .clCreateSubBuffer = clCreateSubBuffer,
    .clSetMemObjectDestructorCallback = clSetMemObjectDestructorCallback,
    .clCreateUserEvent = clCreateUserEvent,
    .clSetUserEventStatus = clSetUserEventStatus,
    .clEnqueueReadBufferRect = clEnqueueReadBufferRect,
    .clEnqueueWriteBufferRect = clEnqueueWriteBufferRect,
    .clEnqueueCopyBufferRect = clEnqueueCopyBufferRect,
    .clCreateSubDevices = clCreateSubDevices,
    .clRetainDevice = clRetainDevice,
    .clReleaseDevice = clReleaseDevice,
    .clCreateImage = clCreateImage,
    .clCreateProgramWithBuiltInKernels = clCreateProgramWithBuiltInKernels,
    .clCompileProgram = clCompileProgram,
    .clLinkProgram = clLinkProgram,
    .clUnloadPlatformCompiler = clUnloadPlatformCompiler,
    .clGetKernelArgInfo = clGetKernelArgInfo,
    .clEnqueueFillBuffer = clEnqueueFillBuffer,
    .clEnqueueFillImage = clEnqueueFillImage,
    .clEnqueueMigrateMemObjects = clEnqueueMigrateMemObjects,
    .clEnqueueMarkerWithWaitList = clEnqueueMarkerWithWaitList,
    .clEnqueueBarrierWithWaitList = clEnqueueBarrierWithWaitList,
    .clGetExtensionFunctionAddressForPlatform = clGetExtensionFunctionAddressForPlatform,
    .clCreateCommandQueueWithProperties = clCreateCommandQueueWithProperties,
    .clCreatePipe = clCreatePipe,
    .clGetPipeInfo = clGetPipeInfo,
    .clSVMAlloc = clSVMAlloc,
    .clSVMFree = clSVMFree,
    .clEnqueueSVMFree = clEnqueueSVMFree,
    .clEnqueueSVMMemcpy = clEnqueueSVMMemcpy,
    .clEnqueueSVMMemFill = clEnqueueSVMMemFill,
    .clEnqueueSVMMap = clEnqueueSVMMap,
    .clEnqueueSVMUnmap = clEnqueueSVMUnmap,
    .clCreateSamplerWithProperties = clCreateSamplerWithProperties,
    .clSetKernelArgSVMPointer = clSetKernelArgSVMPointer,
    .clSetKernelExecInfo = clSetKernelExecInfo,
    .clGetKernelSubGroupInfoKHR = clGetKernelSubGroupInfo,
    .clCloneKernel = clCloneKernel,
    .clCreateProgramWithIL = clCreateProgramWithIL,
    .clEnqueueSVMMigrateMem = clEnqueueSVMMigrateMem,
    .clGetDeviceAndHostTimer = clGetDeviceAndHostTimer,
    .clGetHostTimer = clGetHostTimer,
    .clGetKernelSubGroupInfo = clGetKernelSubGroupInfo,
    .clSetDefaultDeviceCommandQueue = clSetDefaultDeviceCommandQueue,
    .clSetProgramReleaseCallback = clSetProgramReleaseCallback,
    .clSetProgramSpecializationConstant = clSetProgramSpecializationConstant,
    .clCreateBufferWithProperties = clCreateBufferWithProperties,
    .clCreateImageWithProperties = clCreateImageWithProperties,
    .clSetContextDestructorCallback = clSetContextDestructorCallback,
};

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                                       cl_uint *num_platforms) {
  return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name) {
  if (name && !strcmp(name, "clIcdGetPlatformIDsKHR")) return (void *)clIcdGetPlatformIDsKHR;
  if (name && !strcmp(name, "clGetPlatformInfo")) return (void *)clGetPlatformInfo;
  return NULL;
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *name) {
  if (platform != &rvcl_platform) return NULL;
  return clGetExtensionFunctionAddress(name);
}
