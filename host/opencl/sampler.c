/* Samplers: normalized coordinates, an addressing mode and a filter mode.
 * A kernel's sampler_t argument gets the CLK_* bits of the same sampler
 * written in OpenCL C (rvcl_sampler_bits), which the built-ins decode
 * (sdk/opencl/builtins/image.cl). */
#include <stdlib.h>

#include "icd.h"

/* The OpenCL C values (opencl-c-base.h's CLK_*), which a program's own
 * sampler_t constants carry too. */
enum { CLK_NORMALIZED = 1, CLK_NONE = 0, CLK_CLAMP_TO_EDGE = 2, CLK_CLAMP = 4, CLK_REPEAT = 6, CLK_MIRRORED = 8,
       CLK_NEAREST = 0x10, CLK_LINEAR = 0x20 };

uint32_t rvcl_sampler_bits(cl_sampler s) {
  uint32_t b = s->normalized ? CLK_NORMALIZED : 0;
  switch (s->addressing) {
  case CL_ADDRESS_CLAMP_TO_EDGE: b |= CLK_CLAMP_TO_EDGE; break;
  case CL_ADDRESS_CLAMP: b |= CLK_CLAMP; break;
  case CL_ADDRESS_REPEAT: b |= CLK_REPEAT; break;
  case CL_ADDRESS_MIRRORED_REPEAT: b |= CLK_MIRRORED; break;
  default: b |= CLK_NONE; break;
  }
  return b | (s->filter == CL_FILTER_LINEAR ? CLK_LINEAR : CLK_NEAREST);
}

static cl_sampler create(const char *fn, cl_context c, cl_bool norm, cl_addressing_mode a, cl_filter_mode f,
                         const cl_sampler_properties *props, cl_int *err) {
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT)) {
    *err = rvcl_fail(NULL, fn, CL_INVALID_CONTEXT, "%p is not a context", (void *)c);
    return NULL;
  }
  if (norm != CL_TRUE && norm != CL_FALSE) {
    *err = rvcl_fail(c, fn, CL_INVALID_VALUE, "normalized_coords %u is neither CL_TRUE nor CL_FALSE", (unsigned)norm);
    return NULL;
  }
  if (a != CL_ADDRESS_NONE && a != CL_ADDRESS_CLAMP_TO_EDGE && a != CL_ADDRESS_CLAMP && a != CL_ADDRESS_REPEAT &&
      a != CL_ADDRESS_MIRRORED_REPEAT) {
    *err = rvcl_fail(c, fn, CL_INVALID_VALUE, "addressing_mode 0x%x is not a CL_ADDRESS_* mode", (unsigned)a);
    return NULL;
  }
  if (f != CL_FILTER_NEAREST && f != CL_FILTER_LINEAR) {
    *err = rvcl_fail(c, fn, CL_INVALID_VALUE, "filter_mode 0x%x is not CL_FILTER_NEAREST or CL_FILTER_LINEAR",
                     (unsigned)f);
    return NULL;
  }
  cl_sampler s = calloc(1, sizeof *s);
  if (!s) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  s->dispatch = &rvcl_dispatch;
  s->magic = RVCL_MAGIC_SAMPLER;
  atomic_init(&s->refs, 1);
  s->context = c;
  s->normalized = norm;
  s->addressing = a;
  s->filter = f;
  if (props) {
    size_t i = 0;
    while (props[i]) {
      s->props[i] = props[i];
      s->props[i + 1] = props[i + 1];
      i += 2;
    }
    s->num_props = i + 1; /* with the 0 */
  }
  rvcl_context_hold(c);
  *err = CL_SUCCESS;
  return s;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context c, cl_bool norm, cl_addressing_mode a, cl_filter_mode f,
                                                    cl_int *errcode_ret) {
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  return create("clCreateSampler", c, norm, a, f, NULL, err);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context c, const cl_sampler_properties *props,
                                                                  cl_int *errcode_ret) {
  static const char *fn = "clCreateSamplerWithProperties";
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  cl_bool norm = CL_TRUE;
  cl_addressing_mode a = CL_ADDRESS_CLAMP;
  cl_filter_mode f = CL_FILTER_NEAREST;
  int seen[3] = {0, 0, 0};
  size_t i = 0;
  for (; props && props[i]; i += 2) {
    int k = props[i] == CL_SAMPLER_NORMALIZED_COORDS ? 0 : props[i] == CL_SAMPLER_ADDRESSING_MODE ? 1
            : props[i] == CL_SAMPLER_FILTER_MODE                                                   ? 2
                                                                                                   : -1;
    if (k < 0 || seen[k] || i + 2 > 6) {
      *err = rvcl_fail(RVCL_VALID(c, RVCL_MAGIC_CONTEXT) ? c : NULL, fn, CL_INVALID_VALUE,
                       "sampler property 0x%llx is unknown or repeated", (unsigned long long)props[i]);
      return NULL;
    }
    seen[k] = 1;
    if (k == 0) norm = (cl_bool)props[i + 1];
    if (k == 1) a = (cl_addressing_mode)props[i + 1];
    if (k == 2) f = (cl_filter_mode)props[i + 1];
  }
  return create(fn, c, norm, a, f, props, err);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler s) {
  if (!RVCL_VALID(s, RVCL_MAGIC_SAMPLER)) return rvcl_fail(NULL, "clRetainSampler", CL_INVALID_SAMPLER, "%p", (void *)s);
  atomic_fetch_add(&s->refs, 1);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler s) {
  if (!RVCL_VALID(s, RVCL_MAGIC_SAMPLER)) return rvcl_fail(NULL, "clReleaseSampler", CL_INVALID_SAMPLER, "%p", (void *)s);
  if (atomic_fetch_sub(&s->refs, 1) != 1) return CL_SUCCESS;
  cl_context c = s->context;
  s->magic = 0;
  free(s);
  rvcl_context_unhold(c);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info name, size_t size, void *value,
                                                 size_t *size_ret) {
  if (!RVCL_VALID(s, RVCL_MAGIC_SAMPLER)) return rvcl_fail(NULL, "clGetSamplerInfo", CL_INVALID_SAMPLER, "%p", (void *)s);
  switch (name) {
  case CL_SAMPLER_REFERENCE_COUNT: {
    cl_uint r = atomic_load(&s->refs);
    return rvcl_info(&r, sizeof r, size, value, size_ret);
  }
  case CL_SAMPLER_CONTEXT: return rvcl_info(&s->context, sizeof s->context, size, value, size_ret);
  case CL_SAMPLER_NORMALIZED_COORDS: return rvcl_info(&s->normalized, sizeof s->normalized, size, value, size_ret);
  case CL_SAMPLER_ADDRESSING_MODE: return rvcl_info(&s->addressing, sizeof s->addressing, size, value, size_ret);
  case CL_SAMPLER_FILTER_MODE: return rvcl_info(&s->filter, sizeof s->filter, size, value, size_ret);
  case CL_SAMPLER_PROPERTIES: return rvcl_info(s->props, s->num_props * sizeof s->props[0], size, value, size_ret);
  }
  return rvcl_fail(s->context, "clGetSamplerInfo", CL_INVALID_VALUE, "param_name 0x%x is not a sampler query",
                   (unsigned)name);
}
