#!/usr/bin/env python3
"""Reads RESULT lines (from bench_updates and bench_cuda_core.py) and prints the comparison
table with ratios and the targets of DESIGN.md section 8. Exit status 0; misses are reported."""
import sys


def load(paths):
    values, notes, failed = {}, {}, []
    for path in paths:
        for line in open(path, errors="replace"):
            if line.startswith("RESULT "):
                parts = line.split(None, 3)
                try:
                    values[parts[1]] = float(parts[2])
                except (IndexError, ValueError):
                    continue
                notes[parts[1]] = parts[3].strip() if len(parts) > 3 else ""
            elif line.startswith("FAILED "):
                failed.append(line[len("FAILED "):].strip())
    return values, notes, failed


def main():
    v, notes, failed = load(sys.argv[1:])

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

    def fastest(label, key, typed_key, generic_key, target):
        """cgn against the faster of the raw setters measured with it (issue 12: the fastest raw
        driver path for the same change), naming which one that was."""
        raws = [(v[k], name) for k, name in ((typed_key, "typed"), (generic_key, "generic"))
                if k in v]
        if key not in v or not raws:
            return
        ref_ns, name = min(raws)
        ratio = v[key] / ref_ns
        ok = " ✔" if ratio <= target else " ✘ (target ≤%.2f)" % target
        print(f"| {label} / fastest raw setter ({name}) | {v[key]:,.0f} ns | {ratio:.2f}×{ok} |")

    def fact(label, key, unit=""):
        if key in v:
            print(f"| {label} | {v[key]:,.{0 if v[key] >= 100 else 2}f}{unit} | |")

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
    row("interleaved: raw typed setter, new scalar arg", "interleaved.args.raw_typed")
    row("interleaved: raw generic setter, new scalar arg", "interleaved.args.raw")
    fastest("interleaved: cgn new scalar arg", "interleaved.args.cgn",
            "interleaved.args.raw_typed", "interleaved.args.raw", 1.15)
    row("interleaved: cgn new scalar arg / raw generic (reference)", "interleaved.args.cgn",
        "interleaved.args.raw")
    row("interleaved: raw typed setter, new grid", "interleaved.grid.raw_typed")
    row("interleaved: raw generic setter, new grid", "interleaved.grid.raw")
    fastest("interleaved: cgn new grid", "interleaved.grid.cgn",
            "interleaved.grid.raw_typed", "interleaved.grid.raw", 1.15)
    row("interleaved: cgn new grid / raw generic (reference)", "interleaved.grid.cgn",
        "interleaved.grid.raw")
    row("cgn alone (stub driver call), scalar arg", "cgn_cpu.args")
    row("cgn alone (stub driver call), grid", "cgn_cpu.grid")
    row("cuda.core update(args=) scalar", "cuda_core.def_update_unchanged.args")
    row("cuda.core update(config=)", "cuda_core.def_update_unchanged.config")
    row("speed-up of cgn args over cuda.core", "def_update_unchanged.cgn_args",
        "cuda_core.def_update_unchanged.args", 10.0, invert=True)
    row("speed-up of cgn grid over cuda.core config", "def_update_unchanged.cgn_grid",
        "cuda_core.def_update_unchanged.config", 10.0, invert=True)
    print("| **definition update, owners changed** | | |")
    row("raw by hand (user object + set + release old)", "def_update_owners.raw_by_hand")
    row("cgn new buffer arg + owner / raw by hand", "def_update_owners.cgn_kernel_args",
        "def_update_owners.raw_by_hand", 1.5)
    row("cgn memset new dst + owner / raw by hand", "def_update_owners.cgn_memset_dst",
        "def_update_owners.raw_by_hand", 1.5)
    row("cuda.core update(args=) new Buffer", "cuda_core.def_update_owners.kernel_args")
    row("cuda.core memset update(dst=)", "cuda_core.def_update_owners.memset_dst")
    row("speed-up of cgn kernel args over cuda.core", "def_update_owners.cgn_kernel_args",
        "cuda_core.def_update_owners.kernel_args", 10.0, invert=True)
    row("speed-up of cgn memset dst over cuda.core", "def_update_owners.cgn_memset_dst",
        "cuda_core.def_update_owners.memset_dst", 10.0, invert=True)
    print("| **other node types, owners unchanged** | | |")
    for key, label in (("memcpy_size", "memcpy, new size"), ("host_fn", "host callback, new function"),
                       ("event_record", "event record, new event")):
        row(f"raw cuGraphNodeSetParams: {label}", f"other.{key}.raw")
        row(f"raw typed setter: {label}", f"other.{key}.raw_typed")
        fastest(f"cgn: {label}", f"other.{key}.cgn", f"other.{key}.raw_typed", f"other.{key}.raw",
                1.15)
        row(f"cgn: {label} / raw generic (reference)", f"other.{key}.cgn", f"other.{key}.raw")
        if key != "memcpy_size":
            row(f"cgn alone (stub setter; target ≤ 10 ns): {label}", f"other.{key}.cgn_cpu")
        if key == "memcpy_size":
            row("cgn: the same, graph's raw handle handed out (read back first) / raw generic",
                "other.memcpy_size.cgn_exposed", "other.memcpy_size.raw_exposed")
            row("raw cuGraphNodeSetParams: memcpy from pinned host memory, new size",
                "other.memcpy_pinned_size.raw")
            row("cgn: the same (extent checked once, then cached) / raw",
                "other.memcpy_pinned_size.cgn", "other.memcpy_pinned_size.raw")
    print("| **executable-level update, owners unchanged (partial), interleaved** | | |")
    row("raw cuGraphExecNodeSetParams, new scalar arg", "exec_update.raw")
    row("cgn_kernel_exec_update(args only) / raw", "exec_update.cgn", "exec_update.raw", 1.10)
    row("raw cuGraphExecNodeSetParams, new grid", "exec_update.grid.raw")
    row("cgn_kernel_exec_update(grid only) / raw", "exec_update.grid.cgn", "exec_update.grid.raw",
        1.10)
    row("cgn alone (stub driver call), exec scalar arg", "exec_cgn_cpu.args")
    row("cgn alone (stub driver call), exec grid", "exec_cgn_cpu.grid")
    row("cuda.core graph[node].update(config=, kernel=, args=)", "cuda_core.exec_update.kernel")
    row("speed-up of cgn over cuda.core", "exec_update.cgn", "cuda_core.exec_update.kernel", 10.0,
        invert=True)
    if "arg_update.cgn" in v or "arg_exec_update.cgn" in v:
        print("| **argument-level update: 1 pointer of a 6-argument (40-byte) kernel, "
              "interleaved** | | |")
    row("raw cuGraphKernelNodeSetParams, caller's kernelParams array", "arg_update.raw")
    row("raw cuGraphNodeSetParams, same array (reference)", "arg_update.raw_generic")
    fastest("cgn_kernel_node_update(set_arg)", "arg_update.cgn",
            "arg_update.raw", "arg_update.raw_generic", 1.15)
    row("cgn_kernel_node_update(set_arg) / raw cuGraphNodeSetParams", "arg_update.cgn",
        "arg_update.raw_generic")
    row("raw cuGraphExecKernelNodeSetParams, caller's kernelParams array", "arg_exec_update.raw")
    row("raw cuGraphExecNodeSetParams, same array (reference)", "arg_exec_update.raw_generic")
    row("cgn_kernel_exec_update(set_arg) / raw cuGraphExecKernelNodeSetParams",
        "arg_exec_update.cgn", "arg_exec_update.raw", 1.15)
    row("cgn_kernel_exec_update(set_arg) / raw cuGraphExecNodeSetParams", "arg_exec_update.cgn",
        "arg_exec_update.raw_generic")
    row("cgn alone (stub driver call), set_arg", "arg_cgn_cpu.def")
    row("cgn alone (stub driver call), exec set_arg", "arg_cgn_cpu.exec")
    row("the same, update reused (cgn_kernel_update_reset): raw typed setter",
        "arg_update_reused.raw")
    row("cgn_kernel_node_update(set_arg), update reused / raw", "arg_update_reused.cgn",
        "arg_update_reused.raw", 1.15)
    row("raw cuGraphExecKernelNodeSetParams (paired with the next row)",
        "arg_exec_update_reused.raw")
    row("cgn_kernel_exec_update(set_arg), update reused / raw", "arg_exec_update_reused.cgn",
        "arg_exec_update_reused.raw", 1.15)
    row("the one-call form (cgn_kernel_node_set_arg): raw typed setter", "arg_update_direct.raw")
    fastest("cgn_kernel_node_set_arg", "arg_update_direct.cgn", "arg_update_direct.raw",
            "arg_update_direct.raw_generic", 1.15)
    row("raw cuGraphExecKernelNodeSetParams (paired with the next row)",
        "arg_exec_update_direct.raw")
    row("cgn_kernel_exec_set_arg / raw", "arg_exec_update_direct.cgn", "arg_exec_update_direct.raw",
        1.15)
    row("cgn alone, cgn_kernel_node_set_arg", "arg_cgn_cpu.def_direct")
    row("cgn alone, cgn_kernel_exec_set_arg", "arg_cgn_cpu.exec_direct")
    row("cgn alone, set_arg with the update reused: definition", "arg_cgn_cpu.def_reused")
    row("cgn alone, set_arg with the update reused: executable", "arg_cgn_cpu.exec_reused")
    row("where the rest goes: raw typed setter, two kernelParams arrays in turn",
        "arg_probe.raw_two_arrays")
    row("cgn set_arg, the updates built once / that raw", "arg_probe.cgn_prebuilt",
        "arg_probe.raw_two_arrays")
    row("cgn set_args, all six replaced, built once / that raw", "arg_probe.cgn_whole6",
        "arg_probe.raw_two_arrays")
    if "arg_update.cgn" in v:
        print("| cuda.core 1.2.0: no per-argument update (update(args=) replaces every argument) "
              "| — | n/a |")
    if "insitu.raw_typed" in v:
        print("| **cgn's own time right after a driver call (definition, new scalar)** | | |")
    row("raw cuGraphKernelNodeSetParams", "insitu.raw_typed")
    row("cgn, real setter, interleaved / raw", "insitu.cgn_real", "insitu.raw_typed")
    row("cgn, setter stubbed, right after a raw call", "insitu.cgn_stub_after_raw")
    row("cgn, setter stubbed, tight loop", "insitu.cgn_stub_alone")
    for n in (6, 24):
        row(f"{n} dependent line loads after a raw call", f"insitu.chain{n}_after_raw")
        row(f"{n} dependent line loads, tight loop", f"insitu.chain{n}_alone")
        row(f"{n} independent line loads after a raw call", f"insitu.lines{n}_after_raw")
        row(f"{n} independent line loads, tight loop", f"insitu.lines{n}_alone")
    print("| **exec update + launch loop, host per iteration (sync every 64 not timed)** | | |")
    row("raw cuGraphExecNodeSetParams + cuGraphLaunch", "exec_loop.raw")
    row("cgn_kernel_exec_update(args) + cgn_exec_launch / raw", "exec_loop.cgn", "exec_loop.raw")
    row("cuda.core graph[node].update(...) + Graph.launch", "cuda_core.exec_loop.update_launch")
    row("speed-up of the cgn loop over cuda.core", "exec_loop.cgn",
        "cuda_core.exec_loop.update_launch", invert=True)
    row("cuda.core loop, first measured batch", "cuda_core.exec_loop.update_launch_first_batch")
    row("cuda.core loop, last measured batch", "cuda_core.exec_loop.update_launch_last_batch")
    row("raw loop incl. syncs (wall)", "exec_loop.raw_wall")
    row("cgn loop incl. syncs (wall) / raw", "exec_loop.cgn_wall", "exec_loop.raw_wall")
    print("| **retention cost per launch (launch call timed alone)** | | |")
    row("raw cuGraphLaunch", "retention.raw")
    row("cgn_exec_launch, nothing waiting / raw", "retention.cgn_idle", "retention.raw")
    row("cgn_exec_launch, a superseded version waiting / raw", "retention.cgn_waiting",
        "retention.raw")
    if "retention.cgn_waiting" in v and "retention.cgn_idle" in v:
        print(f"| retention cost (waiting − nothing waiting) | "
              f"{v['retention.cgn_waiting'] - v['retention.cgn_idle']:,.0f} ns | |")
    fact("fences recorded per 1,000 launches (waiting)", "retention.events_per_1000_launches")
    fact("cuEventQuery per update + launch (waiting)", "retention.queries_per_launch")
    fact("superseded owners alive at most", "retention.live_owners_max")
    print("| **per-update cost against graph size (middle node)** | | |")
    for n in (1, 100, 10000, 100000):
        row(f"raw, {n:,} nodes", f"graph_size.{n}.raw")
        row(f"cgn, {n:,} nodes / cgn at 1 node", f"graph_size.{n}.cgn", "graph_size.1.cgn", 1.1)
    print("| **instantiate** | | |")
    for n in (100, 10000):
        row(f"raw cuGraphInstantiate, {n:,} nodes", f"instantiate.{n}.raw")
        row(f"cgn_graph_instantiate, {n:,} nodes / raw", f"instantiate.{n}.cgn", f"instantiate.{n}.raw", 1.05)
    if any(k.startswith("adopt.") for k in v):
        print("| **adopting a graph built elsewhere (kernels, 1% memset, 1% memcpy; "
              "4 chains)** | | |")
    for n in (100, 1000, 10000):
        row(f"raw enumeration (nodes, edges, type + typed getter each), {n:,} nodes",
            f"adopt.{n}.raw")
        row(f"cgn_graph_adopt, {n:,} nodes / raw", f"adopt.{n}.cgn", f"adopt.{n}.raw",
            1.2 if n == 10000 else None)
        row(f"cgn_graph_destroy (borrowed graph), {n:,} nodes", f"adopt.{n}.destroy")
    if any(k.startswith("adopt.") for k in v):
        print("| cuda.core 1.2.0: no adoption of a graph it did not build | — | n/a |")
    print()
    for key in sorted(k for k in v if k.startswith("memory.")):
        print(f"- {key}: {v[key]:,.0f}")
    exec_memory(v, notes)
    if failed:
        print()
        for what in failed:
            print(f"- CHECK FAILED: {what}")


def exec_memory(v, notes):
    """The exec-level memory run: one line per figure, with what issue 7 asks of it."""
    if "exec_memory.cycles" not in v:
        return
    g = lambda key: v.get(f"exec_memory.{key}")
    mark = lambda ok: "✔" if ok else "✘"
    print()
    print(f"**exec update + launch cycles, a fresh owner with its own buffer each**: "
          f"{g('cycles'):,.0f} cycles ({notes.get('exec_memory.cycles', '')}), "
          f"{g('ns_per_cycle'):,.0f} ns per cycle")
    print(f"- live owners: at most {g('live_owners_max'):,.0f} over the run, "
          f"{g('live_owners_end'):,.0f} at the end {mark(g('live_owners_max') <= 256)} "
          f"(target: a small constant)")
    print(f"- host RSS: {g('rss_kib_start'):,.0f} KiB at start, {g('rss_kib_warm'):,.0f} after "
          f"warm-up, {g('rss_kib_end'):,.0f} at the end "
          f"({g('rss_kib_end') - g('rss_kib_warm'):+,.0f} KiB after warm-up)")
    if g("device_free_kib_start") is not None:
        print(f"- device free: {g('device_free_kib_start'):,.0f} KiB at start, "
              f"{g('device_free_kib_warm'):,.0f} after warm-up, {g('device_free_kib_end'):,.0f} "
              f"at the end ({g('device_free_kib_end') - g('device_free_kib_warm'):+,.0f} KiB "
              f"after warm-up)")
    created, released = g("owners_created"), g("owners_released")
    print(f"- owners released after exec destroy + cgn_collect: {released:,.0f} of "
          f"{created:,.0f}, not exactly once: {g('not_released_exactly_once'):,.0f} "
          f"{mark(created == released and g('not_released_exactly_once') == 0)}")
    off = g("released_off_main_thread")
    print(f"- releases off the main thread: {off:,.0f} {mark(off == 0)}")


if __name__ == "__main__":
    main()
