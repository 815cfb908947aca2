#!/bin/sh
# load_bench.sh: the min-cut's load time (the report's "load" phase: reading the joint
# function into arrays, rt_graph_load since issue 27) and its split time, for two builds
# of remat-opt run alternately in one session on the same inputs.
#
# Usage: bench/load_bench.sh BEFORE_REMAT_OPT AFTER_REMAT_OPT [WORKDIR]
# Environment: SMALL="examples/dropout.mlir ..." (runs R_SMALL=21 times each), CHAINS="10000
#   100000 1000000" (bench/gen_chain.py sizes; R_CHAIN=5 runs, R_BIG=3 at 10^6).
# Prints per input and build: the median load ms and the median split ms over the runs.
set -u
before=$1
after=$2
work=${3:-/tmp/load_bench}
mkdir -p "$work"
SMALL=${SMALL-"examples/dropout.mlir test/mincut/residual.mlir examples/gpt-joint.mlir"}
CHAINS=${CHAINS-"10000 100000 1000000"}
for n in $CHAINS; do
  [ -s "$work/chain-$n.mlir" ] || python3 bench/gen_chain.py "$n" >"$work/chain-$n.mlir"
done
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# $1: binary, $2: input; prints "load split" of one run (the sum over the file's functions)
one() {
  "$1" --remat-mincut=report=- "$2" -o /dev/null 2>&1 >/dev/null |
    sed -n 's/^  time: \([0-9.]*\) ms (load \([0-9.]*\),.*/\2 \1/p' |
    awk '{ l += $1; s += $2 } END { printf "%.3f %.3f\n", l, s }'
}
printf '%-28s %8s %14s %14s %14s %14s\n' input runs load-before load-after split-before split-after
for f in $SMALL $(for n in $CHAINS; do echo "$work/chain-$n.mlir"; done); do
  r=${R_SMALL:-21}
  case $f in *chain-1000000*) r=${R_BIG:-3} ;; *chain-*) r=${R_CHAIN:-5} ;; esac
  : >"$work/b" && : >"$work/a"
  i=0
  while [ $i -lt "$r" ]; do
    one "$before" "$f" >>"$work/b"
    one "$after" "$f" >>"$work/a"
    i=$((i + 1))
  done
  printf '%-28s %8s %14s %14s %14s %14s\n' "$(basename "$f")" "$r" \
    "$(cut -d' ' -f1 "$work/b" | median)" "$(cut -d' ' -f1 "$work/a" | median)" \
    "$(cut -d' ' -f2 "$work/b" | median)" "$(cut -d' ' -f2 "$work/a" | median)"
done
