#!/usr/bin/env python3
"""Picks a small seed corpus for a libFuzzer target: the few inputs that together reach the most
coverage edges (greedy set cover), from a large corpus a long run produced.

  tests/fuzz/select_corpus.py build-fuzz/tests/fuzz_api RUN_CORPUS tests/fuzz/corpus_api [-n 40]

It runs the target on each input alone with -merge=1 and a control file (where libFuzzer records
the edges the input reaches), then keeps, one at a time, the input that adds the most edges not yet reached (ties:
the shorter one), until N inputs are kept or none adds anything. The output directory is
replaced; files are named by content hash, as libFuzzer names them.
"""
import argparse
import concurrent.futures
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile


def edges_of(target, path, env):
    """The coverage edges one input reaches (a merge of that input alone records all of them)."""
    with tempfile.TemporaryDirectory() as tmp:
        one, empty, control = (os.path.join(tmp, n) for n in ("one", "empty", "control"))
        os.mkdir(one)
        os.mkdir(empty)
        shutil.copy(path, one)
        subprocess.run([target, "-merge=1", "-merge_control_file=" + control, empty, one],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cov = set()
        with open(control) as f:
            for line in f:
                parts = line.split()
                if parts and parts[0] == "COV":
                    cov.update(parts[2:])
        return cov


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target")
    ap.add_argument("corpus", nargs="+", help="directories of inputs to choose from")
    ap.add_argument("out")
    ap.add_argument("-n", type=int, default=40, help="at most this many inputs (default 40)")
    args = ap.parse_args()
    # the last positional is the output
    dirs = args.corpus
    files = sorted(os.path.join(d, n) for d in dirs for n in os.listdir(d))
    env = dict(os.environ, FUZZ_API_TOLERATE=os.environ.get("FUZZ_API_TOLERATE", "1"))
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        covs = list(pool.map(lambda f: edges_of(args.target, f, env), files))
    edges = {i: c for i, c in enumerate(covs) if c}
    sizes = {i: os.path.getsize(files[i]) for i in edges}
    reached, kept = set(), []
    while len(kept) < args.n:
        best = max(edges, key=lambda i: (len(edges[i] - reached), -sizes[i]), default=None)
        if best is None or not edges[best] - reached:
            break
        reached |= edges.pop(best)
        kept.append(best)
    total = set().union(reached, *edges.values())
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    for i in kept:
        with open(files[i], "rb") as f:
            data = f.read()
        with open(os.path.join(args.out, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    print(f"kept {len(kept)} of {len(files)} inputs ({sum(sizes[i] for i in kept)} bytes), "
          f"reaching {len(reached)} of {len(total)} edges")
    return 0


if __name__ == "__main__":
    sys.exit(main())
