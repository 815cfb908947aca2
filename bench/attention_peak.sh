#!/bin/sh
# attention_peak.sh: the estimated activation peak of the zoo's GPT and Llama blocks
# (batch 1, d 16, heads 2, one layer) split by --remat-mincut, before and after
# --remat-attention, and whether any op result of @f_fwd/@f_bwd still has B*H*S*S
# elements or more (issue 40). Activation peak = the min-cut report's "this split" peak
# estimate less the bytes of the function's rt.param arguments; "less rt.buffer": less the
# rt.buffer arguments too (the models' causal mask buffer, S x S bytes, an input).
#
# Usage: bench/attention_peak.sh [WORKDIR]   (from the repository root, after make build;
#   needs /usr/bin/python3 with torch 1.13; imports once per model and seq into WORKDIR)
# Environment: SEQS="1024 4096", MODELS="gpt llama", BIN=DIR (build/bin), IMPORT="" (more
#   remat-import-torch flags, e.g. IMPORT=--causal-buffers: the causal mask computed in the
#   graph, which --remat-attention makes a predicate; the imports then go to WORKDIR/cb-*).
#   "after" runs --remat-attention --remat-mincut --remat-fuse; the B*H*S*S count is of
#   the fused module.
set -eu
work=${1:-/tmp/attention_peak}
mkdir -p "$work"
B=${BIN-build/bin}
SEQS=${SEQS-"1024 4096"}
MODELS=${MODELS-"gpt llama"}
echo "| model | seq | peak before | peak after | after / before | rt.buffer bytes | after, less rt.buffer | B*H*S*S results before | after |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for m in $MODELS; do
  for s in $SEQS; do
    base="$work/${IMPORT:+cb-}$m$s"
    [ -s "$base.mlir" ] ||
      PATH="$B:$PATH" /usr/bin/python3 tools/remat-import-torch "$m" --set seq="$s" \
        --set batch=1 --set d=16 --set heads=2 ${IMPORT-} -o "$base.mlir" >/dev/null
    $B/remat-opt "$base.mlir" --remat-mincut --report="$base.before.txt" -o "$base.before.mlir"
    $B/remat-opt "$base.mlir" --remat-attention --remat-mincut --report="$base.after.txt" \
      --remat-fuse -o "$base.after.mlir"
    python3 - "$base" "$s" <<'PY'
import re, sys
base, s = sys.argv[1], int(sys.argv[2])
bhss = 1 * 2 * s * s
def numel(t):
    n = 1
    for d in t.split("x")[:-1]:
        n *= int(d) if d else 1
    return n
# rt.param argument bytes, from the joint function's signature
sig = open(base + ".mlir").read().split("{\n", 1)[0]
def arg_bytes(attr):
    n = 0
    for t, e in re.findall(r"tensor<([0-9x]*)(f32|f64|f16|bf16|i1|i64|i32)> \{" + attr + r"\}", sig):
        n += numel(t + e) * {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "i1": 1, "i64": 8, "i32": 4}[e]
    return n
params, buffers = arg_bytes("rt\\.param"), arg_bytes("rt\\.buffer")
def peak(report):
    for line in open(report):
        m = re.match(r"\s+this split\s+(\d+)", line)
        if m:
            return int(m.group(1))
def big(split):
    n, fn = 0, None
    for line in open(split):
        if line.startswith("  func.func") or line.startswith("func.func"):
            fn = re.search(r"@(\w+)", line).group(1)
        if fn and (fn.endswith("_fwd") or fn.endswith("_bwd")) and " = " in line and "->" in line:
            res = line.rsplit("->", 1)[1]
            n += sum(numel(t) >= bhss for t in re.findall(r"tensor<([0-9x]+[a-z0-9]+)>", res))
    return n
b, a = peak(base + ".before.txt") - params, peak(base + ".after.txt") - params
print(f"| {base.rsplit('/', 1)[1].rstrip('0123456789').replace('cb-', '')} | {s} | {b} | {a} | {a / b:.3f} | "
      f"{buffers} | {a - buffers} | {big(base + '.before.mlir')} | {big(base + '.after.mlir')} |")
PY
  done
done
