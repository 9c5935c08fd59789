/* A fake CUDA driver for cgn's unit tests: a cgn_driver_table whose entries model the parts of
 * the driver cgn uses, on the host, with no GPU.
 *
 * What it models:
 * - graphs, nodes (empty, kernel, memset, memcpy, host, child graph, event record/wait), edges,
 *   clones, per-node parameter updates in graphs and executables, with the driver's validation
 *   of the fields cgn sets, and the memcpy node getter;
 * - pointer memory types: marked ranges (device, pinned host, managed); anything else is
 *   unknown to the fake, as pageable memory is to the driver;
 * - executables as deep snapshots, launched synchronously on the host in insertion order (a
 *   topological order: a node can only depend on nodes added before it). CUdeviceptr values are
 *   host addresses; kernels are host functions registered with cgn_fake_register_kernel;
 * - user objects with CUDA's reference rules (clones, child embeddings and executables copy a
 *   graph's references); a destructor runs once, when the last reference goes;
 * - a driver version: entries newer than it are NULL in the table, as an old driver lacks them;
 * - a context stack over four fake contexts.
 *
 * Handles are checked against a registry of live objects: unknown or destroyed handles give
 * CUDA_ERROR_INVALID_VALUE (kernels: CUDA_ERROR_INVALID_HANDLE) rather than a crash.
 * Single-threaded. All state lives in one static struct; cgn_fake_reset() frees it. */
#ifndef CGN_TESTS_FAKE_DRIVER_H
#define CGN_TESTS_FAKE_DRIVER_H

#include <stddef.h>

#include <cuda.h>

#include "driver.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- table, version, reset ---------------------------------------------------------------- */

/* The fake table for the current fake version: every entry of CGN_DRIVER_ENTRIES whose ABI
 * version is at most that version points at the fake, newer ones are NULL. The table is one
 * static object, rewritten by each call: call again after cgn_fake_set_version(). */
const cgn_driver_table *cgn_fake_table(void);

/* Frees every graph, node, executable, user object (without running pending destructors),
 * kernel, event and marked device range; version back to 13000, context stack emptied and
 * context 0 current. Handles from before the reset are invalid afterwards. */
void cgn_fake_reset(void);

/* Sets the version cuDriverGetVersion reports (1000*major + 10*minor, e.g. 12010). */
void cgn_fake_set_version(int version);

/* Live graphs (including those embedded in child graph nodes and executables' snapshots),
 * executables and user objects: zero once a test has released everything. */
size_t cgn_fake_live_objects(void);

/* ---- contexts ----------------------------------------------------------------------------- */

/* Fake context i (0..3); NULL for any other i. */
CUcontext cgn_fake_context(int i);
/* Replaces the top of the context stack, like cuCtxSetCurrent; NULL leaves none current. */
void cgn_fake_set_current_context(CUcontext ctx);
/* The context a node was added with or last set with (kernel: ctx, or the current one for
 * a NULL ctx or a CUfunction; memset: ctx; memcpy: copyCtx; other types: the current one).
 * NULL for an unknown node. */
CUcontext cgn_fake_node_context(CUgraphNode node);

/* ---- kernels, events, memory -------------------------------------------------------------- */

/* A fake kernel body: args[i] points at the node's stored copy of argument i; launch carries
 * func/kern, grid, block and sharedMemBytes of the node as launched. */
typedef void (*cgn_fake_kernel_fn)(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch,
                                   void *user);

/* Registers a kernel taking num_params arguments of param_sizes[i] bytes each; `run` (may be
 * NULL: the kernel does nothing) is called at launch with `user`. Offsets reported by
 * cu{Func,Kernel}GetParamInfo are packed, each aligned to the largest power of two that divides
 * its size, at most 8. Returns NULL on bad arguments or out of memory. */
CUfunction cgn_fake_register_kernel(const char *name, size_t num_params, const size_t *param_sizes,
                                    cgn_fake_kernel_fn run, void *user);
/* The CUkernel handle of the same kernel; NULL for an unknown function. */
CUkernel cgn_fake_kernel_of(CUfunction function);

/* A new event handle; NULL when out of memory. Freed by cgn_fake_reset(). */
CUevent cgn_fake_event_create(void);
/* Times an event record node recorded the event; -1 for an unknown event. */
int cgn_fake_event_record_count(CUevent event);

/* Makes cuPointerGetAttribute(CU_POINTER_ATTRIBUTE_MEMORY_TYPE) report `type` for addresses in
 * [p, p + size) (size 0 counts as 1; the latest mark of an address wins). Addresses never
 * marked are unknown to the fake, as pageable host memory is to the driver: the query fails
 * with CUDA_ERROR_INVALID_VALUE. Pinned host memory is marked CU_MEMORYTYPE_HOST, managed
 * memory CU_MEMORYTYPE_UNIFIED (or DEVICE). The marks only change what the query reports. */
void cgn_fake_mark_memory(void *p, size_t size, CUmemorytype type);
/* cgn_fake_mark_memory(p, size, CU_MEMORYTYPE_DEVICE). */
void cgn_fake_mark_device_memory(void *p, size_t size);

/* ---- inspection ----------------------------------------------------------------------------- */

/* Copies a node's current definition parameters into *out and returns 1; 0 for an unknown
 * node. Kernel nodes: kernelParams points at the fake's own argument copies, extra is NULL.
 * Child graph nodes: graph.graph is the embedded graph. */
int cgn_fake_node_params(CUgraphNode node, CUgraphNodeParams *out);
/* The same for the executable's snapshot of a (live) node of the graph it was instantiated
 * from; 0 when either is unknown. */
int cgn_fake_exec_node_params(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams *out);
/* Event wait nodes waiting for `event` in the executable's snapshot, embedded child graphs
 * included; 0 for an unknown executable. (The fake does not model waiting itself: launches run
 * to completion at once, so tests observe which event an executable waits for this way.) */
size_t cgn_fake_exec_event_waits(CUgraphExec exec, CUevent event);
/* Nodes of the graph itself (not of embedded child graphs); 0 for an unknown graph. */
size_t cgn_fake_graph_node_count(CUgraph graph);
/* Completed cuGraphLaunch calls of an executable; 0 for an unknown one. */
size_t cgn_fake_exec_launches(CUgraphExec exec);

/* ---- user objects --------------------------------------------------------------------------- */

/* Total references (the callers' plus those held by graphs and executables); 0 once destroyed
 * or for an unknown object. */
int cgn_fake_user_object_refs(CUuserObject object);
/* References the graph itself holds (not its embedded child graphs); 0 when unknown. */
size_t cgn_fake_graph_user_object_refs(CUgraph graph, CUuserObject object);
/* References the executable holds, through its snapshot and the snapshot's child graphs. */
size_t cgn_fake_exec_user_object_refs(CUgraphExec exec, CUuserObject object);
/* 1 while a user object destructor is running (the "CUDA thread"), 0 otherwise. */
int cgn_fake_in_driver_callback(void);

#ifdef __cplusplus
}
#endif

#endif /* CGN_TESTS_FAKE_DRIVER_H */
