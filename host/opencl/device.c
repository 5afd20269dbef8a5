/* One OpenCL device per rvhal device (each board and XLEN of the catalogue,
 * rvhal_platform_device_info), with its facts: harts are compute units,
 * memory sizes and limits are the device's, the ISA is in the version
 * string. The device's QEMU starts when a context first needs it (queue,
 * buffer or program) and stops with the last context, so clinfo starts
 * nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_ram.h"
#include "icd.h"
#include "image_format.h"

static struct _cl_device_id *devices;
static cl_uint num_devices;
static cl_uint default_device; /* CL_DEVICE_TYPE_DEFAULT: $RVHAL_OPENCL_DEFAULT_DEVICE, else the first */
static pthread_once_t devices_once = PTHREAD_ONCE_INIT;

static int isa_has(const char *isa, char ext) {
  /* "rv64imafdc": single letters after "rvNN", up to the first '_' */
  const char *p = isa + 4;
  for (; *p && *p != '_'; p++)
    if (*p == ext || (*p == 'g' && strchr("imafd", ext))) return 1;
  return 0;
}

/* Harts a context's device gets: $RVHAL_HARTS when the board can give
 * them (the same rule rvhal_device_create follows), else the catalogue's. */
static uint32_t context_harts(const rvhal_device_info_t *info) {
  const char *e = getenv("RVHAL_HARTS");
  if (e && *e) {
    char *end;
    unsigned long n = strtoul(e, &end, 10);
    if (!*end && n >= 1 && n <= info->max_harts) return (uint32_t)n;
  }
  return info->num_harts;
}

/* The options a context's device is created with: $RVHAL_HARTS harts
 * (above) and its RAM (device_ram.h). The device's info follows from them. */
static rvhal_device_options_t context_options(uint32_t index, const rvhal_device_info_t *info,
                                              rvhal_device_info_t *out_info) {
  rvhal_device_options_t o = {0};
  o.num_harts = context_harts(info);
  if (rvcl_device_ram(index, &o, out_info) != RVHAL_OK) { /* left to device creation to report */
    *out_info = *info;
    out_info->num_harts = o.num_harts;
  }
  return o;
}

/* Programs that take the default device (CL_DEVICE_TYPE_DEFAULT) run on
 * the one $RVHAL_OPENCL_DEFAULT_DEVICE names (a catalogue name, as `rvhal
 * info` lists them: qemu-virt-rv32, ...); an unknown name is said once on
 * stderr, with the names there are, and the first device stays the default. */
static void pick_default(void) {
  const char *want = getenv("RVHAL_OPENCL_DEFAULT_DEVICE");
  if (!want || !*want) return;
  char names[512] = "";
  size_t o = 0;
  for (cl_uint i = 0; i < num_devices; i++) {
    const rvhal_device_info_t *info;
    if (rvhal_platform_device_info(devices[i].index, &info) != RVHAL_OK) continue;
    if (!strcmp(info->name, want)) {
      default_device = i;
      return;
    }
    int w = snprintf(names + o, sizeof names - o, "%s%s", o ? ", " : "", info->name);
    if (w > 0 && (size_t)w < sizeof names - o) o += (size_t)w;
  }
  fprintf(stderr, "rvhal OpenCL: RVHAL_OPENCL_DEFAULT_DEVICE=%s is no device of this platform (%s); the default "
                  "stays the first\n", want, names);
}

static void init_devices(void) {
  const rvhal_platform_info_t *p = rvhal_platform_info();
  devices = calloc(p->num_devices ? p->num_devices : 1, sizeof *devices);
  if (!devices) return;
  for (uint32_t i = 0; i < p->num_devices; i++) {
    const rvhal_device_info_t *info;
    if (rvhal_platform_device_info(i, &info) != RVHAL_OK) continue;
    struct _cl_device_id *d = &devices[num_devices];
    d->dispatch = &rvcl_dispatch;
    d->magic = RVCL_MAGIC_DEVICE;
    d->index = i;
    d->options = context_options(i, info, &d->info);
    pthread_mutex_init(&d->lock, NULL);
    snprintf(d->name, sizeof d->name, "rvhal %s (%u harts)", info->name, d->info.num_harts);
    snprintf(d->version, sizeof d->version, "OpenCL 3.0 rvhal %s %s %s-mode", info->isa, info->board,
             info->firmware_mode ? info->firmware_mode : "M");
    int rv64 = info->word_size == 8, atomics = isa_has(info->isa, 'a'), fp64 = isa_has(info->isa, 'd');
    snprintf(d->extensions, sizeof d->extensions, "cl_khr_byte_addressable_store cl_khr_3d_image_writes%s%s%s",
             atomics ? " cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics"
                       " cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics"
                     : "",
             atomics && rv64 ? " cl_khr_int64_base_atomics cl_khr_int64_extended_atomics" : "",
             fp64 ? " cl_khr_fp64" : "");
    num_devices++;
  }
  pick_default();
}

cl_uint rvcl_num_devices(void) {
  pthread_once(&devices_once, init_devices);
  return num_devices;
}


void rvcl_device_use(cl_device_id d) {
  pthread_mutex_lock(&d->lock);
  d->users++;
  pthread_mutex_unlock(&d->lock);
}

void rvcl_device_unuse(cl_device_id d) {
  rvhal_device_t *stop = NULL;
  pthread_mutex_lock(&d->lock);
  if (--d->users == 0) {
    stop = d->rv;
    d->rv = NULL;
  }
  pthread_mutex_unlock(&d->lock);
  rvhal_device_delete(stop);
}

rvhal_device_t *rvcl_device_rv(cl_device_id d, int *out_status) {
  int rc = RVHAL_OK;
  pthread_mutex_lock(&d->lock);
  if (!d->rv) {
    rc = rvhal_device_create(d->index, &d->options, &d->rv);
    if (rc != RVHAL_OK) d->rv = NULL;
  }
  rvhal_device_t *rv = d->rv;
  pthread_mutex_unlock(&d->lock);
  if (out_status) *out_status = rc;
  return rv;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                                               cl_device_id *out, cl_uint *num_out) {
  static const char *fn = "clGetDeviceIDs";
  if (platform && platform != &rvcl_platform)
    return rvcl_fail(NULL, fn, CL_INVALID_PLATFORM, "%p is not the rvhal platform", (void *)platform);
  const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                               CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  if (type == 0 || (type != CL_DEVICE_TYPE_ALL && (type & ~known)))
    return rvcl_fail(NULL, fn, CL_INVALID_DEVICE_TYPE, "device_type 0x%llx", (unsigned long long)type);
  if ((num_entries == 0 && out) || (!out && !num_out))
    return rvcl_fail(NULL, fn, CL_INVALID_VALUE, "num_entries=%u with devices=%p and num_devices=%p", num_entries,
                     (void *)out, (void *)num_out);
  cl_uint n = 0, total = rvcl_num_devices();
  for (cl_uint i = 0; i < total; i++) {
    /* Every device is an accelerator; one of them is also the default. */
    int match = type == CL_DEVICE_TYPE_ALL || (type & CL_DEVICE_TYPE_ACCELERATOR) ||
                ((type & CL_DEVICE_TYPE_DEFAULT) && i == default_device);
    if (!match) continue;
    if (out && n < num_entries) out[n] = &devices[i];
    n++;
  }
  if (num_out) *num_out = n;
  if (n == 0) return CL_DEVICE_NOT_FOUND;
  return CL_SUCCESS;
}

#define RET(v)                                                                                                 \
  do {                                                                                                         \
    __typeof__(v) v_ = (v);                                                                                    \
    return rvcl_info(&v_, sizeof v_, size, value, size_ret);                                                   \
  } while (0)
#define RET_STR(s) return rvcl_info_str((s), size, value, size_ret)

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id d, cl_device_info name, size_t size, void *value,
                                                size_t *size_ret) {
  if (!RVCL_VALID(d, RVCL_MAGIC_DEVICE))
    return rvcl_fail(NULL, "clGetDeviceInfo", CL_INVALID_DEVICE, "%p is not an rvhal device", (void *)d);
  const rvhal_device_info_t *in = &d->info;
  int fp64 = strstr(d->extensions, "cl_khr_fp64") != NULL;
  cl_uint zero_u = 0;
  cl_ulong zero_ul = 0;
  size_t zero_sz = 0;
  switch (name) {
  case CL_DEVICE_TYPE: RET((cl_device_type)CL_DEVICE_TYPE_ACCELERATOR); /* one type; DEFAULT is a query, not a type */
  case CL_DEVICE_VENDOR_ID: RET(zero_u); /* no PCI vendor */
  case CL_DEVICE_MAX_COMPUTE_UNITS: RET((cl_uint)in->num_harts);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: RET((cl_uint)3);
  case CL_DEVICE_MAX_WORK_GROUP_SIZE: RET((size_t)in->max_work_group_size);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    size_t s[3] = {in->max_work_group_size, in->max_work_group_size, in->max_work_group_size};
    return rvcl_info(s, sizeof s, size, value, size_ret);
  }
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR: case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT: case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG: case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    RET((cl_uint)1); /* scalar harts */
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE: case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: RET((cl_uint)fp64);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF: case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: RET(zero_u);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY: RET(zero_u); /* emulated harts have no clock frequency */
  case CL_DEVICE_ADDRESS_BITS: RET((cl_uint)(in->word_size * 8));
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE: case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: case CL_DEVICE_GLOBAL_MEM_SIZE:
    RET((cl_ulong)in->global_mem_size);
  /* Images (image.c, the built-ins' image.cl): an image or sampler argument
   * is one of the kernel's at most RVHAL_META_MAX_ARGS, read_write ones too;
   * no 2D images from buffers (so no pitch alignment to report). */
  case CL_DEVICE_IMAGE_SUPPORT: RET((cl_bool)CL_TRUE);
  case CL_DEVICE_MAX_READ_IMAGE_ARGS: case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: case CL_DEVICE_MAX_SAMPLERS:
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    RET((cl_uint)RVHAL_META_MAX_ARGS);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH: case CL_DEVICE_IMAGE2D_MAX_HEIGHT: RET(rvcl_image2d_max(d));
  case CL_DEVICE_IMAGE3D_MAX_WIDTH: case CL_DEVICE_IMAGE3D_MAX_HEIGHT: case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    RET(rvcl_image3d_max(d));
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: RET(rvcl_image_array_max(d));
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
  case CL_DEVICE_MAX_PIPE_ARGS: case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS: case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES: case CL_DEVICE_MAX_ON_DEVICE_EVENTS: case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE: case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT: case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_MAX_NUM_SUB_GROUPS: case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    RET(zero_u);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: RET(rvcl_image_buffer_max(d));
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    RET(zero_sz);
  case CL_DEVICE_MAX_PARAMETER_SIZE: { /* bytes a kernel's parameters may take, with at most
                                         * RVHAL_META_MAX_ARGS of them: as many 8-byte ones as fit */
    size_t by_count = (size_t)RVHAL_META_MAX_ARGS * 8;
    RET(by_count < in->max_args_size ? by_count : (size_t)in->max_args_size);
  }
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN: RET((cl_uint)(RVCL_BASE_ALIGN * 8)); /* bits */
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: RET((cl_uint)RVCL_BASE_ALIGN);
  case CL_DEVICE_SINGLE_FP_CONFIG:
    RET((cl_device_fp_config)(CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA));
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    RET((cl_device_fp_config)(fp64 ? CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                                         CL_FP_INF_NAN | CL_FP_DENORM
                                   : 0));
  case CL_DEVICE_HALF_FP_CONFIG: RET((cl_device_fp_config)0);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: RET((cl_device_mem_cache_type)CL_NONE); /* QEMU models no cache */
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: RET(zero_u);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: RET(zero_ul);
  case CL_DEVICE_MAX_CONSTANT_ARGS: RET((cl_uint)8);
  case CL_DEVICE_LOCAL_MEM_TYPE: RET((cl_device_local_mem_type)CL_GLOBAL); /* on the group leader's stack in RAM */
  case CL_DEVICE_LOCAL_MEM_SIZE: RET((cl_ulong)in->local_mem_size);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT: case CL_DEVICE_HOST_UNIFIED_MEMORY:
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
  case CL_DEVICE_PIPE_SUPPORT:
    RET((cl_bool)CL_FALSE);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    RET((size_t)(in->timebase_hz ? (1000000000ull + in->timebase_hz - 1) / in->timebase_hz : 1));
  case CL_DEVICE_ENDIAN_LITTLE: case CL_DEVICE_AVAILABLE: case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE: case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: /* for programs of OpenCL C 2.0+ (ndrange.c) */
    RET((cl_bool)CL_TRUE);
  case CL_DEVICE_EXECUTION_CAPABILITIES: RET((cl_device_exec_capabilities)CL_EXEC_KERNEL);
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
    RET((cl_command_queue_properties)(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: RET((cl_command_queue_properties)0);
  case CL_DEVICE_SVM_CAPABILITIES: RET((cl_device_svm_capabilities)0);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: RET((cl_device_device_enqueue_capabilities)0);
  case CL_DEVICE_NAME: RET_STR(d->name);
  case CL_DEVICE_VENDOR: RET_STR("rvhal");
  case CL_DEVICE_VERSION: RET_STR(d->version);
  case CL_DRIVER_VERSION: RET_STR(RVHAL_VERSION_STRING);
  case CL_DEVICE_PROFILE: RET_STR("FULL_PROFILE");
  case CL_DEVICE_OPENCL_C_VERSION: RET_STR("OpenCL C 1.2 rvhal");
  case CL_DEVICE_EXTENSIONS: RET_STR(d->extensions);
  case CL_DEVICE_BUILT_IN_KERNELS: case CL_DEVICE_IL_VERSION: RET_STR("");
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: RET_STR("v0000-01-01-00"); /* never submitted */
  case CL_DEVICE_PLATFORM: RET((cl_platform_id)&rvcl_platform);
  case CL_DEVICE_PARENT_DEVICE: RET((cl_device_id)NULL);
  case CL_DEVICE_PARTITION_PROPERTIES: RET((cl_device_partition_property)0);
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: RET((cl_device_affinity_domain)0);
  case CL_DEVICE_PARTITION_TYPE: return rvcl_info(NULL, 0, size, value, size_ret);
  case CL_DEVICE_REFERENCE_COUNT: RET((cl_uint)1); /* root devices */
  case CL_DEVICE_PRINTF_BUFFER_SIZE: RET((size_t)1024 * 1024); /* print() lines stream out as they come */
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: RET((size_t)1);
  case CL_DEVICE_NUMERIC_VERSION: RET((cl_version)CL_MAKE_VERSION(3, 0, 0));
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES: /* RISC-V AMOs on the one memory every hart shares */
    RET((cl_device_atomic_capabilities)(CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                        CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
                                        CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES));
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    RET((cl_device_atomic_capabilities)(CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                        CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
  case CL_DEVICE_EXTENSIONS_WITH_VERSION: {
    cl_name_version nv[12];
    size_t n = 0;
    char ext[sizeof d->extensions];
    snprintf(ext, sizeof ext, "%s", d->extensions);
    for (char *save, *t = strtok_r(ext, " ", &save); t && n < 12; t = strtok_r(NULL, " ", &save)) {
      nv[n].version = CL_MAKE_VERSION(1, 0, 0);
      snprintf(nv[n].name, sizeof nv[n].name, "%s", t);
      n++;
    }
    return rvcl_info(nv, n * sizeof nv[0], size, value, size_ret);
  }
  case CL_DEVICE_ILS_WITH_VERSION: case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    return rvcl_info(NULL, 0, size, value, size_ret);
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
    cl_name_version nv[4] = {{CL_MAKE_VERSION(1, 0, 0), "OpenCL C"}, {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
                             {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"}, {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"}};
    return rvcl_info(nv, sizeof nv, size, value, size_ret);
  }
  case CL_DEVICE_OPENCL_C_FEATURES: { /* the macros rvhal's compiler defines (compiler/opencl_sdk.h) */
    cl_name_version nv[9] = {{CL_MAKE_VERSION(3, 0, 0), "__opencl_c_int64"},
                             {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_images"},
                             {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_3d_image_writes"},
                             {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_read_write_images"},
                             {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_acq_rel"},
                             {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_seq_cst"},
                             {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_device"},
                             {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_all_devices"},
                             {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp64"}};
    return rvcl_info(nv, (fp64 ? 9 : 8) * sizeof nv[0], size, value, size_ret);
  }
  }
  return rvcl_fail(NULL, "clGetDeviceInfo", CL_INVALID_VALUE, "param_name 0x%x is not a device query", (unsigned)name);
}

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id d, const cl_device_partition_property *props,
                                                   cl_uint n, cl_device_id *out, cl_uint *n_ret) {
  (void)props, (void)n, (void)out, (void)n_ret;
  if (!RVCL_VALID(d, RVCL_MAGIC_DEVICE))
    return rvcl_fail(NULL, "clCreateSubDevices", CL_INVALID_DEVICE, "%p is not an rvhal device", (void *)d);
  return rvcl_fail(NULL, "clCreateSubDevices", CL_INVALID_VALUE,
                   "rvhal devices cannot be partitioned (CL_DEVICE_PARTITION_PROPERTIES is empty)");
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id d) {
  return RVCL_VALID(d, RVCL_MAGIC_DEVICE) ? CL_SUCCESS
                                          : rvcl_fail(NULL, "clRetainDevice", CL_INVALID_DEVICE, "%p", (void *)d);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id d) {
  return RVCL_VALID(d, RVCL_MAGIC_DEVICE) ? CL_SUCCESS
                                          : rvcl_fail(NULL, "clReleaseDevice", CL_INVALID_DEVICE, "%p", (void *)d);
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id d, cl_ulong *dev_ts, cl_ulong *host_ts) {
  (void)dev_ts, (void)host_ts;
  if (!RVCL_VALID(d, RVCL_MAGIC_DEVICE))
    return rvcl_fail(NULL, "clGetDeviceAndHostTimer", CL_INVALID_DEVICE, "%p", (void *)d);
  return rvcl_fail(NULL, "clGetDeviceAndHostTimer", CL_INVALID_OPERATION,
                   "no device/host timer pairs (CL_PLATFORM_HOST_TIMER_RESOLUTION is 0)");
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id d, cl_ulong *host_ts) {
  (void)host_ts;
  if (!RVCL_VALID(d, RVCL_MAGIC_DEVICE)) return rvcl_fail(NULL, "clGetHostTimer", CL_INVALID_DEVICE, "%p", (void *)d);
  return rvcl_fail(NULL, "clGetHostTimer", CL_INVALID_OPERATION,
                   "no device/host timer pairs (CL_PLATFORM_HOST_TIMER_RESOLUTION is 0)");
}
