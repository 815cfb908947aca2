#!/bin/sh
# peak_exact.sh: the time of objective=peak's exact search (branch and bound) by number of
# candidate values, on every graph of up to 64 candidates at hand: 600 remat-gen graphs
# (seeds 1-3), the suite's small graphs, the zoo's MLP at 1-3 layers and gen_chain.py
# chains of 30-80 ops (the default chain, and with dropout every 4 or 8 layers, a matmul
# every 8 or 16: 22-47 candidates). Per graph: the candidates and the search's own time
# (the report's "objective peak: ... T ms"), with peak-search=exact (a graph it has not
# finished in LIMIT seconds is "not finished", its candidates unknown; of a module of
# several functions, the slowest). Then per range of
# candidates: graphs, the median and the largest time, and how many took over 0.5 s.
#
# With REF=path/to/another/remat-opt, each graph is also split by REF (just before, so
# both see the same load), the two split modules are compared byte for byte (the saved
# set, the order, everything), and the table gives REF's times too and the graphs whose
# split differs ("differ"; listed below it, with whether the chosen (peak, cost) is the
# same, "key", or only the peak, "peak").
#
# SEARCH=auto times peak-search=auto instead (its graphs of more than 48 candidates, the
# heuristic's, are left out), REF_SEARCH (default SEARCH) the search REF runs: with
# REF=build/bin/remat-opt REF_SEARCH=exact, auto against the exact search.
#
# Usage: bench/peak_exact.sh [WORKDIR]   (from the repository root, after make build;
#   the zoo's MLP needs /usr/bin/python3 with torch)
# Environment: LIMIT=120 (seconds per graph), REMAT_OPT=build/bin/remat-opt, REF (none),
#   SEARCH=exact, REF_SEARCH=$SEARCH.
set -eu
work=${1:-/tmp/peak_exact}
mkdir -p "$work"
OPT=${REMAT_OPT:-build/bin/remat-opt}
REF=${REF-}
LIMIT=${LIMIT-120}
SEARCH=${SEARCH-exact}
REF_SEARCH=${REF_SEARCH-$SEARCH}
: >"$work/times.txt"
split() { # BIN FILE TAG SEARCH: "candidates ms" of BIN's exact search on FILE, or "- timeout"
  rm -f "$work/r.txt" "$work/$3.mlir"
  rc=0
  timeout "$LIMIT" "$1" "$2" --remat-mincut=objective=peak,peak-search=$4 \
    --report="$work/r.txt" -o "$work/$3.mlir" 2>/dev/null || rc=$?
  grep "^    chosen " "$work/r.txt" >"$work/$3.key" 2>/dev/null || :
  if [ $rc = 0 ]; then # one line per joint function: the slowest
    sed -n 's/^  objective peak: [a-z]* search, \([0-9]*\) candidate values, [0-9]* splits simulated, \([0-9.]*\) ms.*/\1 \2/p' \
      "$work/r.txt" | awk '$1 <= 64' | sort -k2 -g | tail -1
  elif [ $rc = 124 ]; then
    echo "- timeout"
  fi # else refused (above 64 candidates, or not a graph the pass splits); auto's
     # heuristic above 64 left out
}
run() { # FILE: "candidates ms [ref-ms same|differ] FILE"
  ref=
  if [ -n "$REF" ]; then
    ref=$(split "$REF" "$1" ref "$REF_SEARCH")
    [ -n "$ref" ] || return 0
  fi
  new=$(split "$OPT" "$1" new "$SEARCH")
  [ -n "$new" ] || return 0
  if [ -n "$REF" ]; then
    same=differ
    if cmp -s "$work/ref.mlir" "$work/new.mlir"; then
      same=same
    elif cmp -s "$work/ref.key" "$work/new.key"; then
      same=key
    elif [ "$(awk '{print $2}' "$work/ref.key")" = "$(awk '{print $2}' "$work/new.key")" ]; then
      same=peak
    fi
    echo "$new ${ref#* } $same $1" >>"$work/times.txt"
  else
    echo "$new $1" >>"$work/times.txt"
  fi
}
for seed in 1 2 3; do
  build/bin/remat-gen --seed $seed --count 200 >"$work/gen$seed.mlir" 2>/dev/null
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
for n in 56 62 68 76; do
  for d in 4 8; do
    for m in 8 16; do
      python3 bench/gen_chain.py $n --dropout-every $d --matmul-every $m >"$work/chain$n-$d-$m.mlir"
      run "$work/chain$n-$d-$m.mlir"
    done
  done
done
if [ -n "$REF" ]; then
  echo "| candidates | graphs | median ms | largest ms | over 0.5 s | REF median ms | REF largest ms | REF over 0.5 s | splits differ |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
else
  echo "| candidates | graphs | median ms | largest ms | over 0.5 s |"
  echo "|---|---:|---:|---:|---:|"
fi
awk -v ref="$REF" '
  function stats(col, r,    m, i, j, x, a) {
    m = n[r]; for (i = 1; i <= m; i++) a[i] = v[col, r, i]
    for (i = 2; i <= m; i++) { x = a[i]; j = i - 1; while (j > 0 && a[j] > x) { a[j + 1] = a[j]; j-- } a[j + 1] = x }
    return sprintf("%.1f | %s | %d", a[int((m + 1) / 2)], a[m] >= 1e12 ? "timeout" : sprintf("%.1f", a[m]), over[col, r] + 0)
  }
  { c = $1; r = c == "-" ? "not finished" : c <= 10 ? "0-10" : c <= 20 ? "11-20" : c <= 32 ? "21-32" : c <= 48 ? "33-48" : "49-64"
    k = ++n[r]
    t = ($2 == "timeout") ? 1e12 : $2; v[1, r, k] = t; if (t > 500) over[1, r]++
    if (ref != "") { t = ($3 == "timeout") ? 1e12 : $3; v[2, r, k] = t; if (t > 500) over[2, r]++; if ($4 != "same") diff[r]++ } }
  END { split("0-10,11-20,21-32,33-48,49-64,not finished", rs, ",")
        for (q = 1; q <= 6; q++) { r = rs[q]; if (!n[r]) continue
          if (ref != "") printf "| %s | %d | %s | %s | %d |\n", r, n[r], stats(1, r), stats(2, r), diff[r] + 0
          else printf "| %s | %d | %s |\n", r, n[r], stats(1, r) } }' "$work/times.txt"
echo
echo "Graphs over 0.5 s:"
awk '$2 == "timeout" || $2 > 500' "$work/times.txt"
if [ -n "$REF" ]; then
  echo
  echo "Splits that differ from REF's:"
  awk '$4 != "same"' "$work/times.txt"
fi
