#!/usr/bin/env bash
# Builds the cgn driver probe (tools/probe) into a temp dir and runs it.
#
#   bash tools/probe/run.sh                 # every case (about 190), report on stdout
#   bash tools/probe/run.sh A1 C D          # only cases whose id starts with A1, C or D
#   bash tools/probe/run.sh -j 4 -t 10 -b 95 -l   # jobs, per-case timeout s, start budget s, list
#
# The report (markdown) goes to stdout and, when $OUT is set, to $OUT/probe.md as well.
# Needs nvcc (PATH, $NVCC or /usr/local/cuda/bin/nvcc) and gcc; the probe itself dlopen()s
# libcuda.so.1 and prints "no CUDA driver" (exit 0) where there is none.
set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

nvcc_bin="${NVCC:-}"
if [ -z "$nvcc_bin" ]; then
    if command -v nvcc >/dev/null 2>&1; then
        nvcc_bin="$(command -v nvcc)"
    elif [ -x /usr/local/cuda/bin/nvcc ]; then
        nvcc_bin=/usr/local/cuda/bin/nvcc
    else
        echo "run.sh: nvcc not found (set NVCC=/path/to/nvcc)" >&2
        exit 1
    fi
fi
cuda_inc="${CUDA_INC:-$(cd "$(dirname "$nvcc_bin")/.." && pwd)/include}"
if [ ! -f "$cuda_inc/cudaTypedefs.h" ]; then
    echo "run.sh: $cuda_inc/cudaTypedefs.h not found (set CUDA_INC)" >&2
    exit 1
fi
cc_bin="${CC:-gcc}"

work="$(mktemp -d "${TMPDIR:-/tmp}/cgn_probe.XXXXXX")" || exit 1
trap 'rm -rf "$work"' EXIT

echo "run.sh: building with $nvcc_bin and $cc_bin (headers: $cuda_inc) in $work" >&2
# sm_90 SASS for H100/H200 plus compute_90 PTX so newer GPUs can JIT it.
if ! "$nvcc_bin" -fatbin -gencode arch=compute_90,code=sm_90 \
        -gencode arch=compute_90,code=compute_90 \
        -o "$work/probe_kernels.fatbin" "$here/probe_kernels.cu"; then
    echo "run.sh: nvcc failed" >&2
    exit 1
fi
if ! "$cc_bin" -std=c11 -O1 -Wall -I"$cuda_inc" -o "$work/probe_driver" \
        "$here/probe_driver.c" -ldl; then
    echo "run.sh: compiling probe_driver.c failed" >&2
    exit 1
fi

if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    "$work/probe_driver" "$work/probe_kernels.fatbin" "$@" | tee "$OUT/probe.md"
    rc=${PIPESTATUS[0]}
else
    "$work/probe_driver" "$work/probe_kernels.fatbin" "$@"
    rc=$?
fi
exit "$rc"
