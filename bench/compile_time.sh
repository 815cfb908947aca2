#!/bin/sh
# compile_time.sh BEFORE AFTER [LAYERS...]: the whole pipeline's compile time on the zoo's
# GPT (bench sizes: batch 4, seq 32, d 64, heads 4), at 1, 8 and 32 layers by default,
# for two builds in the same run: BEFORE and AFTER are directories holding bin/remat-opt
# and bin/remat-translate (and lib/ for their libremat.so).
# Per layer count and build: the three passes' wall times from remat-opt --timing
# (checkpoint ac=auto, mincut, fuse; parsing and printing not included), the kernel
# definitions and launches of the fused module, and remat-translate --emit=ptx's wall and
# user CPU time (best of REPS runs, default 3) and PTX size. AFTER is also timed with -j 1,
# and with a warm kernel cache (--cache-dir, filled by one run first).
set -eu
BEFORE=$1
AFTER=$2
shift 2
LAYERS=${*:-1 8 32}
REPS=${REPS:-3}
PY=${PYTHON:-/usr/bin/python3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

# best BIN ARGS...: runs LD_LIBRARY_PATH=$lib BIN ARGS REPS times; prints "wall user" of
# the fastest (wall) run.
best() {
  b=""
  for r in $(seq "$REPS"); do
    LD_LIBRARY_PATH="$lib" /usr/bin/time -f '%e %U' -o "$DIR/t" "$@" 2>/dev/null
    w=$(cut -d' ' -f1 "$DIR/t")
    if [ -z "$b" ] || awk "BEGIN { exit !($w < $b) }"; then b=$w bu=$(cut -d' ' -f2 "$DIR/t"); fi
  done
  echo "$b $bu"
}

printf '%6s %6s %7s %9s %9s %9s %8s %8s %10s %10s %9s  %s\n' layers build nodes \
  ckpt-ms mincut-ms fuse-ms kernels launches ptx-wall-s ptx-user-s ptx-bytes variant
for L in $LAYERS; do
  "$PY" "$ROOT/tools/remat-import-torch" gpt --layers "$L" --set batch=4 --set seq=32 \
    --set d=64 --set heads=4 -o "$DIR/gpt.mlir"
  nodes=$(grep -c ' = ' "$DIR/gpt.mlir")
  for side in before after; do
    if [ $side = before ]; then top=$BEFORE; else top=$AFTER; fi
    bin=$top/bin lib=$top/lib
    LD_LIBRARY_PATH="$lib" "$bin/remat-opt" --remat-checkpoint=ac=auto --remat-mincut \
      --remat-fuse --timing "$DIR/gpt.mlir" -o "$DIR/$side.mlir" 2> "$DIR/log"
    ms() { awk -v p="$1" '$NF == p { printf "%.1f", $1 * 1000 }' "$DIR/log"; }
    kernels=$(grep -c 'attributes {rt.kernel}' "$DIR/$side.mlir")
    launches=$(grep -c ' call @.*_k[0-9]*(' "$DIR/$side.mlir")
    set -- "$bin/remat-translate" --emit=ptx "$DIR/$side.mlir" -o "$DIR/$side.ptx"
    if [ $side = before ]; then variants="default"; else variants="default j1 cache"; fi
    for v in $variants; do
      case $v in
        default) t=$(best "$@") ;;
        j1) t=$(best "$@" -j 1) ;;
        cache)
          rm -rf "$DIR/cache"
          LD_LIBRARY_PATH="$lib" "$@" --cache-dir="$DIR/cache"
          t=$(best "$@" --cache-dir="$DIR/cache") ;;
      esac
      printf '%6s %6s %7s %9s %9s %9s %8s %8s %10s %10s %9s  %s\n' "$L" $side "$nodes" \
        "$(ms RematCheckpoint)" "$(ms RematMincut)" "$(ms RematFuse)" "$kernels" \
        "$launches" $t "$(wc -c < "$DIR/$side.ptx")" $v
    done
  done
  cmp -s "$DIR/before.ptx" "$DIR/after.ptx" && echo "# $L layers: the same PTX bytes" || true
done
