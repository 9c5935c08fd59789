#!/usr/bin/env python3
"""The reference: cuda.core's definition-level node updates, measured like bench_updates.c
(median of 31 batches of 2000 calls after a warm-up batch, host ns per call).
Usage: bench_cuda_core.py KERNELS.fatbin   -- prints "RESULT <key> <ns> <note>" lines."""
import statistics
import sys
import time

import numpy as np
from cuda.core import Device, LaunchConfig, ObjectCode
from cuda.core.graph import GraphDefinition

REPS, BATCH = 31, 2000


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


def result(key, ns, note):
    print(f"RESULT cuda_core.{key} {ns:.1f} {note}", flush=True)


def main():
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
        executable = graph.instantiate()
        view = executable[node]
        full = ((configs[0], (a, np.uint32(7))), (configs[0], (a, np.uint32(9))))
        result("exec_update.kernel",
               measure(lambda i: view.update(config=full[i & 1][0], kernel=kernel,
                                             args=full[i & 1][1])),
               "graph[node].update(config=, kernel=, args=)")
    except Exception as exc:  # report, do not hide: the table then lacks this row
        print(f"cuda.core executable update not measured: {exc!r}", flush=True)
    fill = graph.memset(a, 1, 4)
    buffers = (a, b)
    result("def_update_owners.memset_dst",
           measure(lambda i: fill.update(dst=buffers[(i + 1) & 1])), "MemsetNode.update(dst=Buffer)")


if __name__ == "__main__":
    main()
