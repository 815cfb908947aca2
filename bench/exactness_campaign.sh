#!/bin/sh
# The exactness campaign (issue 31): BATCHES x COUNT random graphs of remat-gen for each
# of --values=special and --values=wide, split and fused (remat-opt --remat-mincut
# --remat-fuse), then on inputs of the same distribution: the split run compiled
# (-O3) against the joint function on the reference interpreter (--check-split-all),
# and the fused module compiled against the reference (--check-compiled-all). Prints a
# line per batch and the totals; exits 1 on any mismatch.
#   bench/exactness_campaign.sh [BATCHES] [COUNT]     (default 10 x 500: 10,000 graphs)
# remat-gen, remat-opt and remat-run on PATH.
batches=${1:-10} count=${2:-500}
dir=${TMPDIR:-/tmp}/exactness_campaign
mkdir -p "$dir"
graphs=0 bad=0
for values in special wide; do
  for b in $(seq "$batches"); do
    g="$dir/$values.$b.mlir"
    remat-gen --seed "$b" --count "$count" --values="$values" > "$g" 2>/dev/null
    remat-opt --remat-mincut --remat-fuse "$g" -o "$g.split" &&
    remat-opt --remat-fuse "$g" -o "$g.fused" || { bad=$((bad + 1)); continue; }
    s=$(remat-run "$g" --check-split-all --split "$g.split" --values "$values" --seed "$b" --quiet 2>&1 | tail -1)
    c=$(remat-run "$g.fused" --check-compiled-all --values "$values" --seed "$b" --quiet 2>&1 | tail -1)
    echo "$values seed $b: split: $s | compiled: $c"
    case "$s" in "ok: every split matches"*) ;; *) bad=$((bad + 1)) ;; esac
    case "$c" in "ok: $count functions"*) ;; *) bad=$((bad + 1)) ;; esac
    graphs=$((graphs + count))
  done
done
echo "campaign: $graphs graphs, $bad batches with a mismatch or an error"
[ "$bad" -eq 0 ]
