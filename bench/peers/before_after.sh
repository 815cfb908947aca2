#!/bin/sh
# Builds BUILD/bench-peers/maxflow_before_after: lib/flow_network.c as it is against the
# same file at git revision REV (its functions renamed before_*) and Boost's
# Boykov-Kolmogorov (libboost-graph-dev, liblemon-dev for maxflow_peers.cpp's LEMON part).
# Usage: bench/peers/before_after.sh REV [BUILD]   (default build); then
#        BUILD/bench-peers/maxflow_before_after RUNS [runs=N] [inf=0|1] FILE.dimacs...
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REV=$1
OUT=${2:-$ROOT/build}/bench-peers
mkdir -p "$OUT"
# lib/analysis/ since the layers; lib/ before them.
git -C "$ROOT" show "$REV:lib/analysis/flow_network.c" > "$OUT/flow_network_before.c" 2>/dev/null ||
  git -C "$ROOT" show "$REV:lib/flow_network.c" > "$OUT/flow_network_before.c"
RENAME=""
for f in create destroy num_nodes num_edges add_edge max_flow source_side write_dimacs; do
  RENAME="$RENAME -Dflow_network_$f=before_flow_network_$f"
done
# shellcheck disable=SC2086
cc -O2 -std=c11 -I"$ROOT/lib/analysis" $RENAME -c "$OUT/flow_network_before.c" -o "$OUT/flow_network_before.o"
cc -O2 -std=c11 -Wall -Wextra -Werror -c "$ROOT/lib/analysis/flow_network.c" -o "$OUT/flow_network.o"
c++ -O2 -std=c++17 -Wall -Wextra -I"$ROOT/lib" -I"$ROOT/bench/peers" \
  -c "$ROOT/bench/peers/maxflow_before_after.cpp" -o "$OUT/maxflow_before_after.o"
c++ "$OUT/maxflow_before_after.o" "$OUT/flow_network.o" "$OUT/flow_network_before.o" -llemon \
  -o "$OUT/maxflow_before_after"
echo "$OUT/maxflow_before_after"
