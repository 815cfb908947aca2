/* dropout_gpu: runs the dropout forward and backward kernels of dropout.mlir (PTX from
 * remat-translate) on a GPU through the CUDA driver API and checks, bit for bit, that
 * the backward's recomputed mask equals the forward's, and that both kernels' outputs
 * equal the host reference built on lib/philox.c. Not part of the build (needs cuda.h
 * and a GPU): bench/gpu/run.sh builds and runs it. Exit 0 only if everything matches. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda.h>

#include "half.h"
#include "philox.h"

#define N (1 << 20)

static void check_cu(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    const char *s = "?";
    cuGetErrorString(r, &s);
    fprintf(stderr, "dropout_gpu: %s: %s\n", what, s);
    exit(2);
  }
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "dropout_gpu: cannot read %s\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *s = malloc((size_t)n + 1);
  if (fread(s, 1, (size_t)n, f) != (size_t)n)
    exit(2);
  s[n] = 0;
  fclose(f);
  return s;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: dropout_gpu dropout.ptx\n");
    return 2;
  }
  char *ptx = read_file(argv[1]);
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fwd, bwd;
  check_cu(cuInit(0), "cuInit");
  check_cu(cuDeviceGet(&dev, 0), "cuDeviceGet");
  check_cu(cuCtxCreate(&ctx, NULL, 0, dev), "cuCtxCreate");
  check_cu(cuModuleLoadData(&mod, ptx), "cuModuleLoadData");
  check_cu(cuModuleGetFunction(&fwd, mod, "drop_fwd_k0"), "drop_fwd_k0");
  check_cu(cuModuleGetFunction(&bwd, mod, "drop_bwd_k0"), "drop_bwd_k0");

  float *a = malloc(sizeof(float) * N), *g = malloc(sizeof(float) * N),
        *y = malloc(sizeof(float) * N), *da = malloc(sizeof(float) * N);
  for (int i = 0; i < N; i++) { /* nonzero, so an output is zero exactly when dropped */
    a[i] = (float)(i % 13) * 0.25f + 0.5f;
    g[i] = (float)(i % 7) * -0.5f - 1.0f;
  }
  CUdeviceptr da_a, da_g, da_y, da_da;
  size_t bytes = sizeof(float) * N;
  check_cu(cuMemAlloc(&da_a, bytes), "cuMemAlloc");
  check_cu(cuMemAlloc(&da_g, bytes), "cuMemAlloc");
  check_cu(cuMemAlloc(&da_y, bytes), "cuMemAlloc");
  check_cu(cuMemAlloc(&da_da, bytes), "cuMemAlloc");
  check_cu(cuMemcpyHtoD(da_a, a, bytes), "copy a");
  check_cu(cuMemcpyHtoD(da_g, g, bytes), "copy g");

  static const uint64_t cases[][2] = {{0, 0}, {42, 7}, {0x123456789abcdef0ull, 0xfedcba9876543210ull}};
  int failures = 0;
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    uint64_t seed = cases[c][0], offset = cases[c][1];
    void *fa[] = {&seed, &offset, &da_a, &da_y};
    void *ba[] = {&seed, &offset, &da_a, &da_g, &da_da};
    /* A grid smaller than the tensor: the grid-stride loop covers the rest. */
    check_cu(cuLaunchKernel(fwd, 132, 1, 1, 256, 1, 1, 0, NULL, fa, NULL), "launch fwd");
    check_cu(cuLaunchKernel(bwd, 1000, 1, 1, 128, 1, 1, 0, NULL, ba, NULL), "launch bwd");
    check_cu(cuCtxSynchronize(), "synchronize");
    check_cu(cuMemcpyDtoH(y, da_y, bytes), "copy y");
    check_cu(cuMemcpyDtoH(da, da_da, bytes), "copy da");
    long mask_diff = 0, fwd_diff = 0, bwd_diff = 0, kept = 0;
    for (uint64_t i = 0; i < N; i++) {
      bool keep = philox_uniform_f32(philox_element_bits(seed, offset, i), 0, 1) < 0.5f;
      float m = keep ? 1.0f : 0.0f, t4 = a[i] * m * 2.0f;
      fwd_diff += f32_bits(y[i]) != f32_bits(a[i] * t4);
      bwd_diff += f32_bits(da[i]) != f32_bits(t4 * g[i] + m * ((a[i] * g[i]) * 2.0f));
      mask_diff += (y[i] != 0) != (da[i] != 0);
      kept += keep;
    }
    printf("seed %#llx offset %#llx: kept %ld of %d; forward vs reference: %ld differ; "
           "backward vs reference: %ld differ; backward mask vs forward mask: %ld differ\n",
           (unsigned long long)seed, (unsigned long long)offset, kept, N, fwd_diff, bwd_diff,
           mask_diff);
    failures += fwd_diff != 0 || bwd_diff != 0 || mask_diff != 0;
  }
  printf("%s\n", failures ? "FAILED" : "ok: bit-exact");
  cuMemFree(da_a), cuMemFree(da_g), cuMemFree(da_y), cuMemFree(da_da);
  cuModuleUnload(mod);
  cuCtxDestroy(ctx);
  free(a), free(g), free(y), free(da), free(ptx);
  return failures != 0;
}
