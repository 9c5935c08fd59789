#!/usr/bin/env python3
"""Reads RESULT lines (from bench_updates and bench_cuda_core.py) and prints the comparison
table with ratios and the targets of DESIGN.md section 8. Exit status 0; misses are reported."""
import sys


def load(paths):
    values, notes = {}, {}
    for path in paths:
        for line in open(path):
            if line.startswith("RESULT "):
                parts = line.split(None, 3)
                values[parts[1]] = float(parts[2])
                notes[parts[1]] = parts[3].strip() if len(parts) > 3 else ""
    return values, notes


def main():
    v, _ = load(sys.argv[1:])

    def row(label, key, ref_key=None, target=None, invert=False):
        if key not in v:
            return
        ns = v[key]
        text = f"| {label} | {ns:,.0f} ns |"
        if ref_key and ref_key in v:
            ratio = v[ref_key] / ns if invert else ns / v[ref_key]
            ok = "" if target is None else (" ✔" if (ratio >= target if invert else ratio <= target) else " ✘ (target %s%.2f)" % ("≥" if invert else "≤", target))
            text += f" {ratio:.2f}×{ok} |"
        else:
            text += " |"
        print(text)

    print("| measurement | host time per call | ratio |")
    print("|---|---|---|")
    print("| **definition update, owners unchanged** | | |")
    row("raw cuGraphKernelNodeSetParams", "def_update_unchanged.raw_cuGraphKernelNodeSetParams")
    row("raw cuGraphNodeSetParams (reference)", "def_update_unchanged.raw_cuGraphNodeSetParams")
    row("raw, alternating two kernelParams arrays", "def_update_unchanged.raw_alternating_arrays")
    row("cgn new scalar arg / raw cuGraphNodeSetParams", "def_update_unchanged.cgn_args",
        "def_update_unchanged.raw_cuGraphNodeSetParams", 1.15)
    row("raw cuGraphNodeSetParams, new grid", "def_update_unchanged.raw_grid")
    row("cgn new grid / raw new grid", "def_update_unchanged.cgn_grid",
        "def_update_unchanged.raw_grid", 1.15)
    row("interleaved: raw new scalar arg", "interleaved.args.raw")
    row("interleaved: cgn new scalar arg / raw", "interleaved.args.cgn", "interleaved.args.raw", 1.15)
    row("interleaved: raw new grid", "interleaved.grid.raw")
    row("interleaved: cgn new grid / raw", "interleaved.grid.cgn", "interleaved.grid.raw", 1.15)
    row("cgn alone (stub driver call), scalar arg", "cgn_cpu.args")
    row("cgn alone (stub driver call), grid", "cgn_cpu.grid")
    row("cuda.core update(args=) scalar", "cuda_core.def_update_unchanged.args")
    row("cuda.core update(config=)", "cuda_core.def_update_unchanged.config")
    row("speed-up of cgn args over cuda.core", "def_update_unchanged.cgn_args",
        "cuda_core.def_update_unchanged.args", 6.0, invert=True)
    row("speed-up of cgn grid over cuda.core config", "def_update_unchanged.cgn_grid",
        "cuda_core.def_update_unchanged.config", 6.0, invert=True)
    print("| **definition update, owners changed** | | |")
    row("raw by hand (user object + set + release old)", "def_update_owners.raw_by_hand")
    row("cgn new buffer arg + owner / raw by hand", "def_update_owners.cgn_kernel_args",
        "def_update_owners.raw_by_hand", 2.5)
    row("cgn memset new dst + owner / raw by hand", "def_update_owners.cgn_memset_dst",
        "def_update_owners.raw_by_hand", 2.5)
    row("cuda.core update(args=) new Buffer", "cuda_core.def_update_owners.kernel_args")
    row("cuda.core memset update(dst=)", "cuda_core.def_update_owners.memset_dst")
    row("speed-up of cgn kernel args over cuda.core", "def_update_owners.cgn_kernel_args",
        "cuda_core.def_update_owners.kernel_args", 6.0, invert=True)
    row("speed-up of cgn memset dst over cuda.core", "def_update_owners.cgn_memset_dst",
        "cuda_core.def_update_owners.memset_dst", 6.0, invert=True)
    print("| **other node types, owners unchanged** | | |")
    for key, label in (("memcpy_size", "memcpy, new size"), ("host_fn", "host callback, new function"),
                       ("event_record", "event record, new event")):
        row(f"raw cuGraphNodeSetParams: {label}", f"other.{key}.raw")
        row(f"cgn: {label} / raw", f"other.{key}.cgn", f"other.{key}.raw", 1.15)
    print("| **executable-level update (complete desc), interleaved** | | |")
    row("raw cuGraphExecNodeSetParams", "exec_update.raw")
    row("cgn_kernel_exec_update / raw", "exec_update.cgn", "exec_update.raw", 1.15)
    row("cuda.core graph[node].update(config=, kernel=, args=)", "cuda_core.exec_update.kernel")
    row("speed-up of cgn over cuda.core", "exec_update.cgn", "cuda_core.exec_update.kernel", 6.0,
        invert=True)
    print("| **per-update cost against graph size (middle node)** | | |")
    for n in (1, 100, 10000, 100000):
        row(f"raw, {n:,} nodes", f"graph_size.{n}.raw")
        row(f"cgn, {n:,} nodes / cgn at 1 node", f"graph_size.{n}.cgn", "graph_size.1.cgn", 1.1)
    print("| **instantiate** | | |")
    for n in (100, 10000):
        row(f"raw cuGraphInstantiate, {n:,} nodes", f"instantiate.{n}.raw")
        row(f"cgn_graph_instantiate, {n:,} nodes / raw", f"instantiate.{n}.cgn", f"instantiate.{n}.raw", 1.05)
    print()
    for key in sorted(k for k in v if k.startswith("memory.")):
        print(f"- {key}: {v[key]:,.0f}")


if __name__ == "__main__":
    main()
