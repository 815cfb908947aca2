#!/bin/sh
# bench/gpu/device.sh: bench/gpu/run.sh on a lent GPU machine that has no LLVM/MLIR.
#
#   sh bench/gpu/device.sh pack DIR [BUILD]   # here (no GPU): DIR for the GPU machine
#   sh bench/gpu/device.sh run DIR            # there, in the repository's root
#
# The GPU machines lent to remat's sessions (the `device` tool: an NVIDIA H200, CUDA 13,
# PyTorch, CMake; no LLVM 22, no MLIR, no network) cannot build remat, and its tools need
# libMLIR.so and libLLVM.so (250 MB) while a call carries at most 64 MiB. So `pack` puts
# the tools of BUILD (default build; remat-run, remat-opt, remat-translate and
# libremat.so), every library they load except glibc's (xz-compressed), libdevice and the
# models of `run.sh --prepare` (imported here if DIR/models is missing: torch, tens of
# minutes on a loaded 2-core machine) into DIR. `run` unpacks the libraries into /tmp,
# points the loader at them (the machine's libstdc++ when it has one: it is newer), finds
# cuBLAS (the toolkit's or the cuBLAS of the machine's PyTorch), runs the checks of
# test/gpu/exec.test and then run.sh on the prepared models, and leaves results.md and
# logs.tar.gz in $OUT (the files the device tool brings back) or DIR/out.
#
# A session with a GPU, from the repository root, DIR ignored by git:
#   echo /.gpu/ >> .git/info/exclude && sh bench/gpu/device.sh pack .gpu
#   device run: command "sh bench/gpu/device.sh run .gpu", carry [".gpu"], timeout_s 540
# then copy $OUT's results.md into bench/RESULTS.md.
set -u
MODE=${1:?usage: device.sh pack DIR [BUILD] | run DIR}
DIR=${2:?usage: device.sh pack DIR [BUILD] | run DIR}
TOOLS="remat-run remat-opt remat-translate"

if [ "$MODE" = pack ]; then
  BUILD=${3:-build}
  mkdir -p "$DIR/bin" "$DIR/lib" || exit 1
  for t in $TOOLS; do
    cp "$BUILD/bin/$t" "$DIR/bin/" || exit 1
  done
  # Every library the tools load, under the name the loader asks for, but glibc's own
  # (the machine's is newer: this Debian has 2.36) and the loader.
  for t in $TOOLS; do ldd "$BUILD/bin/$t"; done |
    awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u |
    while read -r name path; do
      case $name in
        libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libgcc_s.so.*|ld-linux*) ;;
        *) cp -L "$path" "$DIR/lib/$name" || exit 1 ;;
      esac
    done || exit 1
  # ICU's data (31 MB; libLLVM -> libxml2 -> libicuuc -> libicudata) serves libxml2's
  # encoding conversions, which remat's tools never reach: a stub holding the one symbol
  # libicuuc binds at load (icudtNN_dat) keeps DIR under the 64 MiB a call carries.
  for f in "$DIR"/lib/libicudata.so.*; do
    [ -f "$f" ] || continue
    v=$(basename "$f" | sed 's/^libicudata\.so\.\([0-9]*\).*/\1/')
    echo "const unsigned char icudt${v}_dat[64] __attribute__((aligned(16))) = {0};" > "$DIR/icustub.c"
    cc -shared -fPIC -Wl,-soname,"$(basename "$f")" -o "$f" "$DIR/icustub.c" || exit 1
    rm -f "$DIR/icustub.c"
  done
  tar -C "$DIR" -cf - lib | xz -T2 -6 > "$DIR/lib.tar.xz" || exit 1
  rm -rf "$DIR/lib"
  LIBDEVICE=${REMAT_LIBDEVICE:-/usr/local/cuda/nvvm/libdevice/libdevice.10.bc}
  cp "$LIBDEVICE" "$DIR/libdevice.10.bc" || exit 1
  if [ ! -d "$DIR/models" ]; then
    sh bench/gpu/run.sh --prepare "$DIR/models" "$BUILD" || exit 1
  fi
  size=$(du -sm "$DIR" | cut -f1)
  echo "bench/gpu/device.sh: $DIR holds ${size} MiB (a device call carries at most 64 MiB with the tree)"
  [ "$size" -lt 60 ] || { echo "bench/gpu/device.sh: $DIR is too large to carry" >&2; exit 1; }
  exit 0
fi

[ "$MODE" = run ] || { echo "usage: device.sh pack DIR [BUILD] | run DIR" >&2; exit 1; }
DIR=$(cd "$DIR" && pwd) || exit 1
RES=${OUT:-$DIR/out}
mkdir -p "$RES" /tmp/remat-gpu || exit 1
rm -rf /tmp/remat-gpu/lib
tar -C /tmp/remat-gpu -xJf "$DIR/lib.tar.xz" || exit 1
if /sbin/ldconfig -p 2>/dev/null | grep -q 'libstdc++\.so\.6 '; then
  rm -f /tmp/remat-gpu/lib/libstdc++.so.6
fi
LD_LIBRARY_PATH=/tmp/remat-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -f /usr/local/cuda/nvvm/libdevice/libdevice.10.bc ] ||
  export REMAT_LIBDEVICE="$DIR/libdevice.10.bc"
# cuBLAS 13: the loader's, the toolkit's, or the one in the machine's PyTorch (its
# directory goes on the loader's path too, for libcublasLt).
if ! /sbin/ldconfig -p 2>/dev/null | grep -q 'libcublas\.so\.13 ' &&
   [ ! -f /usr/local/cuda/lib64/libcublas.so.13 ]; then
  d=$(python3 -c 'import nvidia.cublas, os; print(os.path.join(list(nvidia.cublas.__path__)[0], "lib"))' 2>/dev/null)
  if [ -n "$d" ] && [ -f "$d/libcublas.so.13" ]; then
    export REMAT_LIBCUBLAS="$d/libcublas.so.13"
    LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$d
  fi
fi
export LD_LIBRARY_PATH
chmod +x "$DIR"/bin/* 2>/dev/null
RR="$DIR/bin/remat-run"
LOG=/tmp/remat-gpu/device.txt
{
  echo "device.sh: $(date -u), LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  echo "REMAT_LIBDEVICE=${REMAT_LIBDEVICE:-} REMAT_LIBCUBLAS=${REMAT_LIBCUBLAS:-}"
  "$RR" --device=cuda --device-info
} > "$LOG" 2>&1
st=$?
cat "$LOG"
if [ $st -ne 0 ]; then
  cp "$LOG" "$RES/"
  exit 1
fi
# test/gpu/exec.test's checks (views, calls, cuBLAS, reductions), without lit.
FAIL=0
IN=test/unit/Inputs/cuda-exec.mlir
for fn in views calls; do
  "$RR" $IN --fn $fn --seed 2 --print=full > /tmp/remat-gpu/$fn.cpu 2>&1 &&
    "$RR" $IN --fn $fn --seed 2 --print=full --device=cuda > /tmp/remat-gpu/$fn.gpu 2>&1 &&
    cmp -s /tmp/remat-gpu/$fn.cpu /tmp/remat-gpu/$fn.gpu && r=ok || { r=FAILED; FAIL=1; }
  echo "exec.test @$fn: GPU output = CPU output: $r" | tee -a "$LOG"
done
for fn in mm mmt; do
  "$RR" $IN --check-device $fn --seed 2 >> "$LOG" 2>&1 && r=ok || { r=FAILED; FAIL=1; }
  echo "exec.test --check-device @$fn: $r" | tee -a "$LOG"
done
PREPARED="$DIR/models" OUT=/tmp/remat-gpu/run sh bench/gpu/run.sh "$DIR" || FAIL=1
{
  cat /tmp/remat-gpu/run/results.md 2>/dev/null
  echo
  echo "device.sh: exec.test checks and run.sh: $([ $FAIL = 0 ] && echo ok || echo FAILED)"
} > "$RES/results.md"
tar -C /tmp/remat-gpu -czf "$RES/logs.tar.gz" device.txt run 2>/dev/null
exit $FAIL
