#!/usr/bin/env bash
# A/B timing of two source trees on one machine (the device): builds bench_updates (Release, as
# bench/run_device.sh does) from each tree and runs the given sections of both in turn, ROUNDS
# times, so that both see the same phases of a noisy host; then prints, per RESULT key, each
# tree's values and their medians.
#   tools/probe/ab.sh OUTDIR TREE_A TREE_B [SECTIONS]      env: ROUNDS=3, BUILD=/tmp/cgn-ab
# Builds go to $BUILD (not OUTDIR); OUTDIR receives ab.log and ab.txt.
set -u
out=$1 tree_a=$2 tree_b=$3 sections=${4:-insitu}
rounds=${ROUNDS:-3}
build=${BUILD:-/tmp/cgn-ab}
mkdir -p "$out" "$build"
for t in a b; do
  src=$tree_a
  [ "$t" = b ] && src=$tree_b
  if ! { cmake -S "$src" -B "$build/$t" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCGN_BUILD_TESTS=OFF \
           -DCGN_BUILD_EXAMPLES=OFF -DCGN_WERROR=OFF &&
         cmake --build "$build/$t" --target bench_updates; } > "$build/$t.log" 2>&1; then
    tail -20 "$build/$t.log"
    exit 1
  fi
done
: > "$out/ab.log"
for r in $(seq "$rounds"); do
  for t in a b; do
    echo "== round $r tree $t" >> "$out/ab.log"
    "$build/$t/bench/bench_updates" --only "$sections" >> "$out/ab.log" 2>&1
  done
done
python3 - "$out/ab.log" > "$out/ab.txt" <<'PY'
import statistics, sys
vals, tree, order = {}, None, []
for line in open(sys.argv[1]):
    if line.startswith("== round"):
        tree = line.split()[-1]
    elif line.startswith("RESULT "):
        key, v = line.split()[1], float(line.split()[2])
        if key not in vals:
            vals[key] = {"a": [], "b": []}
            order.append(key)
        vals[key][tree].append(v)
print(f"{'key':44} {'A values':>26} {'B values':>26} {'A med':>8} {'B med':>8}")
for k in order:
    a, b = vals[k]["a"], vals[k]["b"]
    fa = " ".join(f"{x:.1f}" for x in a)
    fb = " ".join(f"{x:.1f}" for x in b)
    ma = statistics.median(a) if a else float("nan")
    mb = statistics.median(b) if b else float("nan")
    print(f"{k:44} {fa:>26} {fb:>26} {ma:8.1f} {mb:8.1f}")
PY
cat "$out/ab.txt"
