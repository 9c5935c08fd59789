#!/usr/bin/env python3
"""The reference: cuda.core's node updates, measured like bench_updates.c (median of 31 batches
of 2000 calls after a warm-up batch, host ns per call): definition-level updates, the
executable-level update, and the executable update + launch loop (a stream sync every 64
iterations, outside the timed region, as bench_updates' exec_loop does).
Usage: bench_cuda_core.py KERNELS.fatbin [--quick]   -- prints "RESULT <key> <ns> <note>" lines."""
import statistics
import sys
import time

import numpy as np
from cuda.core import Device, LaunchConfig, ObjectCode
from cuda.core.graph import GraphDefinition

REPS, BATCH = 31, 2000
SYNC_EVERY = 64
# cuda.core keeps every owner an executable-level update appends until the executable goes, so
# its exec-level calls may slow down as they accumulate: those measurements stop after this long.
EXEC_CAP_S = 30


def measure(call):
    for i in range(BATCH):
        call(i)
    samples = []
    for _ in range(REPS):
        t0 = time.perf_counter_ns()
        for i in range(BATCH):
            call(i)
        samples.append((time.perf_counter_ns() - t0) / BATCH)
    return statistics.median(samples)


def measure_windows(call, sync, cap_s=EXEC_CAP_S):
    """Batches in windows of SYNC_EVERY calls, sync() after each window and outside the timed
    part. Returns (median, first batch, last batch, batches) in ns per call; stops early after
    cap_s seconds (the median is then over the batches done)."""
    def batch():
        timed = 0
        for i in range(0, BATCH, SYNC_EVERY):
            t0 = time.perf_counter_ns()
            for j in range(i, min(i + SYNC_EVERY, BATCH)):
                call(j)
            timed += time.perf_counter_ns() - t0
            sync()
        return timed / BATCH

    start = time.monotonic()
    batch()
    samples = []
    while len(samples) < REPS and (not samples or time.monotonic() - start < cap_s):
        samples.append(batch())
    return statistics.median(samples), samples[0], samples[-1], len(samples)


def result(key, ns, note):
    print(f"RESULT cuda_core.{key} {ns:.1f} {note}", flush=True)


def main():
    global REPS, BATCH
    if "--quick" in sys.argv:
        REPS, BATCH = 3, 200
    import cuda.core
    dev = Device(0)
    dev.set_current()
    kernel = ObjectCode.from_fatbin(sys.argv[1]).get_kernel("fill_u32")
    stream = dev.create_stream()
    a, b = dev.allocate(16, stream=stream), dev.allocate(16, stream=stream)
    stream.sync()
    print(f"cuda.core {cuda.core.__version__} on {dev.name}")

    graph = GraphDefinition()
    configs = (LaunchConfig(grid=1, block=32), LaunchConfig(grid=2, block=32))
    node = graph.launch(configs[0], kernel, a, np.uint32(7))
    scalar_args = ((a, np.uint32(7)), (a, np.uint32(9)))
    result("def_update_unchanged.args",
           measure(lambda i: node.update(args=scalar_args[i & 1])), "KernelNode.update(args=) scalar")
    result("def_update_unchanged.config",
           measure(lambda i: node.update(config=configs[i & 1])), "KernelNode.update(config=)")
    buffer_args = ((a, np.uint32(7)), (b, np.uint32(7)))
    result("def_update_owners.kernel_args",
           measure(lambda i: node.update(args=buffer_args[i & 1])), "KernelNode.update(args=) new Buffer")
    try:
        # Executable level: cuda.core takes a complete replacement (config, kernel and args are
        # all required), so the new scalar argument comes with the unchanged config and kernel.
        executable = graph.instantiate()
        view = executable[node]
        result("exec_update.kernel",
               measure_windows(lambda i: view.update(config=configs[0], kernel=kernel,
                                                     args=scalar_args[i & 1]),
                               lambda: None)[0],
               "graph[node].update(config=, kernel=, args=) new scalar")
        executable.close()

        # The update + launch loop, on an executable of its own.
        executable = graph.instantiate()
        view = executable[node]

        def step(i):
            view.update(config=configs[0], kernel=kernel, args=scalar_args[i & 1])
            executable.launch(stream)

        median, first, last, batches = measure_windows(step, stream.sync)
        stream.sync()
        result("exec_loop.update_launch", median,
               "graph[node].update(config=, kernel=, args=) + Graph.launch, syncs excluded")
        result("exec_loop.update_launch_first_batch", first, "first measured batch")
        result("exec_loop.update_launch_last_batch", last,
               f"last measured batch ({batches} batches)")
        executable.close()
    except Exception as exc:  # report, do not hide: the table then lacks these rows
        print(f"cuda.core executable update not measured: {exc!r}", flush=True)
    fill = graph.memset(a, 1, 4)
    buffers = (a, b)
    result("def_update_owners.memset_dst",
           measure(lambda i: fill.update(dst=buffers[(i + 1) & 1])), "MemsetNode.update(dst=Buffer)")


if __name__ == "__main__":
    main()
