/* cli.c: the tools' shared option syntax (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *cli_prog = "remat";

bool cli_value(int argc, char **argv, int *i, const char *name, const char **value) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (strncmp(a, name, n))
    return false;
  bool is_short = name[1] != '-';
  if (a[n] == 0) {
    if (*i + 1 >= argc) {
      fprintf(stderr, "%s: error: option '%s' needs a value\n", cli_prog, name);
      exit(1);
    }
    *value = argv[++*i];
  } else if (a[n] == '=' && !is_short)
    *value = a + n + 1;
  else if (is_short)
    *value = a + n;
  else
    return false; /* a longer name: --fn is not --fnx */
  if (!**value) {
    fprintf(stderr, "%s: error: option '%s' needs a value\n", cli_prog, name);
    exit(1);
  }
  return true;
}

bool cli_flag(const char *arg, const char *name) {
  size_t n = strlen(name);
  if (strncmp(arg, name, n) || (arg[n] && arg[n] != '='))
    return false;
  if (arg[n] == '=') {
    fprintf(stderr, "%s: error: option '%s' takes no value\n", cli_prog, name);
    exit(1);
  }
  return true;
}

bool cli_u64(const char *s, unsigned long long *v) {
  unsigned long long x = 0;
  if (!*s)
    return false;
  for (; *s; s++) {
    if (*s < '0' || *s > '9')
      return false;
    unsigned d = (unsigned)(*s - '0');
    if (x > (~0ull - d) / 10)
      return false;
    x = 10 * x + d;
  }
  *v = x;
  return true;
}

void cli_check_cache_dir(const char *dir, const char *what) {
  struct stat st;
  if (!dir || !*dir)
    return;
  if (stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return;
    fprintf(stderr, "%s: error: %s '%s' is not a directory\n", cli_prog, what, dir);
  } else if (errno == ENOENT) /* created at the first entry stored */
    return;
  else
    fprintf(stderr, "%s: error: %s '%s': %s\n", cli_prog, what, dir, strerror(errno));
  exit(1);
}
