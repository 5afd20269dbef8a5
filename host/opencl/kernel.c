/* Kernels: one entry of a built program, its arguments checked against the
 * kernel's metadata as they are set (kind and size, with the spec's error
 * code and a message naming the argument). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

static cl_int add_twins(cl_kernel k, cl_int *err);

static cl_kernel kernel_new(cl_program p, const rvhal_kernel_info_t *ki, cl_int *err) {
  const char *fn = "clCreateKernel";
  int st;
  rvhal_device_t *rv = rvcl_device_rv(p->device, &st);
  hal_kernel_t hk = 0;
  if (!rv || (st = rvhal_program_find_kernel(rv, p->hp, ki->name, &hk)) != RVHAL_OK) {
    *err = rvcl_fail_rvhal(p->context, fn, CL_INVALID_KERNEL_DEFINITION, st);
    return NULL;
  }
  cl_kernel k = calloc(1, sizeof *k);
  if (k) k->args = calloc(ki->num_args ? ki->num_args : 1, sizeof *k->args);
  if (k) k->name = rvcl_kernel_cl_name(ki);
  if (!k || !k->args || !k->name) {
    if (k) free(k->args), free(k->name);
    free(k);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  k->dispatch = &rvcl_dispatch;
  k->magic = RVCL_MAGIC_KERNEL;
  atomic_init(&k->refs, 1);
  k->program = p;
  k->ki = ki;
  k->hk = hk;
  clRetainProgram(p);
  atomic_fetch_add(&p->kernels, 1);
  *err = CL_SUCCESS;
  if (p->on_device && add_twins(k, err) != CL_SUCCESS) {
    clReleaseKernel(k);
    return NULL;
  }
  return k;
}

/* The kernel of the same name in each twin of k's program that is built
 * (a context of several devices). */
static cl_int add_twins(cl_kernel k, cl_int *err) {
  cl_program p = k->program;
  cl_uint n = p->context->num_devices;
  if (!(k->on_device = calloc(n, sizeof *k->on_device))) return *err = CL_OUT_OF_HOST_MEMORY;
  for (cl_uint i = 0; i < n; i++) {
    cl_program t = p->on_device[i];
    if (!t || t->status != CL_BUILD_SUCCESS || !t->info || !t->hp) continue;
    for (uint32_t j = 0; j < t->info->num_kernels; j++)
      if (!strcmp(t->info->kernels[j].name, k->ki->name)) {
        if (!(k->on_device[i] = kernel_new(t, &t->info->kernels[j], err))) return *err;
        break;
      }
  }
  return *err = CL_SUCCESS;
}

cl_kernel rvcl_kernel_on(cl_kernel k, cl_device_id d) {
  if (d == k->program->device) return k;
  int slot = k->on_device ? rvcl_context_slot(k->program->context, d) : -1;
  return slot >= 0 ? k->on_device[slot] : NULL;
}

static int is_built(cl_program p) { return p->status == CL_BUILD_SUCCESS && p->info && p->hp; }

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char *name, cl_int *errcode_ret) {
  static const char *fn = "clCreateKernel";
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  if (!RVCL_VALID(p, RVCL_MAGIC_PROGRAM)) {
    *err = rvcl_fail(NULL, fn, CL_INVALID_PROGRAM, "%p is not a program", (void *)p);
    return NULL;
  }
  if (!is_built(p)) {
    *err = rvcl_fail(p->context, fn, CL_INVALID_PROGRAM_EXECUTABLE, "the program has not been built");
    return NULL;
  }
  if (!name) {
    *err = rvcl_fail(p->context, fn, CL_INVALID_VALUE, "kernel_name is NULL");
    return NULL;
  }
  char names[512] = "";
  for (uint32_t i = 0; i < p->info->num_kernels; i++) {
    const rvhal_kernel_info_t *ki = &p->info->kernels[i];
    char *cl = rvcl_kernel_cl_name(ki);
    int match = (cl && !strcmp(cl, name)) || !strcmp(ki->name, name);
    if (cl && strlen(names) + strlen(cl) + 3 < sizeof names) strcat(strcat(names, i ? ", " : ""), cl);
    free(cl);
    if (match) return kernel_new(p, ki, err);
  }
  *err = rvcl_fail(p->context, fn, CL_INVALID_KERNEL_NAME, "no kernel \"%s\" in the program (it has: %s)", name, names);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program p, cl_uint num, cl_kernel *kernels, cl_uint *num_ret) {
  static const char *fn = "clCreateKernelsInProgram";
  if (!RVCL_VALID(p, RVCL_MAGIC_PROGRAM)) return rvcl_fail(NULL, fn, CL_INVALID_PROGRAM, "%p is not a program", (void *)p);
  if (!is_built(p)) return rvcl_fail(p->context, fn, CL_INVALID_PROGRAM_EXECUTABLE, "the program has not been built");
  cl_uint n = p->info->num_kernels;
  if (kernels && num < n)
    return rvcl_fail(p->context, fn, CL_INVALID_VALUE, "num_kernels %u is less than the program's %u kernels", num, n);
  if (kernels) {
    for (cl_uint i = 0; i < n; i++) {
      cl_int err;
      kernels[i] = kernel_new(p, &p->info->kernels[i], &err);
      if (!kernels[i]) {
        while (i--) clReleaseKernel(kernels[i]);
        return err;
      }
    }
  }
  if (num_ret) *num_ret = n;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel k) {
  if (!RVCL_VALID(k, RVCL_MAGIC_KERNEL)) return rvcl_fail(NULL, "clRetainKernel", CL_INVALID_KERNEL, "%p", (void *)k);
  atomic_fetch_add(&k->refs, 1);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel k) {
  if (!RVCL_VALID(k, RVCL_MAGIC_KERNEL)) return rvcl_fail(NULL, "clReleaseKernel", CL_INVALID_KERNEL, "%p", (void *)k);
  if (atomic_fetch_sub(&k->refs, 1) != 1) return CL_SUCCESS;
  for (uint32_t i = 0; i < k->ki->num_args; i++) free(k->args[i].big);
  free(k->args);
  free(k->name);
  cl_program p = k->program;
  for (cl_uint i = 0; k->on_device && i < p->context->num_devices; i++)
    if (k->on_device[i]) clReleaseKernel(k->on_device[i]);
  free(k->on_device);
  k->magic = 0;
  free(k);
  atomic_fetch_sub(&p->kernels, 1);
  clReleaseProgram(p);
  return CL_SUCCESS;
}

/* "argument 2 (dst, global uint *)" */
static const char *arg_label(const cl_kernel k, cl_uint i, char *buf, size_t size) {
  const rvhal_kernel_arg_info_t *a = &k->ki->args[i];
  snprintf(buf, size, "kernel %s argument %u (%s%s%s)", k->name, i, a->name ? a->name : "unnamed",
           a->type_name ? ", " : "", a->type_name ? a->type_name : "");
  return buf;
}

/* The image type an argument declared as an image takes; 0 for others. */
static cl_mem_object_type image_arg_type(const rvhal_kernel_arg_info_t *a) {
  static const struct {
    const char *name;
    cl_mem_object_type type;
  } types[] = {{"image1d_t", CL_MEM_OBJECT_IMAGE1D},           {"image2d_t", CL_MEM_OBJECT_IMAGE2D},
               {"image3d_t", CL_MEM_OBJECT_IMAGE3D},           {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY},
               {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY}, {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER}};
  if (!a->type_name || a->access_qualifier == RVHAL_ACCESS_NONE) return 0;
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (strstr(a->type_name, types[i].name)) return types[i].type;
  return 0;
}

static int is_sampler_arg(const rvhal_kernel_arg_info_t *a) {
  return a->kind == RVHAL_ARG_KIND_VALUE && a->type_name && strstr(a->type_name, "sampler_t") &&
         (a->size == 4 || a->size == 8);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value) {
  static const char *fn = "clSetKernelArg";
  if (!RVCL_VALID(k, RVCL_MAGIC_KERNEL)) return rvcl_fail(NULL, fn, CL_INVALID_KERNEL, "%p is not a kernel", (void *)k);
  cl_context c = k->program->context;
  if (index >= k->ki->num_args)
    return rvcl_fail(c, fn, CL_INVALID_ARG_INDEX, "kernel %s has %u arguments, not an argument %u", k->name,
                     k->ki->num_args, index);
  const rvhal_kernel_arg_info_t *a = &k->ki->args[index];
  rvcl_arg_t *slot = &k->args[index];
  char label[256];
  arg_label(k, index, label, sizeof label);
  if (a->kind == RVHAL_ARG_KIND_LOCAL) {
    if (value) return rvcl_fail(c, fn, CL_INVALID_ARG_VALUE, "%s is __local: arg_value must be NULL", label);
    if (size == 0) return rvcl_fail(c, fn, CL_INVALID_ARG_SIZE, "%s is __local: arg_size (its bytes) is 0", label);
    slot->arg = rvhal_arg_local(size);
    slot->mem = NULL;
  } else if (a->kind == RVHAL_ARG_KIND_GLOBAL) {
    if (size != sizeof(cl_mem))
      return rvcl_fail(c, fn, CL_INVALID_ARG_SIZE, "%s is a buffer: arg_size must be sizeof(cl_mem) = %zu, not %zu",
                       label, sizeof(cl_mem), size);
    cl_mem m = value ? *(const cl_mem *)value : NULL;
    if (m && !RVCL_VALID(m, RVCL_MAGIC_MEM))
      return rvcl_fail(c, fn, CL_INVALID_MEM_OBJECT, "%s: %p is not a buffer", label, (void *)m);
    if (m && m->context != c)
      return rvcl_fail(c, fn, CL_INVALID_MEM_OBJECT, "%s: the buffer belongs to another context", label);
    cl_mem_object_type want = image_arg_type(a);
    if (want ? !m || m->type != want : m && m->image)
      return rvcl_fail(c, fn, CL_INVALID_MEM_OBJECT, "%s: %p is %s", label, (void *)m,
                       !m ? "NULL, not an image" : m->image ? "an image of another type" : "a buffer, not an image");
    const uint32_t aq = a->access_qualifier;
    const cl_mem_flags refused = aq == RVHAL_ACCESS_WRITE_ONLY  ? CL_MEM_READ_ONLY
                                 : aq == RVHAL_ACCESS_READ_ONLY ? CL_MEM_WRITE_ONLY
                                 : aq == RVHAL_ACCESS_READ_WRITE ? CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY
                                                                 : 0;
    if (want && (m->flags & refused))
      return rvcl_fail(c, fn, CL_INVALID_ARG_VALUE, "%s: the image was made with flags 0x%llx, which a %s argument may "
                       "not take", label, (unsigned long long)m->flags,
                       aq == RVHAL_ACCESS_WRITE_ONLY ? "write_only" : aq == RVHAL_ACCESS_READ_ONLY ? "read_only"
                                                                                                   : "read_write");
    slot->arg = rvhal_arg_global(m ? rvcl_mem_arg_addr(m, 0, m->addr) : 0);
    slot->mem = m;
  } else if (is_sampler_arg(a)) {
    if (size != sizeof(cl_sampler))
      return rvcl_fail(c, fn, CL_INVALID_ARG_SIZE, "%s is a sampler: arg_size must be sizeof(cl_sampler) = %zu, not %zu",
                       label, sizeof(cl_sampler), size);
    cl_sampler smp = value ? *(const cl_sampler *)value : NULL;
    if (!RVCL_VALID(smp, RVCL_MAGIC_SAMPLER))
      return rvcl_fail(c, fn, CL_INVALID_SAMPLER, "%s: %p is not a sampler", label, (void *)smp);
    /* the CLK_* bits as the pointer-sized value the kernel's sampler_t is */
    uint64_t bits = rvcl_sampler_bits(smp);
    uint32_t bits32 = (uint32_t)bits;
    memcpy(slot->value, a->size == 8 ? (const void *)&bits : (const void *)&bits32, a->size);
    slot->arg = rvhal_arg_value(slot->value, a->size);
    slot->mem = NULL;
  } else {
    if (!value) return rvcl_fail(c, fn, CL_INVALID_ARG_VALUE, "%s is a value: arg_value is NULL", label);
    if (size != a->size)
      return rvcl_fail(c, fn, CL_INVALID_ARG_SIZE, "%s is a %u-byte value, not %zu bytes", label, a->size, size);
    void *dst = slot->value;
    if (size > sizeof slot->value) {
      void *big = realloc(slot->big, size);
      if (!big) return CL_OUT_OF_HOST_MEMORY;
      dst = slot->big = big;
    }
    memcpy(dst, value, size);
    slot->arg = rvhal_arg_value(dst, size);
    slot->mem = NULL;
  }
  slot->set = 1;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel k, cl_kernel_info name, size_t size, void *value,
                                                size_t *size_ret) {
  if (!RVCL_VALID(k, RVCL_MAGIC_KERNEL)) return rvcl_fail(NULL, "clGetKernelInfo", CL_INVALID_KERNEL, "%p", (void *)k);
  switch (name) {
  case CL_KERNEL_FUNCTION_NAME: return rvcl_info_str(k->name, size, value, size_ret);
  case CL_KERNEL_NUM_ARGS: {
    cl_uint n = k->ki->num_args;
    return rvcl_info(&n, sizeof n, size, value, size_ret);
  }
  case CL_KERNEL_REFERENCE_COUNT: {
    cl_uint r = atomic_load(&k->refs);
    return rvcl_info(&r, sizeof r, size, value, size_ret);
  }
  case CL_KERNEL_CONTEXT: return rvcl_info(&k->program->context, sizeof(cl_context), size, value, size_ret);
  case CL_KERNEL_PROGRAM: return rvcl_info(&k->program, sizeof k->program, size, value, size_ret);
  case CL_KERNEL_ATTRIBUTES: /* as the source wrote them (OpenCL C kernels; compiler/opencl_ir.c) */
    return rvcl_info_str(k->ki->attributes ? k->ki->attributes : "", size, value, size_ret);
  }
  return rvcl_fail(k->program->context, "clGetKernelInfo", CL_INVALID_VALUE, "param_name 0x%x is not a kernel query",
                   (unsigned)name);
}

/* The declared type without address-space and type qualifiers, as OpenCL
 * reports it: "global const float *" -> "float*". */
static void plain_type(const char *decl, char *out, size_t size) {
  static const char *drop[] = {"__global", "global", "__local", "local", "__constant", "constant", "__private",
                               "private", "const", "volatile", "restrict", "__restrict"};
  size_t n = 0;
  out[0] = 0;
  const char *p = decl;
  while (*p) {
    while (*p == ' ') p++;
    const char *w = p;
    while (*p && *p != ' ' && *p != '*') p++;
    size_t len = (size_t)(p - w);
    int skip = 0;
    for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
      if (strlen(drop[i]) == len && !strncmp(w, drop[i], len)) skip = 1;
    if (len && !skip && n + len + 2 < size) {
      if (n && out[n - 1] != '*') out[n++] = ' ';
      memcpy(out + n, w, len);
      n += len;
    }
    while (*p == '*' && n + 2 < size) out[n++] = *p++;
    if (*p == '*') p++;
    out[n] = 0;
  }
}

/* The qualifiers of what a C SDK pointer points to, from its declaration
 * ("global const uint *"): the words before the first '*'. */
static uint32_t c_sdk_qualifiers(const char *decl) {
  const char *star = strchr(decl, '*');
  size_t n = star ? (size_t)(star - decl) : 0;
  uint32_t q = 0;
  static const struct {
    const char *word;
    uint32_t bit;
  } words[] = {{"const", RVHAL_TYPE_QUAL_CONST}, {"volatile", RVHAL_TYPE_QUAL_VOLATILE}};
  for (size_t i = 0; i < 2; i++) {
    size_t len = strlen(words[i].word);
    for (const char *p = decl; p + len <= decl + n; p++)
      if (!strncmp(p, words[i].word, len) && (p == decl || p[-1] == ' ') && (p[len] == ' ' || p[len] == '*'))
        q |= words[i].bit;
  }
  if (star && strstr(star, "restrict")) q |= RVHAL_TYPE_QUAL_RESTRICT;
  return q;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k, cl_uint index, cl_kernel_arg_info name, size_t size,
                                                   void *value, size_t *size_ret) {
  static const char *fn = "clGetKernelArgInfo";
  if (!RVCL_VALID(k, RVCL_MAGIC_KERNEL)) return rvcl_fail(NULL, fn, CL_INVALID_KERNEL, "%p", (void *)k);
  cl_context c = k->program->context;
  if (index >= k->ki->num_args)
    return rvcl_fail(c, fn, CL_INVALID_ARG_INDEX, "kernel %s has %u arguments, not an argument %u", k->name,
                     k->ki->num_args, index);
  const rvhal_kernel_arg_info_t *a = &k->ki->args[index];
  switch (name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
    cl_kernel_arg_address_qualifier q = a->address_space == RVHAL_ADDRESS_GLOBAL     ? CL_KERNEL_ARG_ADDRESS_GLOBAL
                                        : a->address_space == RVHAL_ADDRESS_CONSTANT ? CL_KERNEL_ARG_ADDRESS_CONSTANT
                                        : a->address_space == RVHAL_ADDRESS_LOCAL    ? CL_KERNEL_ARG_ADDRESS_LOCAL
                                                                                     : CL_KERNEL_ARG_ADDRESS_PRIVATE;
    return rvcl_info(&q, sizeof q, size, value, size_ret);
  }
  case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
    uint32_t aq = a->access_qualifier;
    cl_kernel_arg_access_qualifier q = aq == RVHAL_ACCESS_READ_ONLY    ? CL_KERNEL_ARG_ACCESS_READ_ONLY
                                       : aq == RVHAL_ACCESS_WRITE_ONLY ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
                                       : aq == RVHAL_ACCESS_READ_WRITE ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                                                                       : CL_KERNEL_ARG_ACCESS_NONE;
    return rvcl_info(&q, sizeof q, size, value, size_ret);
  }
  case CL_KERNEL_ARG_TYPE_NAME: {
    if (!a->type_name) break;
    char t[256];
    plain_type(a->type_name, t, sizeof t);
    return rvcl_info_str(t, size, value, size_ret);
  }
  case CL_KERNEL_ARG_TYPE_QUALIFIER: {
    cl_kernel_arg_type_qualifier q = 0;
    uint32_t tq = a->type_qualifiers;
    if (!tq && k->ki->language == RVHAL_KERNEL_LANG_C && a->type_name)
      tq = c_sdk_qualifiers(a->type_name); /* the SDK records the declaration only */
    if (tq & RVHAL_TYPE_QUAL_CONST) q |= CL_KERNEL_ARG_TYPE_CONST;
    if (tq & RVHAL_TYPE_QUAL_RESTRICT) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (tq & RVHAL_TYPE_QUAL_VOLATILE) q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    return rvcl_info(&q, sizeof q, size, value, size_ret);
  }
  case CL_KERNEL_ARG_NAME:
    if (!a->name) break;
    return rvcl_info_str(a->name, size, value, size_ret);
  default:
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "param_name 0x%x is not an argument query", (unsigned)name);
  }
  return rvcl_fail(c, fn, CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "kernel %s argument %u: the binary did not record it",
                   k->name, index);
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_work_group_info name,
                                                         size_t size, void *value, size_t *size_ret) {
  static const char *fn = "clGetKernelWorkGroupInfo";
  if (!RVCL_VALID(k, RVCL_MAGIC_KERNEL)) return rvcl_fail(NULL, fn, CL_INVALID_KERNEL, "%p", (void *)k);
  cl_context c = k->program->context;
  if (!d && k->on_device)
    return rvcl_fail(c, fn, CL_INVALID_DEVICE, "device is NULL and the kernel is for several devices");
  cl_kernel on = !d ? k : RVCL_VALID(d, RVCL_MAGIC_DEVICE) ? rvcl_kernel_on(k, d) : NULL;
  if (!on) return rvcl_fail(c, fn, CL_INVALID_DEVICE, "device %p is not one of the kernel's", (void *)d);
  const rvhal_device_info_t *in = &on->program->device->info;
  switch (name) {
  case CL_KERNEL_WORK_GROUP_SIZE: {
    size_t s = in->max_work_group_size;
    return rvcl_info(&s, sizeof s, size, value, size_ret);
  }
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    const uint32_t *r = k->ki->reqd_work_group_size;
    size_t s[3] = {r[0], r[1], r[2]};
    return rvcl_info(s, sizeof s, size, value, size_ret);
  }
  case CL_KERNEL_LOCAL_MEM_SIZE: { /* __local variables (every group gets them) and the __local arguments set */
    cl_ulong total = k->ki->local_vars_size;
    for (uint32_t i = 0; i < k->ki->num_args; i++)
      if (k->args[i].set && k->ki->args[i].kind == RVHAL_ARG_KIND_LOCAL) total += k->args[i].arg.size;
    return rvcl_info(&total, sizeof total, size, value, size_ret);
  }
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: {
    size_t one = 1;
    return rvcl_info(&one, sizeof one, size, value, size_ret);
  }
  case CL_KERNEL_PRIVATE_MEM_SIZE: {
    cl_ulong z = 0;
    return rvcl_info(&z, sizeof z, size, value, size_ret);
  }
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "CL_KERNEL_GLOBAL_WORK_SIZE is for custom devices and built-in kernels");
  }
  return rvcl_fail(c, fn, CL_INVALID_VALUE, "param_name 0x%x is not a work-group query", (unsigned)name);
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel k, cl_int *errcode_ret) {
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  if (!RVCL_VALID(k, RVCL_MAGIC_KERNEL)) {
    *err = rvcl_fail(NULL, "clCloneKernel", CL_INVALID_KERNEL, "%p", (void *)k);
    return NULL;
  }
  cl_kernel n = kernel_new(k->program, k->ki, err);
  if (!n) return NULL;
  for (uint32_t i = 0; i < k->ki->num_args; i++) {
    n->args[i] = k->args[i];
    n->args[i].big = NULL;
    if (k->args[i].set && is_sampler_arg(&k->ki->args[i])) {
      n->args[i].arg = rvhal_arg_value(n->args[i].value, k->ki->args[i].size);
    } else if (k->args[i].set && k->args[i].arg.kind == hal_arg_value) {
      /* re-point the value at the clone's own copy */
      cl_int e = clSetKernelArg(n, i, k->args[i].arg.size, k->args[i].arg.pod_data);
      if (e != CL_SUCCESS) {
        clReleaseKernel(n);
        *err = e;
        return NULL;
      }
    }
  }
  return n;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_sub_group_info name,
                                                        size_t in_size, const void *in, size_t size, void *value,
                                                        size_t *size_ret) {
  (void)d, (void)name, (void)in_size, (void)in, (void)size, (void)value, (void)size_ret;
  if (!RVCL_VALID(k, RVCL_MAGIC_KERNEL)) return rvcl_fail(NULL, "clGetKernelSubGroupInfo", CL_INVALID_KERNEL, "%p", (void *)k);
  return rvcl_fail(k->program->context, "clGetKernelSubGroupInfo", CL_INVALID_OPERATION,
                   "rvhal devices have no sub-groups (CL_DEVICE_MAX_NUM_SUB_GROUPS is 0)");
}
