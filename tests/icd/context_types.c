/* clCreateContextFromType and clCreateContext for every device type and
 * property list a program may pass, with the OpenCL 3.0 codes: a context
 * gets every device of the type (the platform's lists, not constants),
 * CL_DEVICE_NOT_FOUND when none is of it, CL_INVALID_PLATFORM for a NULL
 * or foreign platform, CL_INVALID_PROPERTY for unknown or repeated keys,
 * and CL_CONTEXT_PROPERTIES gives back what was passed. Host calls only:
 * no kernel runs here (multi_device runs them).
 *   context_types */
#include "cl_test.h"

static cl_platform_id plat;

/* The platform's devices of `type` (clGetDeviceIDs), how many. */
static cl_uint devices_of(cl_device_type type, cl_device_id *out) {
  cl_uint n = 0;
  cl_int e = clGetDeviceIDs(plat, type, 32, out, &n);
  if (e == CL_DEVICE_NOT_FOUND) return 0;
  CHECK_CL(e);
  return n < 32 ? n : 32;
}

/* The context's devices are exactly want[0..n). */
static void check_devices(cl_context c, const cl_device_id *want, cl_uint n, const char *what) {
  cl_uint got_n = 0;
  cl_device_id got[32];
  size_t sz = 0;
  CHECK_CL(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof got_n, &got_n, NULL));
  CHECK_CL(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof got, got, &sz));
  CHECK_MSG(got_n == n && sz == n * sizeof(cl_device_id), "%s: %u devices (%zu bytes), expected %u", what, got_n, sz, n);
  for (cl_uint i = 0; i < n && i < got_n; i++) CHECK_MSG(got[i] == want[i], "%s: device %u differs", what, i);
}

static void check_props(cl_context c, const cl_context_properties *want, size_t n, const char *what) {
  cl_context_properties got[8] = {0};
  size_t sz = 99;
  CHECK_CL(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof got, got, &sz));
  CHECK_MSG(sz == n * sizeof *want, "%s: CL_CONTEXT_PROPERTIES is %zu bytes, expected %zu", what, sz, n * sizeof *want);
  for (size_t i = 0; i < n && i < 8; i++) CHECK_MSG(got[i] == want[i], "%s: property word %zu differs", what, i);
}

static void type_matrix(void) {
  static const struct {
    cl_device_type type;
    const char *name;
  } types[] = {
      {CL_DEVICE_TYPE_ALL, "ALL"},
      {CL_DEVICE_TYPE_DEFAULT, "DEFAULT"},
      {CL_DEVICE_TYPE_CPU, "CPU"},
      {CL_DEVICE_TYPE_GPU, "GPU"},
      {CL_DEVICE_TYPE_ACCELERATOR, "ACCELERATOR"},
      {CL_DEVICE_TYPE_CUSTOM, "CUSTOM"},
      {CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR, "GPU|ACCELERATOR"},
      {CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU, "CPU|GPU"},
      {CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU, "DEFAULT|CPU"},
      {CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_ACCELERATOR, "DEFAULT|ACCELERATOR"},
  };
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    cl_device_id want[32];
    cl_uint n = devices_of(types[t].type, want);
    for (int with_props = 0; with_props < 2; with_props++) {
      cl_int err = 12345;
      cl_context c = clCreateContextFromType(with_props ? props : NULL, types[t].type, NULL, NULL, &err);
      if (n == 0) {
        CHECK_MSG(!c && err == CL_DEVICE_NOT_FOUND, "type %s: no device is of it, got %d", types[t].name, err);
        continue;
      }
      CHECK_MSG(c && err == CL_SUCCESS, "type %s: %d (%s)", types[t].name, err, cl_test_last_msg);
      if (!c) continue;
      check_devices(c, want, n, types[t].name);
      if (with_props)
        check_props(c, props, 3, types[t].name);
      else
        check_props(c, NULL, 0, types[t].name);
      CHECK_CL(clReleaseContext(c));
    }
  }
  cl_int err;
  CHECK(!clCreateContextFromType(NULL, 0, NULL, NULL, &err));
  CHECK_EQ_U64((cl_uint)err, (cl_uint)CL_INVALID_DEVICE_TYPE);
  CHECK(!clCreateContextFromType(NULL, (cl_device_type)1 << 40, NULL, NULL, &err));
  CHECK_EQ_U64((cl_uint)err, (cl_uint)CL_INVALID_DEVICE_TYPE);
  /* The refusal reaches pfn_notify, naming the type. */
  cl_test_last_msg[0] = 0;
  CHECK(!clCreateContextFromType(NULL, CL_DEVICE_TYPE_GPU, cl_test_notify, NULL, &err));
  if (devices_of(CL_DEVICE_TYPE_GPU, (cl_device_id[32]){0}) == 0)
    CHECK_MSG(strstr(cl_test_last_msg, "CL_DEVICE_NOT_FOUND") && strstr(cl_test_last_msg, "0x4"),
              "message: \"%s\"", cl_test_last_msg);
}

/* Property lists both calls take or refuse alike. */
static void property_matrix(cl_device_id d) {
  int other_platform_object;
  cl_context_properties P = (cl_context_properties)plat;
  const struct {
    cl_context_properties props[8];
    size_t words;  /* of props, with its 0 */
    cl_int want;
    const char *name, *needle;
  } cases[] = {
      {{CL_CONTEXT_PLATFORM, P, 0}, 3, CL_SUCCESS, "platform", NULL},
      {{0}, 1, CL_SUCCESS, "empty list", NULL},
      {{CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0}, 3, CL_SUCCESS, "user sync", NULL},
      {{CL_CONTEXT_PLATFORM, P, CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0}, 5, CL_SUCCESS, "platform, user sync", NULL},
      {{CL_CONTEXT_PLATFORM, 0, 0}, 3, CL_INVALID_PLATFORM, "NULL platform", "CL_CONTEXT_PLATFORM"},
      {{CL_CONTEXT_PLATFORM, (cl_context_properties)&other_platform_object, 0}, 3, CL_INVALID_PLATFORM,
       "foreign platform", "not the rvhal platform"},
      {{CL_CONTEXT_PLATFORM, P, CL_CONTEXT_PLATFORM, P, 0}, 5, CL_INVALID_PROPERTY, "platform twice", "twice"},
      {{CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0}, 5, CL_INVALID_PROPERTY,
       "user sync twice", "twice"},
      {{CL_CONTEXT_INTEROP_USER_SYNC, 7, 0}, 3, CL_INVALID_PROPERTY, "user sync 7", "is 7"},
      {{0x7777, 1, 0}, 3, CL_INVALID_PROPERTY, "unknown key", "0x7777"},
      {{CL_CONTEXT_PLATFORM, P, 0x10008, 1, 0}, 5, CL_INVALID_PROPERTY, "platform, unknown key", "0x10008"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    /* The ICD loader picks the platform of clCreateContextFromType from
     * CL_CONTEXT_PLATFORM (a list without it is CL_INVALID_PLATFORM there),
     * and answers a NULL or foreign platform itself in both calls, with no
     * message from rvhal. */
    int has_platform = 0;
    for (size_t w = 0; cases[i].props[w]; w += 2) has_platform |= cases[i].props[w] == CL_CONTEXT_PLATFORM;
    int loader_judges = cases[i].want == CL_INVALID_PLATFORM;
    for (int from_type = 0; from_type < 2; from_type++) {
      if (from_type && !has_platform) continue;
      cl_int err = 12345;
      cl_test_last_msg[0] = 0;
      cl_context c = from_type ? clCreateContextFromType(cases[i].props, CL_DEVICE_TYPE_DEFAULT, cl_test_notify, NULL, &err)
                               : clCreateContext(cases[i].props, 1, &d, cl_test_notify, NULL, &err);
      const char *call = from_type ? "clCreateContextFromType" : "clCreateContext";
      CHECK_MSG(err == cases[i].want, "%s, %s: %d, expected %d (%s)", call, cases[i].name, err, cases[i].want,
                cl_test_last_msg);
      if (cases[i].want != CL_SUCCESS) {
        CHECK_MSG(!c, "%s, %s: a context despite the error", call, cases[i].name);
        if (!loader_judges)
          CHECK_MSG(strstr(cl_test_last_msg, cases[i].needle), "%s, %s: message \"%s\" lacks \"%s\"", call,
                    cases[i].name, cl_test_last_msg, cases[i].needle);
        continue;
      }
      if (!c) continue;
      check_props(c, cases[i].props, cases[i].words, cases[i].name);
      CHECK_CL(clReleaseContext(c));
    }
  }
}

/* clCreateContext: duplicates are ignored; bad lists are refused. */
static void device_lists(cl_device_id *all, cl_uint n) {
  cl_int err;
  cl_device_id twice[2] = {all[0], all[0]};
  cl_context c = clCreateContext(NULL, 2, twice, NULL, NULL, &err);
  CHECK_CL(err);
  if (c) {
    check_devices(c, all, 1, "a device listed twice");
    clReleaseContext(c);
  }
  c = clCreateContext(NULL, n, all, NULL, NULL, &err);
  CHECK_CL(err);
  if (c) {
    check_devices(c, all, n, "every device");
    clReleaseContext(c);
  }
  /* a handle to memory that is no device (large enough for the magic the
   * check reads: a real program's stray pointer is at least an object) */
  static uint64_t not_a_device[8];
  cl_device_id bad[2] = {all[0], (cl_device_id)not_a_device};
  cl_test_last_msg[0] = 0;
  CHECK(!clCreateContext(NULL, 2, bad, cl_test_notify, NULL, &err));
  CHECK_EQ_U64((cl_uint)err, (cl_uint)CL_INVALID_DEVICE);
  CHECK_MSG(strstr(cl_test_last_msg, "devices[1]"), "message \"%s\"", cl_test_last_msg);
  CHECK(!clCreateContext(NULL, 0, all, NULL, NULL, &err));
  CHECK_EQ_U64((cl_uint)err, (cl_uint)CL_INVALID_VALUE);
  CHECK(!clCreateContext(NULL, 1, NULL, NULL, NULL, &err));
  CHECK_EQ_U64((cl_uint)err, (cl_uint)CL_INVALID_VALUE);
  CHECK(!clCreateContext(NULL, 1, all, NULL, &err, &err));
  CHECK_EQ_U64((cl_uint)err, (cl_uint)CL_INVALID_VALUE);
}

int main(void) {
  plat = cl_test_platform();
  if (!plat) {
    fprintf(stderr, "no rvhal platform: is OCL_ICD_VENDORS set to build/opencl/rvhal.icd?\n");
    return 1;
  }
  cl_device_id all[32];
  cl_uint n = devices_of(CL_DEVICE_TYPE_ALL, all);
  CHECK(n >= 1);
  if (n) {
    type_matrix();
    property_matrix(all[0]);
    device_lists(all, n);
  }
  printf("%d checks on %u devices\n", check_count_, n);
  return check_failures_ ? 1 : 0;
}
