// For the test cli.cc_values: scalar, vector and struct values, a __local
// argument and a __constant pointer, through rvhal cc, rvhal kernels and
// rvhal run (the host packs each value where the generated entry reads it).
typedef struct { int a; float b; char c[3]; } triple;
__kernel void values(__global float *out, char c, ushort s, long l, double d, float4 v, triple t,
                     __local int *scratch, __constant int *k) {
  size_t i = get_global_id(0);
  scratch[get_local_id(0)] = k[0];
  out[i] = c + s + (float)l + (float)d + v.x + v.w + t.a + t.b + t.c[2] + scratch[get_local_id(0)];
}
