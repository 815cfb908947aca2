#!/bin/sh
# peak_exact.sh: the time of objective=peak's exact search (branch and bound) by number of
# candidate values, on every graph of up to 64 candidates at hand: 600 remat-gen graphs
# (seeds 1-3), the suite's small graphs, the zoo's MLP at 1-3 layers and gen_chain.py
# chains of 30-80 ops. Per graph: the candidates and the search's own time (the report's
# "objective peak: ... T ms"), with peak-search=exact (a graph it has not finished in
# LIMIT seconds is "not finished", its candidates unknown). Then per range of candidates:
# graphs, the median and the largest time, and how many took over 0.5 s.
#
# Usage: bench/peak_exact.sh [WORKDIR]   (from the repository root, after make build;
#   the zoo's MLP needs /usr/bin/python3 with torch)
# Environment: LIMIT=120 (seconds per graph).
set -eu
work=${1:-/tmp/peak_exact}
mkdir -p "$work"
B=build/bin
LIMIT=${LIMIT-120}
: >"$work/times.txt"
run() { # FILE: one line per joint function, "candidates ms", or "- timeout FILE"
  rm -f "$work/r.txt"
  rc=0
  timeout "$LIMIT" $B/remat-opt "$1" --remat-mincut=objective=peak,peak-search=exact \
    --report="$work/r.txt" -o /dev/null 2>/dev/null || rc=$?
  if [ $rc = 0 ]; then
    sed -n 's/^  objective peak: exact search, \([0-9]*\) candidate values, [0-9]* splits simulated, \([0-9.]*\) ms.*/\1 \2/p' \
      "$work/r.txt" >>"$work/times.txt"
  elif [ $rc = 124 ]; then
    echo "- timeout $1" >>"$work/times.txt"
  fi # else refused (above 64 candidates, or not a graph the pass splits)
}
for seed in 1 2 3; do
  $B/remat-gen --seed $seed --count 200 >"$work/gen$seed.mlir" 2>/dev/null
  # one function at a time: a module the exact search refuses is refused whole
  awk -v d="$work" -v s=$seed '/^func.func @/ {n++} {print > (d "/gen" s "-" n ".mlir")}' "$work/gen$seed.mlir"
  for f in "$work"/gen$seed-*.mlir; do run "$f"; done
done
for f in examples/dropout.mlir examples/gpt-joint.mlir test/mincut/*.mlir test/checkpoint/budget.mlir \
         test/checkpoint/user-tags.mlir; do
  grep -q "rt.num_outputs" "$f" && run "$f"
done
for l in 1 2 3; do
  [ -s "$work/mlp-$l.mlir" ] ||
    /usr/bin/python3 tools/remat-import-torch mlp --layers $l -o "$work/mlp-$l.mlir" >/dev/null
  run "$work/mlp-$l.mlir"
done
for n in 30 40 48 52 56 60 64 72 80; do
  python3 bench/gen_chain.py $n >"$work/chain$n.mlir"
  run "$work/chain$n.mlir"
done
echo "| candidates | graphs | median ms | largest ms | over 0.5 s |"
echo "|---|---:|---:|---:|---:|"
awk '{ c = $1; r = c == "-" ? "not finished" : c <= 10 ? "0-10" : c <= 20 ? "11-20" : c <= 32 ? "21-32" : c <= 48 ? "33-48" : "49-64";
       n[r]++; t = ($2 == "timeout") ? 1e12 : $2; v[r, n[r]] = t; if (t > 500) over[r]++ }
     END { split("0-10,11-20,21-32,33-48,49-64,not finished", rs, ",");
           for (k = 1; k <= 6; k++) { r = rs[k]; if (!n[r]) continue;
             m = n[r]; for (i = 1; i <= m; i++) a[i] = v[r, i];
             for (i = 2; i <= m; i++) { x = a[i]; j = i - 1; while (j > 0 && a[j] > x) { a[j + 1] = a[j]; j-- } a[j + 1] = x }
             med = a[int((m + 1) / 2)]; big = a[m];
             bs = (big >= 1e12) ? "timeout" : sprintf("%.1f", big);
             printf "| %s | %d | %.1f | %s | %d |\n", r, m, med, bs, over[r] + 0 } }' \
  "$work/times.txt"
echo
echo "Graphs over 0.5 s:"
awk '$2 == "timeout" || $2 > 500' "$work/times.txt"
