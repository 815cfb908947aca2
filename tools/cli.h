/* cli.h: the command-line syntax of remat-opt, remat-translate, remat-run and remat-gen, as
 * getopt_long's users expect it (docs/design.md, "Tools"):
 *   - a long option that takes a value accepts `--name=VALUE` and `--name VALUE`; a
 *     short one `-o VALUE` and `-oVALUE`; an empty value is an error;
 *   - an option without a value refuses `--name=VALUE`;
 *   - numbers are decimal: no sign, no `0x`, no leading zeros read as octal.
 * The helpers print "PROG: error: ..." (PROG: cli_prog, set by the tool's main) and exit 1
 * on a malformed option: nothing is allocated yet when a tool reads its command line. */
#ifndef REMAT_TOOLS_CLI_H
#define REMAT_TOOLS_CLI_H

#include <stdbool.h>

extern const char *cli_prog;

/* Whether argv[*i] is option NAME ("--fn", or a short "-o") given a value: sets *value to
 * the text after `=` (or, for a short option, after the letter) or to the next argument,
 * which is consumed (*i advances). Exits 1 when the value is missing or empty. */
bool cli_value(int argc, char **argv, int *i, const char *name, const char **value);

/* Whether ARG is the option NAME, which takes no value. Exits 1 on `NAME=...`. */
bool cli_flag(const char *arg, const char *name);

/* A decimal number without sign: true and *v set, or false (empty, another character,
 * above 2^64 - 1). */
bool cli_u64(const char *s, unsigned long long *v);

/* Exits 1 unless DIR (--cache-dir or $REMAT_CACHE_DIR, named WHAT in the message) is a
 * directory or does not exist yet (the cache creates it): a file there would leave every
 * run silently uncached. */
void cli_check_cache_dir(const char *dir, const char *what);

#endif
