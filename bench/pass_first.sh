#!/bin/sh
# pass_first.sh BUILD N FILE...: the first --remat-mincut call in a process, against the
# split's own time in a first call, as `remat-opt --remat-mincut --timing` meets them on
# one file: medians over N fresh processes each (bench/pass_bench.c --first=pass|split,
# one thread as remat-opt). The first call pays lazy binding of libMLIR's symbols and
# first touches of code, in the split as well as around it. Asserts nothing.
set -eu
build=${1:?usage: pass_first.sh BUILD N FILE...}
n=${2:?usage: pass_first.sh BUILD N FILE...}
shift 2
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf '%-28s %12s %12s %8s\n' file 'pass ms' 'split ms' ratio
for f in "$@"; do
  for mode in pass split; do
    i=0
    while [ "$i" -lt "$n" ]; do
      "$build/bench/pass_bench" --no-threads --first=$mode "$f"
      i=$((i + 1))
    done | median > "${TMPDIR:-/tmp}/pass_first.$mode"
  done
  p=$(cat "${TMPDIR:-/tmp}/pass_first.pass") s=$(cat "${TMPDIR:-/tmp}/pass_first.split")
  printf '%-28s %12.3f %12.3f %8.2f\n' "$(basename "$f")" "$p" "$s" "$(echo "$p $s" | awk '{print $1 / $2}')"
done
rm -f "${TMPDIR:-/tmp}/pass_first.pass" "${TMPDIR:-/tmp}/pass_first.split"
