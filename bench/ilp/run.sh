#!/bin/sh
# bench/ilp/run.sh BUILD [OUT]: memory-budget against CBC's optimum (budget_ilp.py) on
#   - the PyTorch zoo through tools/remat-import-torch: mlp, gpt, llama, bert, vit at
#     their default sizes (issue 12's budget-vs-ILP table, OUT/zoo.md), and larger GPT-
#     and Llama-style stacks;
#   - every joint function of test/checkpoint (not those the min-cut or the budget
#     refuses: the infeasible budget, the non-rt op, the plugin test);
#   - random joint graphs from remat-gen (seeds 1-12);
#   - residual chains from bench/gen_chain.py (200 and 1000 ops: nothing in the backward
#     reads the residual stream, so every value's recompute chain holds the stream before
#     it: nested shared ops);
# each at budgets fixed + {0, 0.1, 0.25, 0.5, 0.75} x candidate bytes (OUT/all.md).
# Needs coinor-cbc and python3-torch. Never run by `make test`.
set -eu
BUILD=${1:?usage: bench/ilp/run.sh BUILD [OUT]}
OUT=${2:-/tmp/remat-ilp}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
mkdir -p "$OUT/in"
command -v cbc >/dev/null || { echo "run.sh: cbc (coinor-cbc) not found" >&2; exit 1; }

imp() { # name model layers [--set k=v ...]
  name=$1; shift
  [ -s "$OUT/in/$name.mlir" ] || "$SRC/tools/remat-import-torch" "$@" -o "$OUT/in/$name.mlir"
}
imp mlp mlp --layers 2
imp gpt gpt --layers 1
imp llama llama --layers 1
imp bert bert --layers 1
imp vit vit --layers 1
imp gpt2 gpt --layers 2
imp llama2 llama --layers 2
imp gpt4-d64 gpt --layers 4 --set d=64 --set seq=32 --set heads=4
imp llama4-d64 llama --layers 4 --set d=64 --set seq=32 --set heads=4 --set hidden=128

zoo=""
for m in mlp gpt llama bert vit; do zoo="$zoo $m=$OUT/in/$m.mlir"; done
big=""
for m in gpt2 llama2 gpt4-d64 llama4-d64; do big="$big $m=$OUT/in/$m.mlir"; done
tests=""
for f in "$SRC"/test/checkpoint/*.mlir; do
  case $f in *infeasible*|*plugin*|*foreign*) continue ;; esac
  tests="$tests $(basename "$f" .mlir)=$f"
done
rand=""
for s in 1 2 3 4 5 6 7 8 9 10 11 12; do
  "$BUILD/bin/remat-gen" --seed $s --count 1 > "$OUT/in/gen$s.mlir" 2>/dev/null
  rand="$rand gen$s=$OUT/in/gen$s.mlir"
done

for n in 200 1000; do
  python3 "$SRC/bench/gen_chain.py" $n > "$OUT/in/chain$n.mlir"
  rand="$rand chain$n=$OUT/in/chain$n.mlir"
done

ILP="$HERE/budget_ilp.py --remat-opt $BUILD/bin/remat-opt"
# shellcheck disable=SC2086
$ILP --markdown "$OUT/zoo.md" $zoo
# shellcheck disable=SC2086
$ILP --markdown "$OUT/all.md" $zoo $big $tests $rand
