#!/bin/sh
# split_diff.sh: checks that two builds of remat-opt split joint functions identically.
#
# Runs BEFORE and AFTER (two remat-opt binaries, e.g. main's and a branch's) on every .mlir
# file under test/ and examples/, on the zoo models and on the generated chains, with
# --remat-mincut alone and after --remat-autodiff or --remat-checkpoint=ac=auto, printing
# with and without locations and with the report (report=-, its "time:" line dropped:
# that is the only line allowed to differ). An input counts when BEFORE accepts it (exit
# 0); every accepted input must give byte-identical output from AFTER. Prints one line
# per difference and a summary; exits 1 on any difference.
#
# Usage: bench/split_diff.sh BEFORE_REMAT_OPT AFTER_REMAT_OPT [WORKDIR]
#   (from the repository root; WORKDIR, default /tmp/split_diff, holds the generated
#   inputs: the zoo models need /usr/bin/python3 with torch, the 10^6-op chain ~100 MB)
# Environment: CHAINS="10000 100000 1000000" (sizes of bench/gen_chain.py), MODELS="gpt
#   llama mlp bert vit", FILES=0 to leave out the files under test/ and examples/.
set -u
before=$1
after=$2
work=${3:-/tmp/split_diff}
mkdir -p "$work"
CHAINS=${CHAINS-"10000 100000 1000000"}
MODELS=${MODELS-"gpt llama mlp bert vit"}

for n in $CHAINS; do
  [ -s "$work/chain-$n.mlir" ] || python3 bench/gen_chain.py "$n" >"$work/chain-$n.mlir"
done
for m in $MODELS; do
  [ -s "$work/$m.mlir" ] ||
    /usr/bin/python3 tools/remat-import-torch "$m" --layers 8 -o "$work/$m.mlir" ||
    echo "split_diff: cannot import $m (skipped)"
done

inputs=
[ "${FILES-1}" = 0 ] || inputs=$(find test examples -name '*.mlir' | sort)
for n in $CHAINS; do inputs="$inputs $work/chain-$n.mlir"; done
for m in $MODELS; do [ -s "$work/$m.mlir" ] && inputs="$inputs $work/$m.mlir"; done

checked=0 accepted=0 differ=0
# $1: binary, $2: output file, $3...: arguments
run() {
  bin=$1 out=$2
  shift 2
  "$bin" "$@" >"$out" 2>&1
}
for f in $inputs; do
  split=
  grep -q '^// -----' "$f" && split=--split-input-file
  big=
  case $f in *chain-1000000*) big=1 ;; esac
  for pipe in "--remat-mincut" "--remat-autodiff --remat-mincut" \
              "--remat-checkpoint=ac=auto --remat-mincut"; do
    for mode in plain debuginfo report; do
      # the 10^6-op chain: one mode (each run takes tens of seconds)
      [ -n "$big" ] && { [ "$pipe" = "--remat-mincut" ] && [ "$mode" = report ] || continue; }
      case $mode in
        plain) args="$pipe" ;;
        debuginfo) args="$pipe --print-debuginfo" ;;
        report) args=$(echo "$pipe" | sed 's/--remat-mincut/--remat-mincut=report=-/')
                args="$args --print-debuginfo" ;;
      esac
      checked=$((checked + 1))
      # shellcheck disable=SC2086
      run "$before" "$work/before.out" $split $args "$f" || continue
      accepted=$((accepted + 1))
      # shellcheck disable=SC2086
      run "$after" "$work/after.out" $split $args "$f"
      rc=$?
      if [ $mode = report ]; then
        for x in before after; do
          sed -E 's/^  time: .*$/  time: (dropped)/' "$work/$x.out" >"$work/$x.cmp"
        done
      else
        cp "$work/before.out" "$work/before.cmp"
        cp "$work/after.out" "$work/after.cmp"
      fi
      if [ $rc -ne 0 ] || ! cmp -s "$work/before.cmp" "$work/after.cmp"; then
        differ=$((differ + 1))
        echo "DIFFERS (exit $rc): $f $split $args"
      fi
    done
  done
done
echo "split_diff: $checked runs, $accepted accepted by $before, $differ differ"
[ $differ -eq 0 ]
