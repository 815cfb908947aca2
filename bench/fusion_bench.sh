#!/bin/sh
# Fusion before/after on the transformer models of bench/models: each model (2 layers)
# is imported from PyTorch and run through
#   remat-opt --remat-checkpoint=ac=auto --remat-mincut --remat-fuse --report=...
# whose report gives, for the same blocks in the same run, the unfused baseline (every op
# its own kernel), the previous grouping (grouping=shape) and this one; then the fused
# split is checked against the joint function and compiled against reference.
# usage: bench/fusion_bench.sh BUILD_DIR [SIZES...]   SIZES like "d=64,seq=32,heads=4"
set -e
build=${1:-build}
shift || true
out=$(mktemp -d)
root=$(cd "$(dirname "$0")/.." && pwd)
sizes="$*"
[ -n "$sizes" ] || sizes="default"
printf '| model | sizes | rt ops | launches+host reductions: previous -> this | %% | traffic bytes: previous -> this | %% | view-only kernels | split / compiled |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for model in gpt llama; do
  for sz in $sizes; do
    set --
    if [ "$sz" != default ]; then
      for kv in $(echo "$sz" | tr ',' ' '); do set -- "$@" --set "$kv"; done
    fi
    "$root/tools/remat-import-torch" "$model" --layers 2 "$@" -o "$out/$model.mlir"
    ops=$(grep -c '"rt\.' "$out/$model.mlir")
    "$build/bin/remat-opt" --remat-checkpoint=ac=auto --remat-mincut --remat-fuse \
      --report="$out/$model.report" "$out/$model.mlir" -o "$out/$model.fused.mlir"
    split=$("$build/bin/remat-run" "$out/$model.mlir" --check-split "$model" \
      --split "$out/$model.fused.mlir" --seed 1 --quiet | tail -1)
    same=$("$build/bin/remat-run" "$out/$model.fused.mlir" --check-compiled-all --seed 2 | tail -1)
    ok=fail
    case "$split" in ok:*) case "$same" in ok:*) ok="bit-exact";; esac;; esac
    python3 - "$out/$model.report" "$model" "$sz" "$ops" "$ok" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
b = text[text.rindex("remat-fuse: all functions"):]
l = re.search(r"launches \+ host reductions: (\d+) -> (\d+) \(([\d.]+)%", b)
t = re.search(r"modelled traffic: (\d+) -> (\d+) bytes \(([\d.]+)%", b)
v = re.search(r"kernels of view ops only: (\d+)", b).group(1)
print("| %s | %s | %s | %s -> %s | %s | %s -> %s | %s | %s | %s |" % (
    sys.argv[2], sys.argv[3], sys.argv[4], l.group(1), l.group(2), l.group(3),
    t.group(1), t.group(2), t.group(3), v, sys.argv[5]))
PY
    cp "$out/$model.report" "$out/$model.$sz.report"
  done
done
echo
echo "reports: $out"
