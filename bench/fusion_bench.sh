#!/bin/sh
# Fusion before/after on the transformer models of bench/models: each model (2 layers)
# is imported from PyTorch and run through
#   remat-opt --remat-checkpoint=ac=auto --remat-mincut --remat-fuse --report=...
# whose report gives, for the same blocks in the same run, the unfused baseline (every op
# its own kernel), the previous grouping (grouping=shape) and this one; then the fused
# split is checked against the joint function and compiled against reference.
# usage: bench/fusion_bench.sh [BUILD_DIR [SPEC...]]
#   SPEC: MODEL or MODEL:key=value,key=value (importer --set sizes), e.g.
#   llama:batch=4,seq=32,d=64,heads=4,hidden=176. Default: both models at the importer's
#   default sizes and at the bench sizes.
set -e
build=${1:-build}
[ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- gpt llama gpt:batch=4,seq=32,d=64,heads=4 \
  llama:batch=4,seq=32,d=64,heads=4,hidden=176
out=$(mktemp -d)
printf '| model | sizes | rt ops | grouping | kernels | single-op | view-only | row | host reductions | launches + host reductions | traffic bytes | checked |\n'
printf '|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|---|\n'
for spec in "$@"; do
  model=${spec%%:*}
  sz=default
  case "$spec" in *:*) sz=${spec#*:};; esac
  name=$(echo "$spec" | tr ':,=' '_._')
  sets=""
  if [ "$sz" != default ]; then
    for kv in $(echo "$sz" | tr ',' ' '); do sets="$sets --set $kv"; done
  fi
  # shellcheck disable=SC2086
  "$root/tools/remat-import-torch" "$model" --layers 2 $sets -o "$out/$name.mlir"
  ops=$(grep -c '"rt\.' "$out/$name.mlir")
  "$build/bin/remat-opt" --remat-checkpoint=ac=auto --remat-mincut --remat-fuse \
    --report="$out/$name.report" "$out/$name.mlir" -o "$out/$name.fused.mlir"
  split=$("$build/bin/remat-run" "$out/$name.mlir" --check-split "$model" \
    --split "$out/$name.fused.mlir" --seed 1 --quiet | tail -1)
  same=$("$build/bin/remat-run" "$out/$name.fused.mlir" --check-compiled-all --seed 2 | tail -1)
  ok=FAIL
  case "$split" in ok:*) case "$same" in ok:*) ok="split, compiled bit-exact";; esac;; esac
  /usr/bin/python3 - "$out/$name.report" "$model" "$sz" "$ops" "$ok" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
b = text[text.rindex("remat-fuse: all functions"):]
rows = {}
for label in ("unfused (op/kernel)", "previous (shape)", "this"):
    m = re.search(re.escape(label) + r"\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", b)
    k, row, single, views, hred, kb, tb = (int(x) for x in m.groups())
    rows[label] = (k, single, views, row, hred, k + hred, tb)
model, sz, ops, ok = sys.argv[2:6]
p, t = rows["previous (shape)"], rows["this"]
for label, name in (("unfused (op/kernel)", "unfused"), ("previous (shape)", "previous"),
                    ("this", "this")):
    r = rows[label]
    cells = [str(x) for x in r]
    if label == "this":
        cells[5] += " (%.1f%%)" % (100.0 * r[5] / p[5])
        cells[6] += " (%.1f%%)" % (100.0 * r[6] / p[6])
    first = [model, sz, ops] if name == "unfused" else ["", "", ""]
    print("| " + " | ".join(first + [name] + cells + [ok if name == "this" else ""]) + " |")
PY
done
echo
echo "reports: $out"
