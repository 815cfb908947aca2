#!/bin/sh
# Builds and runs the GPU dropout check (needs a GPU, the CUDA driver and the toolkit's
# cuda.h). From the repository root, after `make build`:
#   sh bench/gpu/run.sh [build-dir]
# Prints one line per (seed, offset) and `ok: bit-exact`; exit status 0 on success.
set -e
BUILD=${1:-build}
CUDA=${CUDA_HOME:-/usr/local/cuda}
OUT=${OUT:-$(mktemp -d)}
"$BUILD/bin/remat-translate" --emit=ptx --sm=90 bench/gpu/dropout.mlir -o "$OUT/dropout.ptx"
"$CUDA/bin/ptxas" -arch=sm_90 "$OUT/dropout.ptx" -o "$OUT/dropout.cubin"
cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Ilib -I"$CUDA/include" \
  bench/gpu/dropout_gpu.c lib/philox.c lib/half.c \
  -L"$CUDA/lib64" -L"$CUDA/lib64/stubs" -lcuda -lm -o "$OUT/dropout_gpu"
"$OUT/dropout_gpu" "$OUT/dropout.ptx"
