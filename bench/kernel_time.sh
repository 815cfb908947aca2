#!/bin/sh
# Kernel time of the zoo's models split and fused (remat-opt --remat-checkpoint=ac=auto
# --remat-mincut --remat-fuse), measured by two builds of bench/kernel_bench on the same
# modules, alternating: BEFORE and AFTER are kernel_bench binaries. Prints one line per
# model and run, then the medians and their ratio (after / before).
#   bench/kernel_time.sh BEFORE AFTER [RUNS]
# Needs Debian's python3-torch (the importer) and remat-opt on PATH.
set -e
before=$1 after=$2 runs=${3:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${TMPDIR:-/tmp}/kernel_time
mkdir -p "$out"
for spec in gpt:batch=4,seq=64,d=128,heads=4 llama:batch=4,seq=64,d=128,heads=4,hidden=256 \
            mlp:batch=64,d=256,hidden=1024 bert:batch=4,seq=64,d=128,heads=4,hidden=512 vit:batch=4,tokens=65,d=128,heads=4; do
  model=${spec%%:*} sets=""
  for kv in $(echo "${spec#*:}" | tr ',' ' '); do sets="$sets --set $kv"; done
  /usr/bin/python3 "$root/tools/remat-import-torch" "$model" --layers 2 $sets \
    -o "$out/$model.mlir" 2>/dev/null
  remat-opt --remat-checkpoint=ac=auto --remat-mincut --remat-fuse "$out/$model.mlir" \
    -o "$out/$model.fused.mlir"
  b="" a=""
  for r in $(seq "$runs"); do
    b="$b $("$before" "$out/$model.fused.mlir" --rounds 30 | sed 's/.*median round \([0-9.]*\) ms.*/\1/')"
    a="$a $("$after" "$out/$model.fused.mlir" --rounds 30 | sed 's/.*median round \([0-9.]*\) ms.*/\1/')"
  done
  n=$("$after" "$out/$model.fused.mlir" --rounds 1 | sed 's/.*: \([0-9]*\) kernels.*/\1/')
  python3 - "$spec" "$n" "$b" "$a" <<'PY'
import statistics, sys
spec, n, b, a = sys.argv[1], sys.argv[2], [float(x) for x in sys.argv[3].split()], [float(x) for x in sys.argv[4].split()]
mb, ma = statistics.median(b), statistics.median(a)
print(f"{spec:40s} {n:>4s} kernels  before {mb:8.3f} ms  after {ma:8.3f} ms  after/before {ma / mb:5.3f}")
PY
done
