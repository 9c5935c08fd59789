#!/usr/bin/env bash
# The whole GPU session in one script (for the device machine): build, GPU test suite, the suite
# under compute-sanitizer memcheck, benchmarks against the raw driver and cuda.core, the report.
# Usage: bench/run_device.sh OUTDIR   (cmocka staged under .deps/cmocka, see shared/device)
set -uo pipefail
out=${1:-/tmp/cgn-device}
mkdir -p "$out"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export LD_LIBRARY_PATH=$root/.deps/cmocka/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
status=0
{
  cmake -S . -B build-gpu -G Ninja -DCMAKE_PREFIX_PATH=$root/.deps/cmocka/usr -DCMAKE_BUILD_TYPE=Release &&
  cmake --build build-gpu
} > "$out/build.log" 2>&1 || { echo "BUILD FAILED"; tail -40 "$out/build.log"; exit 1; }
ctest --test-dir build-gpu -L gpu --output-on-failure > "$out/gpu-tests.log" 2>&1 || status=1
ctest --test-dir build-gpu -L unit --output-on-failure > "$out/unit-tests.log" 2>&1 || status=1
for t in test_matrix_gpu test_child_graph_gpu; do
  compute-sanitizer --tool memcheck --leak-check full --report-api-errors no --error-exitcode 3 \
    build-gpu/tests/$t >> "$out/memcheck.log" 2>&1 || status=1
done
build-gpu/bench/bench_updates > "$out/bench-cgn.txt" 2>&1 || status=1
python3 bench/bench_cuda_core.py build-gpu/cgn_test_kernels.fatbin > "$out/bench-cuda-core.txt" 2>&1 || status=1
python3 bench/report.py "$out/bench-cgn.txt" "$out/bench-cuda-core.txt" > "$out/report.md" 2>&1
./build-gpu/examples/cgn_demo > "$out/demo.txt" 2>&1 || status=1
echo "== GPU: $(cat "$out/gpu.txt")"
echo "== gpu tests";  grep -E "tests passed|Passed|Failed|Skipped|\*\*\*" "$out/gpu-tests.log" | tail -8
echo "== unit tests"; grep -E "tests passed" "$out/unit-tests.log"
echo "== memcheck";   grep -E "ERROR SUMMARY|PASSED|FAILED" "$out/memcheck.log" | tail -6
echo "== demo";       cat "$out/demo.txt"
echo "== report";     cat "$out/report.md"
grep -h "^RESULT memory" "$out/bench-cgn.txt"
exit $status
