#!/bin/sh
# mincut_bench.sh [BUILD]: times remat-opt --remat-mincut on generated joint chains of
# 10^4, 3x10^4, 10^5 and 3x10^5 ops (bench/gen_chain.py), best of 3 runs each.
# Prints one line per size: ops, the pass's wall time from --timing, the split's own time
# and the max-flow time from the report, and the saved bytes against the no-remat baseline.
set -eu
BUILD=${1:-build}
OPT="$BUILD/bin/remat-opt"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
printf '%8s %8s %12s %12s %12s  %s\n' ops in-func pass-ms split-ms maxflow-ms saved/baseline
for n in 10000 30000 100000 300000; do
  python3 "$(dirname "$0")/gen_chain.py" "$n" > "$DIR/chain.mlir"
  ops=$(grep -c ' = ' "$DIR/chain.mlir")
  best=""
  for run in 1 2 3; do
    "$OPT" --remat-mincut --timing --remat-report "$DIR/chain.mlir" -o /dev/null 2> "$DIR/log"
    pass=$(awk '/RematMincut/ { printf "%.1f", $1 * 1000 }' "$DIR/log")
    split=$(sed -n 's/^  time: \([0-9.]*\) ms .*max-flow \([0-9.]*\),.*/\1/p' "$DIR/log")
    flow=$(sed -n 's/^  time: \([0-9.]*\) ms .*max-flow \([0-9.]*\),.*/\2/p' "$DIR/log")
    saved=$(sed -n 's/^  saved bytes: \([0-9]*\) (rt.param: [0-9]*; no-remat baseline: \([0-9]*\).*/\1\/\2/p' "$DIR/log")
    if [ -z "$best" ] || awk "BEGIN { exit !($pass < $best) }"; then
      best=$pass bsplit=$split bflow=$flow
    fi
  done
  printf '%8s %8s %12s %12s %12s  %s\n' "$n" "$ops" "$best" "$bsplit" "$bflow" "$saved"
done
