#!/bin/sh
# bench/checkmate/run.sh BUILD [OUT]: remat's fixed-order optimum against the
# Checkmate-style MILP of checkmate.py (CBC), on small joint graphs: the dropout example,
# the zoo's 1-layer MLP (tools/remat-import-torch), the suite's memory-mlp, residual and
# chain, and 24 remat-gen graphs (seed 7), each at remat's recompute cost and at any cost
# (OUT/table.md, the log in OUT/log.txt). Needs coinor-cbc and python3-torch; CBC gets
# CBC_SECONDS (default 300) per solve. Never run by `make test`.
set -eu
BUILD=${1:?usage: bench/checkmate/run.sh BUILD [OUT]}
OUT=${2:-/tmp/remat-checkmate}
CBC_SECONDS=${CBC_SECONDS:-300}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT"
command -v cbc >/dev/null || { echo "run.sh: cbc (coinor-cbc) not found" >&2; exit 1; }
[ -s "$OUT/zoo-mlp-1.mlir" ] ||
  /usr/bin/python3 "$SRC/tools/remat-import-torch" mlp --layers 1 -o "$OUT/zoo-mlp-1.mlir" >/dev/null
"$BUILD/bin/remat-gen" --seed 7 --count 24 >"$OUT/gen7.mlir" 2>/dev/null
python3 "$HERE/checkmate.py" --remat-opt "$BUILD/bin/remat-opt" --seconds "$CBC_SECONDS" \
  --max-nodes 60 --any-cost --markdown "$OUT/table.md" \
  dropout="$SRC/examples/dropout.mlir" zoo-mlp-1="$OUT/zoo-mlp-1.mlir" \
  memory-mlp="$SRC/test/mincut/memory-mlp.mlir" residual="$SRC/test/mincut/residual.mlir" \
  chain="$SRC/test/mincut/chain.mlir" remat-gen-7="$OUT/gen7.mlir" | tee "$OUT/log.txt"
