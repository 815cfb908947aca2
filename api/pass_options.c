/* pass_options.c: the textual option syntax shared by remat-opt, the C API and the
 * mlir-opt plugin ("scalar-factor=0.1,params-free=false" or space-separated), and the
 * lookup of passes by argument. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remat-c/Remat.h"
#include "passes.h"
#include "support.h"

static const RematOptionInfo *find_option(const RematPassInfo *p, const char *name) {
  for (int i = 0; i < p->num_options; i++)
    if (!strcmp(p->options[i].name, name))
      return &p->options[i];
  return NULL;
}

static bool is_separator(char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n'; }

/* Splits the next item of TEXT at *pos into NAME (NULL for a bare item) and VALUE, in
 * place. 1: an item; 0: the end; -1: an unterminated quote (a message added to *err). */
static int next_item(char *text, size_t *pos, char **name, char **value, char **err) {
  size_t i = *pos;
  while (text[i] && is_separator(text[i]))
    i++;
  if (!text[i])
    return 0;
  char *start = text + i;
  while (text[i] && !is_separator(text[i]) && text[i] != '=')
    i++;
  if (text[i] != '=') { /* a bare item: continues a list */
    if (text[i])
      text[i++] = 0;
    *name = NULL, *value = start, *pos = i;
    return 1;
  }
  text[i++] = 0;
  *name = start;
  if (text[i] == '"') {
    char *close = strchr(text + i + 1, '"');
    if (!close) {
      remat_error_add(err, "unterminated quote in the value of option '%s'", start);
      return -1;
    }
    *value = text + i + 1;
    *close = 0;
    i = (size_t)(close - text) + 1;
    if (text[i] && !is_separator(text[i])) {
      remat_error_add(err, "expected ',' after the quoted value of option '%s'", start);
      return -1;
    }
  } else {
    *value = text + i;
    while (text[i] && !is_separator(text[i]))
      i++;
  }
  if (text[i])
    text[i++] = 0;
  *pos = i;
  return 1;
}

int rematParsePassOptions(const RematPassInfo *pass, const char *text, void *opts, char *err,
                          size_t cap) {
  char *buf = xstrdup(text ? text : "");
  const RematOptionInfo *last = NULL; /* the string option a bare item continues */
  size_t pos = 0;
  char *name, *value, *msg = NULL; /* copied into err[cap], the public API's buffer */
  int rc = 0, more;
  while (rc == 0 && (more = next_item(buf, &pos, &name, &value, &msg)) != 0) {
    if (more < 0) {
      rc = -1;
      break;
    }
    if (!name) {
      char *field = last ? (char *)opts + last->offset : NULL;
      if (!field || strlen(field) + 1 + strlen(value) >= REMAT_OPTION_STRING_MAX) {
        remat_error_add(&msg, "expected 'name=value' for pass '%s', got '%s'", pass->argument,
                        value);
        rc = -1;
        break;
      }
      strcat(strcat(field, ","), value);
      continue;
    }
    const RematOptionInfo *o = find_option(pass, name);
    if (!o) {
      remat_error_add(&msg, "unknown option '%s' for pass '%s'", name, pass->argument);
      rc = -1;
      break;
    }
    rc = remat_option_set(o, opts, value, &msg);
    last = o->type == REMAT_OPTION_STRING || o->type == REMAT_OPTION_FILE ? o : NULL;
  }
  free(buf);
  remat_error_copy(msg, err, cap);
  if (rc == 0 && pass->check_options)
    rc = pass->check_options(opts, err, cap) ? -1 : 0;
  return rc;
}

MlirPass rematCreatePassFromOptions(const RematPassInfo *p, const void *opts, char *err,
                                    size_t cap) {
  MlirPass none = {NULL};
  if (p->check_options && p->check_options(opts, err, cap))
    return none;
  return p->create(opts);
}

MlirPass rematCreatePass(const char *argument, const char *options, char *err, size_t cap) {
  MlirPass none = {NULL};
  const RematPassInfo *p = rematLookupPass(argument);
  if (!p) {
    snprintf(err, cap, "unknown pass '%s'", argument);
    return none;
  }
  void *opts = xcalloc(1, p->options_size);
  p->init_options(opts);
  /* rematParsePassOptions has run check_options already. */
  MlirPass pass = none;
  if (rematParsePassOptions(p, options, opts, err, cap) == 0)
    pass = p->create(opts);
  free(opts);
  return pass;
}
