#!/bin/sh
# peak_order.sh: the peak of each split as the report estimates it and as remat-run
# measures it, for @f_bwd in the order remat emits it (recomputation just in time) and
# in the order it emitted before issue 28 (every recomputed op first: the same split
# reordered by test/runtime/Inputs/recompute_first.py), on the examples and the zoo.
#
# Usage: bench/peak_order.sh [WORKDIR]   (from the repository root, after make build;
#   the zoo models need /usr/bin/python3 with torch)
# Environment: MODELS="mlp:2 gpt:1 llama:1 gpt:8" (zoo name:layers).
set -eu
work=${1:-/tmp/peak_order}
mkdir -p "$work"
B=build/bin
MODELS=${MODELS-"mlp:2 gpt:1 llama:1 gpt:8"}
echo "| graph | no remat (estimate) | this split (estimate) | measured, emitted order | measured, recompute first | recompute all (estimate) |"
echo "|---|---:|---:|---:|---:|---:|"
row() { # NAME FILE
  name=$1 f=$2
  $B/remat-opt "$f" --remat-mincut --report="$work/r.txt" -o "$work/s.mlir"
  python3 test/runtime/Inputs/recompute_first.py "$work/s.mlir" >"$work/first.mlir"
  for fn in $(sed -n 's/^remat-mincut: @\([^ ]*\) ->.*/\1/p' "$work/r.txt"); do
    nr=$(awk -v fn="@$fn" '/^remat-mincut: @/ {cur = $2} cur == fn && /^    no remat/ {print $3}' "$work/r.txt")
    sp=$(awk -v fn="@$fn" '/^remat-mincut: @/ {cur = $2} cur == fn && /^    this split/ {print $3}' "$work/r.txt")
    ra=$(awk -v fn="@$fn" '/^remat-mincut: @/ {cur = $2} cur == fn && /^    recompute all/ {print $3}' "$work/r.txt")
    m1=$($B/remat-run "$f" --check-split "$fn" --split "$work/s.mlir" --peak --reference --quiet |
         sed -n 's/.*measured peak @[^:]*: split \([0-9]*\).*/\1/p')
    m2=$($B/remat-run "$f" --check-split "$fn" --split "$work/first.mlir" --peak --reference --quiet |
         sed -n 's/.*measured peak @[^:]*: split \([0-9]*\).*/\1/p')
    echo "| $name @$fn | $nr | $sp | $m1 | $m2 | $ra |"
  done
}
row examples/dropout.mlir examples/dropout.mlir
row examples/gpt-joint.mlir examples/gpt-joint.mlir
for m in $MODELS; do
  name=${m%%:*} layers=${m##*:}
  [ -s "$work/$name-$layers.mlir" ] ||
    /usr/bin/python3 tools/remat-import-torch "$name" --layers "$layers" -o "$work/$name-$layers.mlir"
  row "zoo $name, $layers layers" "$work/$name-$layers.mlir"
done
