/* pass_info.c: what a pass's registry entry needs of its own layer (passes.h): the one
 * wrapper of mlirCreateExternalPass that builds every pass, and the option values, set
 * from their text (the defaults of the option lists, and the textual syntax that
 * api/pass_options.c parses). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "rt.h"
#include "support.h"

/* ---- the external pass: state copied per clone -------------------------------------- */

typedef struct pass_state {
  remat_pass_run run;
  size_t size;
  _Alignas(max_align_t) unsigned char data[];
} pass_state;

static pass_state *state_new(remat_pass_run run, const void *data, size_t size) {
  pass_state *s = xmalloc(sizeof *s + size);
  s->run = run;
  s->size = size;
  if (size)
    memcpy(s->data, data, size);
  return s;
}

static void construct(void *ud) { (void)ud; }
static void destruct(void *ud) { free(ud); }

static void *clone(void *ud) {
  const pass_state *s = ud;
  return state_new(s->run, s->data, s->size);
}

static void run(MlirOperation module, MlirExternalPass pass, void *ud) {
  pass_state *s = ud;
  s->run(module, pass, s->data);
}

MlirPass remat_pass_create(const RematPassInfo *info, const char *name, remat_pass_run fn,
                           const void *state, size_t size) {
  MlirExternalPassCallbacks cb = {construct, destruct, NULL, clone, run};
  /* The registry entry is a static object: its address is the pass's TypeID (aligned as
   * mlirTypeIDCreate requires, since the entry holds pointers). */
  return mlirCreateExternalPass(
      mlirTypeIDCreate(info), mlirStringRefCreateFromCString(name),
      mlirStringRefCreateFromCString(info->argument), mlirStringRefCreateFromCString(info->summary),
      mlirStringRefCreateFromCString("builtin.module"), 0, NULL, cb, state_new(fn, state, size));
}

/* ---- option values ------------------------------------------------------------------ */

int remat_option_set(const RematOptionInfo *o, void *opts, const char *v, char **err) {
  char *field = (char *)opts + o->offset, *end;
  errno = 0;
  switch (o->type) {
  case REMAT_OPTION_BOOL:
    if (!strcmp(v, "true") || !strcmp(v, "1"))
      *(bool *)field = true;
    else if (!strcmp(v, "false") || !strcmp(v, "0"))
      *(bool *)field = false;
    else
      goto bad;
    return 0;
  case REMAT_OPTION_INT: {
    long long x = strtoll(v, &end, 10);
    if (!remat_is_decimal(v, false) || *end || errno)
      goto bad;
    *(int64_t *)field = x;
    return 0;
  }
  case REMAT_OPTION_DOUBLE: {
    double x = strtod(v, &end);
    if (!remat_is_decimal(v, true) || *end || errno || !isfinite(x))
      goto bad;
    *(double *)field = x;
    return 0;
  }
  case REMAT_OPTION_FILE:
    /* report=1 or report=true means "a report" to whoever wrote it, not a file "1"; a
     * file name is then stored as a string */
    if (remat_is_decimal(v, true) || !strcmp(v, "true") || !strcmp(v, "false")) {
      remat_error_add(err,
                      "option '%s' expects a file name%s, got '%s' (write ./%s for a file "
                      "of that name)",
                      o->name, strstr(o->help, "- for stderr") ? " or - for stderr" : "", v, v);
      return -1;
    }
    /* fall through */
  case REMAT_OPTION_STRING:
    if (strlen(v) >= REMAT_OPTION_STRING_MAX) {
      remat_error_add(err, "value of option '%s' is too long", o->name);
      return -1;
    }
    strcpy(field, v);
    return 0;
  }
bad:
  remat_error_add(err, "invalid value '%s' for option '%s'", v, o->name);
  return -1;
}

void remat_options_set_defaults(const RematPassInfo *p, void *opts) {
  char *err = NULL;
  memset(opts, 0, p->options_size);
  for (int i = 0; i < p->num_options; i++)
    if (remat_option_set(&p->options[i], opts, p->options[i].default_value, &err))
      remat_fatal("default of '%s' of pass '%s': %s", p->options[i].name, p->argument, err);
}

typedef struct funcs_walk {
  bool (*want)(MlirOperation func);
  remat_func_list list;
} funcs_walk;

static MlirWalkResult collect_func(MlirOperation op, void *ud) {
  funcs_walk *w = ud;
  if (!rt_op_named(op, "func.func"))
    return MlirWalkResultAdvance;
  if (w->want(op)) {
    XGROW(w->list.items, w->list.n, w->list.cap, 8);
    w->list.items[w->list.n++] = op;
  }
  return MlirWalkResultSkip;
}

remat_func_list remat_pass_funcs(MlirOperation module, bool (*want)(MlirOperation func)) {
  funcs_walk w = {want, {0}};
  mlirOperationWalk(module, collect_func, &w, MlirWalkPreOrder);
  return w.list;
}
