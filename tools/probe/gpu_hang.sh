#!/usr/bin/env bash
# Repeats GPU test programs to catch an intermittent hang, and when one hangs records where it
# sits (process state, kernel wait channel, kernel stack, gdb backtrace where gdb exists, the
# driver's log lines) instead of waiting on it. Built for one device call.
#
# Usage: tools/probe/gpu_hang.sh OUTDIR [SRCDIR...]
#   Each SRCDIR (default: this checkout) is built Release with tests and no benchmarks, then:
#   test_child_graph_gpu alone RUNS times, test_matrix_gpu followed by test_child_graph_gpu
#   PAIRS times (env RUNS, PAIRS; default 8 and 3). A run that has not ended after LIMIT
#   seconds (default 40) counts as a hang, is described, and is sent SIGKILL. A crash's
#   backtrace (backend_gpu.c prints one) is resolved to functions and lines with addr2line.
#   BUILD_TYPE (default Release) and ASAN=1 (AddressSanitizer, protect_shadow_gap=0 for CUDA)
#   choose the build.
set -uo pipefail
out=$1; shift
[ $# -gt 0 ] || set -- "$(cd "$(dirname "$0")/../.." && pwd)"
runs=${RUNS:-8} pairs=${PAIRS:-3} limit=${LIMIT:-40}
mkdir -p "$out"
log=$out/hang.log
: > "$log"
deps=$(cd "$(dirname "$0")/../.." && pwd)/.deps/cmocka/usr
export ASAN_OPTIONS=${ASAN_OPTIONS:-protect_shadow_gap=0:detect_leaks=0}
export LD_LIBRARY_PATH=$deps/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}

describe() { # PID NAME
  local pid=$1 name=$2
  echo "---- HANG: $name pid $pid after ${limit}s" >> "$log"
  ps -o pid,stat,wchan:32,etime,cmd -p "$pid" >> "$log" 2>&1
  for t in /proc/"$pid"/task/*; do
    echo "task ${t##*/}: $(tr -d '\0' < "$t/wchan" 2>/dev/null) $(awk '{print $3}' "$t/stat" 2>/dev/null)" >> "$log"
    cat "$t/stack" >> "$log" 2>/dev/null
  done
  if command -v gdb > /dev/null; then
    timeout 30 gdb -q -batch -p "$pid" -ex 'thread apply all bt 12' >> "$log" 2>&1
  else
    echo "(no gdb)" >> "$log"
  fi
  (dmesg 2>/dev/null || journalctl -k 2>/dev/null) | tail -20 >> "$log"
  nvidia-smi --query-compute-apps=pid,used_memory --format=csv >> "$log" 2>&1
}

run_one() { # BUILD PROGRAM LABEL
  local b=$1 prog=$2 label=$3 s=$(date +%s.%N)
  "$b/tests/$prog" > "$out/cur.out" 2>&1 &
  local pid=$! waited=0
  while kill -0 "$pid" 2> /dev/null && [ $waited -lt $((limit * 10)) ]; do
    sleep 0.1; waited=$((waited + 1))
  done
  if kill -0 "$pid" 2> /dev/null; then
    describe "$pid" "$label $prog"
    tail -30 "$out/cur.out" >> "$log"
    kill -9 "$pid" 2> /dev/null
    sleep 2
    kill -0 "$pid" 2> /dev/null && echo "  (still there after SIGKILL: $(ps -o stat= -p "$pid"))" >> "$log"
    echo "$label $prog HANG"
    return 2
  fi
  wait "$pid"; local rc=$?
  local secs; secs=$(echo "$(date +%s.%N) - $s" | bc 2>/dev/null || echo '?')
  if [ $rc -ne 0 ]; then
    echo "---- FAIL rc=$rc: $label $prog" >> "$log"; tail -60 "$out/cur.out" >> "$log"
    grep -o "$prog(+0x[0-9a-f]*)" "$out/cur.out" | grep -o '0x[0-9a-f]*' |
      xargs -r addr2line -f -i -C -p -e "$b/tests/$prog" >> "$log" 2>&1
  fi
  echo "$label $prog rc=$rc ${secs}s"
  return $rc
}

n=0
for src in "$@"; do
  n=$((n + 1)); b=$src/build-hang-${BUILD_TYPE:-Release}${ASAN:+-asan}
  san=(); [ "${ASAN:-0}" = 1 ] && san=(-DCMAKE_C_FLAGS="-fsanitize=address -fno-omit-frame-pointer" -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address)
  cmake -S "$src" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -DCGN_BUILD_TESTS=ON "${san[@]}" \
    -DCGN_BUILD_BENCH=OFF -DCGN_WERROR=OFF -DCMAKE_PREFIX_PATH="$deps" > "$out/build$n.log" 2>&1 &&
    cmake --build "$b" >> "$out/build$n.log" 2>&1 || { echo "build of $src failed"; tail -20 "$out/build$n.log"; continue; }
  rev=$(cat "$src/REVISION" 2>/dev/null || echo "$src")
  echo "== $rev"
  for i in $(seq "$runs"); do run_one "$b" test_child_graph_gpu "[$rev alone $i]"; done
  for i in $(seq "$pairs"); do
    run_one "$b" test_matrix_gpu "[$rev pair $i]"
    run_one "$b" test_child_graph_gpu "[$rev pair $i]"
  done
done
rm -f "$out/cur.out"
