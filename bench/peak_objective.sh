#!/bin/sh
# peak_objective.sh: --remat-mincut=objective=peak against objective=bytes, no remat,
# recompute all and torch 1.13's partition, all on remat's estimator (the backward in the
# order remat emits), on the zoo's GPT, Llama, BERT and ViT models, with the lower bound
# on the least peak and the chosen split's gap above it (the report's `bound B, gap G%`).
#
# Each cell is "peak bytes / recompute cost" (cost = bytes moved by the recomputed ops +
# their matmul FLOPs / 128, docs/design.md "Splits chosen for the peak"). torch's
# partition: functorch's min_cut_rematerialization_partition of the same joint graph
# (remat-import-torch --partition), replayed by bench/torch_split.py as rt.policy tags, so
# that remat emits exactly torch's saved set with its backward just in time. "measured":
# remat-run --check-split --peak --reference on the objective=peak split as emitted (and
# bit-exact against the joint function). objective=peak's peak is of the split as emitted
# (just in time, or the list schedule where it peaks lower: "emitted order"). Pass times:
# the report's "time" of each run.
#
# Usage: bench/peak_objective.sh [WORKDIR]   (from the repository root, after make build;
#   needs /usr/bin/python3 with torch 1.13)
# Environment: MODELS="gpt:1 gpt:8 llama:1 llama:8 bert:1 bert:8 vit:1 vit:8" (zoo name:layers),
#   MEASURE=0 skips remat-run, BIN=DIR takes remat-opt and remat-run from DIR (build/bin).
set -eu
work=${1:-/tmp/peak_objective}
mkdir -p "$work"
B=${BIN-build/bin}
MODELS=${MODELS-"gpt:1 gpt:8 llama:1 llama:8 bert:1 bert:8 vit:1 vit:8"}
MEASURE=${MEASURE-1}
# the row of REPORT named NAME in the objective-peak block: "peak / cost"
cell() { awk -v n="$2" '$0 ~ "^    " n " +[0-9]" {print $(NF-1) " / " $NF; exit}' "$1"; }
ms() { sed -n 's/^  time: \([0-9.]*\) ms.*/\1/p' "$1" | head -1; }
echo "| model | layers | objective=peak | emitted order | bound, gap | objective=bytes | no remat | recompute all | torch 1.13, just in time | measured (emitted) | search | pass ms peak / bytes |"
echo "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---:|"
for m in $MODELS; do
  name=${m%%:*} layers=${m##*:} base="$work/$name-$layers"
  [ -s "$base.json" ] ||
    /usr/bin/python3 tools/remat-import-torch "$name" --layers "$layers" -o "$base.mlir" \
      --partition "$base.json" --partition-runs 1 >/dev/null
  $B/remat-opt "$base.mlir" --remat-mincut=objective=peak --report="$base.peak.txt" -o "$base.peak.mlir"
  $B/remat-opt "$base.mlir" --remat-mincut --report="$base.bytes.txt" -o /dev/null
  python3 bench/torch_split.py "$base.mlir" "$base.json" >"$base.torch.mlir"
  $B/remat-opt "$base.torch.mlir" --remat-mincut --report="$base.torch.txt" -o /dev/null
  tp=$(awk '/^    this split/ {print $3; exit}' "$base.torch.txt")
  tc=$(awk '/^  recompute cost \(this split\)/ {gsub(",", ""); print $7 + $10 / 128; exit}' "$base.torch.txt")
  order=$(sed -n 's/^  emitted order: \([a-z ]*\) (.*/\1/p' "$base.peak.txt")
  bound=$(sed -n 's/^  bound \([0-9]*\), gap \([0-9.-]*%*\).*/\1, \2/p' "$base.peak.txt")
  search=$(sed -n 's/^  objective peak: \([^,]*\), \([0-9]*\) candidate values, \([0-9]*\) splits.*/\1, \2 candidates, \3 splits/p' "$base.peak.txt")
  meas=-
  if [ "$MEASURE" = 1 ]; then
    meas=$($B/remat-run "$base.mlir" --check-split "$name" --split "$base.peak.mlir" --peak --reference --quiet |
           sed -n 's/.*measured peak @[^:]*: split \([0-9]*\).*/\1/p')
  fi
  echo "| $name | $layers | $(cell "$base.peak.txt" chosen) | $order | $bound | $(cell "$base.peak.txt" objective=bytes) | $(cell "$base.peak.txt" 'no remat') | $(cell "$base.peak.txt" 'recompute all') | $tp / $tc | $meas | $search | $(ms "$base.peak.txt") / $(ms "$base.bytes.txt") |"
done
