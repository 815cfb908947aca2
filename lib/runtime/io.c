/* io.c: random inputs, the text format, summaries (see io.h). */
#include "io.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"
#include "interp.h"

/* splitmix64: a small, well-mixed generator; the inputs only need to be reproducible. */
static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in [-1, 1) on a grid of 2^(1-p), p the precision of the type: every value is
 * exact in the type, so no rounding can reach 1. */
static double random_unit(uint64_t r, rtr_elem e) {
  int p = e == RTR_F64 ? 53 : e == RTR_F32 ? 24 : e == RTR_F16 ? 11 : 8;
  return ldexp((double)(r >> (64 - p)), 1 - p) - 1.0;
}

bool rtr_values_parse(const char *name, rtr_values *out) {
  static const char *const names[] = {"unit", "wide", "special"};
  for (int k = 0; k < 3; k++)
    if (!strcmp(name, names[k])) {
      *out = (rtr_values)k;
      return true;
    }
  return false;
}

/* Layout of a float type's bits: exponent and mantissa widths (sign on top). */
static void float_layout(rtr_elem e, int *ebits, int *mbits) {
  *ebits = e == RTR_F64 ? 11 : e == RTR_F16 ? 5 : 8;
  *mbits = e == RTR_F64 ? 52 : e == RTR_F32 ? 23 : e == RTR_F16 ? 10 : 7;
}

double rtr_float_from_fields(rtr_elem e, int sign, int64_t expo, uint64_t mant) {
  int eb, mb;
  float_layout(e, &eb, &mb);
  int64_t bias = ((int64_t)1 << (eb - 1)) - 1;
  mant &= ((uint64_t)1 << mb) - 1;
  double v;
  if (expo == ((int64_t)1 << eb) - 1)
    v = mant ? NAN : INFINITY;
  else if (expo == 0)
    v = ldexp((double)mant, (int)(1 - bias - mb));
  else
    v = ldexp((double)(mant | ((uint64_t)1 << mb)), (int)(expo - bias - mb));
  return sign ? -v : v;
}

/* WIDE: every finite value of the type, by fields: sign, exponent field (0, the
 * subnormals, included; the all-ones field excluded) and mantissa uniform. */
static double random_wide(uint64_t r, rtr_elem e) {
  int eb, mb;
  float_layout(e, &eb, &mb);
  uint64_t fields = ((uint64_t)1 << eb) - 1; /* finite exponent fields */
  return rtr_float_from_fields(e, (int)(r >> 63), (int64_t)((r >> mb) % fields), r);
}

/* SPECIAL's list for a float type; k picks one of FLOAT_SPECIALS. */
enum { FLOAT_SPECIALS = 32, INT_SPECIALS = 12 };
static double special_float(int k, rtr_elem e) {
  int eb, mb;
  float_layout(e, &eb, &mb);
  int64_t top = ((int64_t)1 << eb) - 2; /* largest finite exponent field */
  uint64_t mmax = ((uint64_t)1 << mb) - 1;
  double ovf = e == RTR_F64 ? 709.782712893384 : e == RTR_F16 ? 11.0898664 : 88.7228394;
  double unf = e == RTR_F64 ? -745.1 : e == RTR_F16 ? -17.3 : -103.97;
  switch (k) {
  case 0: return 0.0;
  case 1: return -0.0;
  case 2: return INFINITY;
  case 3: return -INFINITY;
  case 4: return NAN;
  case 5: return rtr_float_from_fields(e, 0, 0, 1);      /* smallest subnormal */
  case 6: return rtr_float_from_fields(e, 1, 0, mmax);   /* largest subnormal, negative */
  case 7: return rtr_float_from_fields(e, 0, 1, 0);      /* smallest normal */
  case 8: return rtr_float_from_fields(e, 0, top, mmax); /* largest finite */
  case 9: return rtr_float_from_fields(e, 1, top, mmax);
  case 10: return 1.0;
  case 11: return -1.0;
  case 12: return 2.0;
  case 13: return 0.5;
  case 14: return 3.0;
  case 15: return -2.0;
  case 16: return ovf; /* exp's overflow (rounded to the type by the store) */
  case 17: return -ovf;
  case 18: return unf; /* exp's underflow to 0 */
  case 19: return ovf * 0.99;
  case 20: return 1e-30; /* near 0: log, rsqrt */
  case 21: return rtr_float_from_fields(e, 0, 1, 1);
  case 22: return 1.0 + ldexp(1.0, -mb); /* next to 1: log, log1p, pow */
  case 23: return 1.0 - ldexp(1.0, -mb - 1);
  case 24: return 7.0;
  case 25: return -100.0;
  case 26: return 1024.0;
  case 27: return 0.1;
  case 28: return -1e-7;
  case 29: return 65504.0; /* f16's largest, inf past it */
  case 30: return 1e5;
  default: return -3.5;
  }
}

static int64_t special_int(int k, rtr_elem e) {
  int64_t lo = e == RTR_I8 ? INT8_MIN : e == RTR_I32 ? INT32_MIN : INT64_MIN;
  int64_t hi = e == RTR_I8 ? INT8_MAX : e == RTR_I32 ? INT32_MAX : INT64_MAX;
  static const int64_t small[] = {0, 1, -1, 2, -2, 3, 7, 64};
  return k == 8 ? lo : k == 9 ? hi : k == 10 ? lo + 1 : k == 11 ? hi - 1 : small[k];
}

static void random_element(rtr_buffer *b, int64_t i, uint64_t r, rtr_values values) {
  bool fl = rtr_elem_is_float(b->elem);
  if (b->elem == RTR_I1) {
    rtr_buffer_set_i(b, i, (int64_t)(r >> 63));
  } else if (!fl && b->is_scalar) {
    rtr_buffer_set_i(b, i, (int64_t)r);
  } else if (values == RTR_VALUES_UNIT) {
    if (fl)
      rtr_buffer_set_f(b, i, random_unit(r, b->elem));
    else
      rtr_buffer_set_i(b, i, (int64_t)(r >> 60) - 8);
  } else if (values == RTR_VALUES_SPECIAL && (r & 1)) {
    uint64_t k = (r >> 1) % (fl ? FLOAT_SPECIALS : INT_SPECIALS);
    if (fl)
      rtr_buffer_set_f(b, i, special_float((int)k, b->elem));
    else
      rtr_buffer_set_i(b, i, special_int((int)k, b->elem));
  } else if (fl) {
    rtr_buffer_set_f(b, i, random_wide(r, b->elem));
  } else { /* the whole range of the type (the store wraps to the width) */
    rtr_buffer_set_i(b, i, (int64_t)r);
  }
}

/* An integer of an argument with rt.range [LO, HI): uniform (SPECIAL: half of them LO or
 * HI - 1, the ends), in every distribution, so that indices stay indices. */
static void random_in_range(rtr_buffer *b, int64_t i, uint64_t r, rtr_values values, int64_t lo,
                            int64_t hi) {
  uint64_t span = (uint64_t)hi - (uint64_t)lo; /* hi > lo: at least 1 */
  uint64_t off = values == RTR_VALUES_SPECIAL && (r & 1) ? ((r >> 1) & 1) * (span - 1) : r % span;
  rtr_buffer_set_i(b, i, (int64_t)((uint64_t)lo + off));
}

rtr_buffer **rtr_inputs_random(MlirOperation func, uint64_t seed, rtr_values values, int *count,
                               char **err) {
  (void)err; /* its errors are diagnostics at the argument (see io.h) */
  MlirBlock entry = rt_func_entry_block(func);
  int n = (int)mlirBlockGetNumArguments(entry);
  rtr_buffer **bufs = xcalloc((size_t)n + 1, sizeof *bufs);
  for (int k = 0; k < n; k++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(entry, k));
    rtr_buffer *b = bufs[k] = rtr_buffer_for_type(t);
    if (!b) {
      char msg[320];
      MlirValue arg = mlirBlockGetArgument(entry, k);
      rt_emit_error_at(mlirValueGetLocation(arg), "argument #%d: %s", k,
                       rtr_buffer_type_problem(t, msg, sizeof msg));
      rtr_buffers_free(bufs, k);
      return NULL;
    }
    uint64_t s = seed ^ ((uint64_t)(k + 1) * 0xD1B54A32D192ED03ull) ^ (uint64_t)values;
    int64_t lo, hi;
    bool ranged = !rtr_elem_is_float(b->elem) && b->elem != RTR_I1 &&
                  rt_func_arg_range(func, k, &lo, &hi);
    for (int64_t i = 0; i < b->numel; i++)
      if (ranged)
        random_in_range(b, i, splitmix64(&s), values, lo, hi);
      else
        random_element(b, i, splitmix64(&s), values);
  }
  *count = n;
  return bufs;
}

/* ---- types -------------------------------------------------------------------------- */

static bool elem_from_name(const char *s, size_t n, rtr_elem *e) {
  for (int k = 0; k < RTR_ELEM_COUNT; k++)
    if (strlen(rtr_elem_name((rtr_elem)k)) == n && !strncmp(s, rtr_elem_name((rtr_elem)k), n)) {
      *e = (rtr_elem)k;
      return true;
    }
  return false;
}

int rtr_buffer_parse_type(const char *s, rtr_elem *elem, bool *is_scalar, int *rank,
                          int64_t *dims) {
  size_t n = strlen(s);
  if (strncmp(s, "tensor<", 7)) {
    *is_scalar = true;
    *rank = 0;
    return elem_from_name(s, n, elem) ? 0 : -1;
  }
  if (s[n - 1] != '>')
    return -1;
  *is_scalar = false;
  *rank = 0;
  const char *p = s + 7, *end = s + n - 1;
  while (p < end && isdigit((unsigned char)*p)) {
    char *q;
    errno = 0;
    long long d = strtoll(p, &q, 10);
    if (errno || *q != 'x' || *rank >= RT_MAX_RANK || d < 0)
      return -1;
    dims[(*rank)++] = d;
    p = q + 1;
  }
  return elem_from_name(p, (size_t)(end - p), elem) ? 0 : -1;
}

/* ---- the text reader ---------------------------------------------------------------- */

typedef struct reader {
  FILE *f;
  const char *path;
  int line, col;         /* of the next character */
  int tok_line, tok_col; /* of the current token */
  char tok[256];
  char **err; /* remat_error_add */
} reader;

static int read_char(reader *r) {
  int c = fgetc(r->f);
  if (c == '\n')
    r->line++, r->col = 1;
  else if (c != EOF)
    r->col++;
  return c;
}

/* Next white-space separated token (comments skipped); false at the end of the file. */
static bool next_token(reader *r) {
  int c;
  size_t n = 0;
  for (;;) {
    c = read_char(r);
    if (c == '#')
      while (c != '\n' && c != EOF)
        c = read_char(r);
    if (c == EOF)
      return false;
    if (!isspace(c))
      break;
  }
  r->tok_line = r->line;
  r->tok_col = r->col - 1;
  while (c != EOF && !isspace(c) && c != '#') {
    if (n + 1 < sizeof r->tok)
      r->tok[n++] = (char)c;
    c = fgetc(r->f); /* the column of what follows a token is not needed */
    r->col++;
  }
  if (c != EOF)
    ungetc(c, r->f), r->col--;
  r->tok[n] = 0;
  return true;
}

/* Adds "PATH:LINE:COL: error: ..." at the current token (or at the end of the file) to
 * *r->err: a located line, which the tool prints as it is. */
static void __attribute__((format(printf, 2, 3)))
read_error(const reader *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *msg = xmalloc(n < 0 ? 1 : (size_t)n + 1);
  msg[0] = 0;
  va_start(ap, fmt);
  if (n >= 0)
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
  va_end(ap);
  remat_error_add(r->err, "%s:%d:%d: error: %s", r->path, r->tok_line, r->tok_col, msg);
  free(msg);
}

static bool is_type_token(const char *t) {
  rtr_elem e;
  return !strncmp(t, "tensor<", 7) || elem_from_name(t, strlen(t), &e);
}

static int parse_elem(reader *r, rtr_buffer *b, int64_t i) {
  char *end;
  errno = 0;
  if (rtr_elem_is_float(b->elem)) {
    double v = strtod(r->tok, &end);
    if (*end || end == r->tok)
      goto bad;
    rtr_buffer_set_f(b, i, v);
    return 0;
  }
  if (b->elem == RTR_I1 && (!strcmp(r->tok, "true") || !strcmp(r->tok, "false"))) {
    rtr_buffer_set_i(b, i, r->tok[0] == 't');
    return 0;
  }
  long long v = strtoll(r->tok, &end, 0);
  if (*end || end == r->tok || errno)
    goto bad;
  if (b->elem == RTR_I1 && v != 0 && v != 1)
    goto bad;
  rtr_buffer_set_i(b, i, v);
  return 0;
bad:
  read_error(r, "'%s' is not a valid %s value", r->tok, rtr_elem_name(b->elem));
  return -1;
}

rtr_buffer **rtr_inputs_read_stream(MlirOperation func, FILE *f, const char *path, int *count,
                                    char **err) {
  MlirBlock entry = rt_func_entry_block(func);
  MlirStringRef fname = rt_func_name(func);
  int n = (int)mlirBlockGetNumArguments(entry), got = 0;
  reader r = {f, path, 1, 1, 1, 1, {0}, err};
  rtr_buffer **bufs = xcalloc((size_t)n + 1, sizeof *bufs);
  bool have = next_token(&r);
  while (have) {
    char a[128], b[128];
    if (!is_type_token(r.tok)) {
      read_error(&r, "expected a type such as 'tensor<2x2xf32>' or 'i64', got '%s'", r.tok);
      goto fail;
    }
    /* Both types are compared before anything is allocated: the file may give any size. */
    rtr_buffer given = {.numel = 1}, want;
    if (rtr_buffer_parse_type(r.tok, &given.elem, &given.is_scalar, &given.rank, given.dims)) {
      read_error(&r, "invalid type '%s'", r.tok);
      goto fail;
    }
    if (got >= n) {
      read_error(&r, "too many inputs: '@%.*s' takes %d arguments", (int)fname.length, fname.data,
                 n);
      goto fail;
    }
    bool known = rtr_buffer_describe(mlirValueGetType(mlirBlockGetArgument(entry, got)), &want);
    if (!known || !rtr_buffer_same_type(&want, &given)) {
      read_error(&r, "argument #%d of '@%.*s' is '%s', the file gives '%s'", got, (int)fname.length,
                 fname.data,
                 known ? rtr_buffer_type_str(&want, a, sizeof a) : "an unsupported type",
                 rtr_buffer_type_str(&given, b, sizeof b));
      goto fail;
    }
    rtr_buffer *val = bufs[got] = rtr_buffer_new(want.elem, want.is_scalar, want.rank, want.dims);
    if (!val) {
      int64_t bytes = rtr_buffer_bytes(want.elem, want.rank, want.dims);
      if (bytes < 0)
        read_error(&r, "'%s' is more than remat-run's limit of %lld bytes per tensor", r.tok,
                   (long long)RTR_MAX_BUFFER_BYTES);
      else
        read_error(&r, "out of memory for '%s' (%lld bytes)", r.tok, (long long)bytes);
      goto fail;
    }
    got++;
    int64_t i = 0;
    while ((have = next_token(&r)) && !is_type_token(r.tok)) {
      if (i >= val->numel) {
        read_error(&r, "argument #%d has more than %lld values", got - 1, (long long)val->numel);
        goto fail;
      }
      if (parse_elem(&r, val, i++))
        goto fail;
    }
    if (i != val->numel) {
      if (!have) /* at the end of the file */
        r.tok_line = r.line, r.tok_col = r.col;
      read_error(&r, "argument #%d has %lld values, its type needs %lld", got - 1, (long long)i,
                 (long long)val->numel);
      goto fail;
    }
  }
  if (got != n) {
    r.tok_line = r.line, r.tok_col = r.col;
    read_error(&r, "'@%.*s' takes %d arguments, the file gives %d", (int)fname.length, fname.data,
               n, got);
    goto fail;
  }
  if (ferror(f)) {
    read_error(&r, "cannot read the file: %s", strerror(errno));
    goto fail;
  }
  *count = n;
  return bufs;
fail:
  rtr_buffers_free(bufs, got);
  return NULL;
}

rtr_buffer **rtr_inputs_read(MlirOperation func, const char *path, int *count, char **err) {
  FILE *f = fopen(path, "r");
  if (!f) {
    remat_error_add(err, "cannot read inputs file '%s': %s", path, strerror(errno));
    return NULL;
  }
  rtr_buffer **bufs = rtr_inputs_read_stream(func, f, path, count, err);
  fclose(f);
  return bufs;
}

/* ---- writers ------------------------------------------------------------------------ */

static void write_elem(FILE *out, const rtr_buffer *b, int64_t i) {
  if (b->elem == RTR_F64)
    fprintf(out, "%.17g", rtr_buffer_get_f(b, i));
  else if (rtr_elem_is_float(b->elem))
    fprintf(out, "%.9g", rtr_buffer_get_f(b, i));
  else
    fprintf(out, "%lld", (long long)rtr_buffer_get_i(b, i));
}

void rtr_buffer_write_text(FILE *out, const rtr_buffer *b) {
  char tb[160];
  fputs(rtr_buffer_type_str(b, tb, sizeof tb), out);
  int64_t row = b->rank ? b->dims[b->rank - 1] : 1;
  for (int64_t i = 0; i < b->numel; i++) {
    fputs(row > 0 && i % row == 0 && b->numel > row ? "\n  " : " ", out);
    write_elem(out, b, i);
  }
  fputc('\n', out);
}

void rtr_buffer_write_summary(FILE *out, const rtr_buffer *b) {
  char tb[160];
  fputs(rtr_buffer_type_str(b, tb, sizeof tb), out);
  if (rtr_elem_is_float(b->elem)) {
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    for (int64_t i = 0; i < b->numel; i++) {
      double v = rtr_buffer_get_f(b, i);
      sum += v;
      lo = fmin(lo, v);
      hi = fmax(hi, v);
    }
    fprintf(out, " sum=%.9g min=%.9g max=%.9g", sum, lo, hi);
  } else {
    int64_t sum = 0, lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t i = 0; i < b->numel; i++) {
      int64_t v = rtr_buffer_get_i(b, i);
      sum = (int64_t)((uint64_t)sum + (uint64_t)v);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    fprintf(out, " sum=%lld min=%lld max=%lld", (long long)sum, (long long)lo, (long long)hi);
  }
  fprintf(out, " hash=0x%016llx", (unsigned long long)rtr_buffer_hash(b));
}
