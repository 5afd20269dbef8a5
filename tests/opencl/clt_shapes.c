/* clt_dispatch.h's array shapes: how big each array of a driver run is.
 * Shared by the device kernel (clt_dispatch.c) and the host side of the
 * device test, which sizes the device buffers with it. */
#include "clt_cases.h"
#include "clt_dispatch.h"

static const uint32_t type_size[CLT_TYPE_COUNT] = {
#define CLT_SIZE(T, size, sgn, fp) size,
    CLT_TYPES(CLT_SIZE)
#undef CLT_SIZE
};

static clt_array_shape_t shape(uint32_t size, uint32_t num, uint32_t den) {
  clt_array_shape_t s = {size, num, den};
  return s;
}

static int type_ok(int32_t t) { return t >= 0 && t < CLT_TYPE_COUNT; }

int clt_shapes(int32_t op, const int32_t p[4], clt_array_shape_t in[CLT_MAX_IN], clt_array_shape_t out[CLT_MAX_OUT]) {
  for (int i = 0; i < CLT_MAX_IN; i++) in[i] = shape(0, 0, 1);
  for (int i = 0; i < CLT_MAX_OUT; i++) out[i] = shape(0, 0, 1);
  uint32_t s;
  switch (op) {
  case CLTO_MATH_F32:
  case CLTO_MATH_F64:
    s = op == CLTO_MATH_F32 ? 4 : 8;
    in[0] = in[1] = in[2] = shape(s, 1, 1);
    in[3] = shape(4, 1, 1);
    out[0] = out[1] = shape(s, 1, 1);
    out[2] = shape(4, 1, 1);
    return 0;
  case CLTO_INT:
  case CLTO_VLOADSTORE:
  case CLTO_SELECT:
    if (!type_ok(p[0])) return -1;
    s = type_size[p[0]];
    in[0] = in[1] = in[2] = in[3] = shape(s, 1, 1);
    if (op == CLTO_VLOADSTORE) in[1] = in[2] = in[3] = shape(0, 0, 1);
    out[0] = shape(s, 1, 1);
    return 0;
  case CLTO_INT24:
    in[0] = in[1] = in[2] = shape(4, 1, 1);
    out[0] = shape(4, 1, 1);
    return 0;
  case CLTO_UPSAMPLE:
    if (p[0] < CLTT_char || p[0] > CLTT_uint) return -1;
    s = type_size[p[0]];
    in[0] = in[1] = shape(s, 1, 1);
    out[0] = shape(2 * s, 1, 1);
    return 0;
  case CLTO_CONVERT:
    if (!type_ok(p[0]) || !type_ok(p[1])) return -1;
    in[0] = shape(type_size[p[1]], 1, 1);
    out[0] = shape(type_size[p[0]], 1, 1);
    return 0;
  case CLTO_HALF_STORE:
    in[0] = shape(p[0] == CLTT_double ? 8 : 4, 1, 1);
    out[0] = p[3] && p[2] == 3 ? shape(2, 4, 3) : shape(2, 1, 1);
    return 0;
  case CLTO_HALF_LOAD:
    in[0] = p[1] && p[0] == 3 ? shape(2, 4, 3) : shape(2, 1, 1);
    out[0] = shape(4, 1, 1);
    return 0;
  case CLTO_REL:
  case CLTO_COMMON:
    s = p[0] == CLTT_double ? 8 : 4;
    in[0] = in[1] = in[2] = shape(s, 1, 1);
    out[0] = shape(op == CLTO_REL ? s : s, 1, 1);
    return 0;
  case CLTO_ANYALL:
    if (!type_ok(p[0]) || p[1] < 1) return -1;
    in[0] = shape(type_size[p[0]], 1, 1);
    out[0] = shape(4, 1, (uint32_t)p[1]);
    return 0;
  case CLTO_GEOM:
    if (p[2] < 1) return -1;
    s = p[0] == CLTT_double ? 8 : 4;
    in[0] = in[1] = shape(s, 1, 1);
    /* dot, distance, length and their fast forms: one result per vector */
    out[0] = (p[1] == 3 || p[1] == 4 || p[1] == 7) ? shape(s, 1, 1) : shape(s, 1, (uint32_t)p[2]);
    return 0;
  case CLTO_SHUFFLE:
    if (!type_ok(p[0]) || p[1] < 1 || p[2] < 1) return -1;
    s = type_size[p[0]];
    in[0] = in[1] = shape(s, (uint32_t)p[1], (uint32_t)p[2]);
    in[2] = shape(s, 1, 1); /* the mask: unsigned, same size */
    out[0] = shape(s, 1, 1);
    return 0;
  default:
    return -1;
  }
}

