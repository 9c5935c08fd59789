#!/usr/bin/env bash
# Builds and runs tools/probe/ctx_setters.c on a GPU machine: every case under every context
# state (each in its own process, so a crash inside libcuda is a result), then the timings.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$here/../.."
nvcc_bin="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
inc="$(cd "$(dirname "$nvcc_bin")/.." && pwd)/include"
work="$(mktemp -d)"
"$nvcc_bin" -fatbin -gencode arch=compute_90,code=sm_90 -o "$work/k.fatbin" \
    "$root/tests/kernels/cgn_test_kernels.cu" || exit 1
gcc -std=c11 -O2 -Wall -I"$inc" -o "$work/ctx_setters" "$here/ctx_setters.c" -lcuda || exit 1
cases="kdef-typed kdef-generic kexec-typed kexec-generic ldef-typed lexec-typed mdef-typed
    mdef-generic mexec-typed mexec-generic cdef-typed cdef-generic cexec-typed cexec-generic hdef-typed hexec-typed
    edef-typed eexec-typed wdef-typed wexec-typed"
for c in ${CASES-$cases}; do
    for s in ${STATES:-none other gone node}; do
        timeout 30 "$work/ctx_setters" "$work/k.fatbin" "$c" "$s" || echo "CASE $c $s exit $?"
    done
done
"$work/ctx_setters" "$work/k.fatbin" time
