/* cuda_exec.c: the CUDA backend (see cuda_exec.h and docs/design.md, "CUDA backend").
 *
 * A run walks the entry block of a function as the interpreter does, with every tensor
 * value in device memory (a `dval`: its type and a reference to a device allocation at
 * some byte offset) and every scalar on the host. Per op:
 *   func.call of an rt.kernel   cuLaunchKernel of the PTX entry of the same name
 *   func.call of a function     walked recursively (arguments borrowed)
 *   rt.sum / rt.amax            the reduction's PTX entry (<fn>_r<N>)
 *   rt.gather / scatter_add / argmax   host fallback (their <fn>_i<N> entries are not
 *                               launched yet: see find_fn)
 *   rt.conv, conv_grad_input, conv_grad_weight   their PTX entry (<fn>_c<N>: one thread
 *                               per result element, the reference's order of operations)
 *   rt.attention, attention_grad   their PTX entry (<fn>_a<N>: one thread per query row,
 *                               the gradient's column pass one per key row; the reference's
 *                               order, libdevice's exp and log)
 *   rt.matmul (float types)     cuBLAS
 *   rt.reshape, rt.wait, dense rt.slice   an alias of the operand's allocation
 *   anything else               host fallback: operands copied to the host, the
 *                               interpreter's op (rtr_interp_exec_op), results copied back
 * Lifetimes: each value counts its uses in its block; after the op that uses it last (or
 * at once when unused) its reference is dropped, and an allocation is freed when no value
 * refers to it any more (aliases hold references). Arguments are borrowed from the caller;
 * returned values are handed to the caller with a reference each.
 *
 * Errors: the driver's and cuBLAS's are messages naming the call ("cuLaunchKernel of
 * '@k': CUDA_ERROR_...: text"); ops the runtime cannot run are the interpreter's located
 * diagnostics. */
#include <cuda.h>
#include <cublas_v2.h>

#include "cuda_exec.h"

#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "report.h"
#include "rt.h"
#include "interp.h"
#include "walk.h"

#ifndef REMAT_CUDA_LIBDIR
#define REMAT_CUDA_LIBDIR "/usr/local/cuda/lib64"
#endif

#define RTR_STR2(x) #x
#define RTR_STR(x) RTR_STR2(x)

/* ---- pure host-side logic ----------------------------------------------------------- */

rtr_cuda_launch rtr_cuda_launch_config(bool rows, int64_t iterations, int sm_count) {
  if (iterations <= 0)
    return (rtr_cuda_launch){0, 0};
  int64_t blocks = rows ? iterations : (iterations + RTR_CUDA_BLOCK - 1) / RTR_CUDA_BLOCK;
  int64_t cap = (int64_t)(sm_count > 0 ? sm_count : 1) * RTR_CUDA_BLOCKS_PER_SM;
  if (blocks > cap)
    blocks = cap;
  return (rtr_cuda_launch){(unsigned)blocks, rows ? REMAT_REDUCE_LANES : RTR_CUDA_BLOCK};
}

static int64_t at_least_1(int64_t v) { return v > 1 ? v : 1; }

rtr_cuda_gemm rtr_cuda_gemm_config(int64_t batch, int64_t M, int64_t N, int64_t K, bool ta,
                                   bool tb) {
  /* A row-major R x C buffer read column-major is the C x R transpose, leading dim C.
   * X = B's buffer: [K,N] reads as B^T (N x K, ld N), which is what C^T = B^T A^T needs:
   * no trans; stored [N,K] (tb) it reads as B (K x N, ld K): trans. Y = A's buffer: [M,K]
   * reads as A^T (K x M, ld K): no trans; stored [K,M] (ta) reads as A (ld M): trans. */
  rtr_cuda_gemm g;
  g.trans_x = tb;
  g.trans_y = ta;
  g.m = N;
  g.n = M;
  g.k = K;
  g.ldx = at_least_1(tb ? K : N);
  g.ldy = at_least_1(ta ? M : K);
  g.ldc = at_least_1(N);
  g.stride_x = K * N;
  g.stride_y = M * K;
  g.stride_c = M * N;
  g.batch = batch;
  return g;
}

bool rtr_cuda_slice_is_view(int rank, const int64_t *dims, const int64_t *start,
                            const int64_t *limit, const int64_t *stride, int64_t *first) {
  int64_t size[RT_MAX_RANK];
  for (int k = 0; k < rank; k++) {
    int64_t span = limit[k] - start[k];
    size[k] = span <= 0 ? 0 : (span + stride[k] - 1) / stride[k];
    if (size[k] == 0) { /* empty: any address will do */
      *first = 0;
      return true;
    }
  }
  int d = rank - 1; /* trailing dims taken whole */
  while (d >= 0 && start[d] == 0 && size[d] == dims[d] && (stride[d] == 1 || size[d] == 1))
    d--;
  if (d >= 0 && size[d] > 1 && stride[d] != 1)
    return false; /* a strided run */
  for (int k = 0; k < d; k++)
    if (size[k] != 1)
      return false; /* several runs */
  int64_t idx = 0;
  for (int k = 0; k < rank; k++)
    idx = idx * dims[k] + start[k];
  *first = idx;
  return true;
}

/* The header (element type, scalar-ness, shape) of a value of type T, without data. */
static bool type_header(MlirType t, rtr_buffer *h) {
  memset(h, 0, sizeof *h);
  if (mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t)) {
    intptr_t rank = mlirShapedTypeGetRank(t);
    if (rank > RT_MAX_RANK || !rtr_elem_from_type(mlirShapedTypeGetElementType(t), &h->elem))
      return false;
    h->rank = (int)rank;
    h->numel = 1;
    for (intptr_t k = 0; k < rank; k++)
      h->numel *= h->dims[k] = mlirShapedTypeGetDimSize(t, k);
    return true;
  }
  if (!rtr_elem_from_type(t, &h->elem))
    return false;
  h->is_scalar = true;
  h->numel = 1;
  return true;
}

int rtr_cuda_pack_params(const MlirType *param_types, int num_params, const rtr_cuda_arg *args,
                         int nargs, uint64_t *slots, void **params_out, char **err) {
  if (nargs != num_params) {
    remat_error_add(err, "the kernel takes %d parameters, the call passes %d", num_params, nargs);
    return -1;
  }
  for (int k = 0; k < nargs; k++) {
    rtr_buffer want;
    char a[128], b[128];
    if (!type_header(param_types[k], &want) || !rtr_buffer_same_type(&want, args[k].type)) {
      remat_error_add(err, "parameter #%d of the kernel is '%s', the call passes '%s'", k,
                      rt_type_str(param_types[k], a, sizeof a),
                      rtr_buffer_type_str(args[k].type, b, sizeof b));
      return -1;
    }
    slots[k] = 0;
    if (want.is_scalar) /* by value, in its own width (i1: one byte 0/1) */
      memcpy(&slots[k], args[k].type->data, rtr_elem_size(want.elem));
    else
      slots[k] = args[k].dptr;
    params_out[k] = &slots[k];
  }
  return 0;
}

/* A growable string for the probe module's text. */
typedef struct strbuf {
  char *s;
  size_t len, cap;
} strbuf;

static void sb_add(strbuf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    b->s = xrealloc(b->s, b->cap, 1);
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

static void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  s = xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  sb_add(b, s, (size_t)n);
  free(s);
}

static void sb_callback(MlirStringRef s, void *user) { sb_add(user, s.data, s.length); }

/* Calls FN(ctx, kernel, philox) for every rt.uniform_philox in an rt.kernel function of
 * MODULE, in module order. */
static void each_probe(MlirOperation module, void (*fn)(void *, MlirOperation, MlirOperation),
                       void *ctx) {
  for (MlirOperation f = rt_func_first(module); !mlirOperationIsNull(f); f = rt_func_next(f)) {
    if (!rt_func_is_kernel(f))
      continue;
    for (MlirOperation op = mlirBlockGetFirstOperation(rt_func_entry_block(f));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      if (rt_op_lookup(op) == RT_OP_UNIFORM_PHILOX)
        fn(ctx, f, op);
  }
}

typedef struct probe_text {
  strbuf sb;
  int n;
} probe_text;

static void add_probe_text(void *ctx, MlirOperation kernel, MlirOperation philox) {
  (void)kernel;
  probe_text *p = ctx;
  strbuf *b = &p->sb;
  MlirType t = mlirValueGetType(mlirOperationGetResult(philox, 0));
  strbuf ty = {NULL, 0, 0};
  mlirTypePrint(t, sb_callback, &ty);
  sb_printf(b,
            "  func.func private @remat_probe_%d(%%s: i64, %%o: i64) -> %s attributes "
            "{rt.kernel} {\n    %%r = \"rt.uniform_philox\"(%%s, %%o) {",
            p->n++, ty.s);
  const char *names[2] = {"lo", "hi"};
  for (int k = 0; k < 2; k++) {
    MlirAttribute a =
        mlirOperationGetAttributeByName(philox, mlirStringRefCreateFromCString(names[k]));
    sb_printf(b, "%s%s = ", k ? ", " : "", names[k]);
    mlirAttributePrint(a, sb_callback, b);
  }
  sb_printf(b, "} : (i64, i64) -> %s\n    return %%r : %s\n  }\n", ty.s, ty.s);
  free(ty.s);
}

char *rtr_cuda_probe_module_text(MlirOperation module) {
  probe_text p = {{NULL, 0, 0}, 0};
  sb_add(&p.sb, "module {\n", 9);
  each_probe(module, add_probe_text, &p);
  sb_add(&p.sb, "}\n", 2);
  if (!p.n) {
    free(p.sb.s);
    return NULL;
  }
  return p.sb.s;
}

static bool abi_scalar(rtr_elem e) {
  return e == RTR_F32 || e == RTR_F64 || e == RTR_I64 || e == RTR_I32 || e == RTR_I1;
}

/* Whether the backend runs OP, whose operand is A, as an alias of its operand's
 * allocation (rt_op_is_alias: reshape, wait, and a slice when it is dense), starting at
 * element *FIRST of it. */
static bool aliased(MlirOperation op, rt_op_id id, const rtr_buffer *a, int64_t *first) {
  *first = 0;
  if (id != RT_OP_SLICE)
    return rt_op_is_alias(id);
  int64_t start[RT_MAX_RANK], limit[RT_MAX_RANK], stride[RT_MAX_RANK];
  return rt_get_i64_array(op, "start", start, RT_MAX_RANK) == a->rank &&
         rt_get_i64_array(op, "limit", limit, RT_MAX_RANK) == a->rank &&
         rt_get_i64_array(op, "stride", stride, RT_MAX_RANK) == a->rank &&
         rtr_cuda_slice_is_view(a->rank, a->dims, start, limit, stride, first);
}

/* A host-level rt op a kernel can compute alone: elementwise, compare, structural and
 * random ops with one tensor result and operands of the kernel ABI, except the views the
 * backend aliases. */
static bool op_kernel_candidate(MlirOperation op) {
  rt_op_id id = rt_op_lookup(op);
  if (id == RT_OP_NONE || mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumRegions(op))
    return false;
  rt_op_kind kind = rt_op_kind_of(id);
  if (kind != RT_KIND_ELEMENTWISE && kind != RT_KIND_COMPARE && kind != RT_KIND_STRUCTURAL &&
      kind != RT_KIND_RANDOM)
    return false;
  rtr_buffer h;
  if (!type_header(mlirValueGetType(mlirOperationGetResult(op, 0)), &h) || h.is_scalar)
    return false;
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++) {
    rtr_buffer a;
    if (!type_header(mlirValueGetType(mlirOperationGetOperand(op, k)), &a) ||
        (a.is_scalar && !abi_scalar(a.elem)))
      return false;
  }
  if (!rt_op_is_alias(id))
    return true;
  rtr_buffer a;
  int64_t first;
  type_header(mlirValueGetType(mlirOperationGetOperand(op, 0)), &a);
  return !aliased(op, id, &a, &first);
}

/* `func.func private @NAME(operands...) -> result attributes {rt.kernel}` computing a
 * clone of OP. */
static MlirOperation one_op_kernel(MlirOperation op, const char *name) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirType *in = xcalloc((size_t)n + 1, sizeof *in);
  MlirLocation *locs = xcalloc((size_t)n + 1, sizeof *locs);
  for (intptr_t k = 0; k < n; k++) {
    in[k] = mlirValueGetType(mlirOperationGetOperand(op, k));
    locs[k] = loc;
  }
  MlirBlock body = mlirBlockCreate(n, in, locs);
  MlirOperation copy = mlirOperationClone(op);
  for (intptr_t k = 0; k < n; k++)
    mlirOperationSetOperand(copy, k, mlirBlockGetArgument(body, k));
  mlirBlockAppendOwnedOperation(body, copy);
  MlirValue r = mlirOperationGetResult(copy, 0);
  free(in);
  free(locs);
  return rt_kernel_func(ctx, loc, name, body, 1, &r);
}

MlirModule rtr_cuda_op_kernel_module(MlirOperation module, MlirOperation **ops, int *count) {
  *ops = NULL;
  *count = 0;
  MlirModule m = {NULL};
  int cap = 0;
  for (MlirOperation f = rt_func_first(module); !mlirOperationIsNull(f); f = rt_func_next(f)) {
    if (rt_func_is_kernel(f))
      continue;
    for (MlirOperation op = mlirBlockGetFirstOperation(rt_func_entry_block(f));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      if (!op_kernel_candidate(op))
        continue;
      if (mlirModuleIsNull(m))
        m = mlirModuleCreateEmpty(mlirOperationGetLocation(module));
      XGROW(*ops, *count, cap, 16);
      char name[32];
      snprintf(name, sizeof name, "remat_op_%d", *count);
      (*ops)[(*count)++] = op;
      mlirBlockAppendOwnedOperation(mlirModuleGetBody(m), one_op_kernel(op, name));
    }
  }
  return m;
}

/* ---- loading the driver and cuBLAS -------------------------------------------------- */

typedef struct libs {
  void *cuda, *cublas;
} libs;

static int load_sym(void *h, const char *lib, const char *name, void **slot, char **err) {
  *slot = dlsym(h, name);
  if (!*slot)
    remat_error_add(err,
                    "%s has no '%s' (a driver or cuBLAS older than the toolkit's "
                    "headers?)",
                    lib, name);
  return *slot ? 0 : -1;
}

static int load_driver(rtr_cuda_api *api, libs *l, char **err) {
  const char *path = getenv("REMAT_LIBCUDA");
  if (!path || !*path)
    path = "libcuda.so.1";
  l->cuda = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!l->cuda) {
    remat_error_add(err, "no CUDA driver on this machine (%s)", dlerror());
    return -1;
  }
#define LOAD_DRIVER(f)                                            \
  if (load_sym(l->cuda, path, RTR_STR(f), (void **)&api->f, err)) \
    return -1;
  RTR_CUDA_DRIVER_FNS(LOAD_DRIVER)
#undef LOAD_DRIVER
  return 0;
}

static int load_cublas(rtr_cuda_api *api, libs *l, char **err) {
  const char *env = getenv("REMAT_LIBCUBLAS");
  const char *tries[] = {env && *env ? env : NULL, "libcublas.so." RTR_STR(CUBLAS_VER_MAJOR),
                         REMAT_CUDA_LIBDIR "/libcublas.so." RTR_STR(CUBLAS_VER_MAJOR)};
  const char *path = NULL;
  for (size_t k = 0; k < sizeof tries / sizeof *tries && !l->cublas; k++)
    if (tries[k] && (l->cublas = dlopen(tries[k], RTLD_NOW | RTLD_LOCAL)))
      path = tries[k];
  if (!l->cublas) {
    remat_error_add(err, "rt.matmul needs cuBLAS: cannot load libcublas.so.%d (%s)",
                    CUBLAS_VER_MAJOR, dlerror());
    return -1;
  }
#define LOAD_CUBLAS(f)                                              \
  if (load_sym(l->cublas, path, RTR_STR(f), (void **)&api->f, err)) \
    return -1;
  RTR_CUBLAS_FNS(LOAD_CUBLAS)
#undef LOAD_CUBLAS
  return 0;
}

/* ---- the executor ------------------------------------------------------------------- */

typedef struct dev_alloc {
  CUdeviceptr ptr;
  size_t bytes;
  int refs;
} dev_alloc;

/* One value of a walk: its type (and a scalar's value, in `scalar`) and, for a tensor,
 * where its elements are. */
typedef struct dval {
  rtr_buffer t; /* header; t.data points to `scalar` for scalars, NULL for tensors */
  uint64_t scalar;
  dev_alloc *alloc; /* NULL for scalars, empty tensors and after release */
  size_t offset;    /* bytes into alloc */
  int uses;         /* uses left in the block */
  bool owned;       /* this frame holds a reference (not a borrowed argument) */
} dval;

typedef struct fn_entry {
  MlirOperation source; /* kernel func.func, rt.sum / rt.amax op, or a host op run as a
                         * one-op kernel */
  char *name;           /* the PTX entry */
  char *label;          /* in statistics: the name, or the host op and its location */
  remat_cg_kind kind;
  int64_t numel;
  bool rows;
  int num_params;
  MlirType *param_types;
  CUfunction fn;
  int stat; /* index into stats */
} fn_entry;

typedef struct probe {
  MlirOperation kernel, philox;
  CUfunction fn;
  rtr_buffer t; /* the random tensor's type */
} probe;

typedef struct cuda_exec {
  const rtr_cuda_api *api;
  rtr_cuda_api own_api;
  libs libs;
  rtr_cuda_options opts;
  MlirOperation module;
  CUdevice dev;
  CUcontext ctx;
  bool ctx_retained;
  CUmodule mod, probe_mod, op_mod;
  MlirModule probe_mlir;
  int sm_count;
  double peak_gbs;
  fn_entry *fns;
  int nfns;
  ptr_map fn_index; /* source op -> fns index */
  probe *probes;
  int nprobes;
  cublasHandle_t blas;
  CUevent ev0, ev1;
  rtr_exec_stat *stats;
  int nstats, capstats;
  rtr_cuda_memory mem;
  /* the current run */
  const rtr_exec_observer *obs;
  char **err; /* the caller's message (remat_error_add); NULL between calls */
  int depth;
} cuda_exec;

static int fail(cuda_exec *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(cuda_exec *e, const char *fmt, ...) {
  if (e->err && !*e->err) { /* the first failure is the cause */
    va_list ap;
    va_start(ap, fmt);
    remat_error_vadd(e->err, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* Checks a driver call: 0, or -1 with "WHAT: CUDA_ERROR_X: text". */
static int cu(cuda_exec *e, CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return 0;
  const char *name = NULL, *text = NULL;
  if (e->api->cuGetErrorName && e->api->cuGetErrorName(r, &name) != CUDA_SUCCESS)
    name = NULL;
  if (e->api->cuGetErrorString && e->api->cuGetErrorString(r, &text) != CUDA_SUCCESS)
    text = NULL;
  if (!text && r == CUDA_ERROR_STUB_LIBRARY) /* the stub cannot name its own error */
    name = "CUDA_ERROR_STUB_LIBRARY", text = "the CUDA toolkit's stub libcuda, not a driver";
  if (!name)
    return fail(e, "%s: CUresult %d", what, (int)r);
  return fail(e, "%s: %s: %s", what, name, text ? text : "");
}

static int blas(cuda_exec *e, cublasStatus_t s, const char *what) {
  if (s == CUBLAS_STATUS_SUCCESS)
    return 0;
  return fail(e, "%s: cuBLAS status %d (%s)", what, (int)s,
              e->api->cublasGetStatusString ? e->api->cublasGetStatusString(s) : "?");
}

static int stat_slot(cuda_exec *e, const char *name, const char *what, int64_t bytes) {
  for (int k = 0; k < e->nstats; k++)
    if (!strcmp(e->stats[k].name, name) && !strcmp(e->stats[k].what, what))
      return k;
  XGROW(e->stats, e->nstats, e->capstats, 16);
  e->stats[e->nstats] = (rtr_exec_stat){xstrdup(name), what, 0, 0, 0, bytes};
  return e->nstats++;
}

static void stat_add(cuda_exec *e, int k, double ms) {
  rtr_exec_stat *s = &e->stats[k];
  if (!s->launches || ms < s->ms_min)
    s->ms_min = ms;
  s->launches++;
  s->ms += ms;
}

/* ---- device memory ---- */

static size_t bytes_of(const rtr_buffer *t) {
  return t->is_scalar ? 0 : (size_t)t->numel * rtr_elem_size(t->elem);
}

static int dalloc(cuda_exec *e, dval *v) {
  size_t n = bytes_of(&v->t);
  v->alloc = NULL;
  v->offset = 0;
  if (!n)
    return 0;
  dev_alloc *a = xcalloc(1, sizeof *a);
  if (cu(e, e->api->cuMemAlloc(&a->ptr, n), "cuMemAlloc")) {
    free(a);
    return -1;
  }
  a->bytes = n;
  a->refs = 1;
  v->alloc = a;
  e->mem.allocs++;
  e->mem.live_bytes += (int64_t)n;
  if (e->mem.live_bytes > e->mem.peak_bytes)
    e->mem.peak_bytes = e->mem.live_bytes;
  return 0;
}

static void unref(cuda_exec *e, dev_alloc *a) {
  if (!a || --a->refs > 0)
    return;
  e->api->cuMemFree(a->ptr);
  e->mem.frees++;
  e->mem.live_bytes -= (int64_t)a->bytes;
  free(a);
}

static uint64_t dptr(const dval *v) { return v->alloc ? v->alloc->ptr + v->offset : 0; }

static dval *dval_new(const rtr_buffer *t) {
  dval *v = xcalloc(1, sizeof *v);
  v->t = *t;
  v->t.data = v->t.is_scalar ? &v->scalar : NULL;
  return v;
}

/* Drops this value's reference and frees the dval. */
static void dval_free(cuda_exec *e, dval *v) {
  if (!v)
    return;
  if (v->owned)
    unref(e, v->alloc);
  free(v);
}

/* An alias of V's elements as type T, at V's offset plus OFFSET bytes. */
static dval *dval_alias(const dval *v, const rtr_buffer *t, size_t offset) {
  dval *a = dval_new(t);
  if (!a->t.is_scalar && a->t.numel > 0 && v->alloc) {
    a->alloc = v->alloc;
    a->alloc->refs++;
    a->offset = v->offset + offset;
  }
  a->owned = true;
  if (a->t.is_scalar)
    a->scalar = v->scalar;
  return a;
}

/* A host buffer of type T, or NULL after "out of memory for a host copy of ..." (host
 * memory is the program's to exhaust: the user's error, docs/design.md "Hostile input"). */
static rtr_buffer *host_new(cuda_exec *e, const rtr_buffer *t) {
  rtr_buffer *h = rtr_buffer_new(t->elem, t->is_scalar, t->rank, t->dims);
  if (!h) {
    char tb[128];
    fail(e, "out of memory for a host copy of '%s' (%zu bytes)",
         rtr_buffer_type_str(t, tb, sizeof tb), bytes_of(t));
  }
  return h;
}

static rtr_buffer *download(cuda_exec *e, const dval *v) {
  rtr_buffer *h = host_new(e, &v->t);
  if (!h)
    return NULL;
  if (v->t.is_scalar)
    memcpy(h->data, &v->scalar, rtr_elem_size(v->t.elem));
  else if (bytes_of(&v->t) &&
           cu(e, e->api->cuMemcpyDtoH(h->data, dptr(v), bytes_of(&v->t)), "cuMemcpyDtoH")) {
    rtr_buffer_free(h);
    return NULL;
  }
  return h;
}

/* A new owned dval holding a copy of host buffer H. */
static dval *upload(cuda_exec *e, const rtr_buffer *h) {
  dval *v = dval_new(h);
  v->owned = true;
  if (h->is_scalar) {
    memcpy(&v->scalar, h->data, rtr_elem_size(h->elem));
    return v;
  }
  if (dalloc(e, v) ||
      (v->alloc && cu(e, e->api->cuMemcpyHtoD(dptr(v), h->data, bytes_of(h)), "cuMemcpyHtoD"))) {
    dval_free(e, v);
    return NULL;
  }
  return v;
}

static void free_hosts(rtr_buffer **b, int n) {
  for (int k = 0; k < n; k++)
    rtr_buffer_free(b[k]);
  free(b);
}

/* Host copies of N values (NULL after a failed copy). */
static rtr_buffer **download_all(cuda_exec *e, dval *const *v, int n) {
  rtr_buffer **h = xcalloc((size_t)n + 1, sizeof *h);
  for (int k = 0; k < n; k++)
    if (!(h[k] = download(e, v[k]))) {
      free_hosts(h, k);
      return NULL;
    }
  return h;
}

/* ---- timing ---- */

static int time_begin(cuda_exec *e) {
  return e->opts.profile ? cu(e, e->api->cuEventRecord(e->ev0, NULL), "cuEventRecord") : 0;
}

static int time_end(cuda_exec *e, int stat) {
  float ms = 0;
  if (e->opts.profile &&
      (cu(e, e->api->cuEventRecord(e->ev1, NULL), "cuEventRecord") ||
       cu(e, e->api->cuEventSynchronize(e->ev1), "cuEventSynchronize") ||
       cu(e, e->api->cuEventElapsedTime(&ms, e->ev0, e->ev1), "cuEventElapsedTime")))
    return -1;
  stat_add(e, stat, ms);
  return 0;
}

/* ---- ops ---- */

static int64_t tensor_bytes(const rtr_buffer *const *t, int n) {
  int64_t b = 0;
  for (int k = 0; k < n; k++)
    b += (int64_t)bytes_of(t[k]);
  return b;
}

static int launch(cuda_exec *e, fn_entry *f, dval *const *args, int nargs, dval *const *res,
                  int nres) {
  int n = nargs + nres;
  rtr_cuda_arg *a = xcalloc((size_t)n + 1, sizeof *a);
  uint64_t *slots = xcalloc((size_t)n + 1, sizeof *slots);
  void **params = xcalloc((size_t)n + 1, sizeof *params);
  const rtr_buffer **types = xcalloc((size_t)n + 1, sizeof *types);
  for (int k = 0; k < n; k++) {
    const dval *v = k < nargs ? args[k] : res[k - nargs];
    a[k] = (rtr_cuda_arg){&v->t, dptr(v)};
    types[k] = &v->t;
  }
  char *msg = NULL;
  int rc = 0;
  if (rtr_cuda_pack_params(f->param_types, f->num_params, a, n, slots, params, &msg))
    rc = fail(e, "launch of '%s': %s", f->name, msg);
  free(msg);
  rtr_cuda_launch lc = rtr_cuda_launch_config(f->rows, f->numel, e->sm_count);
  static const char *kinds[] = {"kernel", "reduction", "indexing", "conv", "attention"};
  if (f->stat < 0)
    f->stat = stat_slot(e, f->label, kinds[f->kind], tensor_bytes(types, n));
  if (!rc && lc.grid) {
    char what[300];
    snprintf(what, sizeof what, "cuLaunchKernel of '%s'", f->name);
    rc = time_begin(e) ||
         cu(e, e->api->cuLaunchKernel(f->fn, lc.grid, 1, 1, lc.block, 1, 1, 0, NULL, params, NULL),
            what) ||
         time_end(e, f->stat);
  }
  free(a), free(slots), free(params), free(types);
  return rc ? -1 : 0;
}

/* The device function of SOURCE. Not the indexing ops' (gather, scatter_add, argmax):
 * their PTX entries take an error record this backend does not allocate yet, so they run
 * on the host fallback, with the reference's out-of-range error. */
static const fn_entry *find_fn(const cuda_exec *e, MlirOperation source) {
  int i = ptr_map_get(&e->fn_index, source.ptr);
  return i < 0 || e->fns[i].kind == REMAT_CG_INDEXING ? NULL : &e->fns[i];
}

/* The host value of scalar V inside KERNEL's body for a launch with ARGS: an argument,
 * or an arith op of the body evaluated on the host. NULL (and a message) otherwise. */
static rtr_buffer *kernel_scalar(cuda_exec *e, MlirValue v, MlirOperation kernel, dval *const *args,
                                 int depth) {
  if (mlirValueIsABlockArgument(v)) {
    intptr_t k = mlirBlockArgumentGetArgNumber(v);
    rtr_buffer scalar = {.elem = args[k]->t.elem, .is_scalar = true, .numel = 1};
    rtr_buffer *h = host_new(e, &scalar);
    if (h)
      memcpy(h->data, &args[k]->scalar, rtr_elem_size(h->elem));
    return h;
  }
  MlirOperation def = mlirOpResultGetOwner(v);
  intptr_t n = mlirOperationGetNumOperands(def);
  if (depth > 32 || mlirOperationGetNumResults(def) != 1) {
    fail(e, "a random tensor's seed or offset is computed in a way the probe cannot follow");
    return NULL;
  }
  rtr_buffer **in = xcalloc((size_t)n + 1, sizeof *in);
  MlirType vt = mlirValueGetType(v);
  rtr_buffer *out = rtr_interp_buffer_for_type(vt, false);
  int rc = 0;
  if (!out) {
    char msg[320];
    rc = fail(e, "a random tensor's seed or offset: %s",
              rtr_buffer_type_problem(vt, msg, sizeof msg));
  }
  for (intptr_t k = 0; k < n && !rc; k++)
    if (!(in[k] = kernel_scalar(e, mlirOperationGetOperand(def, k), kernel, args, depth + 1)))
      rc = -1;
  if (!rc)
    rc = rtr_interp_exec_op(e->module, def, NULL, in, (int)n, &out, 1);
  free_hosts(in, (int)n);
  if (rc) {
    rtr_buffer_free(out);
    return NULL;
  }
  return out;
}

/* Draws again, alone, each random tensor of KERNEL's launch and shows it to the
 * observer. */
static int probe_kernel(cuda_exec *e, MlirOperation kernel, dval *const *args) {
  for (int p = 0; p < e->nprobes; p++) {
    probe *pr = &e->probes[p];
    if (!mlirOperationEqual(pr->kernel, kernel))
      continue;
    rtr_buffer *seed = kernel_scalar(e, mlirOperationGetOperand(pr->philox, 0), kernel, args, 0);
    rtr_buffer *off =
        seed ? kernel_scalar(e, mlirOperationGetOperand(pr->philox, 1), kernel, args, 0) : NULL;
    dval *out = dval_new(&pr->t);
    out->owned = true;
    int rc = !seed || !off || dalloc(e, out) ? -1 : 0;
    rtr_buffer *h = NULL;
    if (!rc) {
      int64_t s = rtr_buffer_get_i(seed, 0), o = rtr_buffer_get_i(off, 0);
      uint64_t o_ptr = dptr(out);
      void *params[3] = {&s, &o, &o_ptr};
      rtr_cuda_launch lc = rtr_cuda_launch_config(false, out->t.numel, e->sm_count);
      if (lc.grid)
        rc = cu(
            e, e->api->cuLaunchKernel(pr->fn, lc.grid, 1, 1, lc.block, 1, 1, 0, NULL, params, NULL),
            "cuLaunchKernel of a random-tensor probe");
      if (!rc && !(h = download(e, out)))
        rc = -1;
      if (!rc)
        e->obs->random(e->obs->ctx, pr->philox, (uint64_t)s, (uint64_t)o, h);
    }
    rtr_buffer_free(h);
    rtr_buffer_free(seed);
    rtr_buffer_free(off);
    dval_free(e, out);
    if (rc)
      return -1;
  }
  return 0;
}

static int cublas_type(rtr_elem t, cudaDataType *dt) {
  switch (t) {
  case RTR_F32: *dt = CUDA_R_32F; return 0;
  case RTR_F16: *dt = CUDA_R_16F; return 0;
  case RTR_BF16: *dt = CUDA_R_16BF; return 0;
  case RTR_F64: *dt = CUDA_R_64F; return 0;
  case RTR_I1:
  case RTR_I8:
  case RTR_I32:
  case RTR_I64:
  case RTR_ELEM_COUNT: break;
  }
  return -1;
}

/* rt.matmul through cuBLAS. 1: done; 0: not a cuBLAS type (host fallback); -1: error. */
static int matmul(cuda_exec *e, MlirOperation op, dval *const *args, dval *res) {
  cudaDataType dt;
  if (cublas_type(res->t.elem, &dt) || args[0]->t.elem != res->t.elem ||
      args[1]->t.elem != res->t.elem)
    return 0;
  bool ta = rt_op_has_attr(op, "transpose_a"), tb = rt_op_has_attr(op, "transpose_b");
  int r = res->t.rank;
  int64_t B = r == 3 ? res->t.dims[0] : 1, M = res->t.dims[r - 2], N = res->t.dims[r - 1];
  int64_t K = args[0]->t.dims[r - (ta ? 2 : 1)];
  if (!e->blas)
    return fail(e, "rt.matmul needs cuBLAS, which is not loaded");
  if (dalloc(e, res))
    return -1;
  if (!M || !N || !B)
    return 1;
  char name[320], where[256];
  snprintf(name, sizeof name, "rt.matmul %s",
           remat_report_loc(mlirOperationGetLocation(op), where, sizeof where));
  const rtr_buffer *types[3] = {&args[0]->t, &args[1]->t, &res->t};
  int stat = stat_slot(e, name, "matmul", tensor_bytes(types, 3));
  if (!K) /* an empty sum: zeros */
    return cu(e, e->api->cuMemsetD8(dptr(res), 0, bytes_of(&res->t)), "cuMemsetD8") ? -1 : 1;
  rtr_cuda_gemm g = rtr_cuda_gemm_config(B, M, N, K, ta, tb);
  if (g.m > INT32_MAX || g.n > INT32_MAX || g.k > INT32_MAX || g.batch > INT32_MAX ||
      g.ldx > INT32_MAX || g.ldy > INT32_MAX)
    return fail(e, "rt.matmul of %lldx%lldx%lld is larger than cuBLAS's int dimensions",
                (long long)M, (long long)N, (long long)K);
  float a32 = 1, b32 = 0;
  double a64 = 1, b64 = 0;
  bool f64 = res->t.elem == RTR_F64;
  const void *alpha = f64 ? (const void *)&a64 : (const void *)&a32;
  const void *beta = f64 ? (const void *)&b64 : (const void *)&b32;
  cublasComputeType_t ct = f64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
  cublasOperation_t tx = g.trans_x ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t ty = g.trans_y ? CUBLAS_OP_T : CUBLAS_OP_N;
  const void *X = (const void *)(uintptr_t)dptr(args[1]),
             *Y = (const void *)(uintptr_t)dptr(args[0]);
  void *C = (void *)(uintptr_t)dptr(res);
  if (time_begin(e))
    return -1;
  cublasStatus_t s = g.batch == 1
                         ? e->api->cublasGemmEx(e->blas, tx, ty, (int)g.m, (int)g.n, (int)g.k,
                                                alpha, X, dt, (int)g.ldx, Y, dt, (int)g.ldy, beta,
                                                C, dt, (int)g.ldc, ct, CUBLAS_GEMM_DEFAULT)
                         : e->api->cublasGemmStridedBatchedEx(
                               e->blas, tx, ty, (int)g.m, (int)g.n, (int)g.k, alpha, X, dt,
                               (int)g.ldx, g.stride_x, Y, dt, (int)g.ldy, g.stride_y, beta, C, dt,
                               (int)g.ldc, g.stride_c, (int)g.batch, ct, CUBLAS_GEMM_DEFAULT);
  if (blas(e, s, g.batch == 1 ? "cublasGemmEx" : "cublasGemmStridedBatchedEx") || time_end(e, stat))
    return -1;
  return 1;
}

/* An op the backend has no device code for: on the host, on copies. */
static int host_fallback(cuda_exec *e, MlirOperation op, dval *const *args, int nargs,
                         dval *const *res, int nres) {
  rtr_buffer **in = download_all(e, args, nargs);
  if (!in)
    return -1;
  rtr_buffer **out = xcalloc((size_t)nres + 1, sizeof *out);
  int rc = 0;
  for (int k = 0; k < nres && !rc; k++)
    if (!(out[k] = host_new(e, &res[k]->t)))
      rc = -1;
  rtr_interp_options none = {.promote_f64 = false};
  if (!rc)
    rc = rtr_interp_exec_op(e->module, op, &none, in, nargs, out, nres);
  bool device_work = false;
  for (int k = 0; k < nres && !rc; k++) {
    if (res[k]->t.is_scalar) {
      memcpy(&res[k]->scalar, out[k]->data, rtr_elem_size(out[k]->elem));
      continue;
    }
    device_work = true;
    if (dalloc(e, res[k]) ||
        (res[k]->alloc &&
         cu(e, e->api->cuMemcpyHtoD(dptr(res[k]), out[k]->data, bytes_of(out[k])), "cuMemcpyHtoD")))
      rc = -1;
  }
  if (device_work && !rc) {
    MlirStringRef nm = mlirIdentifierStr(mlirOperationGetName(op));
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)nm.length, nm.data);
    stat_add(e, stat_slot(e, name, "host", 0), 0);
  }
  free_hosts(in, nargs);
  free_hosts(out, nres);
  return rc;
}

/* ---- the walk ----------------------------------------------------------------------- */

typedef struct frame {
  ptr_map index; /* MlirValue.ptr -> vals index */
  dval **vals;
  int n, cap;
} frame;

static void frame_put(frame *f, MlirValue v, dval *d) {
  XGROW(f->vals, f->n, f->cap, 64);
  f->vals[f->n] = d;
  ptr_map_put(&f->index, v.ptr, f->n++);
}

static dval *frame_get(const frame *f, MlirValue v) {
  int i = ptr_map_get(&f->index, v.ptr);
  return i < 0 ? NULL : f->vals[i];
}

static void frame_free(cuda_exec *e, frame *f) {
  for (int k = 0; k < f->n; k++)
    dval_free(e, f->vals[k]);
  free(f->vals);
  ptr_map_free(&f->index);
}

/* Drops V's reference once its last use is done. */
static void use_done(cuda_exec *e, dval *v) {
  if (--v->uses > 0 || !v->owned)
    return;
  unref(e, v->alloc);
  v->alloc = NULL;
}

static int call_func(cuda_exec *e, MlirOperation func, dval *const *args, int nargs, dval ***outs,
                     int *nouts, MlirOperation at);

/* Runs OP on ARGS; RES holds dvals with the result types (no memory yet), which an alias
 * or a callee's result may replace. */
static int exec_op(cuda_exec *e, MlirOperation op, dval *const *args, int nargs, dval **res,
                   int nres) {
  rt_op_id id = rt_op_lookup(op);
  if (rt_op_named(op, "func.call")) {
    MlirOperation f = rtr_callee(e->module, op);
    if (mlirOperationIsNull(f))
      return -1;
    if (rt_func_is_kernel(f)) {
      fn_entry *k = (fn_entry *)find_fn(e, f);
      if (!k) {
        rt_emit_error(op, "kernel '@%.*s' was not compiled", (int)rt_func_name(f).length,
                      rt_func_name(f).data);
        return -1;
      }
      for (int r = 0; r < nres; r++)
        if (dalloc(e, res[r]))
          return -1;
      if (launch(e, k, args, nargs, res, nres))
        return -1;
      return e->obs && e->obs->random ? probe_kernel(e, f, args) : 0;
    }
    dval **outs = NULL;
    int nouts = 0;
    if (call_func(e, f, args, nargs, &outs, &nouts, op))
      return -1;
    const rtr_buffer **types = xcalloc((size_t)(nouts + nres) + 1, sizeof *types);
    for (int r = 0; r < nouts; r++)
      types[r] = &outs[r]->t;
    for (int r = 0; r < nres; r++)
      types[nouts + r] = &res[r]->t;
    int rc = rtr_check_returned(op, f, types, nouts, types + nouts, nres);
    free(types);
    for (int r = 0; r < nouts; r++) {
      if (!rc) {
        dval_free(e, res[r]);
        res[r] = outs[r];
      } else
        dval_free(e, outs[r]);
    }
    free(outs);
    return rc;
  }
  int64_t first; /* a slice's operand is a tensor (IRDL) */
  if (nargs == 1 && nres == 1 && !args[0]->t.is_scalar && aliased(op, id, &args[0]->t, &first)) {
    dval *a = dval_alias(args[0], &res[0]->t, (size_t)first * rtr_elem_size(res[0]->t.elem));
    dval_free(e, res[0]);
    res[0] = a;
    return 0;
  }
  fn_entry *k = (fn_entry *)find_fn(e, op); /* a reduction, a conv op, or a host op as a kernel */
  if (k) {
    for (int r = 0; r < nres; r++)
      if (dalloc(e, res[r]))
        return -1;
    return launch(e, k, args, nargs, res, nres);
  }
  if (id == RT_OP_MATMUL && nargs == 2 && nres == 1) {
    int r = matmul(e, op, args, res[0]);
    if (r)
      return r < 0 ? -1 : 0;
  }
  return host_fallback(e, op, args, nargs, res, nres);
}

/* Shows OP's operands and results, as host copies, to the observer. */
static int observe(cuda_exec *e, MlirOperation op, dval *const *args, int nargs, dval *const *res,
                   int nres) {
  rtr_buffer **a = download_all(e, args, nargs);
  rtr_buffer **r = a ? download_all(e, res, nres) : NULL;
  if (r)
    e->obs->op(e->obs->ctx, op, a, nargs, r, nres);
  if (a)
    free_hosts(a, nargs);
  if (r)
    free_hosts(r, nres);
  return r ? 0 : -1;
}

/* One call's walk (walk.h): its frame, the uses of each value of the block, the arrays
 * of the current op, where the outputs go. */
typedef struct call {
  cuda_exec *e;
  frame fr;
  ptr_map uses; /* value -> index into count */
  int *count;
  dval **ops, **res;
  intptr_t cap;
  dval ***outs;
  int *nouts;
} call;

/* The uses of V in the block: its reference is dropped after the last. */
static int uses_of(const call *c, MlirValue v) {
  int i = ptr_map_get(&c->uses, v.ptr);
  return i < 0 ? 0 : c->count[i];
}

static void call_reserve(void *ctx, intptr_t no, intptr_t nr) {
  call *c = ctx;
  if (no > c->cap || nr > c->cap) {
    c->cap = no > nr ? no : nr;
    c->ops = xrealloc(c->ops, (size_t)c->cap, sizeof *c->ops);
    c->res = xrealloc(c->res, (size_t)c->cap, sizeof *c->res);
  }
}

static int call_operand(void *ctx, MlirOperation op, intptr_t k, MlirValue v) {
  call *c = ctx;
  (void)op;
  return (c->ops[k] = frame_get(&c->fr, v)) ? 0 : 1;
}

static int call_return(void *ctx, MlirOperation op, intptr_t no) {
  call *c = ctx;
  (void)op;
  *c->outs = xcalloc((size_t)no + 1, sizeof **c->outs);
  for (intptr_t k = 0; k < no; k++) /* a reference each, for the caller */
    (*c->outs)[k] = dval_alias(c->ops[k], &c->ops[k]->t, 0);
  *c->nouts = (int)no;
  return 0;
}

static int call_exec(void *ctx, MlirOperation op, intptr_t no, intptr_t nr, int t) {
  call *c = ctx;
  cuda_exec *e = c->e;
  dval **ops = c->ops, **res = c->res;
  (void)t;
  for (intptr_t k = 0; k < nr; k++) {
    MlirType ty = mlirValueGetType(mlirOperationGetResult(op, k));
    rtr_buffer h;
    if (!type_header(ty, &h)) {
      char tb[128];
      rt_emit_error(op, "result #%ld has a type the runtime does not support: '%s'", (long)k,
                    rt_type_str(ty, tb, sizeof tb));
      for (intptr_t j = 0; j < k; j++)
        dval_free(e, res[j]);
      return -1;
    }
    res[k] = dval_new(&h);
    res[k]->owned = true;
  }
  int rc = exec_op(e, op, ops, (int)no, res, (int)nr);
  bool walked_call = rt_op_named(op, "func.call") && !rc; /* observed inside, or a kernel */
  if (walked_call) /* the call ran: its callee is found again without a diagnostic */
    walked_call = !rt_func_is_kernel(rtr_callee(e->module, op));
  if (!rc && e->obs && e->obs->op && !walked_call)
    rc = observe(e, op, ops, (int)no, res, (int)nr);
  for (intptr_t k = 0; k < nr; k++) {
    if (rc) {
      dval_free(e, res[k]);
      continue;
    }
    res[k]->uses = uses_of(c, mlirOperationGetResult(op, k)) + 1;
    frame_put(&c->fr, mlirOperationGetResult(op, k), res[k]);
    use_done(e, res[k]); /* the +1: unused values go now */
  }
  if (!rc)
    for (intptr_t k = 0; k < no; k++)
      use_done(e, ops[k]);
  return rc;
}

static int call_func(cuda_exec *e, MlirOperation func, dval *const *args, int nargs, dval ***outs,
                     int *nouts, MlirOperation at) {
  rtr_buffer **types = xcalloc((size_t)nargs + 1, sizeof *types);
  for (int k = 0; k < nargs; k++)
    types[k] = &args[k]->t;
  int bad = rtr_check_call(func, types, nargs, false, e->depth, at);
  free(types);
  if (bad)
    return -1;
  MlirBlock entry = rt_func_entry_block(func);
  e->depth++;
  call c = {.e = e, .fr = {.vals = NULL}, .outs = outs, .nouts = nouts};
  /* Uses of each value in this block: its reference is dropped after the last. */
  ptr_map_init(&c.uses, 64);
  int ncount = 0, capcount = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++) {
      MlirValue v = mlirOperationGetOperand(op, k);
      int i = ptr_map_get(&c.uses, v.ptr);
      if (i < 0) {
        XGROW(c.count, ncount, capcount, 64);
        c.count[ncount] = 0;
        ptr_map_put(&c.uses, v.ptr, i = ncount++);
      }
      c.count[i]++;
    }
  ptr_map_init(&c.fr.index, 64);
  for (int k = 0; k < nargs; k++) { /* borrowed */
    dval *d = dval_new(&args[k]->t);
    d->scalar = args[k]->scalar;
    d->alloc = args[k]->alloc;
    d->offset = args[k]->offset;
    d->uses = uses_of(&c, mlirBlockGetArgument(entry, k));
    frame_put(&c.fr, mlirBlockGetArgument(entry, k), d);
  }
  rtr_block_walk w = {&c, call_reserve, call_operand, call_return, call_exec};
  bool returned;
  int rc = rtr_walk_block(func, &w, &returned);
  if (rc && returned) {
    for (int k = 0; k < *nouts; k++)
      dval_free(e, (*outs)[k]);
    free(*outs);
    *outs = NULL;
    *nouts = 0;
  }
  free(c.ops);
  free(c.res);
  frame_free(e, &c.fr);
  ptr_map_free(&c.uses);
  free(c.count);
  e->depth--;
  return rc;
}

/* ---- the executor interface --------------------------------------------------------- */

static int cuda_run(rtr_executor *ex, MlirOperation func, rtr_buffer *const *inputs, int n,
                    const rtr_exec_observer *obs, rtr_buffer ***outputs, int *nout, char **err) {
  cuda_exec *e = ex->impl;
  e->obs = obs;
  e->err = err;
  e->depth = 0;
  *outputs = NULL;
  *nout = 0;
  dval **in = xcalloc((size_t)n + 1, sizeof *in), **outs = NULL;
  int rc = 0, nouts = 0;
  for (int k = 0; k < n && !rc; k++)
    if (!(in[k] = upload(e, inputs[k])))
      rc = -1;
  if (!rc)
    rc = call_func(e, func, in, n, &outs, &nouts, func);
  if (!rc)
    rc = cu(e, e->api->cuCtxSynchronize(), "cuCtxSynchronize");
  if (!rc) {
    *outputs = xcalloc((size_t)nouts + 1, sizeof **outputs);
    for (int k = 0; k < nouts && !rc; k++)
      if (!((*outputs)[k] = download(e, outs[k])))
        rc = -1;
    *nout = nouts;
    if (rc) {
      rtr_buffers_free(*outputs, nouts);
      *outputs = NULL;
      *nout = 0;
    }
  }
  for (int k = 0; k < nouts; k++)
    dval_free(e, outs[k]);
  free(outs);
  for (int k = 0; k < n; k++)
    dval_free(e, in[k]);
  free(in);
  e->obs = NULL;
  e->err = NULL;
  return rc ? -1 : 0;
}

static const rtr_exec_stat *cuda_stats(rtr_executor *ex, int *count) {
  cuda_exec *e = ex->impl;
  *count = e->nstats;
  return e->stats;
}

static void cuda_reset_stats(rtr_executor *ex) {
  cuda_exec *e = ex->impl;
  for (int k = 0; k < e->nstats; k++)
    e->stats[k].launches = 0, e->stats[k].ms = 0, e->stats[k].ms_min = 0;
}

static void free_fns(fn_entry *f, int n) {
  for (int k = 0; k < n; k++) {
    free(f[k].name);
    free(f[k].label);
    free(f[k].param_types);
  }
  free(f);
}

static void exec_free(cuda_exec *e) {
  const rtr_cuda_api *a = e->api;
  if (e->blas)
    a->cublasDestroy(e->blas);
  if (e->ev0)
    a->cuEventDestroy(e->ev0);
  if (e->ev1)
    a->cuEventDestroy(e->ev1);
  if (e->mod)
    a->cuModuleUnload(e->mod);
  if (e->probe_mod)
    a->cuModuleUnload(e->probe_mod);
  if (e->op_mod)
    a->cuModuleUnload(e->op_mod);
  if (e->ctx_retained)
    a->cuDevicePrimaryCtxRelease(e->dev);
  if (!mlirModuleIsNull(e->probe_mlir))
    mlirModuleDestroy(e->probe_mlir);
  free_fns(e->fns, e->nfns);
  ptr_map_free(&e->fn_index);
  free(e->probes);
  for (int k = 0; k < e->nstats; k++)
    free((char *)e->stats[k].name);
  free(e->stats);
  if (e->libs.cublas)
    dlclose(e->libs.cublas);
  if (e->libs.cuda)
    dlclose(e->libs.cuda);
  free(e);
}

static void cuda_destroy(rtr_executor *ex) { exec_free(ex->impl); }

/* Lowers MODULE to PTX for the device and loads it; the function table (codegen order)
 * in *fns. Returns the CUmodule, or NULL after a message. */
static CUmodule load_ptx(cuda_exec *e, MlirOperation module, int sm, fn_entry **fns, int *nfns) {
  remat_codegen_options co = {
      .target = REMAT_TARGET_NVPTX64, .sm = sm, .opt_level = e->opts.opt_level};
  remat_codegen *cg = remat_codegen_create(module, &co);
  *fns = NULL;
  *nfns = 0;
  if (!cg) {
    fail(e, "the codegen cannot lower this module for sm_%d (see the diagnostics above)", sm);
    return NULL;
  }
  int n = remat_codegen_num_functions(cg);
  fn_entry *f = xcalloc((size_t)n + 1, sizeof *f);
  for (int k = 0; k < n; k++) {
    const remat_cg_function *g = remat_codegen_function(cg, k);
    f[k].source = g->source;
    f[k].name = xstrdup(g->name);
    f[k].label = xstrdup(g->name);
    f[k].kind = g->kind;
    f[k].numel = g->numel;
    f[k].rows = g->kind == REMAT_CG_REDUCTION || g->row_len > 0; /* a block per row */
    f[k].num_params = g->num_params;
    f[k].param_types = xcalloc((size_t)g->num_params + 1, sizeof *f[k].param_types);
    for (int p = 0; p < g->num_params; p++)
      f[k].param_types[p] = g->params[p].type;
    f[k].stat = -1;
  }
  *fns = f;
  *nfns = n;
  char *msg = NULL;
  char *ptx = n ? remat_codegen_ptx(cg, &msg) : NULL;
  remat_codegen_destroy(cg);
  if (!n)
    return NULL;
  if (!ptx) {
    fail(e, "PTX: %s", msg ? msg : "");
    free(msg);
    return NULL;
  }
  CUmodule mod = NULL;
  int rc = cu(e, e->api->cuModuleLoadData(&mod, ptx), "cuModuleLoadData");
  free(ptx);
  for (int k = 0; k < n && !rc; k++) {
    char what[300];
    snprintf(what, sizeof what, "cuModuleGetFunction('%s')", f[k].name);
    rc = cu(e, e->api->cuModuleGetFunction(&f[k].fn, mod, f[k].name), what);
  }
  if (rc && mod) {
    e->api->cuModuleUnload(mod);
    mod = NULL;
  }
  return mod;
}

typedef struct probe_collect {
  cuda_exec *e;
  fn_entry *fns;
} probe_collect;

static void collect_probe(void *ctx, MlirOperation kernel, MlirOperation philox) {
  probe_collect *c = ctx;
  probe *p = &c->e->probes[c->e->nprobes];
  p->kernel = kernel;
  p->philox = philox;
  p->fn = c->fns[c->e->nprobes].fn;
  type_header(mlirValueGetType(mlirOperationGetResult(philox, 0)), &p->t);
  c->e->nprobes++;
}

/* The probe module: each random tensor of a kernel drawn alone (rtr_cuda_probe_module_text). */
static int load_probes(cuda_exec *e, int sm) {
  char *text = rtr_cuda_probe_module_text(e->module);
  if (!text)
    return 0;
  e->probe_mlir = mlirModuleCreateParse(mlirOperationGetContext(e->module),
                                        mlirStringRefCreateFromCString(text));
  free(text);
  if (mlirModuleIsNull(e->probe_mlir))
    return fail(e, "internal error: the random-tensor probes do not parse");
  fn_entry *fns = NULL;
  int nfns = 0;
  e->probe_mod = load_ptx(e, mlirModuleGetOperation(e->probe_mlir), sm, &fns, &nfns);
  if (!e->probe_mod) {
    free_fns(fns, nfns);
    return -1;
  }
  e->probes = xcalloc((size_t)nfns + 1, sizeof *e->probes);
  probe_collect c = {e, fns};
  each_probe(e->module, collect_probe, &c);
  free_fns(fns, nfns);
  return 0;
}

/* Host-level elementwise, structural and random ops as one-op kernels
 * (rtr_cuda_op_kernel_module), keyed by the op in the function table. */
static int load_op_kernels(cuda_exec *e, int sm) {
  MlirOperation *ops = NULL;
  int n = 0;
  MlirModule m = rtr_cuda_op_kernel_module(e->module, &ops, &n);
  if (mlirModuleIsNull(m))
    return 0;
  fn_entry *fns = NULL;
  int nfns = 0;
  e->op_mod = load_ptx(e, mlirModuleGetOperation(m), sm, &fns, &nfns);
  int rc = e->op_mod && nfns == n ? 0 : -1;
  if (!rc) {
    e->fns = xrealloc(e->fns, (size_t)(e->nfns + n), sizeof *e->fns);
    for (int k = 0; k < n; k++) {
      char where[256];
      MlirStringRef nm = mlirIdentifierStr(mlirOperationGetName(ops[k]));
      free(fns[k].label);
      fns[k].label =
          xasprintf("%.*s %s", (int)nm.length, nm.data,
                    remat_report_loc(mlirOperationGetLocation(ops[k]), where, sizeof where));
      fns[k].source = ops[k];
      ptr_map_put(&e->fn_index, ops[k].ptr, e->nfns);
      e->fns[e->nfns++] = fns[k];
    }
    free(fns);
  } else
    free_fns(fns, nfns);
  mlirModuleDestroy(m);
  free(ops);
  return rc;
}

static bool module_has_matmul(MlirOperation module) {
  for (MlirOperation f = rt_func_first(module); !mlirOperationIsNull(f); f = rt_func_next(f))
    for (MlirOperation op = mlirBlockGetFirstOperation(rt_func_entry_block(f));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      if (rt_op_lookup(op) == RT_OP_MATMUL)
        return true;
  return false;
}

static int attr(cuda_exec *e, CUdevice_attribute a, int *v) {
  *v = 0;
  return cu(e, e->api->cuDeviceGetAttribute(v, a, e->dev), "cuDeviceGetAttribute");
}

/* The device, its context and its properties. */
static int open_device(cuda_exec *e, int ordinal) {
  int count = 0, major, minor, clock_khz, bus_bits;
  if (cu(e, e->api->cuInit(0), "no usable GPU: cuInit") ||
      cu(e, e->api->cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return -1;
  if (count <= ordinal)
    return fail(e, "no CUDA device %d (the driver sees %d)", ordinal, count);
  if (cu(e, e->api->cuDeviceGet(&e->dev, ordinal), "cuDeviceGet") ||
      cu(e, e->api->cuDevicePrimaryCtxRetain(&e->ctx, e->dev), "cuDevicePrimaryCtxRetain"))
    return -1;
  e->ctx_retained = true;
  if (cu(e, e->api->cuCtxSetCurrent(e->ctx), "cuCtxSetCurrent") ||
      attr(e, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &e->sm_count) ||
      attr(e, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major) ||
      attr(e, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor))
    return -1;
  /* The peak is informative only: a driver that no longer reports the memory clock
   * gives 0 (then reports use --peak-gbs). Double data rate: two transfers per clock. */
  if (e->api->cuDeviceGetAttribute(&clock_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, e->dev) !=
          CUDA_SUCCESS ||
      e->api->cuDeviceGetAttribute(&bus_bits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
                                   e->dev) != CUDA_SUCCESS)
    clock_khz = bus_bits = 0;
  e->peak_gbs = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  return major * 10 + minor;
}

/* The newest compute capability the codegen knows, at most the device's. */
static int pick_sm(int device_sm) {
  for (int sm = device_sm; sm >= 50; sm--)
    if (remat_codegen_sm_is_valid(sm))
      return sm;
  return 0;
}

static rtr_executor *create(cuda_exec *e, MlirOperation module, const rtr_cuda_options *opts,
                            char **err) {
  e->opts = *opts;
  e->module = module;
  e->err = err;
  ptr_map_init(&e->fn_index, 64);
  int device_sm = open_device(e, opts->device);
  int sm = opts->sm ? opts->sm : pick_sm(device_sm);
  if (device_sm < 0)
    goto fail;
  if (!remat_codegen_sm_is_valid(sm)) {
    fail(e, "no PTX target for the device's compute capability %d.%d", device_sm / 10,
         device_sm % 10);
    goto fail;
  }
  e->mod = load_ptx(e, module, sm, &e->fns, &e->nfns);
  if (!e->mod && *err)
    goto fail;
  for (int k = 0; k < e->nfns; k++)
    ptr_map_put(&e->fn_index, e->fns[k].source.ptr, k);
  if (load_op_kernels(e, sm) || (opts->probe_random && load_probes(e, sm)))
    goto fail;
  if (e->api->cublasCreate && module_has_matmul(module) &&
      (blas(e, e->api->cublasCreate(&e->blas), "cublasCreate") ||
       blas(e,
            e->api->cublasSetMathMode(
                e->blas, (cublasMath_t)(CUBLAS_DEFAULT_MATH |
                                        CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)),
            "cublasSetMathMode")))
    goto fail;
  if (opts->profile && (cu(e, e->api->cuEventCreate(&e->ev0, CU_EVENT_DEFAULT), "cuEventCreate") ||
                        cu(e, e->api->cuEventCreate(&e->ev1, CU_EVENT_DEFAULT), "cuEventCreate")))
    goto fail;
  e->err = NULL;
  rtr_executor *ex = xcalloc(1, sizeof *ex);
  *ex = (rtr_executor){.device = "cuda",
                       .impl = e,
                       .run = cuda_run,
                       .stats = cuda_stats,
                       .reset_stats = cuda_reset_stats,
                       .destroy = cuda_destroy};
  return ex;
fail:
  exec_free(e);
  return NULL;
}

rtr_executor *rtr_cuda_create_with_api(MlirOperation module, const rtr_cuda_options *opts,
                                       const rtr_cuda_api *api, char **err) {
  cuda_exec *e = xcalloc(1, sizeof *e);
  e->api = api;
  return create(e, module, opts, err);
}

rtr_executor *rtr_cuda_create(MlirOperation module, const rtr_cuda_options *opts, char **err) {
  cuda_exec *e = xcalloc(1, sizeof *e);
  e->api = &e->own_api;
  if (load_driver(&e->own_api, &e->libs, err) ||
      (module_has_matmul(module) && load_cublas(&e->own_api, &e->libs, err))) {
    e->api = &e->own_api;
    exec_free(e);
    return NULL;
  }
  return create(e, module, opts, err);
}

int rtr_cuda_describe(int device, char *out, size_t out_cap, char **err) {
  cuda_exec *e = xcalloc(1, sizeof *e);
  e->api = &e->own_api;
  e->err = err;
  ptr_map_init(&e->fn_index, 4);
  int rc = load_driver(&e->own_api, &e->libs, err) ? -1 : 0;
  int sm = rc ? -1 : open_device(e, device);
  char name[256] = "?";
  size_t mem = 0;
  int version = 0;
  if (sm < 0 || cu(e, e->api->cuDeviceGetName(name, sizeof name, e->dev), "cuDeviceGetName") ||
      cu(e, e->api->cuDeviceTotalMem(&mem, e->dev), "cuDeviceTotalMem") ||
      cu(e, e->api->cuDriverGetVersion(&version), "cuDriverGetVersion"))
    rc = -1;
  else
    snprintf(out, out_cap,
             "cuda device %d: %s, compute capability %d.%d (PTX for sm_%d), %d SMs, "
             "%.1f GiB, peak memory bandwidth %.0f GB/s, driver %d.%d",
             device, name, sm / 10, sm % 10, pick_sm(sm), e->sm_count, (double)mem / (1 << 30),
             e->peak_gbs, version / 1000, version % 1000 / 10);
  exec_free(e);
  return rc;
}

rtr_cuda_memory rtr_cuda_memory_stats(rtr_executor *ex) { return ((cuda_exec *)ex->impl)->mem; }

double rtr_cuda_peak_gbs(rtr_executor *ex) { return ((cuda_exec *)ex->impl)->peak_gbs; }
