/* nesting.c: the nesting check that runs before MLIR's parser (rematCheckNesting), and
 * rematParseFile, which reads a file, checks it and parses it.
 *
 * Why: MLIR's parser, printer and verifier recurse once per level of nesting, so 10^4
 * nested `[` or `module {` overflow the stack (SIGSEGV). A linear scan of the text bounds
 * the depth before any of them runs. What counts as one level (docs/design.md, "Hostile
 * input"):
 *   - an open bracket: ( [ { <   (closed by ) ] } >, except the > of -> and >=);
 *   - an expression operator (+ - * floordiv ceildiv mod, and a `-` that is not part of
 *     -> or of a number's exponent) since the last , = : or open bracket: affine
 *     expressions parse `a + b + c` and `- - x` by recursion;
 *   - a reference to an attribute or type alias (#name, !name) weighs the depth of its
 *     definition, so chains of aliases (`#a2 = [#a1]`) count as the nesting they build.
 * Strings and `//` comments are skipped. The scan over-approximates (a stray `<` counts
 * until a closer): it may refuse contrived but valid text, never let deep text through. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"
#include "remat-c/Remat.h"
#include "support.h"

/* ---- alias depths: name (with its # or !) -> depth of the definition ------------------ */

typedef struct alias {
  const char *name; /* into the source text; NULL: empty slot */
  size_t len;
  int depth;
} alias;

typedef struct alias_map {
  alias *slots;
  size_t cap, count;
} alias_map;

static size_t hash_name(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return (size_t)h;
}

static alias *alias_slot(const alias_map *m, const char *s, size_t n) {
  size_t i = hash_name(s, n) & (m->cap - 1);
  while (m->slots[i].name && (m->slots[i].len != n || memcmp(m->slots[i].name, s, n)))
    i = (i + 1) & (m->cap - 1);
  return &m->slots[i];
}

static void alias_put(alias_map *m, const char *s, size_t n, int depth) {
  if (2 * (m->count + 1) > m->cap) {
    alias_map g = {xcalloc(m->cap ? 2 * m->cap : 64, sizeof(alias)), m->cap ? 2 * m->cap : 64, 0};
    for (size_t i = 0; i < m->cap; i++)
      if (m->slots[i].name) {
        *alias_slot(&g, m->slots[i].name, m->slots[i].len) = m->slots[i];
        g.count++;
      }
    free(m->slots);
    *m = g;
  }
  alias *a = alias_slot(m, s, n);
  if (!a->name)
    m->count++;
  *a = (alias){s, n, depth};
}

static int alias_get(const alias_map *m, const char *s, size_t n) {
  if (!m->cap)
    return 0;
  const alias *a = alias_slot(m, s, n);
  return a->name ? a->depth : 0;
}

/* ---- the scan ------------------------------------------------------------------------ */

typedef struct scan {
  const char *s;
  size_t n, i;
  int line;
  size_t line_start;
  int top;                        /* open brackets */
  int depth;                      /* top + the operators of every open level */
  int run[REMAT_MAX_NESTING + 2]; /* operators since the level opened or its last , = : */
  alias_map aliases;
  const char *def; /* the alias being defined, or NULL */
  size_t def_len;
  int def_max;
  bool def_started;      /* a token of its value was seen */
  int bad_line, bad_col; /* where the limit was passed (0: not passed) */
} scan;

static bool is_id(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '.';
}

/* Depth D is reached at the current position: remember the first place it passes the
 * limit, and the deepest point of the alias being defined. */
static void reach(scan *sc, int d) {
  if (d > REMAT_MAX_NESTING && !sc->bad_line) {
    sc->bad_line = sc->line;
    sc->bad_col = (int)(sc->i - sc->line_start) + 1;
  }
  if (sc->def && d > sc->def_max)
    sc->def_max = d;
}

static void operator(scan *sc) {
  sc->run[sc->top]++;
  reach(sc, ++sc->depth);
}

static void separator(scan *sc) {
  sc->depth -= sc->run[sc->top];
  sc->run[sc->top] = 0;
}

static void end_definition(scan *sc) {
  if (sc->def)
    alias_put(&sc->aliases, sc->def, sc->def_len, sc->def_max);
  sc->def = NULL;
}

static void run_scan(scan *sc) {
  const char *s = sc->s;
  size_t n = sc->n;
  while (sc->i < n && !sc->bad_line) {
    char c = s[sc->i];
    if (c == '\n') {
      sc->i++;
      sc->line++;
      sc->line_start = sc->i;
      /* A definition ends at a line break outside brackets, unless the next line goes on
       * with a `: type`. */
      if (sc->def && sc->def_started && sc->top == 0) {
        size_t j = sc->i;
        while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n'))
          j++;
        if (j >= n || s[j] != ':')
          end_definition(sc);
      }
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      sc->i++;
      continue;
    }
    if (c == '/' && sc->i + 1 < n && s[sc->i + 1] == '/') {
      while (sc->i < n && s[sc->i] != '\n')
        sc->i++;
      continue;
    }
    sc->def_started = true;
    char next = sc->i + 1 < n ? s[sc->i + 1] : 0;
    if (c == '"') {
      for (sc->i++; sc->i < n && s[sc->i] != '"'; sc->i++)
        if (s[sc->i] == '\\')
          sc->i++;
        else if (s[sc->i] == '\n') {
          sc->line++;
          sc->line_start = sc->i + 1;
        }
      sc->i++;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      sc->top++;
      sc->run[sc->top] = 0;
      reach(sc, ++sc->depth);
      sc->i++;
    } else if (c == '>' && next == '=') {
      separator(sc); /* an affine constraint's >= */
      sc->i += 2;
    } else if (c == ')' || c == ']' || c == '}' || c == '>') {
      if (sc->top > 0) {
        sc->depth -= 1 + sc->run[sc->top];
        sc->top--;
      }
      sc->i++;
    } else if (c == '-' && next == '>') {
      separator(sc);
      sc->i += 2;
    } else if (c == '-' || c == '+' || c == '*') {
      operator(sc);
      sc->i++;
    } else if (c == ',' || c == '=' || c == ':') {
      separator(sc);
      sc->i++;
    } else if (c >= '0' && c <= '9') {
      /* a number, with the sign of an exponent (1.0e-5) */
      for (sc->i++; sc->i < n; sc->i++) {
        char d = s[sc->i];
        if ((d == '-' || d == '+') && (s[sc->i - 1] == 'e' || s[sc->i - 1] == 'E'))
          continue;
        if (!is_id(d))
          break;
      }
    } else if (is_id(c)) {
      size_t start = sc->i;
      while (sc->i < n && is_id(s[sc->i]))
        sc->i++;
      size_t len = sc->i - start;
      if ((len == 8 && !memcmp(s + start, "floordiv", 8)) ||
          (len == 7 && !memcmp(s + start, "ceildiv", 7)) ||
          (len == 3 && !memcmp(s + start, "mod", 3)))
        operator(sc);
    } else if (c == '%' || c == '^' || c == '@' || c == '#' || c == '!') {
      size_t start = sc->i++;
      if (sc->i < n && s[sc->i] == '"')
        continue; /* a quoted name: the string is skipped next */
      while (sc->i < n && (is_id(s[sc->i]) || s[sc->i] == '-'))
        sc->i++;
      if (c != '#' && c != '!')
        continue;
      size_t len = sc->i - start, j = sc->i;
      while (j < n && (s[j] == ' ' || s[j] == '\t'))
        j++;
      if (sc->top == 0 && len > 1 && j < n && s[j] == '=' && (j + 1 >= n || s[j + 1] != '=')) {
        end_definition(sc);
        sc->def = s + start;
        sc->def_len = len;
        sc->def_max = 0;
        sc->def_started = false;
        sc->i = j + 1;
      } else {
        int d = alias_get(&sc->aliases, s + start, len);
        if (d) {
          sc->i = start; /* the error points at the reference */
          reach(sc, sc->depth + d);
          sc->i = start + len;
        }
      }
    } else
      sc->i++;
  }
  end_definition(sc);
}

MlirLogicalResult rematCheckNesting(MlirContext ctx, MlirStringRef source, MlirStringRef name) {
  scan *sc = xcalloc(1, sizeof *sc);
  sc->s = source.data;
  sc->n = source.length;
  sc->line = 1;
  run_scan(sc);
  free(sc->aliases.slots);
  int line = sc->bad_line, col = sc->bad_col;
  free(sc);
  if (!line)
    return mlirLogicalResultSuccess();
  char msg[160];
  snprintf(msg, sizeof msg,
           "nesting deeper than %d levels (brackets, expression operators and aliases "
           "count; see docs/design.md)",
           REMAT_MAX_NESTING);
  mlirEmitError(mlirLocationFileLineColGet(ctx, name, (unsigned)line, (unsigned)col), msg);
  return mlirLogicalResultFailure();
}

/* ---- reading and parsing a file ------------------------------------------------------ */

MlirModule rematParseFile(MlirContext ctx, const char *path) {
  bool is_stdin = !strcmp(path, "-");
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  char msg[512];
  size_t len = 0;
  char *text = f ? remat_read_all(f, &len) : NULL;
  if (!text) {
    snprintf(msg, sizeof msg, "could not %s input file '%s': %s", f ? "read" : "open", path,
             strerror(errno));
    mlirEmitError(mlirLocationUnknownGet(ctx), msg);
  }
  if (f && !is_stdin)
    fclose(f);
  if (!text)
    return (MlirModule){NULL};
  MlirModule m = {NULL};
  if (mlirLogicalResultIsSuccess(rematCheckNesting(ctx, mlirStringRefCreate(text, len),
                                                   mlirStringRefCreateFromCString(path))))
    /* A file is parsed by name, so locations carry it; stdin from the text ("-"). */
    m = is_stdin ? mlirModuleCreateParse(ctx, mlirStringRefCreate(text, len))
                 : mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(path));
  free(text);
  return m;
}
