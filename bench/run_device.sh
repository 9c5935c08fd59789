#!/usr/bin/env bash
# The whole GPU session in one script and one device call: build (Release), the GPU test suite
# (and the unit tests), compute-sanitizer memcheck with leak check on the GPU test binaries,
# optionally the driver probe, the benchmarks (bench_updates with every section, including the
# 1,000,000-cycle exec-level memory run, and bench_cuda_core.py in the same call) and
# report.py's table. Every phase runs under a time limit taken from one overall budget, so the
# benchmarks keep their time even when something before them hangs.
#
# Usage: bench/run_device.sh [OUTDIR] [--probe] [--no-memcheck] [--cycles N] [--budget SECONDS]
#   OUTDIR    where the logs go (default $OUT, else /tmp/cgn-device); at most 8 files:
#             build.log tests.log memcheck.log bench-cgn.txt bench-cuda-core.txt report.md
#             summary.txt (+ probe.md with --probe)
#   --cycles  exec-level memory run cycles (default 1000000)
#   --budget  seconds for the whole run (default 540: the device call's limit is 600)
# Needs cmocka staged under .deps/cmocka (shared/device/stage-cmocka.sh; `carry: [".deps"]`);
# without it the tests are not built and the benchmarks still run.
# Prints report.md, then the short summary LAST (the device tool returns the last 12 KB).
set -uo pipefail

out=${OUT:-/tmp/cgn-device}
probe=0 memcheck=1 cycles=1000000 budget=540
while [ $# -gt 0 ]; do
  case $1 in
    --probe) probe=1 ;;
    --no-memcheck) memcheck=0 ;;
    --cycles) cycles=$2; shift ;;
    --budget) budget=$2; shift ;;
    -*) echo "usage: $0 [OUTDIR] [--probe] [--no-memcheck] [--cycles N] [--budget S]" >&2; exit 2 ;;
    *) out=$1 ;;
  esac
  shift
done
mkdir -p "$out"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
deps=$root/.deps/cmocka/usr
export LD_LIBRARY_PATH=$deps/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}

t_start=$(date +%s)
deadline=$((t_start + budget))
status=0
summary=()

# phase NAME CAP RESERVE LOG 'COMMAND': runs COMMAND (bash) with its output appended to LOG, for
# at most CAP seconds and never into the last RESERVE seconds of the budget (kept for later).
phase() {
  local name=$1 cap=$2 reserve=$3 log=$4 cmd=$5
  local t=$((deadline - $(date +%s) - reserve))
  [ "$t" -gt "$cap" ] && t=$cap
  if [ "$t" -lt 15 ]; then
    summary+=("$(printf '%-30s SKIPPED (out of time budget)' "$name")")
    status=1
    return 99
  fi
  local s
  s=$(date +%s)
  echo "== $name (limit ${t}s)" >> "$log"
  timeout -k 10 "$t" bash -c "$cmd" >> "$log" 2>&1
  local rc=$? what=ok
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    what="TIMEOUT (${t}s)"
  elif [ $rc -ne 0 ]; then
    what="FAILED rc=$rc"
  fi
  [ $rc -eq 0 ] || status=1
  summary+=("$(printf '%-30s %-16s %4ds' "$name" "$what" $(($(date +%s) - s)))")
  echo "[$(($(date +%s) - t_start))s] $name: $what"
  return $rc
}

gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
: > "$out/build.log"; : > "$out/tests.log"; : > "$out/memcheck.log"

# ---- build -----------------------------------------------------------------------------------
tests=1
configure="cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCGN_BUILD_TESTS=ON -DCGN_BUILD_BENCH=ON -DCGN_WERROR=OFF"
if [ -d "$deps" ]; then
  configure+=" -DCMAKE_PREFIX_PATH=$(printf %q "$deps")"
else
  tests=0
  configure+=" -DCGN_BUILD_TESTS=OFF"
  echo "no cmocka under .deps/cmocka: tests not built" >> "$out/build.log"
fi
if ! phase build 300 200 "$out/build.log" "$configure && cmake --build build-gpu"; then
  tail -40 "$out/build.log"
  printf '%s\n' "== BUILD FAILED ($gpu)" "${summary[@]}" | tee "$out/summary.txt"
  exit 1
fi
# The device's compiler is newer than the development machine's (gcc 13 there): its warnings,
# which -Werror turns into errors elsewhere, are counted here rather than failing the run.
warnings=$(grep -c "warning:" "$out/build.log" || true)
summary+=("$(printf '%-30s %-16s' "compiler warnings" "$warnings")")

# ---- tests -----------------------------------------------------------------------------------
if [ $tests -eq 1 ]; then
  phase "gpu tests" 200 200 "$out/tests.log" \
    "ctest --test-dir build-gpu -L gpu --output-on-failure --no-tests=error --timeout 170"
  phase "unit tests" 60 190 "$out/tests.log" \
    "ctest --test-dir build-gpu -L unit --output-on-failure --no-tests=error --timeout 50"
else
  summary+=("$(printf '%-30s SKIPPED (no cmocka: stage it, carry .deps)' tests)")
  status=1
fi

# ---- compute-sanitizer ------------------------------------------------------------------------
if [ $tests -eq 1 ] && [ $memcheck -eq 1 ]; then
  for t in test_matrix_gpu test_exec_gpu test_adopt_gpu test_child_graph_gpu test_conditional_gpu \
           test_args_loop_gpu test_host_extent_gpu test_blackbox_gpu test_threads_gpu; do
    phase "memcheck $t" 150 180 "$out/memcheck.log" \
      "CGN_TEST_LOOP_CYCLES=1000 compute-sanitizer --tool memcheck --leak-check full \
       --report-api-errors no --error-exitcode 3 build-gpu/tests/$t"
  done
fi

# ---- probe (optional) ------------------------------------------------------------------------
if [ $probe -eq 1 ]; then
  phase probe 120 180 "$out/tests.log" "OUT=$(printf %q "$out") bash tools/probe/run.sh > /dev/null"
fi

# ---- benchmarks ----------------------------------------------------------------------------------
: > "$out/bench-cgn.txt"; : > "$out/bench-cuda-core.txt"
left=$((deadline - $(date +%s)))
# The other sections take well under a minute; the memory run gets what is left after them and
# cuda.core (up to ~60 s each), at most 120 s, and says so when it stops early.
mem_s=$((left - 120))
[ "$mem_s" -gt 120 ] && mem_s=120
[ "$mem_s" -lt 20 ] && mem_s=20
phase bench_updates 240 60 "$out/bench-cgn.txt" \
  "build-gpu/bench/bench_updates --cycles $((cycles)) --max-seconds $mem_s"
phase "cuda.core" 120 5 "$out/bench-cuda-core.txt" \
  "python3 bench/bench_cuda_core.py build-gpu/cgn_test_kernels.fatbin"
python3 bench/report.py "$out/bench-cgn.txt" "$out/bench-cuda-core.txt" > "$out/report.md" 2>&1

# ---- report, then the summary last --------------------------------------------------------------
echo
echo "== report"
cat "$out/report.md"
{
  echo
  echo "== summary: ${gpu:-no nvidia-smi}; $(date -u +%FT%TZ);" \
    "$(($(date +%s) - t_start))s of ${budget}s"
  printf '%s\n' "${summary[@]}"
  failed_test='^[[:space:]]*[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess|Not Run)'
  grep -hE "^== |^[0-9]+% tests passed|$failed_test" "$out/tests.log" | sed 's/^[[:space:]]*/  /'
  grep -hE "^== |ERROR SUMMARY|LEAK SUMMARY" "$out/memcheck.log" | sed 's/^/  /'
  grep -h "^FAILED " "$out/bench-cgn.txt" | sed 's/^/  bench check /'
  grep -h "^RESULT exec_memory.cycles" "$out/bench-cgn.txt" | sed 's/^RESULT /  /'
  grep -h "not measured" "$out/bench-cuda-core.txt" | sed 's/^/  cuda.core: /'
  echo "  files: $(cd "$out" && printf '%s ' *)"
  echo "== exit status $status"
} | tee "$out/summary.txt"
exit $status
