/* cuda_exec_test: the CUDA backend (lib/runtime/cuda_exec.c) without a GPU.
 *
 *   cuda_exec_test pure
 *     the launch configuration, the cuBLAS operand mapping (checked against a
 *     column-major reference GEMM with cuBLAS's argument rules), the slice-view rule, the
 *     argument packing and the probe module;
 *   cuda_exec_test run FILE FN [SEED]
 *     FN of FILE on the backend over a fake driver, against the CPU's compiled path: the
 *     results must be bit-identical; prints device memory (allocations, frees, peak) and
 *     the launches;
 *   cuda_exec_test check FILE NAME [corrupt KERNEL]
 *     --check-device's checker over the fake driver (optionally flipping one bit of the
 *     last output of KERNEL's launches, which it must catch);
 *   cuda_exec_test nodevice FILE
 *     a driver that sees no device: creation fails with a message.
 *
 * The fake driver keeps "device" memory in host allocations (a CUdeviceptr is the host
 * address), checks every pointer a launch or a copy uses against the live allocations
 * (so a buffer freed too early is an error, not a silent read), checks launch shapes,
 * and runs a launched PTX entry as the host JIT's build of the same function (`_packed`,
 * over every iteration). Its cuBLAS computes the column-major GEMM it is asked for,
 * accumulating in the order of the CPU runtime, and checks leading dimensions as cuBLAS
 * does; a wrong operand mapping shows as wrong bits. Driven by cuda_exec_test.test. */
#include <cuda.h>
#include <cublas_v2.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "half.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "remat-c/Remat.h"
#include "rt.h"
#include "check.h"
#include "check_device.h"
#include "compiled.h"
#include "cuda_exec.h"
#include "executor.h"
#include "interp.h"
#include "io.h"

static int failures;

static void expect(bool ok, const char *what) {
  printf("%s: %s\n", what, ok ? "ok" : "FAILED");
  failures += !ok;
}

/* ---- pure functions ----------------------------------------------------------------- */

static void print_launch(bool rows, int64_t n, int sms) {
  rtr_cuda_launch l = rtr_cuda_launch_config(rows, n, sms);
  printf("launch %s %lld on %d SMs: grid %u block %u\n", rows ? "rows" : "elements", (long long)n,
         sms, l.grid, l.block);
  /* a grid-stride loop over n iterations with grid x block threads (rows: grid blocks)
   * must start every iteration: at least one thread or block */
  if (n > 0 && (l.grid < 1 || l.block < 1))
    failures++;
}

/* cuBLAS's column-major GEMM: C[b] = op(X[b]) op(Y[b]), op = transpose when t. */
static void colmajor_gemm(bool tx, bool ty, int64_t m, int64_t n, int64_t k, const float *X,
                          int64_t ldx, int64_t sx, const float *Y, int64_t ldy, int64_t sy,
                          float *C, int64_t ldc, int64_t sc, int64_t batch) {
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        float acc = 0;
        for (int64_t l = 0; l < k; l++) {
          float x = tx ? X[b * sx + l + i * ldx] : X[b * sx + i + l * ldx];
          float y = ty ? Y[b * sy + j + l * ldy] : Y[b * sy + l + j * ldy];
          acc += x * y;
        }
        C[b * sc + i + j * ldc] = acc;
      }
}

static void test_gemm(void) {
  int ok = 0, total = 0;
  int64_t shapes[][4] = {{1, 2, 3, 4}, {3, 2, 3, 4}, {2, 1, 5, 1}, {2, 4, 1, 3}, {1, 1, 1, 1}};
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
    for (int t = 0; t < 4; t++) {
      int64_t B = shapes[s][0], M = shapes[s][1], N = shapes[s][2], K = shapes[s][3];
      bool ta = t & 1, tb = t & 2;
      float *A = malloc(sizeof(float) * (size_t)(B * M * K)),
            *Bm = malloc(sizeof(float) * (size_t)(B * K * N)),
            *want = malloc(sizeof(float) * (size_t)(B * M * N)),
            *got = calloc((size_t)(B * M * N), sizeof(float));
      /* logical a[p][i][l] = 1 + i + 10 l + 100 p, b[p][l][j] = 1 + 3 j - l + 7 p; stored
       * transposed when ta / tb */
      for (int64_t p = 0; p < B; p++)
        for (int64_t i = 0; i < M; i++)
          for (int64_t l = 0; l < K; l++)
            A[ta ? (p * K + l) * M + i : (p * M + i) * K + l] = (float)(1 + i + 10 * l + 100 * p);
      for (int64_t p = 0; p < B; p++)
        for (int64_t l = 0; l < K; l++)
          for (int64_t j = 0; j < N; j++)
            Bm[tb ? (p * N + j) * K + l : (p * K + l) * N + j] = (float)(1 + 3 * j - l + 7 * p);
      for (int64_t p = 0; p < B; p++)
        for (int64_t i = 0; i < M; i++)
          for (int64_t j = 0; j < N; j++) {
            float acc = 0;
            for (int64_t l = 0; l < K; l++)
              acc += (float)(1 + i + 10 * l + 100 * p) * (float)(1 + 3 * j - l + 7 * p);
            want[(p * M + i) * N + j] = acc;
          }
      rtr_cuda_gemm g = rtr_cuda_gemm_config(B, M, N, K, ta, tb);
      /* cuBLAS's rules: lda >= max(1, rows of the stored matrix) */
      bool lds = g.ldx >= (g.trans_x ? g.k : g.m) && g.ldy >= (g.trans_y ? g.n : g.k) &&
                 g.ldc >= g.m && g.ldx >= 1 && g.ldy >= 1;
      colmajor_gemm(g.trans_x, g.trans_y, g.m, g.n, g.k, Bm, g.ldx, g.stride_x, A, g.ldy,
                    g.stride_y, got, g.ldc, g.stride_c, g.batch);
      bool same = lds && !memcmp(want, got, sizeof(float) * (size_t)(B * M * N));
      if (!same)
        printf("gemm B=%lld M=%lld N=%lld K=%lld ta=%d tb=%d: wrong\n", (long long)B, (long long)M,
               (long long)N, (long long)K, ta, tb);
      ok += same;
      total++;
      free(A), free(Bm), free(want), free(got);
    }
  printf("gemm mapping: %d of %d shapes x transposes equal the row-major product\n", ok, total);
  failures += ok != total;
  rtr_cuda_gemm g = rtr_cuda_gemm_config(4, 2, 3, 5, true, false);
  printf("gemm B=4 M=2 N=3 K=5 ta: transa=%c transb=%c m=%lld n=%lld k=%lld ldx=%lld ldy=%lld "
         "ldc=%lld strides %lld %lld %lld\n",
         g.trans_x ? 'T' : 'N', g.trans_y ? 'T' : 'N', (long long)g.m, (long long)g.n,
         (long long)g.k, (long long)g.ldx, (long long)g.ldy, (long long)g.ldc,
         (long long)g.stride_x, (long long)g.stride_y, (long long)g.stride_c);
}

static void print_slice(int rank, const int64_t *dims, const int64_t *start, const int64_t *limit,
                        const int64_t *stride) {
  int64_t first = -1;
  bool v = rtr_cuda_slice_is_view(rank, dims, start, limit, stride, &first);
  printf("slice");
  for (int k = 0; k < rank; k++)
    printf(" [%lld:%lld:%lld of %lld]", (long long)start[k], (long long)limit[k],
           (long long)stride[k], (long long)dims[k]);
  if (v)
    printf(": view at %lld\n", (long long)first);
  else
    printf(": copy\n");
}

static void test_slices(void) {
  int64_t d[] = {4, 6}, one[] = {1, 1};
  print_slice(2, d, (int64_t[]){1, 0}, (int64_t[]){3, 6}, one);               /* rows 1-2 */
  print_slice(2, d, (int64_t[]){2, 1}, (int64_t[]){3, 5}, one);               /* part of one row */
  print_slice(2, d, (int64_t[]){0, 1}, (int64_t[]){4, 5}, one);               /* columns */
  print_slice(2, d, (int64_t[]){0, 0}, (int64_t[]){4, 6}, (int64_t[]){2, 1}); /* every other row */
  print_slice(2, d, (int64_t[]){3, 0}, (int64_t[]){4, 6}, (int64_t[]){5, 1}); /* last row, stride */
  print_slice(2, d, (int64_t[]){2, 3}, (int64_t[]){2, 6}, one);               /* empty */
  int64_t d3[] = {2, 3, 4};
  print_slice(3, d3, (int64_t[]){1, 1, 0}, (int64_t[]){2, 3, 4}, (int64_t[]){1, 1, 1});
  print_slice(3, d3, (int64_t[]){0, 1, 0}, (int64_t[]){2, 2, 4}, (int64_t[]){1, 1, 1});
}

static MlirType type_of(MlirContext ctx, const char *s) {
  return mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(s));
}

static void test_pack(MlirContext ctx) {
  MlirType types[5] = {type_of(ctx, "i64"), type_of(ctx, "f32"), type_of(ctx, "i1"),
                       type_of(ctx, "tensor<2x3xf32>"), type_of(ctx, "tensor<2x3xi1>")};
  rtr_buffer *seed = rtr_buffer_new(RTR_I64, true, 0, NULL);
  rtr_buffer *scale = rtr_buffer_new(RTR_F32, true, 0, NULL);
  rtr_buffer *flag = rtr_buffer_new(RTR_I1, true, 0, NULL);
  int64_t dims[2] = {2, 3};
  rtr_buffer *t = rtr_buffer_new(RTR_F32, false, 2, dims);
  rtr_buffer *m = rtr_buffer_new(RTR_I1, false, 2, dims);
  if (!seed || !scale || !flag || !t || !m) {
    printf("pack: out of memory\n");
    exit(1);
  }
  rtr_buffer_set_i(seed, 0, -2);
  rtr_buffer_set_f(scale, 0, 1.5);
  rtr_buffer_set_i(flag, 0, 1);
  rtr_cuda_arg args[5] = {{seed, 0}, {scale, 0}, {flag, 0}, {t, 0x7000}, {m, 0x9010}};
  uint64_t slots[5];
  void *params[5];
  char *err = NULL;
  int rc = rtr_cuda_pack_params(types, 5, args, 5, slots, params, &err);
  printf("pack: rc %d, slots %#llx %#llx %#llx %#llx %#llx, params point at slots: %s\n", rc,
         (unsigned long long)slots[0], (unsigned long long)slots[1], (unsigned long long)slots[2],
         (unsigned long long)slots[3], (unsigned long long)slots[4],
         params[0] == &slots[0] && params[4] == &slots[4] ? "yes" : "no");
  rtr_cuda_arg swapped[5] = {{seed, 0}, {scale, 0}, {flag, 0}, {m, 0x9010}, {t, 0x7000}};
  rc = rtr_cuda_pack_params(types, 5, swapped, 5, slots, params, &err);
  printf("pack swapped: rc %d: %s\n", rc, err ? err : "");
  free(err);
  err = NULL;
  rc = rtr_cuda_pack_params(types, 5, args, 4, slots, params, &err);
  printf("pack short: rc %d: %s\n", rc, err ? err : "");
  free(err);
  rtr_buffer_free(seed), rtr_buffer_free(scale), rtr_buffer_free(flag), rtr_buffer_free(t),
      rtr_buffer_free(m);
}

static const char *probe_source =
    "func.func private @k(%s: i64, %o: i64, %x: tensor<8xf16>) -> tensor<8xf16> attributes {rt.kernel} {\n"
    "  %c = arith.constant 3 : i64\n"
    "  %o2 = arith.addi %o, %c : i64\n"
    "  %u = \"rt.uniform_philox\"(%s, %o) {lo = 0.0 : f64, hi = 1.0 : f64} : (i64, i64) -> tensor<8xf16>\n"
    "  %v = \"rt.uniform_philox\"(%s, %o2) {lo = -2.0 : f64, hi = 2.0 : f64} : (i64, i64) -> tensor<8xf16>\n"
    "  %w = \"rt.mul\"(%u, %v) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>\n"
    "  %y = \"rt.mul\"(%w, %x) : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>\n"
    "  return %y : tensor<8xf16>\n"
    "}\n";

static int pure(MlirContext ctx) {
  print_launch(false, 0, 132);
  print_launch(false, 1, 132);
  print_launch(false, 256, 132);
  print_launch(false, 257, 132);
  print_launch(false, 1 << 24, 132);
  print_launch(true, 4, 132);
  print_launch(true, 1000000, 132);
  print_launch(false, 1000, 0);
  test_gemm();
  test_slices();
  test_pack(ctx);
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(probe_source));
  char *text = rtr_cuda_probe_module_text(mlirModuleGetOperation(m));
  printf("%s", text ? text : "no probes\n");
  free(text);
  mlirModuleDestroy(m);
  printf("failures: %d\n", failures);
  return failures != 0;
}

/* ---- the fake driver ---------------------------------------------------------------- */

typedef struct fake_alloc {
  char *p;
  size_t n;
} fake_alloc;

typedef struct fake_entry {
  char name[256];
  int nparams;
  bool is_ptr[512];
  bool row_kernel; /* traps unless launched with REMAT_REDUCE_LANES threads per block */
  remat_packed_fn fn;
} fake_entry;

typedef struct fake_module {
  fake_entry *e;
  int n;
} fake_module;

static struct {
  fake_alloc *allocs;
  int nallocs, capallocs;
  long launches, bad;
  remat_jit *jits[3];
  int njits;
  int devices;
  const char *corrupt; /* kernel whose last output gets one bit flipped */
  long gemms, row_launches;
} fake = {.devices = 1};

static void fake_error(const char *fmt, const char *a) {
  printf("fake driver: ");
  printf(fmt, a);
  printf("\n");
  fake.bad++;
}

/* The live allocation holding [p, p + n), or -1. */
static int find_alloc(CUdeviceptr p, size_t n) {
  for (int k = 0; k < fake.nallocs; k++) {
    char *q = (char *)(uintptr_t)p;
    if (q >= fake.allocs[k].p && q + n <= fake.allocs[k].p + fake.allocs[k].n)
      return k;
  }
  return -1;
}

static CUresult f_cuInit(unsigned flags) { return flags ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS; }
static CUresult f_cuGetErrorName(CUresult r, const char **s) {
  *s = r == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" : "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}
static CUresult f_cuGetErrorString(CUresult r, const char **s) {
  (void)r;
  *s = "the fake driver refused";
  return CUDA_SUCCESS;
}
static CUresult f_cuDriverGetVersion(int *v) { return *v = 13000, CUDA_SUCCESS; }
static CUresult f_cuDeviceGetCount(int *n) { return *n = fake.devices, CUDA_SUCCESS; }
static CUresult f_cuDeviceGet(CUdevice *d, int ordinal) {
  *d = ordinal;
  return ordinal < fake.devices ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
static CUresult f_cuDeviceGetName(char *name, int len, CUdevice d) {
  (void)d;
  snprintf(name, (size_t)len, "fake GPU");
  return CUDA_SUCCESS;
}
static CUresult f_cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
  (void)d;
  switch (a) {
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 4; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
  case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *v = 1000000; break;
  case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *v = 1024; break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
static CUresult f_cuDeviceTotalMem(size_t *n, CUdevice d) {
  (void)d;
  return *n = (size_t)1 << 30, CUDA_SUCCESS;
}
static int ctx_refs;
static CUresult f_cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
  (void)d;
  ctx_refs++;
  *c = (CUcontext)(uintptr_t)0x1000;
  return CUDA_SUCCESS;
}
static CUresult f_cuDevicePrimaryCtxRelease(CUdevice d) {
  (void)d;
  ctx_refs--;
  return CUDA_SUCCESS;
}
static CUresult f_cuCtxSetCurrent(CUcontext c) {
  return c ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}
static CUresult f_cuCtxSynchronize(void) { return CUDA_SUCCESS; }

/* PTX: `.entry NAME(` then `.param .TYPE [.ptr ...] NAME_param_K` lines. */
static CUresult f_cuModuleLoadData(CUmodule *mod, const void *image) {
  fake_module *m = calloc(1, sizeof *m);
  const char *s = image;
  while ((s = strstr(s, ".entry "))) {
    s += 7;
    m->e = realloc(m->e, sizeof *m->e * (size_t)(m->n + 1));
    fake_entry *e = &m->e[m->n++];
    memset(e, 0, sizeof *e);
    size_t len = strcspn(s, "(");
    snprintf(e->name, sizeof e->name, "%.*s", (int)len, s);
    const char *end = strchr(s, ')');
    /* A row kernel checks %ntid.x and traps on another block size (lib/codegen). */
    const char *next = strstr(s, ".entry ");
    const char *trap = strstr(end, "trap;");
    e->row_kernel = trap && (!next || trap < next);
    for (const char *p = strstr(s, ".param"); p && p < end; p = strstr(p + 1, ".param")) {
      const char *eol = strchr(p, '\n');
      const char *ptr = strstr(p, ".ptr");
      e->is_ptr[e->nparams++] = ptr && ptr < eol;
    }
  }
  *mod = (CUmodule)m;
  return m->n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_PTX;
}
static CUresult f_cuModuleUnload(CUmodule mod) {
  fake_module *m = (fake_module *)mod;
  free(m->e);
  free(m);
  return CUDA_SUCCESS;
}
static CUresult f_cuModuleGetFunction(CUfunction *f, CUmodule mod, const char *name) {
  fake_module *m = (fake_module *)mod;
  for (int k = 0; k < m->n; k++)
    if (!strcmp(m->e[k].name, name)) {
      char packed[300];
      snprintf(packed, sizeof packed, "%s_packed", name);
      for (int j = 0; j < fake.njits && !m->e[k].fn; j++)
        m->e[k].fn = (remat_packed_fn)(uintptr_t)remat_jit_lookup(fake.jits[j], packed);
      if (!m->e[k].fn)
        return CUDA_ERROR_NOT_FOUND;
      *f = (CUfunction)&m->e[k];
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}
static CUresult f_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                 unsigned by, unsigned bz, unsigned shmem, CUstream stream,
                                 void **params, void **extra) {
  fake_entry *e = (fake_entry *)f;
  if (!gx || gy != 1 || gz != 1 || !bx || bx > 1024 || by != 1 || bz != 1 || shmem || stream ||
      extra || !params) {
    fake_error("bad launch shape of %s", e->name);
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (e->row_kernel && bx != REMAT_REDUCE_LANES) {
    fake_error("%s traps: a row kernel launched without one block of lanes per row", e->name);
    return CUDA_ERROR_LAUNCH_FAILED;
  }
  fake.row_launches += e->row_kernel;
  void *args[512];
  for (int k = 0; k < e->nparams; k++) {
    if (!e->is_ptr[k]) {
      args[k] = params[k];
      continue;
    }
    CUdeviceptr p = *(CUdeviceptr *)params[k];
    /* 0: an empty tensor's (it has no allocation; a kernel may iterate over another
     * operand's rows and never read it, as an attention op over no keys) */
    if (p && find_alloc(p, 1) < 0) {
      fake_error("launch of %s passes an address outside every live allocation", e->name);
      return CUDA_ERROR_ILLEGAL_ADDRESS;
    }
    args[k] = (void *)(uintptr_t)p;
  }
  e->fn(args, 0, INT64_MAX); /* the host build clamps to its iteration space */
  fake.launches++;
  if (fake.corrupt && !strcmp(fake.corrupt, e->name) && e->nparams)
    ((unsigned char *)args[e->nparams - 1])[0] ^= 1;
  return CUDA_SUCCESS;
}
static CUresult f_cuMemAlloc(CUdeviceptr *p, size_t n) {
  if (!n)
    return CUDA_ERROR_INVALID_VALUE; /* as the driver: no empty allocations */
  if (fake.nallocs == fake.capallocs) {
    fake.capallocs = fake.capallocs ? 2 * fake.capallocs : 64;
    fake.allocs = realloc(fake.allocs, sizeof *fake.allocs * (size_t)fake.capallocs);
  }
  char *q = malloc(n);
  if (!q) /* host memory runs out (ulimit -v): the driver's answer */
    return CUDA_ERROR_OUT_OF_MEMORY;
  memset(q, 0xA5, n); /* device memory is not zeroed: garbage, NaNs in floats */
  fake.allocs[fake.nallocs++] = (fake_alloc){q, n};
  *p = (CUdeviceptr)(uintptr_t)q;
  return CUDA_SUCCESS;
}
static CUresult f_cuMemFree(CUdeviceptr p) {
  for (int k = 0; k < fake.nallocs; k++)
    if (fake.allocs[k].p == (char *)(uintptr_t)p) {
      free(fake.allocs[k].p);
      fake.allocs[k] = fake.allocs[--fake.nallocs];
      return CUDA_SUCCESS;
    }
  fake_error("cuMemFree of %s", "an address that is not an allocation");
  return CUDA_ERROR_INVALID_VALUE;
}
static CUresult f_cuMemcpyHtoD(CUdeviceptr d, const void *h, size_t n) {
  if (find_alloc(d, n) < 0) {
    fake_error("cuMemcpyHtoD %s", "outside every live allocation");
    return CUDA_ERROR_INVALID_VALUE;
  }
  memcpy((void *)(uintptr_t)d, h, n);
  return CUDA_SUCCESS;
}
static CUresult f_cuMemcpyDtoH(void *h, CUdeviceptr d, size_t n) {
  if (find_alloc(d, n) < 0) {
    fake_error("cuMemcpyDtoH %s", "outside every live allocation");
    return CUDA_ERROR_INVALID_VALUE;
  }
  memcpy(h, (void *)(uintptr_t)d, n);
  return CUDA_SUCCESS;
}
static CUresult f_cuMemsetD8(CUdeviceptr d, unsigned char v, size_t n) {
  if (find_alloc(d, n) < 0) {
    fake_error("cuMemsetD8 %s", "outside every live allocation");
    return CUDA_ERROR_INVALID_VALUE;
  }
  memset((void *)(uintptr_t)d, v, n);
  return CUDA_SUCCESS;
}
static CUresult f_cuEventCreate(CUevent *ev, unsigned flags) {
  (void)flags;
  *ev = (CUevent)malloc(1);
  return CUDA_SUCCESS;
}
static CUresult f_cuEventRecord(CUevent ev, CUstream s) {
  return ev && !s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
static CUresult f_cuEventSynchronize(CUevent ev) {
  return ev ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
static CUresult f_cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  *ms = 0.5f;
  return a && b ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
static CUresult f_cuEventDestroy(CUevent ev) {
  free(ev);
  return CUDA_SUCCESS;
}

static int blas_handles;
static cublasStatus_t f_cublasCreate(cublasHandle_t *h) {
  blas_handles++;
  *h = (cublasHandle_t)(uintptr_t)0x2000;
  return CUBLAS_STATUS_SUCCESS;
}
static cublasStatus_t f_cublasDestroy(cublasHandle_t h) {
  (void)h;
  blas_handles--;
  return CUBLAS_STATUS_SUCCESS;
}
static cublasStatus_t f_cublasSetMathMode(cublasHandle_t h, cublasMath_t m) {
  (void)h;
  return m & CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION ? CUBLAS_STATUS_SUCCESS
                                                              : CUBLAS_STATUS_INVALID_VALUE;
}
static const char *f_cublasGetStatusString(cublasStatus_t s) {
  return s == CUBLAS_STATUS_INVALID_VALUE ? "invalid value" : "other";
}

static double load(const void *p, int64_t i, cudaDataType t) {
  switch (t) {
  case CUDA_R_32F: return ((const float *)p)[i];
  case CUDA_R_64F: return ((const double *)p)[i];
  case CUDA_R_16F: return f16_bits_to_f32(((const uint16_t *)p)[i]);
  case CUDA_R_16BF: return bf16_bits_to_f32(((const uint16_t *)p)[i]);
  default: return NAN;
  }
}

static void store(void *p, int64_t i, cudaDataType t, double v) {
  switch (t) {
  case CUDA_R_32F: ((float *)p)[i] = (float)v; break;
  case CUDA_R_64F: ((double *)p)[i] = v; break;
  case CUDA_R_16F: ((uint16_t *)p)[i] = f32_to_f16_bits((float)v); break;
  case CUDA_R_16BF: ((uint16_t *)p)[i] = f32_to_bf16_bits((float)v); break;
  default: break;
  }
}

static size_t type_size(cudaDataType t) { return t == CUDA_R_64F ? 8 : t == CUDA_R_32F ? 4 : 2; }

/* Column-major C = alpha op(A) op(B) + beta C; f32 accumulation (f64 for f64) in the
 * order k = 0..K-1, each product rounded, as the CPU runtime does. */
static cublasStatus_t gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                           const void *alpha, const void *A, cudaDataType at, long long lda,
                           long long sa, const void *B, cudaDataType bt, long long ldb,
                           long long sb, const void *beta, void *C, cudaDataType ct, long long ldc,
                           long long sc, int batch, cublasComputeType_t comp) {
  bool f64 = ct == CUDA_R_64F;
  if (at != ct || bt != ct || comp != (f64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F) || m < 0 ||
      n < 0 || k < 0 || batch < 1 || lda < (ta == CUBLAS_OP_N ? m : k) || lda < 1 ||
      ldb < (tb == CUBLAS_OP_N ? k : n) || ldb < 1 || ldc < m || ldc < 1)
    return CUBLAS_STATUS_INVALID_VALUE;
  double al = f64 ? *(const double *)alpha : *(const float *)alpha;
  double be = f64 ? *(const double *)beta : *(const float *)beta;
  size_t es = type_size(ct);
  for (int p = 0; p < batch; p++) {
    const char *a = (const char *)A + (size_t)(p * sa) * es,
               *b = (const char *)B + (size_t)(p * sb) * es;
    char *c = (char *)C + (size_t)(p * sc) * es;
    if (find_alloc((CUdeviceptr)(uintptr_t)a, 1) < 0 ||
        find_alloc((CUdeviceptr)(uintptr_t)b, 1) < 0 ||
        find_alloc((CUdeviceptr)(uintptr_t)c, 1) < 0)
      return CUBLAS_STATUS_EXECUTION_FAILED;
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) {
        float acc32 = 0;
        double acc64 = 0;
        for (int l = 0; l < k; l++) {
          double x = load(a, ta == CUBLAS_OP_N ? i + l * lda : l + i * lda, at);
          double y = load(b, tb == CUBLAS_OP_N ? l + j * ldb : j + l * ldb, bt);
          if (f64)
            acc64 = acc64 + x * y;
          else
            acc32 = acc32 + (float)x * (float)y;
        }
        double v = f64 ? acc64 : acc32;
        if (al != 1)
          v *= al;
        if (be != 0) /* beta == 0: C is not read (it may hold NaN) */
          v += be * load(c, i + j * ldc, ct);
        store(c, i + j * ldc, ct, v);
      }
  }
  fake.gemms++;
  return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t f_cublasGemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                     int m, int n, int k, const void *alpha, const void *A,
                                     cudaDataType at, int lda, const void *B, cudaDataType bt,
                                     int ldb, const void *beta, void *C, cudaDataType ct, int ldc,
                                     cublasComputeType_t comp, cublasGemmAlgo_t algo) {
  (void)h, (void)algo;
  return gemm(ta, tb, m, n, k, alpha, A, at, lda, 0, B, bt, ldb, 0, beta, C, ct, ldc, 0, 1, comp);
}

static cublasStatus_t f_cublasGemmStridedBatchedEx(
    cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
    const void *alpha, const void *A, cudaDataType at, int lda, long long sa, const void *B,
    cudaDataType bt, int ldb, long long sb, const void *beta, void *C, cudaDataType ct, int ldc,
    long long sc, int batch, cublasComputeType_t comp, cublasGemmAlgo_t algo) {
  (void)h, (void)algo;
  return gemm(ta, tb, m, n, k, alpha, A, at, lda, sa, B, bt, ldb, sb, beta, C, ct, ldc, sc, batch,
              comp);
}

static rtr_cuda_api fake_api(void) {
  rtr_cuda_api a;
#define SET(f) a.f = f_##f;
  RTR_CUDA_DRIVER_FNS(SET)
  RTR_CUBLAS_FNS(SET)
#undef SET
  return a;
}

/* ---- runs over the fake driver ------------------------------------------------------ */

/* The one-op kernels of MODULE's host ops, JIT-compiled as well. */
static int host_op_kernels(MlirOperation module) {
  MlirOperation *ops = NULL;
  int n = 0;
  MlirModule m = rtr_cuda_op_kernel_module(module, &ops, &n);
  free(ops);
  if (mlirModuleIsNull(m))
    return 0;
  char *err = NULL;
  remat_codegen_options o = {.target = REMAT_TARGET_HOST, .sm = 0, .opt_level = 0};
  remat_codegen *cg = remat_codegen_create(mlirModuleGetOperation(m), &o);
  int rc = cg && (fake.jits[fake.njits++] = remat_jit_create(cg, &err)) ? 0 : -1;
  free(err);
  remat_codegen_destroy(cg);
  mlirModuleDestroy(m);
  return rc;
}

/* Host JITs of MODULE and of its probe module: the fake's "PTX" functions. */
static int host_builds(MlirContext ctx, MlirOperation module, MlirModule *probe) {
  char *err = NULL;
  remat_codegen_options o = {.target = REMAT_TARGET_HOST, .sm = 0, .opt_level = 0};
  remat_codegen *cg = remat_codegen_create(module, &o);
  bool built = cg && (fake.jits[fake.njits++] = remat_jit_create(cg, &err));
  free(err);
  err = NULL;
  if (!built)
    return -1;
  remat_codegen_destroy(cg);
  if (host_op_kernels(module))
    return -1;
  char *text = rtr_cuda_probe_module_text(module);
  *probe = (MlirModule){NULL};
  if (text) {
    *probe = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
    free(text);
    remat_codegen *pg = remat_codegen_create(mlirModuleGetOperation(*probe), &o);
    built = pg && (fake.jits[fake.njits++] = remat_jit_create(pg, &err));
    free(err);
    if (!built)
      return -1;
    remat_codegen_destroy(pg);
  }
  return 0;
}

static void drop_jits(MlirModule probe) {
  for (int k = 0; k < fake.njits; k++)
    remat_jit_destroy(fake.jits[k]);
  fake.njits = 0;
  if (!mlirModuleIsNull(probe))
    mlirModuleDestroy(probe);
}

static void print_memory(rtr_executor *ex) {
  rtr_cuda_memory m = rtr_cuda_memory_stats(ex);
  printf("device memory: %ld allocations, %ld frees, %lld bytes live, peak %lld bytes; fake "
         "driver: %d allocations live, %ld launches (%ld of row kernels), %ld gemms, %ld "
         "errors\n",
         m.allocs, m.frees, (long long)m.live_bytes, (long long)m.peak_bytes, fake.nallocs,
         fake.launches, fake.row_launches, fake.gemms, fake.bad);
}

static int run(MlirContext ctx, MlirOperation module, const char *fn, uint64_t seed) {
  MlirModule probe;
  if (host_builds(ctx, module, &probe))
    return 2;
  rtr_cuda_api api = fake_api();
  rtr_cuda_options o = {0, 0, 0, true, false};
  char *err = NULL, *cerr = NULL;
  rtr_executor *ex = rtr_cuda_create_with_api(module, &o, &api, &err);
  rtr_compiled *c = rtr_compiled_create(module, 0, 1, NULL, &cerr);
  MlirOperation f = rtr_interp_lookup(module, fn);
  int rc = 2, nin = 0, ng = 0, nc = 0;
  rtr_buffer **in = NULL, **g = NULL, **cpu = NULL;
  if (!ex || !c || mlirOperationIsNull(f)) {
    printf("cannot run: %s\n", cerr ? cerr : err ? err : "");
    goto out;
  }
  rtr_interp_options co = rtr_compiled_options(c);
  char *ierr = NULL;
  if (!(in = rtr_inputs_random(f, seed, RTR_VALUES_UNIT, &nin, &ierr))) {
    printf("cannot make inputs: %s\n", ierr ? ierr : "");
    free(ierr);
    goto out;
  }
  if (rtr_executor_run(ex, f, in, nin, NULL, &g, &ng, &err)) {
    printf("device run failed: %s\n", err ? err : "");
    rc = 1;
    goto out;
  }
  if (rtr_interp_run(module, f, &co, in, nin, &cpu, &nc))
    goto out;
  int same = 0;
  for (int k = 0; k < nc && k < ng; k++) {
    uint64_t ulp;
    double rel;
    same += rtr_buffer_same_type(g[k], cpu[k]) && rtr_compare_buffers(g[k], cpu[k], &ulp, &rel);
  }
  printf("@%s: %d of %d results bit-identical to the CPU's\n", fn, same, nc);
  print_memory(ex);
  int ns = 0;
  const rtr_exec_stat *s = ex->stats(ex, &ns);
  for (int k = 0; k < ns; k++)
    printf("  %s %s: %ld launches, %lld bytes, %.1f ms\n", s[k].what, s[k].name, s[k].launches,
           (long long)s[k].bytes, s[k].ms);
  rc = same == nc && ng == nc ? 0 : 1;
out:
  free(err);
  free(cerr);
  rtr_buffers_free(in, nin);
  rtr_buffers_free(g, ng);
  rtr_buffers_free(cpu, nc);
  rtr_compiled_destroy(c);
  if (ex) {
    rtr_executor_destroy(ex);
    printf("after destroy: %d allocations live, %d contexts retained, %d cuBLAS handles\n",
           fake.nallocs, ctx_refs, blas_handles);
  }
  drop_jits(probe);
  return rc;
}

static int check(MlirContext ctx, MlirOperation module, const char *name) {
  MlirModule probe;
  if (host_builds(ctx, module, &probe))
    return 2;
  rtr_cuda_api api = fake_api();
  rtr_cuda_options o = {0, 0, 0, false, true};
  char *err = NULL, *cerr = NULL;
  rtr_executor *ex = rtr_cuda_create_with_api(module, &o, &api, &err);
  rtr_compiled *c = rtr_compiled_create(module, 0, 1, NULL, &cerr);
  int rc = 2;
  if (ex && c) {
    rtr_interp_options co = rtr_compiled_options(c);
    rtr_device_check_options dco = {7, NULL, 0, stdout, false, RTR_VALUES_UNIT};
    rc = rtr_check_device(module, name, ex, &co, &dco, &err);
    if (rc == 2)
      printf("check-device: %s\n", err ? err : "");
    print_memory(ex);
  } else
    printf("cannot check: %s\n", cerr ? cerr : err ? err : "");
  free(err);
  free(cerr);
  rtr_compiled_destroy(c);
  if (ex)
    rtr_executor_destroy(ex);
  drop_jits(probe);
  return rc;
}

static int nodevice(MlirOperation module) {
  rtr_cuda_api api = fake_api();
  rtr_cuda_options o = {0, 0, 3, false, false};
  char *err = NULL;
  fake.devices = 0;
  rtr_executor *ex = rtr_cuda_create_with_api(module, &o, &api, &err);
  printf("no device: %s: %s; contexts retained %d\n", ex ? "created" : "refused", err ? err : "",
         ctx_refs);
  free(err);
  if (ex)
    rtr_executor_destroy(ex);
  return ex ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  MlirContext ctx = rematContextCreate(stdout, NULL);
  if (mlirContextIsNull(ctx))
    return 2;
  int rc = 2;
  if (!strcmp(argv[1], "pure"))
    rc = pure(ctx);
  else if (argc >= 3) {
    MlirModule m = mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(argv[2]));
    if (mlirModuleIsNull(m))
      return 2;
    MlirOperation top = mlirModuleGetOperation(m);
    if (!strcmp(argv[1], "run") && argc >= 4)
      rc = run(ctx, top, argv[3], argc >= 5 ? strtoull(argv[4], NULL, 0) : 0);
    else if (!strcmp(argv[1], "check") && argc >= 4) {
      if (argc >= 6 && !strcmp(argv[4], "corrupt"))
        fake.corrupt = argv[5];
      rc = check(ctx, top, argv[3]);
    } else if (!strcmp(argv[1], "nodevice"))
      rc = nodevice(top);
    mlirModuleDestroy(m);
  }
  free(fake.allocs);
  mlirContextDestroy(ctx);
  return rc;
}
