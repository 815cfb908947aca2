#!/bin/sh
# FSDP on real ranks: time and bytes per rank of the example MLP's fwd+bwd split with
# --remat-checkpoint=fsdp=recompute against fsdp=save, on 2 and 4 ranks, in one run, with
# the memory side from --remat-mincut's report (saved bytes beyond the shards, peak).
#   bench/fsdp/run.sh [BUILD] [DIMS] [BATCH] [REPEAT]
# (defaults: build, 256,512,512,256, 32, 5). The model is examples/fsdp/gen_fsdp.py's;
# each configuration runs remat-run --check-sharded (which also proves the split equal to
# the unsharded model) with --repeat: times are the fastest of REPEAT runs on each rank.
set -eu
BUILD=${1:-build}
DIMS=${2:-256,512,512,256}
BATCH=${3:-32}
REPEAT=${4:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "# $(date -u +%Y-%m-%d) $(uname -m), $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# dims $DIMS, batch $BATCH, fastest of $REPEAT runs per rank"
echo "| ranks | fsdp | all-gathers fwd/bwd | sent = received per rank (fwd+bwd) | saved beyond shards | peak (estimate) | fwd ms (ranks) | bwd ms (ranks) |"
echo "|---|---|---|---|---|---|---|---|"
for N in 2 4; do
  python3 "$ROOT/examples/fsdp/gen_fsdp.py" --ranks "$N" --dims "$DIMS" --batch "$BATCH" \
    --sharded "$TMP/s$N.mlir" --unsharded "$TMP/u$N.mlir"
  for MODE in recompute save; do
    "$ROOT/$BUILD/bin/remat-opt" --remat-checkpoint=fsdp=$MODE --remat-mincut "$TMP/s$N.mlir" \
      -o "$TMP/$MODE$N.mlir" --remat-report 2> "$TMP/report"
    # The memory side of the trade, from --remat-mincut's report: the bytes saved for the
    # backward beyond the rank's own parameter shards (which it holds anyway), and the
    # estimated peak.
    MEM=$(awk '/saved bytes:/ { s = $3; p = $5; sub(/;.*/, "", p); extra = s - p }
      /^ *this split / { peak = $3 } END { printf "%d B | %d B", extra, peak }' "$TMP/report")
    OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_ALLOW_RUN_AS_ROOT=1 \
      OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      mpirun --allow-run-as-root --oversubscribe -np "$N" "$ROOT/$BUILD/bin/remat-run" \
      "$TMP/s$N.mlir" --check-sharded mlp --unsharded "$TMP/u$N.mlir" \
      --split "$TMP/$MODE$N.mlir" --repeat "$REPEAT" --quiet > "$TMP/out"
    grep -q '^ok:' "$TMP/out"
    awk -v n="$N" -v mode="$MODE" -v mem="$MEM" '
      /collectives per rank/ {
        split($0, p, ";"); f = p[2]; b = p[3];
        sub(/.*all_gather /, "", f); sub(/,.*/, "", f);
        sub(/.*all_gather /, "", b); sub(/,.*/, "", b); gathers = f "/" b }
      /^  rank [0-9]+:/ {
        s = $0; sub(/.*fwd\+bwd sent /, "", s); sub(/ B,.*/, "", s); bytes = s;
        t = $0; sub(/.*received [0-9]+ B, /, "", t); sub(/ ms$/, "", t);
        split(t, tt, " \\+ "); fw = fw (fw == "" ? "" : ", ") tt[1]; bw = bw (bw == "" ? "" : ", ") tt[2] }
      END { printf "| %d | %s | %s | %s B | %s | %s | %s |\n", n, mode, gathers, bytes, mem, fw, bw }' "$TMP/out"
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
