#!/bin/sh
# format.sh [--check]: formats remat's C sources with clang-format and the repository's
# .clang-format. With --check it changes nothing: it lists the files that formatting would
# change and exits 1 when there is one.
#
# The files: *.c and *.h under dialect-c lib passes api tools test/unit test/fuzz include. Not
# the .def tables (X-macro rows laid out as columns by hand), not bench/ or examples/, not
# the build directories' generated files.
# Environment: CLANG_FORMAT (default clang-format; the style was tuned with version 14).
set -eu
cd "$(dirname "$0")/.."
check=0
case ${1-} in
  --check) check=1 ;;
  '') ;;
  *) echo "usage: tools/format.sh [--check]" >&2; exit 2 ;;
esac
cf=${CLANG_FORMAT:-clang-format}
command -v "$cf" >/dev/null || { echo "format.sh: $cf not found (apt-get install clang-format)" >&2; exit 2; }
files=$(find dialect-c lib passes api tools test/unit test/fuzz include -name '*.[ch]' | LC_ALL=C sort)
if [ $check = 0 ]; then
  # $files is split on white space: no source file name in the tree has any
  # shellcheck disable=SC2086
  "$cf" -i --style=file $files
  exit 0
fi
# One clang-format for all files (one process per file took 14 s): --dry-run warns at
# each place that formatting would change; the files named in its warnings are listed.
# shellcheck disable=SC2086
out=$("$cf" --style=file --dry-run $files 2>&1) || { printf '%s\n' "$out" >&2; exit 2; }
changed=$(printf '%s\n' "$out" | sed -n 's/^\(.*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | LC_ALL=C sort -u)
[ -z "$changed" ] && exit 0
printf '%s\n' "$changed"
exit 1
