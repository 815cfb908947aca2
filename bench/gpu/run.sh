#!/bin/sh
# bench/gpu/run.sh: remat's GPU figures in one run (meant for at most 5 minutes on one
# GPU; never run on a GPU yet, so that time is an estimate).
#
#   sh bench/gpu/run.sh [BUILD]                  # repository root, after `make build`
#   sh bench/gpu/run.sh --prepare DIR [BUILD]    # only import the models (torch, no GPU)
#   PREPARED=DIR sh bench/gpu/run.sh [BUILD]     # use the models imported into DIR
#   sh bench/gpu/run.sh --dry-run [BUILD]        # every step without a GPU (see below)
#
# Import the models before the GPU is lent (--prepare, any machine with torch): the
# import traces with real tensors, and the training-size GPT alone took more than 10
# minutes on a loaded 2-core machine; with PREPARED the GPU's minutes go to the GPU.
#
# Needs the build (remat-opt, remat-run with the CUDA backend: the toolkit's headers at
# configure time), an NVIDIA driver and GPU, cuBLAS (libcublas.so.13 on the loader's path
# or in the toolkit's lib64) and, unless PREPARED is given, Debian's python3-torch for
# tools/remat-import-torch. Steps (docs/design.md, "CUDA backend"):
#   1. the device (remat-run --device=cuda --device-info) and the host's load;
#   2. remat-run --check-device on examples/dropout.mlir (2x2 and 2^24 elements, fused
#      split) and on the transformer models of bench/models (gpt llama bert vit, two
#      layers, imported, --remat-mincut --remat-fuse): every op recomputed on the CPU from
#      the GPU's operands and compared with its class's bound, every random tensor redrawn;
#   3. kernel bandwidth of the GPT split at training size (one block, batch 8 x 512
#      tokens, d 1024): remat-run --bench, device time of every launch, GB/s of the
#      modelled traffic (each operand and result once) and the fraction of the peak;
#   4. the dropout backward recomputing its mask from (seed, offset) against the variant
#      of --remat-mincut=ban-random=true that loads the mask the forward saved, 2^24
#      elements, both in one remat-run --bench run (interleaved).
# Writes $OUT/results.md (OUT: $OUT or a new temporary directory), markdown for
# bench/RESULTS.md, and prints it. Exit 1 when a check fails (the figures are written).
#
# --dry-run: the same steps on a machine without a GPU, so the script is known to work
# before one is lent: the same imports, passes and modules; each --check-device runs
# --check-device's checker over test/unit/cuda_exec_test's fake driver (the backend's
# whole host side: lowering to PTX, launches, copies, cuBLAS operands, probes; kernels as
# the host JIT's builds), each function of the dropout bench runs on the fake driver
# against the CPU, and the GPT split at training size is only lowered to PTX
# (remat-translate; too large for the CPU). Its figures are not a GPU's and say so.
# MODELS="gpt ..." (default: gpt llama bert vit; empty: none) picks the checked models,
# DROPOUT=RxC (default 4096x4096, 2^24 elements) the large dropout's shape (test/gpu/run-sh.test
# runs a small dry run).
set -u
PREPARE=
DRY=
if [ "${1:-}" = "--prepare" ]; then
  PREPARE=${2:?--prepare needs a directory}
  shift 2
elif [ "${1:-}" = "--dry-run" ]; then
  DRY=1
  shift
fi
BUILD=${1:-build}
UT="$BUILD/test/unit/cuda_exec_test"
RT="$BUILD/bin/remat-translate"
RR="$BUILD/bin/remat-run"
RO="$BUILD/bin/remat-opt"
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
RES="$OUT/results.md"
FAIL=0
START=$(date +%s)

# The checked models: two layers, sizes at which the CPU's op-by-op recomputation stays
# within seconds; the bandwidth model at training size.
MODELS=${MODELS-gpt llama bert vit}
DROPOUT=${DROPOUT:-4096x4096}
sizes() {
  case $1 in
    gpt) echo "--layers 2 --set batch=4 --set seq=64 --set d=256 --set heads=4" ;;
    llama) echo "--layers 2 --set batch=4 --set seq=64 --set d=256 --set heads=4 --set hidden=688" ;;
    bert) echo "--layers 2 --set batch=4 --set seq=64 --set d=256 --set heads=4 --set hidden=1024" ;;
    vit) echo "--layers 2 --set batch=4 --set tokens=65 --set d=256 --set heads=4" ;;
    gpt-big) echo "--layers 1 --set batch=8 --set seq=512 --set d=1024 --set heads=16" ;;
  esac
}

# Imports MODEL (zoo name; gpt-big is gpt at training size) into DIR/MODEL.mlir.
import_model() {
  zoo=${1%-big}
  # shellcheck disable=SC2046
  timeout 1800 tools/remat-import-torch "$zoo" $(sizes "$1") --fn "$(echo "$1" | tr - _)" \
    -o "$2/$1.mlir"
}

if [ -n "$PREPARE" ]; then
  mkdir -p "$PREPARE"
  for m in $MODELS gpt-big; do
    import_model "$m" "$PREPARE" || { echo "bench/gpu/run.sh: cannot import $m" >&2; exit 1; }
  done
  echo "models imported into $PREPARE; run PREPARED=$PREPARE sh bench/gpu/run.sh on the GPU"
  exit 0
fi

elapsed() { echo $(($(date +%s) - START)); }

# --- 1. the device ---------------------------------------------------------------------
if [ -n "$DRY" ]; then
  DEV="none: DRY RUN (--dry-run), the fake driver of $UT; no figure below is a GPU's"
  [ -x "$UT" ] || { echo "bench/gpu/run.sh: --dry-run needs $UT (the CUDA toolkit's headers at configure time)" >&2; exit 1; }
elif ! DEV=$("$RR" --device=cuda --device-info 2>&1); then
  echo "bench/gpu/run.sh: no usable GPU: $DEV" >&2
  exit 1
fi
# The peak: NVIDIA's figure for the H200 (4.8 TB/s, HBM3e; datasheet); elsewhere the
# driver's memory clock x bus width.
PEAK=
case $DEV in *H200*) PEAK=4800 ;; esac
PEAKOPT=${PEAK:+--peak-gbs $PEAK}
{
  echo "## GPU (bench/gpu/run.sh)"
  echo
  echo "\`sh bench/gpu/run.sh\`, $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')."
  echo "Device: $DEV."
  echo "Peak used for the fractions: ${PEAK:-the driver's} GB/s${PEAK:+ (NVIDIA's H200 figure)}."
  echo "Host: $(nproc) CPUs, load: $(uptime | sed 's/.*load average/load average/')."
  echo
} > "$RES"

# --- 2. --check-device ------------------------------------------------------------------
# One table row from a check-device report (the class lines of check_device.c).
summarize() { # NAME REPORT STATUS
  awk -v name="$1" -v status="$3" '
    /kernels of IEEE-exact ops/ { ex = $5 " launches" }
    /kernels calling libm\/libdevice/ { for (i = 1; i <= NF; i++) if ($i == "ulp") mu = $(i-1); ml = $4 " launches, max " mu " ulp" }
    /^  reductions/ { red = $2 }
    /^  matmuls/ { for (i = 1; i <= NF; i++) if ($i == "of" && $(i+1) == "the") r = $(i-1); mm = $2 " (max " r " of the bound)" }
    /^  host ops/ { host = $3 }
    /random tensors drawn in kernels/ { sub(",", "", $6); rnd = $NF " of " $6 }
    /random tensors the backward drew/ { sub(",", "", $6); re = $NF " of " $6 }
    END { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, ex, ml, red, mm, host, rnd, (re == "" ? "-" : re), status }
  ' "$2"
}

check() { # NAME FILE FN [extra]
  name=$1 file=$2 fn=$3
  shift 3
  log="$OUT/check-$name.txt"
  if [ -n "$DRY" ]; then
    # The fake driver's checker (seed 7); the extra options are the GPU's.
    if timeout 600 "$UT" check "$file" "$fn" > "$log" 2>&1; then st="ok (dry run)"; else st=FAILED; FAIL=1; fi
  elif timeout 240 "$RR" "$file" --check-device "$fn" "$@" > "$log" 2>&1; then st=ok; else st=FAILED; FAIL=1; fi
  summarize "$name" "$log" "$st" >> "$OUT/checks.md"
  echo "check-device $name: $st ($(elapsed) s)" >&2
}

: > "$OUT/checks.md"
"$RO" --remat-mincut --remat-fuse examples/dropout.mlir -o "$OUT/dropout-split.mlir"
check "dropout 2x2" "$OUT/dropout-split.mlir" seed_dropout
sed "s/2x2/$DROPOUT/g" examples/dropout.mlir > "$OUT/dropout24.mlir"
"$RO" --remat-mincut --remat-fuse "$OUT/dropout24.mlir" -o "$OUT/dropout24-split.mlir"
check "dropout $DROPOUT" "$OUT/dropout24-split.mlir" seed_dropout
MDIR=${PREPARED:-$OUT}
for m in $MODELS; do
  if [ -z "${PREPARED:-}" ] && ! import_model "$m" "$OUT" > "$OUT/import-$m.txt" 2>&1; then
    echo "| $m | import failed: see import-$m.txt | | | | | | | FAILED |" >> "$OUT/checks.md"
    FAIL=1
    continue
  fi
  "$RO" --remat-mincut --remat-fuse "$MDIR/$m.mlir" -o "$OUT/$m-split.mlir" &&
    check "$m ($(sizes "$m" | sed 's/--set //g; s/--layers /layers=/'))" "$OUT/$m-split.mlir" "$m"
done
{
  echo "### --check-device: every op on the GPU against the CPU"
  echo
  echo "Exact kernels and reductions must be bit-identical; kernels calling libm/libdevice"
  echo "functions within 64 ulp at max(|x|,1); cuBLAS within (2Ku + 2u_out) sum|a||b|;"
  echo "random tensors: drawn on the GPU and bit-identical to lib/philox.c, and the ones"
  echo "the backward redrew bit-identical to one the forward drew (reports: $OUT/check-*.txt)."
  echo
  echo "| input | exact kernels | libm/libdevice kernels | reductions | cuBLAS matmuls | host ops | random tensors exact | backward's redrawn = forward's | result |"
  echo "|---|---|---|---|---|---|---|---|---|"
  cat "$OUT/checks.md"
  echo
} >> "$RES"

# --- 3. bandwidth of the largest fused kernels -------------------------------------------
if [ -z "${PREPARED:-}" ]; then import_model gpt-big "$OUT" > "$OUT/import-gpt-big.txt" 2>&1 || FAIL=1; fi
if [ -n "$DRY" ]; then
  if "$RO" --remat-mincut --remat-fuse "$MDIR/gpt-big.mlir" -o "$OUT/gpt-big-split.mlir" &&
     "$RT" --emit=ptx "$OUT/gpt-big-split.mlir" -o "$OUT/gpt-big.ptx" > "$OUT/bench-gpt.txt" 2>&1; then
    echo "Dry run: the GPT split at training size lowers to PTX ($(grep -c '^.visible .entry' "$OUT/gpt-big.ptx") entries); not timed." >> "$RES"
  else
    echo "GPT split at training size: import, passes or PTX failed: see $OUT/bench-gpt.txt" >> "$RES"
    FAIL=1
  fi
elif "$RO" --remat-mincut --remat-fuse "$MDIR/gpt-big.mlir" -o "$OUT/gpt-big-split.mlir" &&
   timeout 180 "$RR" "$OUT/gpt-big-split.mlir" --device=cuda --bench 10 --fn gpt_big_fwd \
     --fn gpt_big_bwd $PEAKOPT > "$OUT/bench-gpt.txt" 2>&1; then
  {
    echo "### Kernel bandwidth: GPT block, batch 8 x 512 tokens, d 1024, 16 heads (fwd + bwd split)"
    echo
    echo "\`remat-run --device=cuda --bench 10 --fn gpt_big_fwd --fn gpt_big_bwd\`: device time"
    echo "(CUDA events around each launch), bytes = each tensor operand and result once, GB/s"
    echo "from the best of 10 launches. The 12 largest kernels and reductions:"
    echo
    grep '^bench @' "$OUT/bench-gpt.txt" | sed 's/^/    /'
    echo
    grep '^| device function' "$OUT/bench-gpt.txt"
    grep '^|---' "$OUT/bench-gpt.txt"
    grep -E '^\| `[^`]*` \| (kernel|reduction) ' "$OUT/bench-gpt.txt" | sort -t'|' -k5,5 -n -r | head -12
    echo
  } >> "$RES"
else
  echo "GPT bandwidth run failed: see $OUT/bench-gpt.txt" >> "$RES"
  FAIL=1
fi
echo "bandwidth: done ($(elapsed) s)" >&2

# --- 4. dropout backward: recompute the mask vs load the saved mask, 2^24 elements -----
"$RO" --remat-mincut=ban-random=true --remat-fuse "$OUT/dropout24.mlir" -o "$OUT/dropout24-saved.mlir"
# One module with both splits: the saved-mask split renamed @saved_mask_dropout_*. The
# modules' own first and last lines go (remat-opt ends its output with an empty line).
{
  echo "module {"
  sed -e '/^module.*{$/d' -e '/^}$/d' "$OUT/dropout24-split.mlir"
  sed -e '/^module.*{$/d' -e '/^}$/d' "$OUT/dropout24-saved.mlir" |
    sed 's/@seed_dropout/@saved_mask_dropout/g'
  echo "}"
} > "$OUT/dropout24-both.mlir"
if [ -n "$DRY" ]; then
  : > "$OUT/bench-dropout.txt"
  for fn in seed_dropout_bwd saved_mask_dropout_bwd seed_dropout_fwd saved_mask_dropout_fwd; do
    timeout 300 "$UT" run "$OUT/dropout24-both.mlir" "$fn" >> "$OUT/bench-dropout.txt" 2>&1 || FAIL=1
  done
  {
    echo "Dry run: the four functions of the dropout bench on the fake driver against the CPU:"
    echo
    grep '^@' "$OUT/bench-dropout.txt" | sed 's/^/    /'
    echo
  } >> "$RES"
elif timeout 120 "$RR" "$OUT/dropout24-both.mlir" --device=cuda --bench 50 \
     --fn seed_dropout_bwd --fn saved_mask_dropout_bwd --fn seed_dropout_fwd \
     --fn saved_mask_dropout_fwd $PEAKOPT > "$OUT/bench-dropout.txt" 2>&1; then
  rec=$(awk '/^bench @seed_dropout_bwd:/ { print $(NF-1) }' "$OUT/bench-dropout.txt")
  load=$(awk '/^bench @saved_mask_dropout_bwd:/ { print $(NF-1) }' "$OUT/bench-dropout.txt")
  {
    echo "### Dropout backward at $DROPOUT elements: recompute the mask vs load the saved mask"
    echo
    echo "The fused split of examples/dropout.mlir at $DROPOUT (--remat-mincut: the backward"
    echo "takes a, seed, offset and redraws the Philox mask) against --remat-mincut=ban-random=true"
    echo "(the forward also writes the i1 mask, the backward reads it), one remat-run --bench 50"
    echo "run, the four functions interleaved. Median device time of the backward: recompute"
    echo "$rec ms, load $load ms (recompute / load = $(awk -v a="$rec" -v b="$load" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "?" }'))."
    echo
    grep '^bench @' "$OUT/bench-dropout.txt" | sed 's/^/    /'
    echo
    grep '^|' "$OUT/bench-dropout.txt"
    echo
  } >> "$RES"
else
  echo "dropout bench failed: see $OUT/bench-dropout.txt" >> "$RES"
  FAIL=1
fi
echo "Total: $(elapsed) s." >> "$RES"
cat "$RES"
echo "bench/gpu/run.sh: results in $RES ($(elapsed) s)" >&2
exit $FAIL
