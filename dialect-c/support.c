/* support.c: internal errors, checked allocation, the pointer map, shapes (support.h). */
#include "support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

_Noreturn void remat_fatal_at(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "remat: internal error at %s:%d: ", file, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

/* ---- allocation ---- */

void *remat_xmalloc_at(const char *file, int line, size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p)
    remat_fatal_at(file, line, "out of memory (%zu bytes)", size);
  return p;
}

void *remat_xcalloc_at(const char *file, int line, size_t n, size_t size) {
  if (n && size > SIZE_MAX / n)
    remat_fatal_at(file, line, "allocation size overflow (%zu x %zu)", n, size);
  void *p = calloc(n && size ? n : 1, n && size ? size : 1);
  if (!p)
    remat_fatal_at(file, line, "out of memory (%zu x %zu bytes)", n, size);
  return p;
}

void *remat_xrealloc_at(const char *file, int line, void *p, size_t n, size_t size) {
  if (n && size > SIZE_MAX / n)
    remat_fatal_at(file, line, "allocation size overflow (%zu x %zu)", n, size);
  size_t bytes = n * size;
  void *q = realloc(p, bytes ? bytes : 1);
  if (!q)
    remat_fatal_at(file, line, "out of memory (%zu bytes)", bytes);
  return q;
}

char *remat_xstrndup_at(const char *file, int line, const char *s, size_t n) {
  size_t len = strnlen(s, n);
  char *c = remat_xmalloc_at(file, line, len + 1);
  memcpy(c, s, len);
  c[len] = 0;
  return c;
}

char *remat_xasprintf_at(const char *file, int line, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    remat_fatal_at(file, line, "invalid format '%s'", fmt);
  char *s = remat_xmalloc_at(file, line, (size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return s;
}

void remat_error_vadd(char **error, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (n < 0)
    remat_fatal("invalid format '%s'", fmt);
  size_t old = *error ? strlen(*error) : 0, sep = *error ? 1 : 0;
  char *s = xrealloc(*error, old + sep + (size_t)n + 1, 1);
  if (sep)
    s[old] = '\n';
  vsnprintf(s + old + sep, (size_t)n + 1, fmt, again);
  va_end(again);
  *error = s;
}

void remat_error_add(char **error, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  remat_error_vadd(error, fmt, ap);
  va_end(ap);
}

void remat_error_copy(char *message, char *buf, size_t cap) {
  if (message && cap)
    snprintf(buf, cap, "%s", message);
  free(message);
}

/* ---- pointer map ---- */

size_t remat_ptr_hash(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return (size_t)x;
}

void ptr_map_init(ptr_map *m, size_t expected) {
  m->cap = 16;
  while (m->cap < 2 * expected + 2)
    m->cap *= 2;
  m->count = 0;
  m->keys = xcalloc(m->cap, sizeof *m->keys);
  m->vals = xcalloc(m->cap, sizeof *m->vals);
}

static void grow(ptr_map *m) {
  ptr_map old = *m;
  ptr_map_init(m, old.cap / 2); /* twice the capacity */
  for (size_t i = 0; i < old.cap; i++)
    if (old.keys[i])
      ptr_map_put(m, old.keys[i], old.vals[i]);
  ptr_map_free(&old);
}

void ptr_map_put(ptr_map *m, const void *key, int val) {
  if (!key || val < 0)
    remat_fatal("ptr_map_put(%p, %d): keys are non-NULL, values non-negative", key, val);
  if (2 * (m->count + 1) >= m->cap)
    grow(m);
  size_t i = remat_ptr_hash(key) & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != key)
    i = (i + 1) & (m->cap - 1);
  if (!m->keys[i])
    m->count++;
  m->keys[i] = key;
  m->vals[i] = val;
}

int ptr_map_get(const ptr_map *m, const void *key) {
  if (!m->cap)
    return -1;
  for (size_t i = remat_ptr_hash(key) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
    if (m->keys[i] == key)
      return m->vals[i];
  return -1;
}

void ptr_map_free(ptr_map *m) {
  free(m->keys);
  free(m->vals);
  m->keys = NULL;
  m->vals = NULL;
  m->cap = m->count = 0;
}

/* ---- shapes ---- */

bool remat_shape_eq(const remat_shape *a, const remat_shape *b) {
  return a->rank == b->rank && !memcmp(a->d, b->d, sizeof(int64_t) * (size_t)a->rank);
}

int64_t remat_shape_numel(const remat_shape *s) {
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++)
    n *= s->d[i];
  return n;
}

char *remat_shape_str(const remat_shape *s, char *buf, size_t cap) {
  size_t n = 0;
  buf[0] = 0;
  if (s->rank == 0) {
    snprintf(buf, cap, "scalar");
    return buf;
  }
  for (int i = 0; i < s->rank && n + 1 < cap; i++) {
    int k = snprintf(buf + n, cap - n, i ? "x%lld" : "%lld", (long long)s->d[i]);
    if (k < 0)
      break;
    n += (size_t)k;
  }
  return buf;
}

double remat_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

char *remat_read_all(FILE *f, size_t *len) {
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (ferror(f))
      break;
    if (n < cap) { /* the end: room for the NUL */
      buf[n] = 0;
      if (len)
        *len = n;
      return buf;
    }
    char *grown = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
    if (!grown)
      break;
    buf = grown;
    cap *= 2;
  }
  free(buf);
  return NULL;
}

bool remat_is_decimal(const char *s, bool fraction) {
  const char *p = s + (*s == '-');
  size_t digits = strspn(p, "0123456789");
  p += digits;
  if (fraction && *p == '.') {
    size_t more = strspn(p + 1, "0123456789");
    digits += more;
    p += 1 + more;
  }
  if (!digits)
    return false;
  if (fraction && (*p == 'e' || *p == 'E')) {
    p += 1 + (p[1] == '-' || p[1] == '+');
    size_t exp = strspn(p, "0123456789");
    if (!exp)
      return false;
    p += exp;
  }
  return !*p;
}
