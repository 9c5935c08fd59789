/* A fake CUDA driver for cgn's unit tests: a cgn_driver_table whose entries model the parts of
 * the driver cgn uses, on the host, with no GPU.
 *
 * What it models:
 * - graphs, nodes (empty, kernel, memset, memcpy, host, child graph, event record/wait, batch
 *   memory operations: their array copied, run in order on the host, writes storing their
 *   values and a wait that does not hold counted by cgn_fake_unsatisfied_waits), edges,
 *   clones, per-node parameter updates in graphs and executables, with the driver's validation
 *   of the fields cgn sets; the getters (cuGraphGetNodes, cuGraphGetEdges, cuGraphNodeGetType,
 *   dependencies and dependents, kernel/memset/memcpy/host params, event record/wait events),
 *   with the driver's count-then-fill convention; kernel params come back pointing at the
 *   node's own argument copies, as the driver's do, and in the form they were given: an
 *   argument array (kernelParams), or one buffer packed at the kernel's parameter offsets
 *   (`extra`: CU_LAUNCH_PARAM_BUFFER_POINTER and CU_LAUNCH_PARAM_BUFFER_SIZE);
 * - graphs "built elsewhere": the generic cuGraphAddNode also adds memory allocation nodes
 *   (a fresh address in alloc.dptr, never dereferenced) and memory free nodes, whose
 *   parameters cannot be set (CUDA_ERROR_NOT_SUPPORTED, as documented); cuKernelGetFunction
 *   gives a CUkernel's CUfunction in the current context;
 * - executables as deep snapshots of the graph they were instantiated from, launched on the
 *   host in insertion order (a topological order: a node can only depend on nodes added
 *   before it). CUdeviceptr values are host addresses; kernels are host functions registered
 *   with cgn_fake_register_kernel;
 * - the driver's executable-update rules, enforced by cuGraphExecNodeSetParams (refused with
 *   CUDA_ERROR_INVALID_VALUE) and cuGraphExecUpdate: a kernel node's context (its CUfunction's
 *   owner) is fixed; a 1-D memset (height 1) stays 1-D, a 2-D memset may change only dst and
 *   value; a memcpy keeps its src and dst CUmemorytype; a batch memory operation node keeps
 *   its context, count, operation types, write flags, the flush bit of its waits and its
 *   barriers (cuGraphExecBatchMemOpNodeSetParams); a child graph may only be replaced by a
 *   topologically identical one (node i pairs with node i, same types, same dependencies by
 *   index, embedded graphs alike, each pair passing these rules);
 * - cuGraphExecUpdate: the same pairing for the whole graph. Failure returns
 *   CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE with resultInfo: TOPOLOGY_CHANGED (errorNode NULL when
 *   the top-level counts differ, the child graph node when an embedded graph's counts differ,
 *   else the graph's node, with errorFromNode the mismatched dependency when one is),
 *   NODE_TYPE_CHANGED, UNSUPPORTED_FUNCTION_CHANGE (kernel context) or PARAMETERS_CHANGED
 *   (memset, memcpy), errorNode the graph's node; nothing changes. Success copies every
 *   node's parameters; the executable keeps pairing with the nodes of the graph it was
 *   instantiated from, and keeps each node's enabled state. User-object references: see
 *   cgn_fake_set_exec_update_refs;
 * - cuGraphNodeSetEnabled/GetEnabled on kernel, memset and memcpy nodes of an executable; a
 *   disabled node does nothing at launch;
 * - launches that complete at once, or, with cgn_fake_hold_completion, stay in flight (their
 *   effects still happen at launch) until cgn_fake_complete_*; events through the driver
 *   (create, record, query, destroy) that are pending behind launches in flight; an
 *   executable destroyed in flight lives until its launches complete, and references it gives
 *   up in flight (cuGraphExecUpdate, child graph replacement) are dropped only then;
 * - pointer memory types: marked ranges (device, pinned host, managed); anything else is
 *   unknown to the fake, as pageable memory is to the driver;
 * - user objects with CUDA's reference rules (clones, child embeddings and executables copy a
 *   graph's references); a destructor runs once, when the last reference goes;
 * - a driver version: entries newer than it are NULL in the table, as an old driver lacks them;
 * - four fake contexts and a context stack per thread, as in CUDA; kernels owned by contexts
 *   (cgn_fake_function_in_context);
 * - calls that crash the real driver: refused with CUDA_ERROR_UNKNOWN and counted
 *   (cgn_fake_crash_prone_calls).
 *
 * Handles are checked against a registry of live objects: unknown or destroyed handles give
 * CUDA_ERROR_INVALID_VALUE (kernels: CUDA_ERROR_INVALID_HANDLE) rather than a crash.
 *
 * Threads: every table entry and every cgn_fake_* function holds one global recursive mutex,
 * so the fake is a serialized, race-free model. User-object destructors, host nodes and fake
 * kernels run with it held; they may call back into the fake from their own thread.
 *
 * Not modelled: streams beyond ordering events (launches complete in one global FIFO order),
 * event waits (wait nodes never block), timing, arrays, moved child graphs, device-side
 * updates, stream capture (tests build "captured" graphs through the table). All state lives
 * in one static struct; cgn_fake_reset() frees it. */
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
 * static object, updated by each call (only entries that change are written, so threads may
 * read it meanwhile): call again after cgn_fake_set_version(). */
const cgn_driver_table *cgn_fake_table(void);

/* Frees every graph, node, executable (in flight or not), launch in flight, user object
 * (without running pending destructors), kernel, event and marked device range; version back
 * to 13000, completion hold off, exec-update reference mode 0, crash-prone count 0, thread
 * start context NULL; the calling thread's context stack holds context 0, every other thread's
 * starts again as a new thread's. Handles from before the reset are invalid afterwards. */
void cgn_fake_reset(void);

/* Sets the version cuDriverGetVersion reports (1000*major + 10*minor, e.g. 12010). */
void cgn_fake_set_version(int version);

/* Live graphs (including those embedded in child graph nodes and executables' snapshots),
 * executables (including ones destroyed while in flight, until their launches complete) and
 * user objects: zero once a test has released everything. Events are counted apart. */
size_t cgn_fake_live_objects(void);
/* Conditional handles (cuGraphConditionalHandleCreate, freed at reset only): sets a handle's
 * value, as cudaGraphSetConditional does from a kernel (a test kernel's run function calls it);
 * an unknown handle is ignored. Each launch first gives every handle of the executable created
 * with CU_GRAPH_COND_ASSIGN_DEFAULT its default; an IF body runs when the value is non-zero, a
 * WHILE body while it is (at most 4096 rounds: cgn_fake_runaway_loops counts the loops cut
 * short). cgn_fake_conditional_handles counts the handles created since the reset. */
void cgn_fake_set_conditional(CUgraphConditionalHandle handle, unsigned int value);
size_t cgn_fake_conditional_handles(void);
size_t cgn_fake_runaway_loops(void);
/* Live events (from cuEventCreate or cgn_fake_event_create, not yet destroyed). */
size_t cgn_fake_live_events(void);

/* ---- contexts ----------------------------------------------------------------------------- */

/* Fake context i (0..3); NULL for any other i. */
CUcontext cgn_fake_context(int i);
/* On the calling thread: replaces the top of the context stack, like cuCtxSetCurrent (pushes
 * onto an empty stack); NULL empties the stack, leaving none current. */
void cgn_fake_set_current_context(CUcontext ctx);
/* The context current in a thread when it first calls into the fake (after each reset): NULL
 * (none, as in CUDA) unless set here. The thread calling cgn_fake_reset() gets context 0. */
void cgn_fake_set_thread_start_context(CUcontext ctx);
/* The context a node runs in: kernel: its CUfunction's owner, or for a CUkernel the ctx it
 * was given or the current one for a NULL ctx; memset: ctx; memcpy: copyCtx; other types: the
 * current one when added or last set. NULL for an unknown node. */
CUcontext cgn_fake_node_context(CUgraphNode node);

/* ---- kernels, events, memory -------------------------------------------------------------- */

/* A fake kernel body: args[i] points at the node's stored copy of argument i; launch carries
 * func/kern, grid, block and sharedMemBytes of the node as launched, and ctx the context it
 * runs in. */
typedef void (*cgn_fake_kernel_fn)(void **args, const CUDA_KERNEL_NODE_PARAMS_v2 *launch,
                                   void *user);

/* Registers a kernel taking num_params arguments of param_sizes[i] bytes each; `run` (may be
 * NULL: the kernel does nothing) is called at launch with `user`. Offsets reported by
 * cu{Func,Kernel}GetParamInfo are packed, each aligned to the largest power of two that divides
 * its size, at most 8. Returns the kernel's CUfunction in fake context 0; NULL on bad
 * arguments or out of memory. */
CUfunction cgn_fake_register_kernel(const char *name, size_t num_params, const size_t *param_sizes,
                                    cgn_fake_kernel_fn run, void *user);
/* The same kernel's CUfunction in context ctx, like cuKernelGetFunction with ctx current: a
 * handle distinct from those of other contexts (the same one for the same context, so
 * context 0 gives back the registered function). NULL for an unknown function or context. */
CUfunction cgn_fake_function_in_context(CUfunction f, CUcontext ctx);
/* The context owning a CUfunction; NULL for an unknown one. */
CUcontext cgn_fake_function_context(CUfunction f);
/* The CUkernel handle of the same kernel; NULL for an unknown function. */
CUkernel cgn_fake_kernel_of(CUfunction function);

/* A new event handle, as cuEventCreate(&e, 0); NULL when out of memory. cuEventDestroy or
 * cgn_fake_reset() frees it. */
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

/* CUDA arrays of bytes (what cuArray3DCreate makes with CU_AD_FORMAT_UNSIGNED_INT8, one
 * channel): `width` bytes a row, `height` rows a slice, `depth` slices, zeroed. Copies accept an
 * array operand (CU_MEMORYTYPE_ARRAY) while it lives and the copy stays inside it; NULL for a
 * zero or too large extent. cgn_fake_reset() frees those left. */
CUarray cgn_fake_array_create(size_t width, size_t height, size_t depth);
/* 1, or 0 for a handle that is not a live array. */
int cgn_fake_array_destroy(CUarray array);
/* The array's bytes (row by row, slice by slice) and their count; NULL if not an array. */
unsigned char *cgn_fake_array_data(CUarray array, size_t *size);

/* External semaphores (what cuImportExternalSemaphore makes; the H200 has no API to import one
 * from): timeline semaphores whose value is the fence value of the latest signal node run on
 * them; wait nodes never block and are counted. Nodes accept live semaphores only
 * (CUDA_ERROR_INVALID_HANDLE otherwise). cgn_fake_reset() frees those left. */
CUexternalSemaphore cgn_fake_ext_sem_create(void);
/* 1, or 0 for a handle that is not a live semaphore. */
int cgn_fake_ext_sem_destroy(CUexternalSemaphore sem);
/* Signal and wait nodes run on it so far, and its value; 0 if not a live semaphore. */
int cgn_fake_ext_sem_state(CUexternalSemaphore sem, size_t *signals, size_t *waits,
                           uint64_t *value);

/* A CUgraphNodeType no driver has (a type from a newer CUDA, for CGN_NODE_OTHER tests):
 * cuGraphAddNode accepts it with no parameters, a launch does nothing, and no typed getter
 * reads it. */
#define CGN_FAKE_FOREIGN_NODE_TYPE ((CUgraphNodeType)0x7f)

/* ---- completion ----------------------------------------------------------------------------- */

/* While on, each cuGraphLaunch still runs its nodes at once (with the parameters of that
 * moment) but stays in flight until completed below. Off (the default), a launch completes
 * before returning, unless earlier launches are still in flight: it cannot overtake them, so
 * it joins them. Turning hold off completes nothing by itself.
 * An event recorded (cuEventRecord) on a stream is pending until every launch in flight that
 * was enqueued before it on that stream (any stream, when either is the NULL/legacy stream)
 * has completed; an event record node's event until its launch completes. cuEventQuery
 * returns CUDA_ERROR_NOT_READY for a pending event, CUDA_SUCCESS otherwise (never recorded
 * included). Completing a launch drops the user-object references it held: those of an
 * executable destroyed in flight (which is freed then), and those its executable gave up
 * meanwhile. */
void cgn_fake_hold_completion(int on);
/* Completes every launch in flight, in launch order; returns how many. Destructors run here. */
size_t cgn_fake_complete_pending(void);
/* Completes at most `max` launches, oldest first; returns how many. */
size_t cgn_fake_complete_launches(size_t max);
/* Launches of an executable in flight (an executable destroyed in flight included, until they
 * complete); with NULL, all launches in flight; 0 for an unknown executable. */
size_t cgn_fake_in_flight(CUgraphExec exec);

/* ---- executable updates, crash-prone calls -------------------------------------------------- */

/* What cuGraphExecUpdate does with the user-object references the executable holds (its
 * snapshot's and its embedded graphs'): the old ones are dropped in both modes (after the
 * executable's launches in flight complete); mode COPY (0, the default) then takes copies of
 * the new graph's references (and its embedded graphs'), mode DROP (1) takes none, as the real
 * driver may (an H200 was seen dropping the old ones; whether it takes new ones is not known).
 * cuGraphExecNodeSetParams replacing a child graph always drops the old embedded graph's
 * references and copies the new one's. Other values mean 0. */
enum { CGN_FAKE_EXEC_UPDATE_REFS_COPY = 0, CGN_FAKE_EXEC_UPDATE_REFS_DROP = 1 };
void cgn_fake_set_exec_update_refs(int mode);

/* Calls the real driver crashes on (segfaults) instead of failing, made since the last reset;
 * the fake refuses each with CUDA_ERROR_UNKNOWN and changes nothing. cgn's tests assert it
 * stays 0. Today: a kernel node's params (cuGraphExecNodeSetParams, cuGraphNodeSetParams,
 * cuGraphAdd{Kernel,}Node) given a CUfunction owned by another context than the node's (for an
 * add: the ctx field, when set) while no context is current on the calling thread. */
size_t cgn_fake_crash_prone_calls(void);
/* Batch memory operation waits that did not hold when their node ran (a GPU would block
 * there forever; the fake goes on), since the last reset. */
size_t cgn_fake_unsatisfied_waits(void);

/* ---- inspection ----------------------------------------------------------------------------- */

/* Copies a node's current definition parameters into *out and returns 1; 0 for an unknown
 * node. Kernel nodes: kernelParams points at the fake's own argument copies, extra is NULL.
 * Child graph nodes: graph.graph is the embedded graph. */
int cgn_fake_node_params(CUgraphNode node, CUgraphNodeParams *out);
/* The same for the executable's snapshot of a (live) node of the graph it was instantiated
 * from; 0 when either is unknown. */
int cgn_fake_exec_node_params(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams *out);
/* Event wait nodes waiting for `event` in the executable's snapshot, embedded child graphs
 * included; 0 for an unknown executable. (The fake does not model waiting itself, so tests
 * observe which event an executable waits for this way.) */
size_t cgn_fake_exec_event_waits(CUgraphExec exec, CUevent event);
/* Nodes of the graph itself (not of embedded child graphs); 0 for an unknown graph. */
size_t cgn_fake_graph_node_count(CUgraph graph);
/* cuGraphLaunch calls of an executable, completed or in flight; 0 for an unknown one. */
size_t cgn_fake_exec_launches(CUgraphExec exec);

/* ---- user objects --------------------------------------------------------------------------- */

/* Total references (the callers' plus those held by graphs, executables and launches in
 * flight); 0 once destroyed or for an unknown object. */
int cgn_fake_user_object_refs(CUuserObject object);
/* References the graph itself holds (not its embedded child graphs); 0 when unknown. */
size_t cgn_fake_graph_user_object_refs(CUgraph graph, CUuserObject object);
/* References the executable holds, through its snapshot and the snapshot's child graphs. */
size_t cgn_fake_exec_user_object_refs(CUgraphExec exec, CUuserObject object);
/* References held only for launches in flight: given up by their executable meanwhile, or
 * held by an executable destroyed in flight. */
size_t cgn_fake_in_flight_user_object_refs(CUuserObject object);
/* 1 while a user object destructor is running (the "CUDA thread"), 0 otherwise. */
int cgn_fake_in_driver_callback(void);

#ifdef __cplusplus
}
#endif

#endif /* CGN_TESTS_FAKE_DRIVER_H */
