/* pass_options.c: the textual option syntax shared by remat-opt, the C API and the
 * mlir-opt plugin ("scalar-factor=0.1,params-free=false" or space-separated), and the
 * lookup of passes by argument. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remat-c/Remat.h"
#include "support.h"

static int set_value(const RematOptionInfo *o, void *opts, const char *v, char *err,
                     size_t cap) {
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
    long long x = strtoll(v, &end, 0);
    if (!*v || *end || errno)
      goto bad;
    *(int64_t *)field = x;
    return 0;
  }
  case REMAT_OPTION_DOUBLE: {
    double x = strtod(v, &end);
    if (!*v || *end || errno || !isfinite(x))
      goto bad;
    *(double *)field = x;
    return 0;
  }
  case REMAT_OPTION_STRING:
    if (strlen(v) >= REMAT_OPTION_STRING_MAX) {
      snprintf(err, cap, "value of option '%s' is too long", o->name);
      return -1;
    }
    strcpy(field, v);
    return 0;
  }
bad:
  snprintf(err, cap, "invalid value '%s' for option '%s'", v, o->name);
  return -1;
}

static const RematOptionInfo *find_option(const RematPassInfo *p, const char *name) {
  for (int i = 0; i < p->num_options; i++)
    if (!strcmp(p->options[i].name, name))
      return &p->options[i];
  return NULL;
}

int rematParsePassOptions(const RematPassInfo *pass, const char *text, void *opts,
                          char *err, size_t cap) {
  if (!text)
    text = "";
  char *buf = xstrdup(text);
  const RematOptionInfo *last = NULL; /* the string option a bare item continues */
  int rc = 0;
  for (char *save = NULL, *item = strtok_r(buf, ", \t\n", &save); item && rc == 0;
       item = strtok_r(NULL, ", \t\n", &save)) {
    char *eq = strchr(item, '=');
    if (!eq) {
      char *field = last ? (char *)opts + last->offset : NULL;
      if (!field || strlen(field) + 1 + strlen(item) >= REMAT_OPTION_STRING_MAX) {
        snprintf(err, cap, "expected 'name=value' for pass '%s', got '%s'", pass->argument,
                 item);
        rc = -1;
        break;
      }
      strcat(strcat(field, ","), item);
      continue;
    }
    *eq = 0;
    const RematOptionInfo *o = find_option(pass, item);
    if (!o) {
      snprintf(err, cap, "unknown option '%s' for pass '%s'", item, pass->argument);
      rc = -1;
      break;
    }
    rc = set_value(o, opts, eq + 1, err, cap);
    last = o->type == REMAT_OPTION_STRING ? o : NULL;
  }
  free(buf);
  if (rc == 0 && pass->check_options)
    rc = pass->check_options(opts, err, cap) ? -1 : 0;
  return rc;
}

MlirPass rematCreatePassFromOptions(const RematPassInfo *p, const void *opts, char *err,
                                    size_t cap) {
  MlirPass none = {NULL};
  if (!p->create) {
    snprintf(err, cap, "pass '%s' is not implemented yet", p->argument);
    return none;
  }
  if (p->check_options && p->check_options(opts, err, cap))
    return none;
  return p->create(opts);
}

MlirPass rematCreatePass(const char *argument, const char *options, char *err,
                         size_t cap) {
  MlirPass none = {NULL};
  const RematPassInfo *p = rematLookupPass(argument);
  if (!p) {
    snprintf(err, cap, "unknown pass '%s'", argument);
    return none;
  }
  if (!p->create) {
    snprintf(err, cap, "pass '%s' is not implemented yet", argument);
    return none;
  }
  /* Options structs are small plain values: one aligned buffer fits any of them. */
  _Alignas(max_align_t) unsigned char opts[4096];
  if (p->options_size > sizeof opts)
    remat_fatal("the options of '%s' outgrew the buffer", argument);
  p->init_options(opts);
  /* rematParsePassOptions has run check_options already. */
  if (rematParsePassOptions(p, options, opts, err, cap))
    return none;
  return p->create(opts);
}
