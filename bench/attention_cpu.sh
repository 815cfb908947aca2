#!/bin/sh
# One forward+backward of fused attention (rt.attention, rt.attention_grad) against the
# unfused graph the importer writes (test/ops/Inputs/attention_pair.py), on the CPU,
# interleaved in one run of bench/attention_bench: the zoo GPT's attention at seq S
# (batch x heads 2, head dim 8, scale 1/sqrt(8)), with its causal mask buffer and dropout
# 0.1 ("gpt"), and with a causal predicate and no dropout ("causal"). Both modules go
# through --remat-fuse first (the unfused graph's elementwise ops and reductions fused and
# compiled, as remat-run runs them).
#   bench/attention_cpu.sh [BUILD] [S] [ROUNDS]   (default build, 1024, 5)
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build} s=${2:-1024} rounds=${3:-5}
out=${TMPDIR:-/tmp}/attention_cpu
mkdir -p "$out"
/usr/bin/python3 - "$s" > "$out/pair.mlir" <<PY
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, "$root/test/ops/Inputs")
from attention_pair import gen
s = int(sys.argv[1])
print(gen('gpt', 2, s, s, 8, 8, scale=0.35355339059327373, mask='keep', keep=0.9))
print(gen('causal', 2, s, s, 8, 8, scale=0.35355339059327373, causal=0))
PY
"$build/bin/remat-opt" --remat-fuse "$out/pair.mlir" -o "$out/fused.mlir"
for v in gpt causal; do
  "$build/bench/attention_bench" "$out/fused.mlir" ${v}_unfused ${v}_fused "$rounds"
done
