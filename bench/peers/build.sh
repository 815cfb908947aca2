#!/bin/sh
# Builds bench/peers/maxflow_peers.cpp (the peers' max-flow solvers: Boost.Graph from
# libboost-graph-dev, LEMON from liblemon-dev) with remat's lib/flow_network.c into
# BUILD/bench-peers/maxflow_peers. Usage: bench/peers/build.sh [BUILD]   (default build)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-$ROOT/build}/bench-peers
for h in /usr/include/boost/graph/boykov_kolmogorov_max_flow.hpp /usr/include/lemon/preflow.h; do
  [ -e "$h" ] || { echo "build.sh: error: $h is missing (apt-get install libboost-graph-dev liblemon-dev)" >&2; exit 1; }
done
mkdir -p "$OUT"
cc -O2 -std=c11 -Wall -Wextra -Werror -c "$ROOT/lib/analysis/flow_network.c" -o "$OUT/flow_network.o"
c++ -O2 -std=c++17 -Wall -Wextra -I"$ROOT/lib" -c "$ROOT/bench/peers/maxflow_peers.cpp" -o "$OUT/maxflow_peers.o"
c++ "$OUT/maxflow_peers.o" "$OUT/flow_network.o" -llemon -o "$OUT/maxflow_peers"
echo "$OUT/maxflow_peers"
