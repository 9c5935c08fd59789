#!/usr/bin/env bash
# cgn's own CPU time per update on this host, by compiler options: builds bench/icount (fake
# driver, setters stubbed with --stub: what bench_updates calls "cgn alone") at each -O level in
# OPTS and prints, per case, the minimum over RUNS runs of ITER updates, in ns. Compares hosts
# (the development container vs the H200's) and options on the same code.
#   tools/probe/cpu_cost.sh [OUTDIR]     env: OPTS="-O2 -O3" RUNS=5 ITER=1000000 CASES="..." CC
set -eu
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-$root/build-cpu-cost}"
mkdir -p "$out"
opts="${OPTS:--O2 -O3}"
runs="${RUNS:-5}"
iter="${ITER:-1000000}"
cases="${CASES:-kernel_grid kernel_scalar kernel_arg kernel_arg6 memset_value memcpy_size host_fn event_record exec_kernel_grid exec_kernel_scalar exec_kernel_arg6 exec_memset_value exec_launch}"
{
  echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  echo "compiler: $(${CC:-cc} --version | head -1)"
} | tee "$out/cpu_cost.txt"
prefix=()
[ -d "$root/.deps/cmocka/usr" ] && prefix=("-DCMAKE_PREFIX_PATH=$root/.deps/cmocka/usr")
for o in $opts; do
  b="$out/build${o}"
  cmake -S "$root" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS_RELEASE=$o -DNDEBUG" \
      -DCMAKE_C_FLAGS= -DCGN_CODEGEN=OFF -DCGN_SANITIZE= -DCGN_VALGRIND=OFF -DCGN_WERROR=OFF \
      -DCGN_BUILD_EXAMPLES=OFF -DCGN_BUILD_TESTS=ON -DCGN_BUILD_BENCH=ON "${prefix[@]}" > "$b.log" 2>&1
  cmake --build "$b" --target icount >> "$b.log" 2>&1
done
printf "%-20s" case | tee -a "$out/cpu_cost.txt"
for o in $opts; do printf "%10s" "$o"; done | tee -a "$out/cpu_cost.txt"; echo | tee -a "$out/cpu_cost.txt"
for c in $cases; do
  printf "%-20s" "$c" | tee -a "$out/cpu_cost.txt"
  for o in $opts; do
    best=""
    for r in $(seq "$runs"); do
      v=$("$out/build${o}/bench/icount" --iterations "$iter" --stub "$c" | awk '/^CASE/{print $4}')
      best=$(awk -v a="$best" -v b="$v" 'BEGIN{print (a=="" || b+0<a+0) ? b : a}')
    done
    printf "%10s" "$best" | tee -a "$out/cpu_cost.txt"
  done
  echo | tee -a "$out/cpu_cost.txt"
done
