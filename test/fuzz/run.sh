#!/bin/sh
# run.sh BUILD HARNESS SECONDS WORKDIR: runs one libFuzzer harness for SECONDS from the
# generated seeds (seeds.py), the kept corpus (corpus/) and what WORKDIR/corpus already
# holds; new inputs go to WORKDIR/corpus, crashes to WORKDIR/artifacts/. The limits are
# those of README.md. Exit status: libFuzzer's (0, or non-zero on any finding).
set -eu
build=$1 harness=$2 seconds=$3 work=$4
src=$(cd "$(dirname "$0")" && pwd)
case $harness in
  fuzz_ir) kind=ir max_len=32768 ;;
  fuzz_inputs) kind=inputs max_len=8192 ;;
  fuzz_options) kind=options max_len=1024 ;;
  fuzz_pipeline) kind=pipeline max_len=2048 ;;
  *) echo "run.sh: unknown harness $harness" >&2; exit 2 ;;
esac
mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts"
dict=
[ "$kind" = options ] && dict=-dict=$src/options.dict
# fuzz_pipeline: the options' words and its own (module paths, distributions)
[ "$kind" = pipeline ] && cat "$src/options.dict" "$src/pipeline.dict" > "$work/dict" &&
  dict=-dict=$work/dict
python3 "$src/seeds.py" "$kind" "$src/../.." "$work/seeds"
exec "$build/test/fuzz/$harness" -max_total_time="$seconds" -max_len=$max_len -timeout=20 \
  -rss_limit_mb=3072 -artifact_prefix="$work/artifacts/" -print_final_stats=1 $dict \
  "$work/corpus" "$work/seeds" "$src/corpus/$kind"
