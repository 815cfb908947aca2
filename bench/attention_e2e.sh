#!/bin/sh
# attention_e2e.sh: issue 40's checks at one sequence length for the zoo's GPT and Llama
# blocks imported by bench/attention_peak.sh with IMPORT=--causal-buffers (run that
# first, with the same WORKDIR): --remat-attention, then the min-cut split (its peak
# estimate against remat-run --peak, reference and compiled), the fused split
# (--check-split-all, --check-compiled-all) and its PTX through ptxas.
#
# Usage: bench/attention_e2e.sh [WORKDIR [SEQ]]   (defaults /tmp/attention_peak, 1024)
# Environment: MODELS="gpt llama", BIN=DIR (build/bin), PTXAS (/usr/local/cuda/bin/ptxas).
set -u
work=${1:-/tmp/attention_peak}
s=${2:-1024}
B=${BIN-build/bin}
PTXAS=${PTXAS-/usr/local/cuda/bin/ptxas}
for m in ${MODELS-gpt llama}; do
  src="$work/cb-$m$s.mlir" w="$work/e2e-$m$s"
  $B/remat-opt "$src" --remat-attention -o "$w.att.mlir"
  $B/remat-opt "$w.att.mlir" --remat-mincut --remat-report -o "$w.split.mlir" 2>"$w.report"
  $B/remat-opt "$w.att.mlir" --remat-mincut --remat-fuse -o "$w.fused.mlir"
  echo "== $m $s: estimate"
  grep "this split" "$w.report"
  echo "== $m $s: --check-split --peak --reference"
  $B/remat-run "$w.att.mlir" --check-split "$m" --split "$w.split.mlir" --peak --reference --seed 1 | tail -2
  echo "== $m $s: --check-split --peak (compiled)"
  $B/remat-run "$w.att.mlir" --check-split "$m" --split "$w.split.mlir" --peak --seed 1 | tail -2
  echo "== $m $s: --check-split-all of the fused split"
  $B/remat-run "$w.att.mlir" --check-split-all --split "$w.fused.mlir" --seed 2 | tail -1
  echo "== $m $s: --check-compiled-all of the fused split"
  $B/remat-run "$w.fused.mlir" --check-compiled-all --seed 3 | tail -1
  echo "== $m $s: PTX"
  $B/remat-translate --emit=ptx "$w.fused.mlir" -o "$w.ptx" &&
    "$PTXAS" -arch=sm_90 "$w.ptx" -o "$w.cubin" &&
    echo "ptxas ok, $(grep -c '\.entry ' "$w.ptx") entries"
done
