#!/bin/sh
# chain_bench.sh: --remat-mincut on the generated chain at 10^4, 10^5 and 10^6 ops, two
# builds side by side in one run (issue 15, "the split at 10^5-10^6 ops").
#
# For each size and build: bench/split_bench.c (compiled here against each build's
# libremat, so an older build needs no copy of it): the pass cold and warm with MLIR's
# verifier on, warm with it off, and verifying the result. Then at the largest size,
# alternating the builds, REPS runs of `remat-opt --remat-mincut --timing` (the
# RematMincut line: the pass and the verification after it, on a freshly parsed module)
# and the peak RSS by /usr/bin/time -v of remat-opt with and without the pass (parse,
# verify, print). Prints `uptime` before and after. Asserts nothing.
#
# Usage: bench/chain_bench.sh BEFORE_BUILD AFTER_BUILD [SIZES] [RUNS] [REPS]
#   BUILD: a cmake build directory (its bin/remat-opt, lib/libremat.so); from the
#   repository root; defaults: SIZES "10000 100000 1000000", RUNS 5 (split_bench runs
#   per size), REPS 3. Inputs and binaries go to ${WORK:-/tmp/chain_bench}.
#   The lead's check, one build: bench/chain_bench.sh build build 1000000 3 3
set -eu
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
sizes=${3:-"10000 100000 1000000"}
runs=${4:-5}
reps=${5:-3}
work=${WORK:-/tmp/chain_bench}
mkdir -p "$work"
llvm=${LLVM:-/usr/lib/llvm-22}

echo "uptime before: $(uptime)"
for n in $sizes; do
  [ -s "$work/chain-$n.mlir" ] || python3 bench/gen_chain.py "$n" >"$work/chain-$n.mlir"
done
for b in before after; do
  eval dir=\$$b
  src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$dir/CMakeCache.txt")
  lib=$(ls "$dir"/lib/libremat.so.* | head -n 1)
  cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$src/include" -I"$llvm/include" \
    bench/split_bench.c -o "$work/split_bench-$b" "$lib" "$llvm/lib/libMLIR.so" \
    "$llvm/lib/libLLVM.so" -Wl,-rpath,"$dir/lib:$llvm/lib" -lm
done

echo "== split_bench (ms): pass cold / warm with the verifier, warm without it, verifying"
for n in $sizes; do
  for b in before after; do
    printf '%-6s ' $b
    nice -n 10 "$work/split_bench-$b" "$work/chain-$n.mlir" "$runs"
  done
done

big=$(echo $sizes | tr ' ' '\n' | tail -n 1)
echo "== remat-opt --remat-mincut --timing chain-$big.mlir: RematMincut wall s"
for i in $(seq "$reps"); do
  for b in before after; do
    eval dir=\$$b
    t=$(nice -n 10 "$dir/bin/remat-opt" --remat-mincut --timing "$work/chain-$big.mlir" \
          -o /dev/null 2>&1 | sed -n 's/^ *\([0-9.]*\) .*RematMincut$/\1/p')
    echo "$b run $i: $t"
  done
done

echo "== peak RSS (kB), /usr/bin/time -v remat-opt [--remat-mincut] chain-$big.mlir -o /dev/null"
for b in before after; do
  eval dir=\$$b
  for pass in "" --remat-mincut; do
    rss=$(nice -n 10 /usr/bin/time -v "$dir/bin/remat-opt" $pass "$work/chain-$big.mlir" \
            -o /dev/null 2>&1 | sed -n 's/.*Maximum resident set size (kbytes): //p')
    echo "$b ${pass:-(parse, verify, print)}: $rss"
  done
done
echo "uptime after: $(uptime)"
