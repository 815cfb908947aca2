#!/bin/sh
# pass_diff.sh: checks that two builds of remat-opt give byte-identical output for every
# pass, split_diff.sh generalised to a list of pipelines (PASSES) and to remat-gen's
# random graphs.
#
# Runs BEFORE and AFTER (two remat-opt binaries, e.g. main's and a branch's) with each
# pipeline of PASSES on every .mlir file under test/ and examples/ and on GRAPHS random
# joint functions of remat-gen (unit and special values), printing with and without
# locations (MODES). A report (a pipeline with report=-) has its "time:" lines dropped:
# the only lines allowed to differ (and the peak search's time at the end of its line). A pipeline may name @AUX@, a file it writes (the
# min-cut's dot= or timeline=): the file is compared too, after the output. An input counts when BEFORE accepts it (exit 0); every
# accepted input must give byte-identical output (stdout and stderr) from AFTER, and
# every rejected input the same exit status and diagnostics. Prints one line per
# difference and a summary; exits 1 on any difference.
#
# Usage: bench/pass_diff.sh BEFORE_REMAT_OPT AFTER_REMAT_OPT [WORKDIR]
#   (from the repository root; WORKDIR, default /tmp/pass_diff, holds the generated inputs)
# Environment: PASSES (pipelines separated by ';', default below), MODES="plain
#   debuginfo" (default debuginfo: with locations), GRAPHS=1000 (per
#   values kind; 0: none), GEN (remat-gen, default next to AFTER), FILES=0 to leave out
#   the files under test/ and examples/, DIRS="test/fuse test/mincut" for those alone.
set -u
before=$1
after=$2
work=${3:-/tmp/pass_diff}
mkdir -p "$work"
PASSES=${PASSES-"--remat-mincut=report=-;--remat-autodiff;\
--remat-autodiff --remat-mincut=report=-;--remat-checkpoint=ac=auto --remat-report;\
--remat-checkpoint=memory-budget=4096 --remat-report;--remat-checkpoint=ac=auto --remat-mincut;\
--remat-fuse=report=-;--remat-fuse=grouping=shape;--remat-mincut --remat-fuse=report=-;\
--remat-mincut=objective=peak,report=-;--remat-mincut=objective=peak,peak-search=heuristic,report=-;\
--remat-mincut=objective=peak,peak-budget=4096,report=-;--remat-mincut=dot=@AUX@;\
--remat-mincut=timeline=@AUX@"}
# debuginfo: locations printed, so a difference in them shows; plain: as the tests print
MODES=${MODES-"debuginfo"}
GRAPHS=${GRAPHS-1000}
GEN=${GEN-$(dirname "$after")/remat-gen}

inputs=
if [ "$GRAPHS" -gt 0 ]; then
  for v in unit special; do
    "$GEN" --seed 27 --count "$GRAPHS" --values=$v >"$work/gen-$v.mlir" 2>/dev/null
    inputs="$inputs $work/gen-$v.mlir"
  done
fi
[ "${FILES-1}" = 0 ] || inputs="$inputs $(find ${DIRS-test examples} -name '*.mlir' | sort)"

checked=0 accepted=0 differ=0
IFS_SAVE=$IFS
for f in $inputs; do
  split=
  grep -q '^// -----' "$f" && split=--split-input-file
  IFS=';'
  for pipe in $PASSES; do
    IFS=$IFS_SAVE
    for mode in $MODES; do
      args=$pipe
      [ $mode = debuginfo ] && args="$pipe --print-debuginfo"
      checked=$((checked + 1))
      rm -f "$work/before.aux" "$work/after.aux"
      # shellcheck disable=SC2086
      "$before" $split $(echo "$args" | sed "s|@AUX@|$work/before.aux|") "$f" \
        >"$work/before.out" 2>&1
      rb=$?
      # shellcheck disable=SC2086
      "$after" $split $(echo "$args" | sed "s|@AUX@|$work/after.aux|") "$f" \
        >"$work/after.out" 2>&1
      ra=$?
      [ $rb -eq 0 ] && accepted=$((accepted + 1))
      for x in before after; do
        [ -e "$work/$x.aux" ] && cat "$work/$x.aux" >>"$work/$x.out"
        sed -E -e 's/^( *)time: .*$/\1time: (dropped)/' \
          -e 's/^( *objective peak: .* splits simulated), [0-9.]+ ms/\1, (time dropped)/' \
          "$work/$x.out" >"$work/$x.cmp"
      done
      if [ $rb -ne $ra ] || ! cmp -s "$work/before.cmp" "$work/after.cmp"; then
        differ=$((differ + 1))
        echo "DIFFERS (exit $rb -> $ra): $f $split $args"
      fi
    done
    IFS=';'
  done
  IFS=$IFS_SAVE
done
echo "pass_diff: $checked runs, $accepted accepted by $before, $differ differ"
[ $differ -eq 0 ]
